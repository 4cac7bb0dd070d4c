"""The few words the actions put around database content, in all three languages side by side.

Everything else users read lives in the domain (``bot/domain/*.yml``) or in the database;
weekday, month and day-part names in ``bot/lang/calendar.py``, language names and the readers'
fallback order in ``bot/lang/names.py``.
Dari is written as in Afghanistan (میدان هوایی، اگست، مشوره), Pashto as Pashto (هوايي ډګر، اګست).
"""

from __future__ import annotations

import re
from typing import Final

from bot.lang.codes import DEFAULT_LANGUAGE, RTL_LANGUAGES, is_language
from bot.lang.letters import written_digits
from bot.lang.names import LANGUAGE_NAMES

Words = dict[str, dict[str, str]]

#: Pashto "o'clock": یوه بجه, دوه بجې … (one o'clock is singular).
PASHTO_O_CLOCK: Final = ("بجه", "بجې")

#: Date and time patterns; {weekday} {day} {month} {year} {time} are filled in by format.py.
PATTERNS: Final[Words] = {
    "departure": {
        "en": "{weekday} {day} {month}, {time}",
        "prs": "{weekday} {day} {month}، {time}",
        "ps": "{weekday} {day} {month}، {time}",
    },
    # {hour}: 1–12, with ":30" when the minutes are not zero; {part}: the part of the day
    # (bot/lang/calendar.py); {hh_mm}: the 24-hour time, kept in brackets because embassies'
    # and airlines' messages use it.
    "time": {
        "en": "{hh_mm}",
        "prs": "ساعت {hour} {part} ({hh_mm})",
        "ps": "{part} {hour} {o_clock} ({hh_mm})",
    },
    "date": {
        "en": "{day} {month} {year}",
        "prs": "{day} {month} {year}",
        "ps": "{day} {month} {year}",
    },
    "verified": {
        "en": "verified {ago} · source: {source}",
        "prs": "{ago} تایید شده · منبع: {source}",
        "ps": "{ago} تایید شوي · سرچینه: {source}",
    },
}

#: "… ago": (singular, plural) per unit; Dari uses the singular after numbers.
AGO: Final[dict[str, dict[str, tuple[str, str]]]] = {
    "minutes": {
        "en": ("{n} min ago", "{n} min ago"),
        "prs": ("{n} دقیقه پیش", "{n} دقیقه پیش"),
        "ps": ("{n} دقیقه مخکې", "{n} دقیقې مخکې"),
    },
    "hours": {
        "en": ("{n} h ago", "{n} h ago"),
        "prs": ("{n} ساعت پیش", "{n} ساعت پیش"),
        "ps": ("{n} ساعت مخکې", "{n} ساعته مخکې"),
    },
    "days": {
        "en": ("{n} day ago", "{n} days ago"),
        "prs": ("{n} روز پیش", "{n} روز پیش"),
        "ps": ("{n} ورځ مخکې", "{n} ورځې مخکې"),
    },
}

#: Status words, keyed by the database values (models.FlightStatus, AirportState, …).
STATUS: Final[Words] = {
    "scheduled": {"en": "Scheduled", "prs": "طبق پلان", "ps": "د پلان سره سم"},
    "boarding": {"en": "Boarding", "prs": "مسافرها سوار می‌شوند", "ps": "مسافر سپرېږي"},
    "departed": {"en": "Departed", "prs": "پرواز کرد", "ps": "والوته"},
    "delayed": {"en": "Delayed", "prs": "تأخیر دارد", "ps": "ځنډ لري"},
    "cancelled": {"en": "Cancelled", "prs": "لغو شده", "ps": "لغوه شوې"},
    "open": {"en": "open", "prs": "باز", "ps": "خلاص"},
    "restricted": {
        "en": "open with restrictions",
        "prs": "با محدودیت باز",
        "ps": "په محدود ډول خلاص",
    },
    "closed": {"en": "closed", "prs": "بسته", "ps": "بند"},
}

#: A gate (دروازه) is feminine in Pashto.
GATE_STATE: Final[Words] = {
    "open": {"en": "open", "prs": "باز", "ps": "خلاصه"},
    "closed": {"en": "closed", "prs": "بسته", "ps": "بنده"},
    "outdated": {
        "en": "no current information (out of date)",
        "prs": "معلومات تازه نیست (کهنه شده)",
        "ps": "تازه معلومات نشته (زاړه شوي)",
    },
}

#: In Pashto an announcement (اعلان) is masculine.
VERIFICATION: Final[Words] = {
    "verified": {"en": "Confirmed", "prs": "تایید شده", "ps": "تایید شوی"},
    "unverified": {
        "en": "⚠ UNVERIFIED: the issuer's claim, not independently confirmed",
        "prs": (
            "⚠ تایید نشده: فقط گفتهٔ کسی است که آن را اعلام کرده؛ "
            "هیچ منبع مستقل آن را تایید نکرده است"
        ),
        "ps": "⚠ تایید نه شوی: د خپرونکي ادعا ده او په خپلواکه توګه نه ده تایید شوې",
    },
    "disputed": {
        "en": "⚠ DISPUTED: other sources contradict it",
        "prs": "⚠ مورد اختلاف: منابع دیگر آن را رد می‌کنند",
        "ps": "⚠ اختلافي: نورې سرچینې یې ردوي",
    },
}

KIND: Final[Words] = {
    "amnesty": {"en": "amnesty", "prs": "عفو عمومی", "ps": "عمومي بښنه"},
    "government": {"en": "government", "prs": "حکومتی", "ps": "حکومتي"},
    "evacuation": {"en": "evacuation", "prs": "تخلیه", "ps": "وېستل"},
    "safety": {"en": "safety warning", "prs": "هشدار امنیتی", "ps": "امنیتي خبرداری"},
}

LABELS: Final[Words] = {
    "destination": {"en": "Destination", "prs": "مقصد", "ps": "منزل"},
    "eligibility": {
        "en": "Who may board",
        "prs": "کسانی که سوار شده می‌توانند",
        "ps": "څوک سپرېدای شي",
    },
    "assembly_point": {"en": "Assembly point", "prs": "جای جمع شدن", "ps": "د راټولېدو ځای"},
    "any_destination": {"en": "any destination", "prs": "همه مقصدها", "ps": "ټولو ځایونو"},
    "just_now": {"en": "just now", "prs": "همین حالا", "ps": "همدا اوس"},
    "none": {"en": "none", "prs": "هیچ", "ps": "هېڅ"},
    "no_current_guidance": {
        "en": "No current guidance; ask your embassy or the organisation evacuating you.",
        "prs": "رهنمایی تازه نیست؛ از سفارت یا مؤسسه‌ای که شما را انتقال می‌دهد بپرسید.",
        "ps": "تازه لارښوونه نشته؛ له خپل سفارت یا هغې موسسې وپوښتئ چې تاسو باسي.",
    },
    "list_separator": {"en": ", ", "prs": "، ", "ps": "، "},
    "number_ending": {
        "en": "numbers ending in {digits}",
        "prs": "نمبرهایی که به {digits} ختم می‌شوند",
        "ps": "هغو شمېرو چې په {digits} پای ته رسېږي",
    },
}

#: Said next to a text shown in another language than the reader's (bot/lang/names.py
#: READING_ORDER says which); {language} is that language's name in the reader's language.
NOT_TRANSLATED: Final[dict[str, str]] = {
    "en": "(in {language} — not yet translated)",
    "prs": "(به {language} — هنوز ترجمه نشده)",
    "ps": "(په {language} — لا نه دی ژباړل شوی)",
}

#: How to reach a help contact, and when.
CONTACT: Final[Words] = {
    "phone": {"en": "Phone", "prs": "تیلفون", "ps": "ټیلیفون"},
    "whatsapp": {"en": "WhatsApp", "prs": "واتساپ", "ps": "واټساپ"},
    "email": {"en": "Email", "prs": "ایمیل", "ps": "ایمیل"},
    "hours": {"en": "Hours", "prs": "ساعات کاری", "ps": "د کار وخت"},
}

FIRST_STRONG_ISOLATE: Final = "\u2068"
POP_DIRECTIONAL_ISOLATE: Final = "\u2069"
#: An existing isolate (kept as it is), or a Latin run to wrap: it starts with a Latin letter and
#: may hold digits and joining marks ("Abbey Gate", "RCH871", "C-17").
_ISOLATE_OR_LATIN_RUN: Final = re.compile(
    r"(?P<isolated>\u2068[^\u2069]*\u2069)"
    r"|(?<![A-Za-z0-9])(?P<latin>[A-Za-z][A-Za-z0-9]*(?:[ .'’&/-]+[A-Za-z0-9]+)*)"
)


def language_or_default(value: object) -> str:
    """The slot value if it is one of our languages, else English (unknown → en)."""
    return value if isinstance(value, str) and is_language(value) else DEFAULT_LANGUAGE


def word(table: Words, key: str, language: str) -> str:
    return table[key][language]


def digits(text: str, language: str) -> str:
    """Persian digits for Dari and Pashto (times, dates, counts); ASCII for English."""
    return written_digits(text, language)


def not_translated(language: str, shown_in: str) -> str:
    """The note beside a text in ``shown_in`` shown to a reader of ``language``."""
    return NOT_TRANSLATED[language].format(language=LANGUAGE_NAMES[language][shown_in])


def isolate_latin(text: str, language: str) -> str:
    """Wrap Latin runs in right-to-left text in isolates, so "RCH871 (XJD)" keeps its order."""
    if language not in RTL_LANGUAGES:
        return text
    return _ISOLATE_OR_LATIN_RUN.sub(_isolate, text)


def isolate(text: str, language: str) -> str:
    """Wrap all of ``text`` in an isolate in right-to-left text.

    For what must read left to right as a whole, such as "+93 700 000 101" (whose groups a
    right-to-left line would reverse) or an e-mail address (whose "@" would flip its halves).
    """
    if language not in RTL_LANGUAGES:
        return text
    return f"{FIRST_STRONG_ISOLATE}{text}{POP_DIRECTIONAL_ISOLATE}"


def isolate_foreign(text: str, shown_in: str, language: str) -> str:
    """Isolate a text written in a language of the other direction than the answer's.

    An English sentence inside a Dari answer (or the reverse) otherwise has its punctuation and
    word groups reordered by the surrounding direction.
    """
    if (shown_in in RTL_LANGUAGES) == (language in RTL_LANGUAGES):
        return text
    return f"{FIRST_STRONG_ISOLATE}{text}{POP_DIRECTIONAL_ISOLATE}"


def _isolate(match: re.Match[str]) -> str:
    latin = match.group("latin")
    if latin is None:
        return match.group(0)
    return f"{FIRST_STRONG_ISOLATE}{latin}{POP_DIRECTIONAL_ISOLATE}"
