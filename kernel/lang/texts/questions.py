"""The console's questions page: its own words, and what people ask (``intent.*``, by the
domain's intents) as editors call it; an intent without an entry shows its name.
"""

from __future__ import annotations

from typing import Final

from kernel.lang.texts.catalogue import Entry, group

TEXTS: Final[dict[str, Entry]] = {
    "questions": {"en": "What people ask", "prs": "مردم چه می‌پرسند", "ps": "خلک څه پوښتي"},
    "questions_window": {
        "en": "The last 7 days, until {until} (Kabul time).",
        "prs": "۷ روز گذشته، تا {until} (به وقت کابل).",
        "ps": "تېرې ۷ ورځې، تر {until} پورې (د کابل په وخت).",
    },
    "questions_total": {
        "en": "{turns} messages; {unanswered} of them we could not answer.",
        "prs": "{turns} پیام؛ به {unanswered} تای آن جواب داده نتوانستیم.",
        "ps": "{turns} پیغامونه؛ {unanswered} یې ځواب نه شول.",
    },
    "unanswered_title": {
        "en": "Messages we could not answer",
        "prs": "پیام‌هایی که جواب نداشتیم",
        "ps": "هغه پیغامونه چې ځواب مو نه درلود",
    },
    "unanswered_help": {
        "en": "Shown only when at least {n} different conversations sent the same message, "
        "on two channels or more, or over six hours at least. "
        "Numbers, phone numbers, e-mails, web addresses and names are replaced before storing. "
        "Add the missing content, so that the assistant can answer them.",
        "prs": "تنها وقتی نشان داده می‌شود که دست کم {n} گفتگوی مختلف همین پیام را فرستاده باشند، "
        "از دو راه (کانال) یا بیشتر، یا در طول دست کم شش ساعت. "
        "عددها، نمبرهای تیلفون، ایمیل‌ها، آدرس‌های ویب و نام‌ها پیش از ذخیره پاک می‌شوند. "
        "معلوماتی را که نیست اضافه کنید تا دستیار بتواند جواب بدهد.",
        "ps": "یوازې هغه وخت ښودل کېږي چې لږ تر لږه {n} بېلابېلو خبرو اترو همدا پیغام لېږلی وي، "
        "له دوو یا ډېرو لارو (چینلونو)، یا لږ تر لږه د شپږو ساعتونو په اوږدو کې. "
        "شمېرې، د ټیلیفون شمېرې، ایمیلونه، د وېب پتې او نومونه له ساتلو مخکې لرې کېږي. "
        "نشته معلومات ور زیات کړئ، چې مرستیال یې ځواب ورکړای شي.",
    },
    "no_unanswered": {
        "en": "No message we could not answer was sent by {n} or more conversations.",
        "prs": "هیچ پیام بی‌جوابی از {n} گفتگو یا بیشتر نیامده است.",
        "ps": "هېڅ بې ځوابه پیغام له {n} یا ډېرو خبرو اترو نه دی راغلی.",
    },
    "sent_by": {
        "en": "{conversations} conversations, {times} times",
        "prs": "{conversations} گفتگو، {times} بار",
        "ps": "{conversations} خبرې اترې، {times} ځله",
    },
    "by_intent": {"en": "By question", "prs": "بر اساس سوال", "ps": "د پوښتنې له مخې"},
    "by_language": {"en": "By language", "prs": "بر اساس زبان", "ps": "د ژبې له مخې"},
    "by_channel": {"en": "By channel", "prs": "بر اساس کانال", "ps": "د چینل له مخې"},
    "by_hour": {
        "en": "By hour of the day (Kabul time)",
        "prs": "بر اساس ساعت روز (به وقت کابل)",
        "ps": "د ورځې د ساعت له مخې (د کابل په وخت)",
    },
    "by_day": {"en": "By day", "prs": "بر اساس روز", "ps": "د ورځې له مخې"},
    "messages_column": {"en": "Messages", "prs": "پیام‌ها", "ps": "پیغامونه"},
    "no_questions": {
        "en": "Nobody has written in the last 7 days.",
        "prs": "در ۷ روز گذشته کسی پیام نفرستاده است.",
        "ps": "په تېرو ۷ ورځو کې چا پیغام نه دی لېږلی.",
    },
    # What replaced a part of a message before it was stored (kernel/question_mask.py).
    "mask_phone": {"en": "[phone]", "prs": "[نمبر تیلفون]", "ps": "[ټیلیفون شمېره]"},
    "mask_number": {"en": "[number]", "prs": "[عدد]", "ps": "[شمېره]"},
    "mask_email": {"en": "[e-mail]", "prs": "[ایمیل]", "ps": "[ایمیل]"},
    "mask_url": {"en": "[web address]", "prs": "[آدرس ویب]", "ps": "[وېب پته]"},
    "mask_name": {"en": "[name]", "prs": "[نام]", "ps": "[نوم]"},
    "script_Arab": {"en": "Arabic script", "prs": "خط عربی", "ps": "عربي لیک"},
    "script_Latn": {"en": "Latin letters", "prs": "حروف لاتین", "ps": "لاتیني توري"},
    #: What people ask, by intent (bot/domain/); an intent not listed shows its name.
    **group(
        "intent",
        {
            "nlu_fallback": {"en": "Not understood", "prs": "فهمیده نشد", "ps": "پوه نه شو"},
            "out_of_scope": {
                "en": "Outside what we answer",
                "prs": "بیرون از موضوعات ما",
                "ps": "زموږ له موضوعاتو بهر",
            },
            "greet": {"en": "Greeting", "prs": "سلام", "ps": "سلام"},
            "goodbye": {"en": "Goodbye", "prs": "خداحافظی", "ps": "خدای پامان"},
            "thank": {"en": "Thanks", "prs": "تشکر", "ps": "مننه"},
            "ask_flights": {"en": "Flights", "prs": "پروازها", "ps": "الوتنې"},
            "ask_airport_status": {
                "en": "Airport and gates",
                "prs": "میدان هوایی و دروازه‌ها",
                "ps": "هوايي ډګر او دروازې",
            },
            "ask_announcements": {"en": "Announcements", "prs": "اعلامیه‌ها", "ps": "اعلانونه"},
            "ask_documents": {"en": "Documents to bring", "prs": "اسناد لازم", "ps": "اړین اسناد"},
            "check_claim": {
                "en": "Is this rumour true?",
                "prs": "این گپ راست است؟",
                "ps": "دا خبره رښتیا ده؟",
            },
            "ask_help": {
                "en": "Who can help",
                "prs": "کسانی که کمک کرده می‌توانند",
                "ps": "څوک مرسته کوي",
            },
            "ask_human": {
                "en": "A person to talk to",
                "prs": "صحبت با یک انسان",
                "ps": "له انسان سره خبرې",
            },
            "ask_safety": {"en": "Safety", "prs": "امنیت", "ps": "خوندیتوب"},
            "follow_up": {
                "en": "Follow-up question",
                "prs": "سوال بعدی (ادامهٔ گفتگو)",
                "ps": "پسې پوښتنه",
            },
            "set_language": {"en": "Change language", "prs": "تغییر زبان", "ps": "د ژبې بدلول"},
            "subscribe_alerts": {
                "en": "Alerts: subscribe",
                "prs": "ثبت نام پیام خبری",
                "ps": "د خبرتیا ګډون",
            },
            "unsubscribe_alerts": {
                "en": "Alerts: stop",
                "prs": "قطع پیام خبری",
                "ps": "د خبرتیا بندول",
            },
            "list_subscriptions": {
                "en": "My alerts",
                "prs": "پیام‌های خبری من",
                "ps": "زما خبرتیاوې",
            },
            "show_menu": {"en": "Menu", "prs": "مینو", "ps": "مینو"},
            "delete_my_data": {
                "en": "Delete my data",
                "prs": "پاک کردن معلومات من",
                "ps": "زما د معلوماتو ړنګول",
            },
        },
    ),
}
