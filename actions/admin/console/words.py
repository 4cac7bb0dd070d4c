"""The console's own words in the interface language: pages, record kinds, field labels.

Aid workers are often Afghan staff: the interface speaks their language, right to left for
Dari and Pashto. The words are in the catalogue, three languages side by side:
``kernel/lang/texts/console.py`` (pages, ``kind.*``, ``field.*``), ``cases.py`` (the caseworkers'
pages) and ``questions.py`` (what people ask); a page names a sentence by its key alone.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Final

from actions.content.localise import digits
from kernel.lang import tags, texts
from kernel.lang.codes import DEFAULT_LANGUAGE, LANGUAGES
from kernel.lang.names import own_name

#: How each language names itself, for the language switch.
LANGUAGE_NAMES: Final = {code: own_name(code) for code in LANGUAGES}

#: The catalogue modules whose entries the console's pages name by key.
_PAGE_MODULES: Final = ("console", "cases", "questions")
#: key → catalogue id, for ``say``.
_IDS: Final = {
    key: module + "." + key
    for module in _PAGE_MODULES
    for key in texts.CATALOGUE.modules[module]
    if "." not in key
}
#: Labels shown for a record kind, a field and an intent (a value not listed shows itself).
KIND: Final = "console.kind"
FIELD: Final = "console.field"
INTENT: Final = "questions.intent"
TOPIC: Final = "console.topic"
CHANNEL: Final = "console.channel"


def language_of(value: object) -> str:
    return value if isinstance(value, str) and value in LANGUAGES else DEFAULT_LANGUAGE


def direction(language: str) -> str:
    return tags.direction(language)


def say(key: str, language: str, **values: object) -> str:
    """One of the console's sentences in ``language``; counts in its digits (keys stay Latin)."""
    shown = {
        name: digits(str(value), language) if isinstance(value, int) else value
        for name, value in values.items()
    }
    return texts.render(_IDS[key], language, **shown)


def has(key: str) -> bool:
    """Whether ``say`` knows ``key`` (a key from a cookie may be anything)."""
    return key in _IDS


def label(group: str, key: str, language: str) -> str:
    """The label of ``key`` in ``group`` (``KIND``, ``FIELD``, ``INTENT``, ``TOPIC``,
    ``CHANNEL``), or its name."""
    message = f"{group}.{key}"
    return texts.render(message, language) if message in texts.CATALOGUE else key.replace("_", " ")


def duration(length: timedelta, language: str) -> str:
    """A coarse length of time: "40 min", "3 h", "2 days"."""
    minutes = max(int(length.total_seconds() // 60), 0)
    if minutes < 60:
        return say("minutes", language, n=minutes)
    if minutes < 48 * 60:
        return say("hours", language, n=minutes // 60)
    return say("days", language, n=minutes // (24 * 60))
