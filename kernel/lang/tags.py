"""Our languages as others name them: the tag and direction a page marks text with, the locales
browsers and Telegram report, and WhatsApp's template languages.

One table for every page that shows our languages (the web chat page, the editors' and
caseworkers' console, a record's history): ``lang="fa-AF"`` tells a browser and a screen reader
the text is Afghan Persian, so it picks the Dari voice and a font with the Persian forms, and
``dir`` lays it out. ``prs`` (ISO 639-3) is our code inside the assistant; browsers know Dari
as ``fa-AF``, and Pashto as ``ps`` (``ps-AF``: written as in Afghanistan). The other way round,
a browser's language (``navigator.language``, read by the web chat page) and a Telegram user's
app language (``language_code``) are read by ``LOCALES``: ``fa-AF`` is Dari. Standard library
only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from kernel.lang import codes
from kernel.lang.codes import DARI, DEFAULT_LANGUAGE, ENGLISH, PASHTO, gaps, refuse_gaps

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


#: ``LOCALES[code]``: the language subtags of a locale (``fa`` of ``fa-AF``) that stand for our
#: language ``code``, its own code among them: browsers and Telegram say ``fa`` for Dari.
LOCALES: Final[dict[str, tuple[str, ...]]] = {
    ENGLISH: ("en",),
    DARI: ("fa", "prs"),
    PASHTO: ("ps",),
}

#: ``WHATSAPP_LANGUAGES[code]``: what Meta calls our language in a template message (the alert
#: template exists in each, docs/DATA_PROTECTION.md).
WHATSAPP_LANGUAGES: Final[dict[str, str]] = {ENGLISH: "en", DARI: "fa", PASHTO: "ps"}


def locale_languages() -> dict[str, str]:
    """Every subtag of ``LOCALES`` → our code: ``{"en": "en", "fa": "prs", "prs": "prs", …}``
    (the web chat page hands it to widget.js)."""
    return {subtag: code for code, subtags in LOCALES.items() for subtag in subtags}


def from_locale(locale: object) -> str | None:
    """Our language for a locale (``fa-AF``, ``fa_AF``, ``PS``), by its language subtag; None
    for a locale of none of ours."""
    if not isinstance(locale, str):
        return None
    return locale_languages().get(locale.replace("_", "-").split("-")[0].lower())


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
    """What the tables lack for a language in ``LANGUAGES``, any direction that disagrees with
    ``RTL_LANGUAGES``, and a locale that is not its own language's or is two languages' (empty
    when complete)."""
    found = gaps(PAGE_LANGUAGES, "kernel/lang/tags.py PAGE_LANGUAGES")
    found += gaps(LOCALES, "kernel/lang/tags.py LOCALES")
    found += gaps(WHATSAPP_LANGUAGES, "kernel/lang/tags.py WHATSAPP_LANGUAGES")
    for code, subtags in LOCALES.items():
        if code not in subtags:
            found.append(f"kernel/lang/tags.py LOCALES[{code!r}] lacks {code!r} itself")
        found += [
            f"kernel/lang/tags.py LOCALES[{code!r}] and [{other!r}] both have {subtag!r}"
            for other, others in LOCALES.items()
            if other < code
            for subtag in subtags
            if subtag in others
        ]
    for code, page in PAGE_LANGUAGES.items():
        expected = "rtl" if code in codes.RTL_LANGUAGES else "ltr"
        if page.direction != expected:
            found.append(
                f"kernel/lang/tags.py PAGE_LANGUAGES[{code!r}] is {page.direction}, "
                f"RTL_LANGUAGES says {expected}"
            )
    return found


refuse_gaps(table_gaps())
