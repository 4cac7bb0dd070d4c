"""Alerts as the person reads them, and the names of what they subscribed to.

The action server writes an alert's finished text (action_send_alert) because it must also
travel as one WhatsApp template parameter; Rasa delivers it as written. What matters most
comes first: an SMS shows about 200 Dari or Pashto characters before "MORE". But the very first
line says nothing of what it is about: a locked phone shows it to whoever holds the phone
(docs/DATA_PROTECTION.md, "Lock screens"). The opt-out words
named here («توقف», «بس», STOP) must stay those bot/nlu/stop_keywords.py understands.
Variables as in the domain's airport, flights and announcements responses; ``claim`` is the
verdict on a rumour the person asked about (``format.claim_block``), sent once, so it names no
STOP: nothing more will come of it.
"""

from __future__ import annotations

from typing import Final

from kernel.lang.texts.catalogue import Entry

TEXTS: Final[dict[str, Entry]] = {
    # Topic names, put together into {topics} ("airport status, flights to Doha"): short, no
    # full stop.
    "topic_airport": {
        "en": "airport status",
        "prs": "وضعیت میدان هوایی",
        "ps": "د هوايي ډګر حالت",
    },
    "topic_flights": {
        "en": "flights to {destination}",
        "prs": "پروازها به {destination}",
        "ps": "{destination} ته الوتنې",
    },
    "topic_flights_all": {
        "en": "all new or changed flights",
        "prs": "همه پروازهای جدید یا تغییر یافته",
        "ps": "ټولې نوې یا بدلې شوې الوتنې",
    },
    "topic_announcements": {
        "en": "new official announcements",
        "prs": "اعلامیه‌های رسمی جدید",
        "ps": "ټول نوي رسمي اعلانونه",
    },
    "airport": {
        "en": "The update you asked for:\n{airport}: {status}\nAdvice: {advice}\nGates:\n{gates}\n"
        "{provenance}\nReply STOP to end alerts.",
        "prs": "خبری که خواسته بودید:\n{airport}: {status}\nمشوره: {advice}\n"
        "دروازه‌ها:\n{gates}\n{provenance}\nبرای قطع این پیام‌ها «توقف» بنویسید.",
        "ps": "هغه خبر چې غوښتی مو و:\n{airport}: {status}\nمشوره: {advice}\n"
        "دروازې:\n{gates}\n{provenance}\nکه خبرتیاوې نه غواړئ، «بس» ولیکئ.",
    },
    "flights": {
        "en": "The update you asked for:\n"
        "New or changed flights (Kabul time):\n{flights}\n{provenance}\n"
        "Go to the airport only when your embassy or organisation tells you to.\n"
        "Reply STOP to end alerts.",
        "prs": "خبری که خواسته بودید:\n"
        "پروازهای جدید یا تغییر یافته (به وقت کابل):\n{flights}\n{provenance}\n"
        "فقط وقتی به میدان هوایی بروید که سفارت یا مؤسسه‌تان خبر داده باشد.\n"
        "برای قطع این پیام‌ها «توقف» بنویسید.",
        "ps": "هغه خبر چې غوښتی مو و:\n"
        "نوې یا بدلې شوې الوتنې (د کابل په وخت):\n{flights}\n{provenance}\n"
        "هوايي ډګر ته یوازې هغه وخت ورشئ چې سفارت یا موسسې مو درته ویلي وي.\n"
        "که خبرتیاوې نه غواړئ، «بس» ولیکئ.",
    },
    "announcement": {
        "en": "The update you asked for:\n"
        "A new official announcement:\n{announcements}\nReply STOP to end alerts.",
        "prs": "خبری که خواسته بودید:\n"
        "اعلامیهٔ رسمی جدید:\n{announcements}\nبرای قطع این پیام‌ها «توقف» بنویسید.",
        "ps": "هغه خبر چې غوښتی مو و:\n"
        "نوی رسمي اعلان:\n{announcements}\nکه خبرتیاوې نه غواړئ، «بس» ولیکئ.",
    },
    "claim": {
        "en": "The answer you asked for:\n{claim}",
        "prs": "جوابی که خواسته بودید:\n{claim}",
        "ps": "هغه ځواب چې غوښتی مو و:\n{claim}",
    },
    "answer": {
        "en": "You asked: {question}\nOur answer now:\n{answer}\n{verified}",
        "prs": "شما پرسیده بودید: {question}\nجواب ما حالا:\n{answer}\n{verified}",
        "ps": "تاسو پوښتلي وو: {question}\nزموږ ځواب اوس:\n{answer}\n{verified}",
    },
}
