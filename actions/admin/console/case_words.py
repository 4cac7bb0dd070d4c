"""The caseworkers' pages' own words, three languages side by side (merged into ``words``)."""

from __future__ import annotations

from typing import Final

CASE_WORDS: Final[dict[str, dict[str, str]]] = {
    "cases": {"en": "Cases", "prs": "قضیه‌ها", "ps": "قضیې"},
    "open_cases": {"en": "Open cases: {n}", "prs": "قضیه‌های باز: {n}", "ps": "خلاصې قضیې: {n}"},
    "no_cases": {
        "en": "Nobody is waiting for a caseworker.",
        "prs": "هیچ کس منتظر کارمند نیست.",
        "ps": "هېڅوک د کارکوونکي په تمه نه دی.",
    },
    "case_title": {"en": "Case {n}", "prs": "قضیهٔ {n}", "ps": "{n} قضیه"},
    "urgent": {"en": "Urgent", "prs": "عاجل", "ps": "بیړنی"},
    "waiting": {"en": "Waiting", "prs": "منتظر", "ps": "په تمه"},
    "taken": {"en": "Taken", "prs": "گرفته شده", "ps": "اخیستل شوې"},
    "waiting_for": {"en": "waiting {time}", "prs": "{time} انتظار", "ps": "{time} انتظار"},
    "writes_in": {"en": "Writes in", "prs": "زبان", "ps": "ژبه"},
    "on_channel": {"en": "Channel", "prs": "کانال", "ps": "چینل"},
    "held_by": {"en": "Taken by", "prs": "گرفته شده توسط", "ps": "اخیستونکی"},
    "person_wrote": {"en": "The person", "prs": "شخص", "ps": "کس"},
    "assistant_said": {"en": "The assistant", "prs": "دستیار", "ps": "مرستیال"},
    "caseworker_said": {"en": "Caseworker", "prs": "کارمند", "ps": "کارکوونکی"},
    "take_case": {"en": "Take this case", "prs": "این قضیه را بگیرید", "ps": "دا قضیه واخلئ"},
    "you_took_it": {
        "en": "You hold this case now.",
        "prs": "این قضیه حالا به شما است.",
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
        "ps": "{n} قضیه پای ته ورسېده؛ مرستیال بیا دې کس ته ځواب ورکوي.",
    },
    "hand_back_failed": {
        "en": "The assistant could not take the conversation back; the case is still yours. Retry.",
        "prs": "دستیار نتوانست گفتگو را پس بگیرد؛ قضیه هنوز به شما است. دوباره کوشش کنید.",
        "ps": "مرستیال ونه شو کولای خبرې بېرته واخلي؛ قضیه لا هم ستاسو سره ده. بیا هڅه وکړئ.",
    },
    "not_for_editor": {
        "en": "This page is for caseworkers. Editors do not see people's cases.",
        "prs": "این صفحه برای کارمندان قضیه‌ها است. ویرایشگران قضیه‌های مردم را نمی‌بینند.",
        "ps": "دا پاڼه د قضیو کارکوونکو لپاره ده. اېډیټران د خلکو قضیې نه ویني.",
    },
    "not_for_caseworker": {
        "en": "This page is for editors. Caseworkers do not change the content.",
        "prs": "این صفحه برای ویرایشگران است. کارمندان قضیه‌ها معلومات را تغییر نمی‌دهند.",
        "ps": "دا پاڼه د اېډیټرانو لپاره ده. د قضیو کارکوونکي معلومات نه بدلوي.",
    },
}
