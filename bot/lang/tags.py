"""How a page marks text in each language: its BCP-47 tag and its direction.

One table for every page that shows our languages (the web chat page, the editors' and
caseworkers' console, a record's history): ``lang="fa-AF"`` tells a browser and a screen reader
the text is Afghan Persian, so it picks the Dari voice and a font with the Persian forms, and
``dir`` lays it out. ``prs`` (ISO 639-3) is our code inside the assistant; browsers know Dari
as ``fa-AF``, and Pashto as ``ps`` (``ps-AF``: written as in Afghanistan). Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from bot.lang import codes
from bot.lang.codes import DARI, DEFAULT_LANGUAGE, ENGLISH, PASHTO, gaps, refuse_gaps

Direction = Literal["ltr", "rtl"]


@dataclass(frozen=True)
class PageLanguage:
    """What a page writes on an element holding text in one language."""

    tag: str
    direction: Direction


#: ``PAGE_LANGUAGES[code]``: the ``lang`` and ``dir`` of text in that language.
PAGE_LANGUAGES: Final[dict[str, PageLanguage]] = {
    ENGLISH: PageLanguage("en", "ltr"),
    DARI: PageLanguage("fa-AF", "rtl"),
    PASHTO: PageLanguage("ps-AF", "rtl"),
}


def page_language(code: object) -> PageLanguage:
    """The tag and direction of ``code``; a code that is not ours is the default language's."""
    found = PAGE_LANGUAGES.get(code) if isinstance(code, str) else None
    return found or PAGE_LANGUAGES[DEFAULT_LANGUAGE]


def tag(code: object) -> str:
    """``lang="…"`` for text in ``code``: ``"fa-AF"`` for ``"prs"``."""
    return page_language(code).tag


def direction(code: object) -> Direction:
    """``dir="…"`` for text in ``code``."""
    return page_language(code).direction


def table_gaps() -> list[str]:
    """What the table lacks for a language in ``LANGUAGES``, and any direction that disagrees
    with ``RTL_LANGUAGES`` (empty when complete)."""
    found = gaps(PAGE_LANGUAGES, "bot/lang/tags.py PAGE_LANGUAGES")
    for code, page in PAGE_LANGUAGES.items():
        expected = "rtl" if code in codes.RTL_LANGUAGES else "ltr"
        if page.direction != expected:
            found.append(
                f"bot/lang/tags.py PAGE_LANGUAGES[{code!r}] is {page.direction}, "
                f"RTL_LANGUAGES says {expected}"
            )
    return found


refuse_gaps(table_gaps())
