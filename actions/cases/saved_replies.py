"""Saved replies: what caseworkers write many times a day, ready in the three languages.

A caseworker picks one on the case's page and it is sent in the language chosen there (the
person's by default), exactly as written here; anything else they type themselves. Dari as
Afghans write it, Pashto with its own letters and words.
"""

from __future__ import annotations

from typing import Final

from kernel.lang.codes import refuse_gaps, sentence_gaps

SAVED_REPLIES: Final[dict[str, dict[str, str]]] = {
    "looking_now": {
        "en": "I am looking at your case now.",
        "prs": "همین حالا کار شما را می‌بینم.",
        "ps": "زه همدا اوس ستاسو کار ګورم.",
    },
    "full_name": {
        "en": "Please tell me your full name as it is written in your passport.",
        "prs": "لطفاً نام مکمل‌تان را همان طور که در پاسپورت‌تان نوشته شده، برایم بنویسید.",
        "ps": "مهرباني وکړئ خپل بشپړ نوم هغسې راته ولیکئ "
        "لکه څنګه چې ستاسو په پاسپورټ کې لیکل شوی دی.",
    },
    "safe_place": {
        "en": "Are you in a safe place right now?",
        "prs": "آیا همین حالا در یک جای امن هستید؟",
        "ps": "آیا همدا اوس په یو خوندي ځای کې یاست؟",
    },
    "documents": {
        "en": "Which documents do you have with you? (passport, tazkira, visa, a letter from "
        "your employer)",
        "prs": "کدام اسناد با شما است؟ (پاسپورت، تذکره، ویزه، مکتوب کارفرما)",
        "ps": "کوم اسناد درسره دي؟ (پاسپورټ، تذکره، ویزه، د هغې ادارې لیک چې کار مو پکې کاوه)",
    },
    "people_with_you": {
        "en": "How many people are with you, and are there children among them?",
        "prs": "چند نفر با شما هستند و آیا در میان‌شان طفل هم است؟",
        "ps": "څو کسان درسره دي، او په هغوی کې ماشومان شته؟",
    },
    "asking_colleague": {
        "en": "I am asking a colleague and will write to you again within the hour.",
        "prs": "از یک همکارم می‌پرسم و در ظرف یک ساعت دوباره برایتان پیام می‌دهم.",
        "ps": "له خپل یوه همکار نه پوښتنه کوم او تر یوه ساعت پورې به بیا درته ولیکم.",
    },
}

# Every saved reply in every language, checked at import as the text catalogue's tables are.
refuse_gaps(sentence_gaps(SAVED_REPLIES, "actions/cases/saved_replies.py SAVED_REPLIES"))


def saved_reply(key: str, language: str) -> str | None:
    """The saved reply ``key`` in ``language``; None for an unknown key or language."""
    return SAVED_REPLIES.get(key, {}).get(language)
