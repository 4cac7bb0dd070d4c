"""Every user-facing sentence that is not a domain response, in every language, by id.

Rasa's domain (``bot/domain/*.yml``) holds what the bot answers; this catalogue holds the rest:
what connectors say by themselves (``channels``, ``sms``), alerts and topic names (``alerts``),
a caseworker's reply and the caseworkers' pages (``cases``), the help a person in danger
gets first (``danger``), the editors' console
(``console``, ``questions``), the words around database content (``content``), what
publishing says of a change that would contradict other facts (``publishing``) and the web
chat page's own words (``webchat``). One
``render(id, language, **variables)`` for all of them; the fallback rule is in
``catalogue.py``. Standard library only: both runtimes import it.
"""

from __future__ import annotations

from typing import Final

from kernel.lang.codes import refuse_gaps
from kernel.lang.texts import (
    alerts,
    cases,
    channels,
    console,
    content,
    danger,
    publishing,
    questions,
    sms,
    webchat,
)
from kernel.lang.texts.catalogue import Catalogue, MissingVariable, UnknownText

CATALOGUE: Final = Catalogue(
    {
        "channels": channels.TEXTS,
        "sms": sms.TEXTS,
        "alerts": alerts.TEXTS,
        "cases": cases.TEXTS,
        "console": console.TEXTS,
        "questions": questions.TEXTS,
        "content": content.TEXTS,
        "danger": danger.TEXTS,
        "webchat": webchat.TEXTS,
        "publishing": publishing.TEXTS,
    }
)

refuse_gaps(CATALOGUE.gaps())

render: Final = CATALOGUE.render
text: Final = CATALOGUE.text

__all__ = ["CATALOGUE", "MissingVariable", "UnknownText", "render", "text"]
