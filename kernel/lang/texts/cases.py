"""Words around a caseworker's work: the caseworkers' pages of the console, and the words that
say who a reply is from when it reaches the person (``reply``).
"""

from __future__ import annotations

from typing import Final

from kernel.lang.texts.catalogue import Entry

TEXTS: Final[dict[str, Entry]] = {
    # A caseworker's reply as the person gets it (action_send_case_reply): {reply} is the
    # caseworker's text, as written; these words say who it is from.
    "reply": {
        "en": "From your caseworker:\n{reply}",
        "prs": "پیام کارمند شما:\n{reply}",
        "ps": "ستاسو د کارکوونکي ځواب:\n{reply}",
    },
    # Lines the assistant writes into a case, in the case's language, for the caseworker.
    "line_restored_held": {
        "en": "(The assistant restarted and lost this conversation; it is held for you again.)",
        "prs": "(دستیار از نو شروع شد و این گفتگو را گم کرد؛ دوباره برای شما نگه داشته شد.)",
        "ps": "(مرستیال بیا پیل شو او دا خبرې یې ورکې کړې؛ بیا ستاسو لپاره وساتل شوې.)",
    },
    "line_restored_waiting": {
        "en": "(The assistant restarted and lost this conversation; it answers the person "
        "again until a caseworker replies.)",
        "prs": "(دستیار از نو شروع شد و این گفتگو را گم کرد؛ تا کارمند جواب ندهد، دستیار دوباره "
        "به این شخص جواب می‌دهد.)",
        "ps": "(مرستیال بیا پیل شو او دا خبرې یې ورکې کړې؛ تر هغه چې کارکوونکی ځواب ورنه کړي، "
        "مرستیال بیا دې کس ته ځواب ورکوي.)",
    },
    "line_withdrawn": {
        "en": "(The person withdrew the request; the case is closed.)",
        "prs": "(این شخص درخواست خود را پس گرفت؛ قضیه بسته شد.)",
        "ps": "(دې کس خپله غوښتنه بېرته واخیسته؛ قضیه وتړل شوه.)",
    },
    "cases": {"en": "Cases", "prs": "قضیه‌ها", "ps": "قضیې"},
    "open_cases": {"en": "Open cases: {n}", "prs": "قضیه‌های باز: {n}", "ps": "خلاصې قضیې: {n}"},
    "no_cases": {
        "en": "Nobody is waiting for a caseworker.",
        "prs": "هیچ کس منتظر کارمند نیست.",
        "ps": "هېڅوک د کارکوونکي په تمه نه دی.",
    },
    # A caseworker signed in before caseworkers had organisations (migration 0026): the
    # operator's command follows it, in Latin letters.
    "no_organisation": {
        "en": "Your sign-in names no organisation, so you see only the cases no organisation "
        "answers. Ask the operator to name yours:",
        "prs": "ورود شما هیچ مؤسسه‌ای را نام نمی‌برد، پس تنها قضیه‌هایی را می‌بینید که هیچ "
        "مؤسسه‌ای به آن‌ها جواب نمی‌دهد. از مسئول سرور بخواهید مؤسسهٔ شما را تعیین کند:",
        "ps": "ستاسو ننوتل هېڅ اداره نه نوموي، نو یوازې هغه قضیې وینئ چې هېڅ اداره یې ځواب نه "
        "ورکوي. د سرور له مسؤل څخه وغواړئ چې ستاسو اداره وټاکي:",
    },
    "case_title": {"en": "Case {n}", "prs": "قضیهٔ {n}", "ps": "قضیه {n}"},
    "urgent": {"en": "Urgent", "prs": "عاجل", "ps": "بیړنی"},
    "waiting": {"en": "Waiting", "prs": "منتظر", "ps": "په تمه"},
    "taken": {"en": "Taken", "prs": "گرفته شده", "ps": "اخیستل شوې"},
    "waiting_for": {"en": "waiting {time}", "prs": "{time} انتظار", "ps": "{time} انتظار"},
    "writes_in": {"en": "Writes in", "prs": "زبان", "ps": "ژبه"},
    "on_channel": {"en": "Channel", "prs": "کانال", "ps": "چینل"},
    "held_by": {"en": "Taken by", "prs": "گرفته شده توسط", "ps": "اخیستې ده:"},
    "person_wrote": {"en": "The person", "prs": "شخص", "ps": "کس"},
    "assistant_said": {"en": "The assistant", "prs": "دستیار", "ps": "مرستیال"},
    "caseworker_said": {"en": "Caseworker", "prs": "کارمند", "ps": "کارکوونکی"},
    "take_case": {"en": "Take this case", "prs": "این قضیه را بگیرید", "ps": "دا قضیه واخلئ"},
    "you_took_it": {
        "en": "You hold this case now.",
        "prs": "این قضیه حالا نزد شما است.",
        "ps": "دا قضیه اوس ستاسو سره ده.",
    },
    "taken_already": {
        "en": "{name} took this case first.",
        "prs": "{name} این قضیه را پیش از شما گرفت.",
        "ps": "{name} دا قضیه تر تاسو مخکې واخیسته.",
    },
    "close_case": {
        "en": "Close: hand back to the assistant",
        "prs": "ختم: گفتگو را به دستیار بسپارید",
        "ps": "پای: خبرې مرستیال ته وسپارئ",
    },
    "case_closed": {
        "en": "Case {n} closed; the assistant answers this person again.",
        "prs": "قضیهٔ {n} ختم شد؛ دستیار دوباره به این شخص جواب می‌دهد.",
        "ps": "قضیه {n} پای ته ورسېده؛ مرستیال بیا دې کس ته ځواب ورکوي.",
    },
    "case_closed_not_told": {
        "en": "Case {n} closed; the assistant answers this person again. They could not be "
        "told now: they will see it when they next write.",
        "prs": "قضیهٔ {n} ختم شد؛ دستیار دوباره به این شخص جواب می‌دهد. همین حالا به او خبر داده "
        "نشد: وقتی دوباره پیام بفرستد، می‌بیند.",
        "ps": "قضیه {n} پای ته ورسېده؛ مرستیال بیا دې کس ته ځواب ورکوي. اوس ورته خبر ور نه "
        "کړای شو: کله چې بیا پیغام ولېږي، بیا به یې وویني.",
    },
    "reply_title": {"en": "Reply", "prs": "جواب", "ps": "ځواب"},
    "reply_text": {
        "en": "Your reply (the person sees it on their own channel)",
        "prs": "جواب شما (شخص آن را در کانال خودش می‌بیند)",
        "ps": "ستاسو ځواب (کس یې په خپل چینل کې ویني)",
    },
    "reply_language": {"en": "Send in", "prs": "به زبان", "ps": "په ژبه"},
    "send_reply": {"en": "Send", "prs": "بفرستید", "ps": "ولېږئ"},
    "saved_replies": {
        "en": "Saved replies (sent at once in the language above)",
        "prs": "جواب‌های آماده (فوراً به زبانی که بالا انتخاب شده فرستاده می‌شوند)",
        "ps": "چمتو ځوابونه (سمدستي په هغه ژبه لېږل کېږي چې پورته ټاکل شوې)",
    },
    "reply_queued": {
        "en": "Your reply is on its way to the person.",
        "prs": "جواب شما به طرف شخص در راه است.",
        "ps": "ستاسو ځواب کس ته په لاره دی.",
    },
    "reply_empty": {
        "en": "Nothing was sent: write a reply or pick a saved one.",
        "prs": "چیزی فرستاده نشد: جواب بنویسید یا یک جواب آماده را انتخاب کنید.",
        "ps": "هېڅ ونه لېږل شو: ځواب ولیکئ یا یو چمتو ځواب وټاکئ.",
    },
    "reply_too_long": {
        "en": "Nothing was sent: a reply can have at most {n} characters. Split it in two.",
        "prs": "چیزی فرستاده نشد: یک جواب حد اکثر {n} حرف داشته می‌تواند. آن را به دو بخش "
        "تقسیم کنید.",
        "ps": "هېڅ ونه لېږل شو: یو ځواب تر {n} تورو زیات نه شي کېدای. په دوو برخو یې ووېشئ.",
    },
    "reply_language_unknown": {
        "en": "Nothing was sent: choose English, Dari or Pashto.",
        "prs": "چیزی فرستاده نشد: انگلیسی، دری یا پښتو را انتخاب کنید.",
        "ps": "هېڅ ونه لېږل شو: انګلیسي، دري یا پښتو وټاکئ.",
    },
    "not_your_case": {
        "en": "Nothing was sent: only the caseworker who holds an open case can reply.",
        "prs": "چیزی فرستاده نشد: تنها کارمندی که قضیهٔ باز را گرفته، جواب داده می‌تواند.",
        "ps": "هېڅ ونه لېږل شو: یوازې هغه کارکوونکی ځواب ورکولای شي چې خلاصه قضیه یې اخیستې ده.",
    },
    "reply_on_its_way": {"en": "on its way", "prs": "در راه", "ps": "په لاره کې"},
    "reply_delivered": {"en": "delivered", "prs": "رسید", "ps": "ورسېد"},
    "reply_not_delivered": {
        "en": "not delivered",
        "prs": "نرسید",
        "ps": "ونه رسېد",
    },
    "reply_retrying": {
        "en": "not delivered yet, trying again",
        "prs": "هنوز نرسیده، دوباره کوشش می‌شود",
        "ps": "لا نه دی رسېدلی، بیا هڅه کېږي",
    },
    "reply_not_sent_yet": {
        "en": "not sent yet",
        "prs": "هنوز فرستاده نشده",
        "ps": "لا نه دی لېږل شوی",
    },
    # What the provider said of a reply once it took it (kernel/delivery_statuses.py).
    "reply_sent": {
        "en": "sent, not yet delivered",
        "prs": "فرستاده شد، هنوز نرسیده",
        "ps": "ولېږل شو، لا نه دی رسېدلی",
    },
    "reply_read": {"en": "read", "prs": "خوانده شد", "ps": "ولوستل شو"},
    "reply_failed": {"en": "failed", "prs": "ناکام شد", "ps": "ناکام شو"},
    # Why, by the provider's error code, after "failed:" or "not delivered:".
    "provider_not_on_whatsapp": {
        "en": "not on WhatsApp",
        "prs": "در واتس‌اپ نیست",
        "ps": "په واټس‌اپ کې نشته",
    },
    "provider_stopped": {
        "en": "the person texted STOP: no more SMS reach them",
        "prs": "شخص STOP فرستاده: دیگر هیچ پیامکی به او نمی‌رسد",
        "ps": "کس STOP لېږلی: نور هېڅ پیغام ورته نه رسېږي",
    },
    "provider_unknown_number": {
        "en": "the number does not exist",
        "prs": "این شماره وجود ندارد",
        "ps": "دا شمېره نشته",
    },
    "provider_landline": {
        "en": "the number cannot receive SMS (a landline)",
        "prs": "این شماره پیامک گرفته نمی‌تواند (تلفن ثابت)",
        "ps": "دا شمېره پیغام نه شي اخیستلای (ثابت تلیفون)",
    },
    "provider_phone_off": {
        "en": "the phone is off or out of coverage",
        "prs": "تلفن خاموش است یا آنتن ندارد",
        "ps": "ټیلیفون بند دی یا انټن نه لري",
    },
    "provider_window_closed": {
        "en": "WhatsApp allows no free message now (more than 24 hours since the person wrote)",
        "prs": "واتس‌اپ حالا پیام آزاد را اجازه نمی‌دهد (بیشتر از ۲۴ ساعت از آخرین پیام شخص گذشته)",
        "ps": "واټس‌اپ اوس آزاد پیغام نه پرېږدي (د کس له وروستي پیغام ۲۴ ساعته ډېر تېر شوي)",
    },
    # The person's channel refused them for good (actions/alerts/unreachable.py).
    "case_unreachable": {
        "en": "This person can no longer be reached: their channel refused our messages for "
        "good (they blocked the assistant, are not on WhatsApp, or texted STOP). If they write "
        "again, you can reply.",
        "prs": "دیگر به این شخص رسیده نمی‌توانیم: کانال او پیام‌های ما را برای همیشه رد کرد "
        "(دستیار را بلاک کرده، در واتس‌اپ نیست، یا STOP فرستاده). اگر دوباره پیام بنویسد، "
        "جواب داده می‌توانید.",
        "ps": "دې کس ته نور نه شو رسېدای: د هغه چینل زموږ پیغامونه د تل لپاره رد کړل (مرستیال "
        "یې بلاک کړی، په واټس‌اپ کې نشته، یا یې STOP لېږلی). که بیا ولیکي، ځواب ورکولای شئ.",
    },
    "reply_unreachable": {
        "en": "A reply would not reach this person now.",
        "prs": "جواب شما حالا به این شخص نمی‌رسد.",
        "ps": "ستاسو ځواب اوس دې کس ته نه رسېږي.",
    },
    "undelivered_refused": {
        "en": "the person blocked the assistant or left the channel: they can no longer be reached",
        "prs": "شخص دستیار را بلاک کرده یا از کانال بیرون شده: دیگر به او رسیده نمی‌توانیم",
        "ps": "کس مرستیال بلاک کړی یا له چینل وتلی: نور ورته نه شو رسېدای",
    },
    "undelivered_notifier_idle": {
        "en": "nothing is sending replies (the notifier is not running): tell the operator",
        "prs": "هیچ چیز جواب‌ها را نمی‌فرستد (فرستنده روشن نیست): به مسئول سرور خبر دهید",
        "ps": "هېڅ شی ځوابونه نه لېږي (لېږونکی نه چلېږي): د سرور مسؤل ته خبر ورکړئ",
    },
    # Why a reply did not arrive (actions/cases/undelivered.py), after "not delivered:".
    "undelivered_unreachable": {
        "en": "the person can no longer be reached on their channel (they deleted their data, "
        "or their address expired)",
        "prs": "دیگر به این شخص در کانال خودش رسیده نمی‌توانیم (معلومات خود را پاک کرده، یا "
        "آدرس او ختم شده)",
        "ps": "دا کس نور په خپل چینل کې نه شو موندلای (خپل معلومات یې پاک کړي، یا یې پته "
        "پای ته رسېدلې)",
    },
    "undelivered_server_key": {
        "en": "the server lacks its address key (ADDRESS_ENCRYPTION_KEY): tell the operator",
        "prs": "سرور کلید آدرس‌ها (ADDRESS_ENCRYPTION_KEY) را ندارد: به مسئول سرور خبر دهید",
        "ps": "سرور د پتو کیلي (ADDRESS_ENCRYPTION_KEY) نه لري: د سرور مسؤل ته خبر ورکړئ",
    },
    "undelivered_channel_refused": {
        "en": "the person's channel refused the message",
        "prs": "کانال شخص پیام را قبول نکرد",
        "ps": "د کس چینل پیغام ونه مانه",
    },
    "undelivered_not_fetched": {
        "en": "the person has not opened their chat for a long time",
        "prs": "شخص از مدتی زیاد چت خود را باز نکرده",
        "ps": "کس له ډېر وخت راهیسې خپل چټ نه دی خلاص کړی",
    },
    "undelivered_assistant_down": {
        "en": "the assistant's server could not be reached: tell the operator",
        "prs": "به سرور دستیار رسیده نشد: به مسئول سرور خبر دهید",
        "ps": "د مرستیال سرور ته ونه رسېدو: د سرور مسؤل ته خبر ورکړئ",
    },
    "undelivered_cancelled": {
        "en": "cancelled: the person deleted their data",
        "prs": "لغو شد: شخص معلومات خود را پاک کرد",
        "ps": "لغوه شو: کس خپل معلومات پاک کړل",
    },
    "undelivered_other": {
        "en": "the notifier gave up after its attempts (its log says why)",
        "prs": "فرستنده پس از چند کوشش دست کشید (علت در لاگ آن است)",
        "ps": "لېږونکي له څو هڅو وروسته لاس واخیست (لامل یې په لاګ کې دی)",
    },
    "closed": {"en": "Closed", "prs": "ختم شده", "ps": "تړل شوې"},
    "closed_at": {"en": "closed {time}", "prs": "ختم شده {time}", "ps": "تړل شوې {time}"},
    "read_only": {
        "en": "This case is closed: you can read it, not change it.",
        "prs": "این قضیه ختم شده: آن را خوانده می‌توانید، اما تغییر داده نمی‌توانید.",
        "ps": "دا قضیه تړل شوې: لوستلای یې شئ، خو بدلولای یې نه شئ.",
    },
    # Between the facts of a case's line: never «·», which beside Persian digits reads as «۰».
    "sep": {"en": " · ", "prs": "، ", "ps": "، "},
    # The queue's filters, search, pages and bulk close (actions/admin/console/cases.py).
    "filter_title": {"en": "Show only", "prs": "فقط نشان بده", "ps": "یوازې وښایه"},
    "filter_any": {"en": "All", "prs": "همه", "ps": "ټول"},
    "filter_waited": {"en": "Waiting", "prs": "مدت انتظار", "ps": "د انتظار موده"},
    "age_under_15m": {"en": "under 15 min", "prs": "کمتر از ۱۵ دقیقه", "ps": "له ۱۵ دقیقو کم"},
    "age_over_15m": {"en": "over 15 min", "prs": "بیشتر از ۱۵ دقیقه", "ps": "له ۱۵ دقیقو ډېر"},
    "age_over_1h": {"en": "over 1 hour", "prs": "بیشتر از ۱ ساعت", "ps": "له ۱ ساعت ډېر"},
    "age_over_1d": {"en": "over 1 day", "prs": "بیشتر از ۱ روز", "ps": "له ۱ ورځې ډېر"},
    "filter_show": {"en": "Show", "prs": "نشان بده", "ps": "وښایه"},
    "find_case": {"en": "Case number", "prs": "شمارهٔ قضیه", "ps": "د قضیې شمېره"},
    "find_open": {"en": "Open", "prs": "باز کن", "ps": "پرانیزه"},
    "no_such_case": {
        "en": "There is no case {n}.",
        "prs": "قضیهٔ {n} وجود ندارد.",
        "ps": "قضیه {n} نشته.",
    },
    "matching_cases": {
        "en": "{n} of them match.",
        "prs": "{n} قضیه با انتخاب شما مطابقت دارد.",
        "ps": "{n} قضیې ستاسو له ټاکنې سره سمون لري.",
    },
    "page_of": {
        "en": "Page {page} of {pages}",
        "prs": "صفحهٔ {page} از {pages}",
        "ps": "{page} پاڼه له {pages} څخه",
    },
    "previous_page": {"en": "Previous page", "prs": "صفحهٔ قبلی", "ps": "مخکنۍ پاڼه"},
    "next_page": {"en": "Next page", "prs": "صفحهٔ بعدی", "ps": "بله پاڼه"},
    "select_case": {
        "en": "Select case {n}",
        "prs": "انتخاب قضیهٔ {n}",
        "ps": "د {n} قضیې ټاکل",
    },
    "close_as_abuse": {
        "en": "Close the selected cases as abuse (fake requests; nobody is sent a message)",
        "prs": "قضیه‌های انتخاب شده را به عنوان سوءاستفاده ختم کنید (درخواست‌های جعلی؛ به هیچ "
        "کس پیام فرستاده نمی‌شود)",
        "ps": "ټاکل شوې قضیې د ناوړه ګټې اخیستنې په توګه وتړئ (جعلي غوښتنې؛ هېچا ته پیغام نه "
        "لېږل کېږي)",
    },
    "closed_as_abuse": {
        "en": "{n} cases closed as abuse; {left} left open (another caseworker holds them, or "
        "the assistant could not take them back).",
        "prs": "{n} قضیه به عنوان سوءاستفاده ختم شد؛ {left} قضیه باز ماند (کارمند دیگری آن را "
        "گرفته، یا دستیار نتوانست آن را پس بگیرد).",
        "ps": "{n} قضیې د ناوړه ګټې اخیستنې په توګه وتړل شوې؛ {left} قضیې خلاصې پاتې شوې (بل "
        "کارکوونکي اخیستې، یا مرستیال ونه شو کولای بېرته یې واخلي).",
    },
    "closed_as_abuse_none": {
        "en": "Nothing was closed: select the cases first.",
        "prs": "هیچ قضیه ختم نشد: اول قضیه‌ها را انتخاب کنید.",
        "ps": "هېڅ قضیه ونه تړل شوه: لومړی قضیې وټاکئ.",
    },
    "saved_in": {
        "en": "Saved replies, in the language they are sent in: {chosen}",
        "prs": "جواب‌های آماده، به زبانی که فرستاده می‌شوند: {chosen}",
        "ps": "چمتو ځوابونه، په هغه ژبه چې لېږل کېږي: {chosen}",
    },
    "hand_back_failed": {
        "en": "The assistant could not take the conversation back; the case is still yours. Retry.",
        "prs": "دستیار نتوانست گفتگو را پس بگیرد؛ قضیه هنوز نزد شما است. دوباره کوشش کنید.",
        "ps": "مرستیال ونه شو کولای خبرې بېرته واخلي؛ قضیه لا هم ستاسو سره ده. بیا هڅه وکړئ.",
    },
    "not_for_editor": {
        "en": "This page is for caseworkers. Editors do not see people's cases.",
        "prs": "این صفحه برای کارمندان قضیه‌ها است. ایدیتوران قضیه‌های مردم را نمی‌بینند.",
        "ps": "دا پاڼه د قضیو کارکوونکو لپاره ده. اېډیټران د خلکو قضیې نه ویني.",
    },
    "not_for_caseworker": {
        "en": "This page is for editors. Caseworkers do not change the content.",
        "prs": "این صفحه برای ایدیتوران است. کارمندان قضیه‌ها معلومات را تغییر نمی‌دهند.",
        "ps": "دا پاڼه د اېډیټرانو لپاره ده. د قضیو کارکوونکي معلومات نه بدلوي.",
    },
}
