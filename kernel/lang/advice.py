"""Which sentence of an explanation tells the reader what to do: "Do not go to the airport on a
rumour", «به خاطر یک گپ به میدان هوایی نروید», «هوايي ډګر ته مه ځئ».

An SMS has room for a sentence or two of an editor's explanation; the one a person acts on must
be among them, not cut off after the first. Editors write advice as a request to the reader: in
English a sentence that opens with the verb ("Ask…", "Never pay…"); in Dari and Pashto, whose
verbs close their clause, a clause whose last word is the verb for "you" (Dari «…ید»: «نروید»,
«بپرسید»); Pashto's «…ئ» is that verb's own ending wherever it stands («مه ځئ», «وپوښتئ چې…»).
Each is a table keyed by language: a language added to ``LANGUAGES`` stops the import until it
has its own.
"""

from __future__ import annotations

import re
from typing import Final

from kernel.lang.codes import every_word, gaps, refuse_gaps

#: Per language: how a request to the reader opens (English) or how its clause ends.
ADVICE_OPENERS: Final[dict[str, tuple[str, ...]]] = {
    "en": (
        "do not",
        "don't",
        "never",
        "ask",
        "check",
        "use",
        "stay",
        "keep",
        "go",
        "call",
        "send",
        "wait",
        "bring",
        "apply",
        "contact",
        "write",
        "come",
        "avoid",
        "only",
        "tell",
        "leave",
        "be",
    ),
    "prs": (),
    "ps": (),
}
ADVICE_ENDINGS: Final[dict[str, tuple[str, ...]]] = {
    "en": (),
    "prs": ("ید",),
    "ps": ("ئ",),
}
#: Languages whose request verb may stand before a clause of its own («وپوښتئ چې…»).
ANYWHERE: Final[dict[str, bool]] = {"en": False, "prs": False, "ps": True}
#: Per language: words that end as a request does but are nouns or adjectives (Dari
#: "confirmed", "new"); a sentence is read against every language's.
NOT_REQUESTS_BY_LANGUAGE: Final[dict[str, tuple[str, ...]]] = {
    "en": (),
    "prs": ("تایید", "تمدید", "تهدید", "جدید", "شدید", "امید", "کلید", "سفید"),
    "ps": (),
}
NOT_REQUESTS: Final = every_word(NOT_REQUESTS_BY_LANGUAGE)

refuse_gaps(
    gaps(ADVICE_OPENERS, "kernel/lang/advice.py ADVICE_OPENERS")
    + gaps(ADVICE_ENDINGS, "kernel/lang/advice.py ADVICE_ENDINGS")
    + gaps(ANYWHERE, "kernel/lang/advice.py ANYWHERE")
    + gaps(NOT_REQUESTS_BY_LANGUAGE, "kernel/lang/advice.py NOT_REQUESTS_BY_LANGUAGE")
)

_SENTENCE_END: Final = re.compile(r"(?<=[.!?؟۔])\s+|(?<=[;؛])\s+")
_CLAUSE_END: Final = re.compile(r"[:;,،؛]")
_LAST_WORD: Final = re.compile(r"(\w+)\W*$")
_WORD: Final = re.compile(r"\w+")


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` with their own punctuation ("…; do not go" is one of its own)."""
    return [part.strip() for part in _SENTENCE_END.split(text) if part.strip()]


def is_advice(sentence: str, language: str) -> bool:
    """Whether ``sentence`` asks the reader to do (or not to do) something."""
    opening = " ".join(sentence.lower().lstrip("«\"' ").split()[:2])
    for opener in ADVICE_OPENERS.get(language, ()):
        if opening == opener or opening.startswith(opener + " "):
            return True
    endings = ADVICE_ENDINGS.get(language, ())
    if ANYWHERE.get(language, False):
        words = _WORD.findall(sentence)
    else:
        words = [
            found.group(1) for found in map(_LAST_WORD.search, _CLAUSE_END.split(sentence)) if found
        ]
    return any(word.endswith(endings) and word not in NOT_REQUESTS for word in words if endings)
