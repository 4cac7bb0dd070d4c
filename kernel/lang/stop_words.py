"""The words that must work every time, whatever the conversation: STOP, a withdrawal, and what
goes before everything else in a surge ("safety", "delete my data").

Each is compared with the whole message, never guessed by a classifier: someone whose phone may
be searched must not depend on a model's mood to stop alerts or delete their data. The opt-out
and withdrawal words set an intent (bot/nlu/stop_keywords.py); those, the buttons' payloads and
``JUMPING_WORDS`` go first in the intake's line (bot/channels/intake/jumping.py
``about_safety``). Every message is compared with every language's words: a Pashto speaker may
answer «بس». Words in normalised form (lower case, Persian letter forms), in each language's
script and romanized.

Standard library only: both runtimes import it.
"""

from __future__ import annotations

from typing import Final

from kernel.lang.codes import DARI, ENGLISH, PASHTO, gaps, refuse_gaps

#: Whole-message opt-out words: they end alerts.
OPT_OUT_WORDS: Final[dict[str, tuple[str, ...]]] = {
    ENGLISH: (
        # The carriers' standard set (Twilio and most SMS gateways honour these).
        "stop", "stopall", "stop all", "unsubscribe", "cancel", "end", "quit",
        "stop alerts", "stop alert",
    ),
    DARI: (
        # "stop", "enough", "cancel"; "stop" typed in Arabic script (Pashto users also write بس).
        "توقف", "بس", "لغو", "ستاپ", "استاپ",
        "bas", "laghw", "laghv", "tawaqof", "tawaquf", "tawaqqof", "tawaqquf",
    ),
    PASHTO: (
        # "stop (it)", "turn it off".
        "ودروه", "بند یې کړه",
        "wadrawa", "wadarawa",
    ),
}  # fmt: skip

#: Whole-message words that withdraw a request for a caseworker and nothing else.
WITHDRAW_ONLY_WORDS: Final[dict[str, tuple[str, ...]]] = {
    ENGLISH: ("cancel request", "cancel my request", "withdraw", "withdraw request"),
    DARI: (
        # "cancel it", "stop it".
        "لغو کن", "لغو کنید", "بس کن", "بس کنید", "لغو درخواست",
        "laghw kon", "laghv kon", "bas kon",
    ),
    PASHTO: (
        # "cancel it".
        "لغوه", "لغوه یې کړه", "لغوه یی کړه", "لغوه کړه", "لغوه کړئ",
        "laghwa", "laghwa ye kra", "laghwa ye kah", "laghwa kra",
    ),
}  # fmt: skip

#: Opt-out words that withdraw a request too while a case is open ("cancel", «لغو»): they stay
#: opt-out words (carriers honour "cancel"), and the conversation policy reads them as a
#: withdrawal as well (bot/policies/conversation.py, docs/HANDOFF.md).
WITHDRAWING_OPT_OUTS: Final[dict[str, tuple[str, ...]]] = {
    ENGLISH: ("cancel",),
    DARI: ("لغو", "laghw", "laghv"),
    # Pashto's "cancel", «لغوه», only withdraws (``WITHDRAW_ONLY_WORDS``).
    PASHTO: (),
}

#: Whole messages about the person's safety or data, besides STOP: "safety", "delete",
#: "delete my information" (the intake also lets the buttons' payloads jump).
JUMPING_WORDS: Final[dict[str, tuple[str, ...]]] = {
    ENGLISH: ("safety", "delete", "delete my data", "delete everything"),
    DARI: ("امنیت", "پاک", "پاک کن", "پاک کردن معلومات", "معلوماتم را پاک کن"),
    PASHTO: ("خوندیتوب", "پاک یې کړه", "معلومات پاکول", "زما معلومات پاک کړه"),
}

refuse_gaps(
    gaps(OPT_OUT_WORDS, "kernel/lang/stop_words.py OPT_OUT_WORDS")
    + gaps(WITHDRAW_ONLY_WORDS, "kernel/lang/stop_words.py WITHDRAW_ONLY_WORDS")
    + gaps(WITHDRAWING_OPT_OUTS, "kernel/lang/stop_words.py WITHDRAWING_OPT_OUTS")
    + gaps(JUMPING_WORDS, "kernel/lang/stop_words.py JUMPING_WORDS")
)
