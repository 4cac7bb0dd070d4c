"""What the SMS channels say about paging: a reply cut at three SMS ends with the word that
fetches the rest, and that word, typed back, is read here too (``MORE_WORDS``)."""

from __future__ import annotations

from typing import Final

from kernel.lang.codes import DARI, ENGLISH, PASHTO
from kernel.lang.texts.catalogue import Entry

TEXTS: Final[dict[str, Entry]] = {
    # Appended to a reply that was cut; each names the word that fetches the rest.
    "more_hint": {
        "en": "Reply MORE for the rest.",
        "prs": "برای بقیه، «بیشتر» بنویسید.",
        "ps": "د پاتې برخې لپاره «نور» ولیکئ.",
    },
    # Answer to MORE when nothing is waiting (expired, or everything was sent).
    "nothing_more": {
        "en": "That was all. Write your question, or 0 for the menu.",
        "prs": "دیگر چیزی نمانده. سوال‌تان را بنویسید، یا برای مینو ۰ بفرستید.",
        "ps": "نور څه پاتې نه دي. خپله پوښتنه ولیکئ، یا د مینو لپاره ۰ ولېږئ.",
    },
}

#: What people type to get the rest: the words ``more_hint`` names and their romanizations.
MORE_WORDS: Final[dict[str, str]] = {
    "more": ENGLISH,
    "بیشتر": DARI,
    "beshtar": DARI,
    "bishtar": DARI,
    "نور": PASHTO,
    "nor": PASHTO,
    "noor": PASHTO,
}
