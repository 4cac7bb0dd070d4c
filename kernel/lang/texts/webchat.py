"""The web chat page's own words: its title, the composer, the status lines, the notice shown
without JavaScript. The page gets them from the server with the table of page languages
(``bot/channels/webchat_page.py``), so a language added to ``LANGUAGES`` without them stops
the start like every other entry of the catalogue. ``{seconds}`` is filled in by the page, in
the language's own digits, as is ``{minutes}``.
"""

from __future__ import annotations

from typing import Final

from kernel.lang.texts.catalogue import Entry

TEXTS: Final[dict[str, Entry]] = {
    # The page's title and heading: the word the bot itself uses for the evacuation.
    "title": {"en": "Evacuation information", "prs": "معلومات تخلیه", "ps": "د وېستلو معلومات"},
    # The name of the group of language buttons (read out by screen readers).
    "languages": {"en": "Language", "prs": "زبان", "ps": "ژبه"},
    "label": {"en": "Your question", "prs": "سوال شما", "ps": "ستاسو پوښتنه"},
    "placeholder": {
        "en": "Type your question",
        "prs": "سوال خود را بنویسید",
        "ps": "خپله پوښتنه ولیکئ",
    },
    "send": {"en": "Send", "prs": "ارسال", "ps": "ولېږئ"},
    "reconnecting": {
        "en": "Reconnecting… your message will be sent when the connection is back.",
        "prs": "دوباره وصل می‌شود… پیام شما بعد از وصل شدن فرستاده می‌شود.",
        "ps": "بیا وصلېږي… ستاسو پیغام به له وصلېدو وروسته ولېږل شي.",
    },
    "retry_in": {
        "en": "Reconnecting… next try in {seconds} s.",
        "prs": "دوباره وصل می‌شود… کوشش بعدی پس از {seconds} ثانیه.",
        "ps": "بیا وصلېږي… بله هڅه په {seconds} ثانیو کې.",
    },
    # The server answered 429: many messages from one network (a camp's Wi-Fi, or a flood).
    # The message is kept and sent by itself, after the wait the server gave; the person need
    # not write it again. Under two minutes in seconds, else in minutes (``too_many_minutes``).
    # Below either: the SMS number and the help line (``no_script_sms``, channels.call_hotline).
    "too_many": {
        "en": "Many messages are coming from this network right now. Yours will be sent in "
        "{seconds} s; you do not need to write it again.",
        "prs": "همین حالا از این شبکه پیام‌های زیادی می‌آید. پیام شما پس از {seconds} ثانیه "
        "فرستاده می‌شود؛ لازم نیست آن را دوباره بنویسید.",
        "ps": "همدا اوس له دې شبکې ډېر پیغامونه راځي. ستاسو پیغام به په {seconds} ثانیو کې "
        "ولېږل شي؛ اړتیا نشته چې بیا یې ولیکئ.",
    },
    "too_many_minutes": {
        "en": "Many messages are coming from this network right now. Yours will be sent in "
        "{minutes} min; you do not need to write it again.",
        "prs": "همین حالا از این شبکه پیام‌های زیادی می‌آید. پیام شما پس از {minutes} دقیقه "
        "فرستاده می‌شود؛ لازم نیست آن را دوباره بنویسید.",
        "ps": "همدا اوس له دې شبکې ډېر پیغامونه راځي. ستاسو پیغام به په {minutes} دقیقو کې "
        "ولېږل شي؛ اړتیا نشته چې بیا یې ولیکئ.",
    },
    "refused": {
        "en": "This message could not be sent.",
        "prs": "این پیام فرستاده نشد.",
        "ps": "دا پیغام ونه لېږل شو.",
    },
    # A button at the top: the chat kept on this phone is removed from it (a shared phone).
    "clear": {"en": "Clear this chat", "prs": "پاک کردن این چت", "ps": "دا چټ پاک کړئ"},
    "cleared": {
        "en": "This chat was cleared from this phone. To delete your data on the server too, "
        "send 8.",
        "prs": "این چت از این تیلفون پاک شد. برای پاک کردن معلومات شما از سرور هم، ۸ را بنویسید.",
        "ps": "دا چټ له دې ټیلیفون څخه پاک شو. که غواړئ ستاسو معلومات له سرور څخه هم پاک شي، "
        "۸ ولیکئ.",
    },
    # Shown at the top when the browser runs no JavaScript (proxy browsers on cheap phones).
    "no_script": {
        "en": "This chat does not work in this browser: it needs JavaScript, which is off.",
        "prs": "این چت در این براوزر کار نمی‌کند: به جاوااسکریپت ضرورت دارد که خاموش است.",
        "ps": "دا چټ په دې براوزر کې کار نه کوي: جاوااسکریپټ ته اړتیا لري چې بند دی.",
    },
    "no_script_sms": {
        "en": "Ask the same questions by SMS: {number}",
        "prs": "همین سوال‌ها را با پیام کوتاه (SMS) بپرسید: {number}",
        "ps": "همدا پوښتنې په لنډ پیغام (SMS) وپوښتئ: {number}",
    },
    # The web chat on another site's page (``embed.js``): the button that opens it, at the
    # bottom of the page (a site may give its own words), and the one that closes it again.
    "open": {"en": "Help", "prs": "کمک", "ps": "مرسته"},
    "close": {"en": "Close", "prs": "بستن", "ps": "بندول"},
    "no_script_telegram": {
        "en": "Or on Telegram: {name}",
        "prs": "یا در تلگرام: {name}",
        "ps": "یا په ټیلیګرام کې: {name}",
    },
}
