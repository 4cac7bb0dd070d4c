"""The few words the actions put around database content, in all three languages side by side.

Everything else users read lives in the domain (``bot/domain/*.yml``) or in the database.
Dari is written as in Afghanistan (میدان هوایی، اگست، مشوره), Pashto as Pashto (هوايي ډګر، اګست).
"""

from __future__ import annotations

import re
from typing import Final

from bot.lang.codes import DEFAULT_LANGUAGE, LANGUAGES, RTL_LANGUAGES, is_language

Words = dict[str, dict[str, str]]

#: Monday first, as ``datetime.weekday()`` counts: (en, prs, ps).
_WEEKDAY_ROWS: Final = (
    ("Mon", "دوشنبه", "دوشنبه"),
    ("Tue", "سه‌شنبه", "سه‌شنبه"),
    ("Wed", "چهارشنبه", "چهارشنبه"),
    ("Thu", "پنجشنبه", "پنجشنبه"),
    ("Fri", "جمعه", "جمعه"),
    ("Sat", "شنبه", "شنبه"),
    ("Sun", "یکشنبه", "یکشنبه"),
)

#: January first: (en, prs, ps). Gregorian months as named in Afghanistan (not Iranian ژانویه، اوت).
_MONTH_ROWS: Final = (
    ("Jan", "جنوری", "جنوري"),
    ("Feb", "فبروری", "فبروري"),
    ("Mar", "مارچ", "مارچ"),
    ("Apr", "اپریل", "اپرېل"),
    ("May", "می", "مۍ"),
    ("Jun", "جون", "جون"),
    ("Jul", "جولای", "جولای"),
    ("Aug", "اگست", "اګست"),
    ("Sep", "سپتمبر", "سپټمبر"),
    ("Oct", "اکتوبر", "اکتوبر"),
    ("Nov", "نومبر", "نومبر"),
    ("Dec", "دسمبر", "ډسمبر"),
)

WEEKDAYS: Final[dict[str, tuple[str, ...]]] = {
    lang: tuple(row[i] for row in _WEEKDAY_ROWS) for i, lang in enumerate(LANGUAGES)
}
MONTHS: Final[dict[str, tuple[str, ...]]] = {
    lang: tuple(row[i] for row in _MONTH_ROWS) for i, lang in enumerate(LANGUAGES)
}

#: Parts of the day as Kabul names them on the 12-hour clock: (from hour on the 24-hour clock,
#: en, prs, ps). Dari: ساعت ۳ بعد از چاشت; Pashto: د ماسپښین ۳ بجې (docs/LANGUAGE.md, "Times").
#: The English words only say what each is; English answers show the 24-hour clock.
_DAY_PART_ROWS: Final[tuple[tuple[int, str, str, str], ...]] = (
    (0, "night", "شب", "د شپې"),
    (4, "morning", "صبح", "د سهار"),
    (12, "noon", "چاشت", "د غرمې"),
    (13, "afternoon", "بعد از چاشت", "د ماسپښین"),
    (16, "late afternoon", "عصر", "د مازدیګر"),
    (18, "evening", "شام", "د ماښام"),
    (20, "night", "شب", "د شپې"),
)
DAY_PARTS: Final[dict[str, tuple[tuple[int, str], ...]]] = {
    lang: tuple((start, names[i]) for start, *names in _DAY_PART_ROWS)
    for i, lang in enumerate(LANGUAGES)
}
#: Pashto "o'clock": یوه بجه, دوه بجې … (one o'clock is singular).
PASHTO_O_CLOCK: Final = ("بجه", "بجې")

#: Date and time patterns; {weekday} {day} {month} {year} {time} are filled in by format.py.
PATTERNS: Final[Words] = {
    "departure": {
        "en": "{weekday} {day} {month}, {time}",
        "prs": "{weekday} {day} {month}، {time}",
        "ps": "{weekday} {day} {month}، {time}",
    },
    # {hour}: 1–12, with ":30" when the minutes are not zero; {part}: DAY_PARTS; {hh_mm}: the
    # 24-hour time, kept in brackets because embassies' and airlines' messages use it.
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

#: In which languages a reader gets a text an editor published before translating it into
#: theirs, best first. An Afghan reader's view:
#: * Pashto readers get Dari next: most Pashto speakers read and understand Dari, the lingua
#:   franca of Kabul, of government, schooling and the media, written in the same script.
#: * Dari readers get English next, Pashto last: far fewer Dari speakers understand Pashto than
#:   the other way round, and English is what the sources editors work from (embassies,
#:   airlines, the UN) publish in, so it is most often the original text; many evacuees,
#:   former staff of foreign missions, read it, and a relative or a phone can translate it.
#: * English readers get Dari before Pashto: more people can read it for them.
READING_ORDER: Final[dict[str, tuple[str, ...]]] = {
    "en": ("en", "prs", "ps"),
    "prs": ("prs", "en", "ps"),
    "ps": ("ps", "prs", "en"),
}

#: Said next to a text shown in another language: reader's language → language of the text.
NOT_TRANSLATED: Final[dict[str, dict[str, str]]] = {
    "en": {"prs": "(in Dari — not yet translated)", "ps": "(in Pashto — not yet translated)"},
    "prs": {"en": "(به انگلیسی — هنوز ترجمه نشده)", "ps": "(به پشتو — هنوز ترجمه نشده)"},
    "ps": {"en": "(په انګلیسي — لا نه دی ژباړل شوی)", "prs": "(په دري — لا نه دی ژباړل شوی)"},
}

#: How to reach a help contact, and when.
CONTACT: Final[Words] = {
    "phone": {"en": "Phone", "prs": "تیلفون", "ps": "ټیلیفون"},
    "whatsapp": {"en": "WhatsApp", "prs": "واتساپ", "ps": "واټساپ"},
    "email": {"en": "Email", "prs": "ایمیل", "ps": "ایمیل"},
    "hours": {"en": "Hours", "prs": "ساعات کاری", "ps": "د کار وخت"},
}

PERSIAN_DIGITS: Final = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")
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
    return text.translate(PERSIAN_DIGITS) if language in RTL_LANGUAGES else text


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
