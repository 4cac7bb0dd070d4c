"""A record as an editor recognises it in a list: "Abbey Gate (KBL)", "QR8010 → Doha, 24 Aug".

Each kind says how (its spec's ``title`` and ``title_reads``, ``actions/content/kinds.py``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import joinedload, load_only, raiseload

from actions.content.records import SPECS, spec_of
from kernel.lang.codes import LANGUAGES


def title(row: Any, language: str) -> str:
    """Plain text (templates escape it); content texts in the interface language if present."""
    spec = spec_of(row)
    return spec.title(row, language) if spec is not None else str(row)


def _columns(model: type[Any], names: tuple[str, ...]) -> list[Any]:
    found = []
    for name in names:
        if hasattr(model, name):
            found.append(getattr(model, name))
        else:
            found += [getattr(model, f"{name}_{lang}") for lang in LANGUAGES]
    return found


def shown_with(model: type[Any], *also: str) -> list[Any]:
    """Loader options for records listed by title: only the columns the title and the key read
    (and ``also``), the record they name joined in the same query, nothing else. Whatever
    else a page would read raises instead of quietly costing a query per row."""
    spec = next(spec for spec in SPECS.values() if spec.model is model)
    reads = spec.title_reads
    options = [load_only(*_columns(model, (*reads.own, *also)), raiseload=True)]
    if reads.through is not None:
        through = getattr(model, reads.through)
        named = through.property.mapper.class_
        options.append(joinedload(through).load_only(*_columns(named, reads.its), raiseload=True))
    return [*options, raiseload("*")]
