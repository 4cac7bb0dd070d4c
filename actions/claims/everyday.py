"""The everyday questions the assistant is trained on (data/nlu, every intent but check_claim).

A message is only about a rumour if it comes closer to a checked claim than to these: "is
Abbey Gate open?" shares "Abbey Gate" with the rumour of names read out there, but it is the
gate question people ask every day (``matching.ClaimIndex``, ``everyday``).
"""

import re
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import Final

import yaml

NLU_DATA: Final = Path(__file__).resolve().parents[2] / "data" / "nlu"
#: "[kabul](destination)" and '[qatar]{"entity": ...}' → the annotated words themselves.
_ANNOTATION: Final = re.compile(r"\[([^\]]*)\](?:\([^)]*\)|\{[^}]*\})")


def everyday_questions(
    data_dir: Path = NLU_DATA, leaving_out: Collection[str] = ("check_claim",)
) -> Iterator[str]:
    """Every training example under ``data_dir`` whose intent is not one ``leaving_out``."""
    for path in sorted(data_dir.glob("*/*.yml")):
        for block in yaml.safe_load(path.read_text(encoding="utf-8")).get("nlu") or []:
            if block.get("intent") in (None, *leaving_out):
                continue
            for line in str(block.get("examples") or "").splitlines():
                line = line.strip()
                if line.startswith("- "):
                    yield _ANNOTATION.sub(r"\1", line[2:])
