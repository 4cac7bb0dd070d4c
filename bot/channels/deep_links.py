"""Links on posters and QR codes that open the assistant already knowing what the person came for.

A Telegram link ``https://t.me/<bot>?start=gate_abbey`` makes the app send ``/start gate_abbey``;
a WhatsApp link ``https://wa.me/<number>?text=start%20gate_abbey`` puts ``start gate_abbey`` in
the person's text box, sent when they press send. The parameter is words of a fixed vocabulary
(``VOCABULARY``, docs/CHANNELS.md "Links for posters"), joined by ``-`` when a poster names both a
language and a place: ``lang_prs-gate_abbey``. Telegram allows 64 characters of A-Z, a-z, 0-9,
``_`` and ``-`` there; the vocabulary keeps within them.

The channel turns a link into a message the trained model already understands, without
retraining: an intent written the way Rasa's ``RegexMessageHandler`` reads a button payload
(``/ask_airport_status{"gate": "KBL/abbey-gate"}``), with the entity values the NLU's own
canonicaliser gives (a gate's key in the content database, an airport's IATA code). A parameter
of no known word is a plain greeting: an old poster must still open a conversation.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Final

from kernel.lang.codes import DARI, ENGLISH, PASHTO

#: What the assistant shows for a plain ``/start``, or a link it does not know.
GREETING: Final = "/greet"

#: A language a poster is written in: the conversation starts in it, as if chosen.
LANGUAGE_WORDS: Final[dict[str, str]] = {
    "lang_prs": DARI,
    "lang_ps": PASHTO,
    "lang_en": ENGLISH,
}
#: A gate of Kabul airport (its key in the content database): the gate's state is asked.
GATE_WORDS: Final[dict[str, str]] = {
    "gate_abbey": "KBL/abbey-gate",
    "gate_east": "KBL/east-gate",
    "gate_north": "KBL/north-gate",
    "gate_baron": "KBL/baron-hotel",
}
#: An airport of Afghanistan (IATA code): its state and gates are asked.
SITE_WORDS: Final[dict[str, str]] = {
    "site_kbl": "KBL",
    "site_mzr": "MZR",
    "site_kdh": "KDH",
}
VOCABULARY: Final[frozenset[str]] = frozenset(LANGUAGE_WORDS) | set(GATE_WORDS) | set(SITE_WORDS)

#: The first WhatsApp message of a ``wa.me`` link: ``start`` and one parameter.
_WHATSAPP_START: Final = re.compile(r"\s*start\s+([A-Za-z0-9_-]{1,64})\s*", re.IGNORECASE)


@dataclass(frozen=True)
class DeepLink:
    """What a link asks: ``text`` for Rasa, and the language the poster is written in."""

    text: str
    language: str | None = None


def _intent(name: str, **entities: str) -> str:
    return f"/{name}{json.dumps(entities, ensure_ascii=False)}" if entities else f"/{name}"


def read_link(parameter: str) -> DeepLink:
    """The message a link's parameter stands for; a greeting for words it does not know."""
    words = parameter.strip().lower().split("-")
    language = next((LANGUAGE_WORDS[w] for w in words if w in LANGUAGE_WORDS), None)
    gate = next((GATE_WORDS[w] for w in words if w in GATE_WORDS), None)
    site = next((SITE_WORDS[w] for w in words if w in SITE_WORDS), None)
    if gate is not None:
        return DeepLink(_intent("ask_airport_status", gate=gate), language)
    if site is not None:
        return DeepLink(_intent("ask_airport_status", airport=site), language)
    if language is not None:
        return DeepLink(_intent("set_language", language=language), language)
    return DeepLink(GREETING)


def telegram_start(text: str) -> DeepLink | None:
    """``/start`` (or ``/start@bot``) with or without a parameter; None for any other text."""
    command, _, parameter = text.strip().partition(" ")
    if command.split("@")[0] != "/start":
        return None
    return read_link(parameter) if parameter.strip() else DeepLink(GREETING)


def whatsapp_start(text: str) -> DeepLink | None:
    """The prefilled ``start <parameter>`` of a ``wa.me`` link; None for any other text."""
    found = _WHATSAPP_START.fullmatch(text)
    return read_link(found.group(1)) if found else None
