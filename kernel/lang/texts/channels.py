"""The few sentences a connector says by itself, without the bot.

Everything the assistant says about flights, the airport or documents lives in the domain
(bot/domain/). These are the exceptions: a voice note or a photo never reaches the NLU, and
when the assistant itself fails (a dead action server, a lost database) there is no bot left
to say sorry, so the connector says it here.
"""

from __future__ import annotations

from typing import Final

from kernel.lang.texts.catalogue import Entry

TEXTS: Final[dict[str, Entry]] = {
    # Sent for a voice note, a photo without a caption, a sticker or an empty SMS: say what
    # works instead.
    # Short enough that all three languages together fit in three SMS.
    "text_only": {
        "en": "I can only read text. Please write your question.",
        "prs": "من فقط متن را خوانده می‌توانم. لطفاً سوال‌تان را بنویسید.",
        "ps": "زه یوازې لیکل شوی متن لوستلای شم. مهرباني وکړئ خپله پوښتنه ولیکئ.",
    },
    # Sent when the assistant failed to answer: silence would leave a frightened person guessing.
    "try_again": {
        "en": "Sorry, something went wrong. Please try again in a few minutes.",
        "prs": "ببخشید، مشکلی پیش آمد. چند دقیقه بعد دوباره کوشش کنید.",
        "ps": "بښنه غواړم، ستونزه پېښه شوه. څو دقیقې وروسته بیا هڅه وکړئ.",
    },
    # Sent when a turn stopped after its first reply (its server was killed): the person has
    # part of an answer and does not know it; running the turn again could repeat its actions.
    "cut_off": {
        "en": "Sorry, my answer to your last message may be incomplete. Please send it again.",
        "prs": "ببخشید، جواب پیام آخرتان شاید کامل نباشد. لطفاً آن را دوباره بفرستید.",
        "ps": "بښنه غواړم، ستاسو د وروستي پیغام ځواب ښايي بشپړ نه وي. مهرباني وکړئ بیا یې ولېږئ.",
    },
    # Added to try_again when the operator set EMERGENCY_HOTLINE (the same sentence as the
    # action server's utter_content_unavailable_hotline).
    "call_hotline": {
        "en": "If you need help now, call {hotline}.",
        "prs": "اگر همین حالا به کمک ضرورت دارید، به {hotline} زنگ بزنید.",
        "ps": "که همدا اوس مرستې ته اړتیا لرئ، {hotline} ته زنګ ووهئ.",
    },
    # Sent once (at most every ten minutes) to a person whose message waits in line in a surge
    # (bot/channels/intake/): silence would make them write again, or give up.
    "in_line": {
        "en": "Many people are writing now. Your question is in line; the answer comes in "
        "about {minutes} minutes.",
        "prs": "فعلاً مردم زیاد پیام می‌فرستند. سوال‌تان در نوبت است؛ جواب تقریباً بعد از "
        "{minutes} دقیقه می‌رسد.",
        "ps": "اوس ډېر خلک پیغامونه لېږي. ستاسو پوښتنه په کتار کې ده؛ ځواب به نږدې {minutes} "
        "دقیقې وروسته درشي.",
    },
    # The same notice when the answer is less than a minute away (bot/channels/waits.py).
    "in_line_soon": {
        "en": "Many people are writing now. Your question is in line; the answer comes in a "
        "moment.",
        "prs": "فعلاً مردم زیاد پیام می‌فرستند. سوال‌تان در نوبت است؛ جواب چند لحظه بعد می‌رسد.",
        "ps": "اوس ډېر خلک پیغامونه لېږي. ستاسو پوښتنه په کتار کې ده؛ ځواب به څو شېبې وروسته درشي.",
    },
    # Said once a day in a Telegram group the bot was added to, followed by the link to the
    # bot (https://t.me/<bot username>): in a group everyone sees who asks what.
    "write_privately": {
        "en": "For your safety I answer only in a private chat, not in groups. Write to me here:",
        "prs": "برای امنیت شما، من فقط در چت خصوصی جواب می‌دهم، نه در گروپ‌ها. اینجا برایم بنویسید:",
        "ps": (
            "ستاسو د خوندیتوب لپاره زه یوازې په خصوصي چټ کې ځواب ورکوم، په ګروپونو کې نه. "
            "دلته ماته ولیکئ:"
        ),
    },
    # Label of the button that opens a WhatsApp list of choices (WhatsApp allows 20 characters).
    "choose": {"en": "Choose", "prs": "انتخاب کنید", "ps": "غوره کړئ"},
}
