"""The words the actions put around database content: statuses, labels, date patterns, the
note beside an untranslated text, and the short forms of the SMS answers (``brief.*``).

Everything else users read lives in the domain (``bot/domain/*.yml``) or in the database;
weekday, month and day-part names in ``kernel/lang/calendar.py``, language names and the readers'
fallback order in ``kernel/lang/names.py``. Numbers, clocks and isolates are put together in
``actions/content/localise.py`` and ``format.py``.
Dari is written as in Afghanistan (میدان هوایی، اگست، مشوره), Pashto as Pashto (هوايي ډګر، اګست).
"""

from __future__ import annotations

from typing import Final

from kernel.lang.texts.catalogue import Entry, group

TEXTS: Final[dict[str, Entry]] = {
    #: Date and time patterns; {weekday} {day} {month} {year} {time} are filled in by format.py.
    **group(
        "pattern",
        {
            "departure": {
                "en": "{weekday} {day} {month}, {time}",
                "prs": "{weekday} {day} {month}، {time}",
                "ps": "{weekday} {day} {month}، {time}",
            },
            # {hour}: 1–12, with ":30" when the minutes are not zero; {part}: the part of the day
            # (kernel/lang/calendar.py); {hh_mm}: the 24-hour time, kept in brackets because
            # embassies' and airlines' messages use it.
            "time": {
                "en": "{hh_mm}",
                "prs": "ساعت {hour} {part} ({hh_mm})",
                "ps": "{part} {hour} {o_clock} ({hh_mm})",
            },
            # A time after midnight (00:00–03:59): Dari and Pashto name the night by the
            # evening it follows ({night}: «یکشنبه شب», kernel/lang/calendar.py NIGHTS) and give
            # the calendar day with the 24-hour time in brackets; English as by day.
            "departure_night": {
                "en": "{weekday} {day} {month}, {hh_mm}",
                "prs": "{night}، ساعت {hour} {after_midnight} ({weekday} {day} {month}، {hh_mm})",
                "ps": "{night}، {after_midnight} {hour} {o_clock} "
                "({weekday} {day} {month}، {hh_mm})",
            },
            # {after_midnight} of the night patterns, and the same at 00:00 itself.
            "after_midnight": {
                "en": "after midnight",
                "prs": "بعد از نیمه‌شب",
                "ps": "له نیمې شپې وروسته",
            },
            "midnight": {"en": "midnight", "prs": "نیمه‌شب", "ps": "نیمه شپه"},
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
        },
    ),
    #: "… ago" after one (``ago.<unit>.one``) and after other counts (``.many``); Dari uses the
    #: singular after numbers.
    **group(
        "ago",
        {
            "minutes.one": {"en": "{n} min ago", "prs": "{n} دقیقه پیش", "ps": "{n} دقیقه مخکې"},
            "minutes.many": {"en": "{n} min ago", "prs": "{n} دقیقه پیش", "ps": "{n} دقیقې مخکې"},
            "hours.one": {"en": "{n} h ago", "prs": "{n} ساعت پیش", "ps": "{n} ساعت مخکې"},
            "hours.many": {"en": "{n} h ago", "prs": "{n} ساعت پیش", "ps": "{n} ساعته مخکې"},
            "days.one": {"en": "{n} day ago", "prs": "{n} روز پیش", "ps": "{n} ورځ مخکې"},
            "days.many": {"en": "{n} days ago", "prs": "{n} روز پیش", "ps": "{n} ورځې مخکې"},
        },
    ),
    #: Said next to a text shown in another language than the reader's (kernel/lang/names.py
    #: READING_ORDER says which); {language} is that language's name in the reader's language.
    "not_translated": {
        "en": "(in {language} — not yet translated)",
        "prs": "(به {language} — هنوز ترجمه نشده)",
        "ps": "(په {language} — لا نه دی ژباړل شوی)",
    },
    #: Status words, keyed by the database values (models.FlightStatus, AirportState, …).
    **group(
        "status",
        {
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
        },
    ),
    #: A gate (دروازه) is feminine in Pashto.
    **group(
        "gate",
        {
            "open": {"en": "open", "prs": "باز", "ps": "خلاصه"},
            "closed": {"en": "closed", "prs": "بسته", "ps": "بنده"},
            "outdated": {
                "en": "no current information (out of date)",
                "prs": "معلومات تازه نیست (کهنه شده)",
                "ps": "تازه معلومات نشته (زاړه شوي)",
            },
        },
    ),
    #: How far a place is from where a person said they are (actions/chat/nearby.py): a
    #: straight line, never a route. {n} is already in the reader's digits, "1.4" / «۱٫۴».
    **group(
        "distance",
        {
            "metres": {"en": "{n} m", "prs": "{n} متر", "ps": "{n} متره"},
            "kilometres": {"en": "{n} km", "prs": "{n} کیلومتر", "ps": "{n} کیلومتره"},
            "away": {"en": "{distance} away", "prs": "به فاصلهٔ {distance}", "ps": "{distance} لرې"},
            # Closer than the positions are precise: "right here", not "0 m".
            "here": {"en": "right here", "prs": "همین‌جا", "ps": "همدلته"},
        },
    ),
    #: In Pashto an announcement (اعلان) is masculine.
    **group(
        "verification",
        {
            "verified": {"en": "Confirmed", "prs": "تایید شده", "ps": "تایید شوی"},
            "unverified": {
                "en": "⚠ UNVERIFIED: the issuer's claim, not independently confirmed",
                "prs": (
                    "⚠ تایید نشده: فقط گفتهٔ کسی است که آن را اعلام کرده؛ "
                    "هیچ منبع مستقل آن را تایید نکرده است"
                ),
                "ps": (
                    "⚠ تایید نه شوی: یوازې د اعلان کوونکي خبره ده؛ "
                    "هېڅ خپلواکې سرچینې نه ده تایید کړې"
                ),
            },
            "disputed": {
                "en": "⚠ DISPUTED: other sources contradict it",
                "prs": "⚠ مورد اختلاف: منابع دیگر آن را رد می‌کنند",
                "ps": "⚠ اختلافي: نورې سرچینې یې ردوي",
            },
        },
    ),
    #: What editors found a rumour to be, keyed by models.ClaimVerdict; a rumour (اوازه) is
    #: feminine in Pashto.
    **group(
        "verdict",
        {
            "false": {"en": "False", "prs": "نادرست", "ps": "ناسمه"},
            "misleading": {"en": "Misleading", "prs": "گمراه‌کننده", "ps": "ګمراه کوونکې"},
            "true": {"en": "True", "prs": "درست", "ps": "سمه"},
            "unverified": {
                "en": "Not confirmed by anyone",
                "prs": "هیچ کس آن را تایید نکرده",
                "ps": "هېچا نه ده تایید کړې",
            },
            "being_checked": {
                "en": "Being checked",
                "prs": "در حال بررسی",
                "ps": "تر څېړنې لاندې",
            },
        },
    ),
    **group(
        "kind",
        {
            "amnesty": {"en": "amnesty", "prs": "عفو عمومی", "ps": "عمومي بښنه"},
            "government": {"en": "government", "prs": "حکومتی", "ps": "حکومتي"},
            "evacuation": {"en": "evacuation", "prs": "تخلیه", "ps": "وېستنه"},
            "safety": {"en": "safety warning", "prs": "هشدار امنیتی", "ps": "امنیتي خبرداری"},
        },
    ),
    **group(
        "label",
        {
            "destination": {"en": "Destination", "prs": "مقصد", "ps": "منزل"},
            #: A rumour as people tell it, quoted.
            "claim": {"en": "“{claim}”", "prs": "«{claim}»", "ps": "«{claim}»"},
            "eligibility": {
                "en": "Who may board",
                "prs": "کسانی که سوار شده می‌توانند",
                "ps": "څوک سپرېدای شي",
            },
            "assembly_point": {
                "en": "Assembly point",
                "prs": "جای جمع شدن",
                "ps": "د راټولېدو ځای",
            },
            "any_destination": {"en": "any destination", "prs": "همه مقصدها", "ps": "ټولو ځایونو"},
            "just_now": {"en": "just now", "prs": "همین حالا", "ps": "همدا اوس"},
            #: An SMS verdict of a claim a message came only loosely close to.
            "closest_checked": {
                "en": "Closest we checked",
                "prs": "نزدیک‌ترین گپ بررسی‌شده",
                "ps": "تر ټولو نږدې کتلې خبره",
            },
            "none": {"en": "none", "prs": "هیچ کدام", "ps": "هېڅ یو"},
            "no_current_guidance": {
                "en": "No current guidance; ask your embassy or the organisation evacuating you.",
                "prs": "رهنمایی تازه نیست؛ از سفارت یا مؤسسه‌ای که شما را انتقال می‌دهد بپرسید.",
                "ps": "تازه لارښوونه نشته؛ له خپل سفارت یا هغې موسسې وپوښتئ چې تاسو باسي.",
            },
            "list_separator": {"en": ", ", "prs": "، ", "ps": "، "},
            #: After a false or misleading verdict: how the organisation that checked it really
            #: reaches people, from its own contacts record ({reach}: phone, WhatsApp, e-mail).
            "real_contact": {
                "en": "{organisation} reaches people only through its own contacts: {reach}",
                "prs": "{organisation} تنها از راه نمبرها و آدرس‌های خود "
                "با مردم تماس می‌گیرد: {reach}",
                "ps": "{organisation} یوازې د خپلو شمېرو او پتو له لارې "
                "له خلکو سره اړیکه نیسي: {reach}",
            },
            #: The same on SMS, where the check line after it names the organisation.
            "real_contact_brief": {
                "en": "Its real contact: {reach}",
                "prs": "تماس اصلی آن: {reach}",
                "ps": "اصلي اړیکه یې: {reach}",
            },
            "number_ending": {
                "en": "numbers ending in {digits}",
                "prs": "نمبرهایی که به {digits} ختم می‌شوند",
                "ps": "هغو شمېرو چې په {digits} پای ته رسېږي",
            },
        },
    ),
    #: Countries by their ISO code (models.Country): where an airport is, whom a flight
    #: evacuates people for. English with its article where a sentence needs one.
    **group(
        "country",
        {
            "AF": {"en": "Afghanistan", "prs": "افغانستان", "ps": "افغانستان"},
            "AE": {
                "en": "the United Arab Emirates",
                "prs": "امارات متحده عربی",
                "ps": "متحده عربي امارات",
            },
            "AL": {"en": "Albania", "prs": "البانیا", "ps": "البانیا"},
            "AT": {"en": "Austria", "prs": "اتریش", "ps": "اتریش"},
            "AU": {"en": "Australia", "prs": "استرالیا", "ps": "اسټرالیا"},
            "BE": {"en": "Belgium", "prs": "بلجیم", "ps": "بلجیم"},
            "BH": {"en": "Bahrain", "prs": "بحرین", "ps": "بحرین"},
            "BR": {"en": "Brazil", "prs": "برازیل", "ps": "برازیل"},
            "CA": {"en": "Canada", "prs": "کانادا", "ps": "کاناډا"},
            "CH": {"en": "Switzerland", "prs": "سویس", "ps": "سویس"},
            "CN": {"en": "China", "prs": "چین", "ps": "چین"},
            "DE": {"en": "Germany", "prs": "آلمان", "ps": "جرمني"},
            "DK": {"en": "Denmark", "prs": "دنمارک", "ps": "ډنمارک"},
            "ES": {"en": "Spain", "prs": "اسپانیا", "ps": "هسپانیه"},
            "FR": {"en": "France", "prs": "فرانسه", "ps": "فرانسه"},
            "GB": {"en": "the United Kingdom", "prs": "بریتانیا", "ps": "بریتانیا"},
            "IE": {"en": "Ireland", "prs": "آیرلند", "ps": "آیرلنډ"},
            "IN": {"en": "India", "prs": "هند", "ps": "هند"},
            "IR": {"en": "Iran", "prs": "ایران", "ps": "ایران"},
            "IT": {"en": "Italy", "prs": "ایتالیا", "ps": "ایټالیا"},
            "JP": {"en": "Japan", "prs": "جاپان", "ps": "جاپان"},
            "KG": {"en": "Kyrgyzstan", "prs": "قرغزستان", "ps": "قرغزستان"},
            "KW": {"en": "Kuwait", "prs": "کویت", "ps": "کویت"},
            "KZ": {"en": "Kazakhstan", "prs": "قزاقستان", "ps": "قزاقستان"},
            "MX": {"en": "Mexico", "prs": "مکسیکو", "ps": "مکسیکو"},
            "NL": {"en": "the Netherlands", "prs": "هالند", "ps": "هالنډ"},
            "NO": {"en": "Norway", "prs": "ناروی", "ps": "ناروې"},
            "PK": {"en": "Pakistan", "prs": "پاکستان", "ps": "پاکستان"},
            "PL": {"en": "Poland", "prs": "پولند", "ps": "پولنډ"},
            "QA": {"en": "Qatar", "prs": "قطر", "ps": "قطر"},
            "RU": {"en": "Russia", "prs": "روسیه", "ps": "روسیه"},
            "RW": {"en": "Rwanda", "prs": "روندا", "ps": "روانډا"},
            "SA": {"en": "Saudi Arabia", "prs": "عربستان سعودی", "ps": "سعودي عربستان"},
            "SE": {"en": "Sweden", "prs": "سویدن", "ps": "سویډن"},
            "TJ": {"en": "Tajikistan", "prs": "تاجکستان", "ps": "تاجکستان"},
            "TM": {"en": "Turkmenistan", "prs": "ترکمنستان", "ps": "ترکمنستان"},
            "TR": {"en": "Turkey", "prs": "ترکیه", "ps": "ترکیه"},
            "UG": {"en": "Uganda", "prs": "یوگندا", "ps": "یوګنډا"},
            "US": {"en": "the United States", "prs": "امریکا", "ps": "امریکا"},
            "UZ": {"en": "Uzbekistan", "prs": "ازبکستان", "ps": "ازبکستان"},
            "XK": {"en": "Kosovo", "prs": "کوزوو", "ps": "کوزوو"},
        },
    ),
    #: Why a flight answers a question naming a country: it lands there, or it evacuates
    #: people for it ({country}: its name; {city}: where the flight goes). The SMS forms say
    #: where it goes, which the one-line flight of an SMS does not.
    **group(
        "for_country",
        {
            "lands": {
                "en": "Lands in {country}",
                "prs": "در {country} فرود می‌آید",
                "ps": "په {country} کې کښته کېږي",
            },
            "evacuates": {
                "en": "Evacuates people for {country}",
                "prs": "پرواز تخلیه از طرف {country}",
                "ps": "د {country} له خوا د وېستلو الوتنه",
            },
            "lands_brief": {"en": "to {city}", "prs": "به {city}", "ps": "{city} ته"},
            "evacuates_brief": {
                "en": "to {city}, evacuates for {country}",
                "prs": "به {city}، تخلیه از طرف {country}",
                "ps": "{city} ته، د {country} وېستنه",
            },
        },
    ),
    #: How to reach a help contact, and when.
    **group(
        "contact",
        {
            "phone": {"en": "Phone", "prs": "تیلفون", "ps": "ټیلیفون"},
            "whatsapp": {"en": "WhatsApp", "prs": "واتساپ", "ps": "واټساپ"},
            "email": {"en": "Email", "prs": "ایمیل", "ps": "ایمیل"},
            "hours": {"en": "Hours", "prs": "ساعات کاری", "ps": "د کار وخت"},
        },
    ),
    **group(
        "brief",
        {
            # A flight's time on SMS: pattern.time without the 24-hour time in brackets,
            # «۳ بعد از چاشت», «د سهار ۹ بجې»; English keeps the 24-hour clock.
            "time": {"en": "{hh_mm}", "prs": "{hour} {part}", "ps": "{part} {hour} {o_clock}"},
            "today": {"en": "today", "prs": "امروز", "ps": "نن"},
            "tomorrow": {"en": "tomorrow", "prs": "فردا", "ps": "سبا"},
            # A time after midnight on SMS: Dari and Pashto name the night ({night}: «امشب»,
            # «یکشنبه شب»), never «فردا شب», which is the night after tomorrow's day; English
            # names the calendar day ({day}: "tomorrow") as by day.
            "night_time": {
                "en": "{day} {hh_mm}",
                "prs": "{night} {hour} {after_midnight}",
                "ps": "{night} {hour} {after_midnight}",
            },
            # The night the reader is in or is coming, as they count it even after midnight.
            "tonight": {"en": "tonight", "prs": "امشب", "ps": "نن شپه"},
            # A night a week or more away, whose weekday alone could be this week's.
            "night_dated": {
                "en": "{night} ({day} {month})",
                "prs": "{night} ({day} {month})",
                "ps": "{night} ({day} {month})",
            },
            "checked": {
                "en": "checked {ago}, {source}",
                "prs": "تایید {ago}، {source}",
                "ps": "تایید {ago}، {source}",
            },
            # One source's check line when an SMS lists items from several: {items} are
            # flight numbers or gate names, {checked} the line above.
            "items": {
                "en": "{items}: {checked}",
                "prs": "{items}: {checked}",
                "ps": "{items}: {checked}",
            },
            # Items and their check on one line, for what another source checked.
            "with_check": {
                "en": "{items}; {checked}",
                "prs": "{items}؛ {checked}",
                "ps": "{items}؛ {checked}",
            },
            "airport": {"en": "airport", "prs": "میدان هوایی", "ps": "هوايي ډګر"},
            # The flights after those an SMS lists; {numbers}: "RCH618, GAF614".
            "later": {
                "en": "Later: {numbers}",
                "prs": "بعداً: {numbers}",
                "ps": "وروسته: {numbers}",
            },
            "may_be_old": {
                "en": "May be out of date: {checked}",
                "prs": "ممکن کهنه باشد: {checked}",
                "ps": "کېدای شي زاړه وي: {checked}",
            },
            "verified": {"en": "confirmed", "prs": "تایید شده", "ps": "تایید شوی"},
            "unverified": {"en": "UNVERIFIED claim", "prs": "تایید نشده", "ps": "تایید نه شوی"},
            "disputed": {"en": "DISPUTED", "prs": "مورد اختلاف", "ps": "اختلافي"},
            "others": {
                "en": "Also announced: {topics}. Write one to read it.",
                "prs": "اعلامیه‌های دیگر: {topics}. یکی را بنویسید.",
                "ps": "نور اعلانونه: {topics}. یو یې ولیکئ.",
            },
        },
    ),
}
