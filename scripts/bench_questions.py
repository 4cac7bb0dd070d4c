"""A week of questions at surge volume for the console benchmark (``bench_console.py``).

200 000 turns over 7 days by default, shaped like the assistant's traffic: most people ask about
flights and the airport, 15 % fall back or are out of scope, a third of the messages by day
in Kabul's waking hours, three languages in two scripts on five channels. The unanswered
messages repeat the way such messages do (a few very often, most once: a Zipf-like pool of
3 000 masked texts), each from one of 40 000 conversations (about five turns each).
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Engine, insert
from sqlalchemy.orm import Session

from actions.questions.models import QuestionCount, UnansweredQuestion
from kernel.question_mask import wording

#: The questions page, in English and in Pashto, timed with GET by bench_console.py.
PAGES = {
    "questions (a week of turns)": "/console/questions",
    "questions (Pashto)": "/console/questions?lang=ps",
}
INTENTS = {
    "ask_flights": 30,
    "ask_airport_status": 18,
    "ask_documents": 8,
    "ask_help": 7,
    "ask_announcements": 6,
    "follow_up": 6,
    "greet": 5,
    "show_menu": 3,
    "subscribe_alerts": 2,
    "thank": 1,
    "nlu_fallback": 11,
    "out_of_scope": 4,
}
LANGUAGES = {
    ("prs", "Arab"): 40,
    ("ps", "Arab"): 25,
    ("prs", "Latn"): 12,
    ("ps", "Latn"): 8,
    ("en", "Latn"): 15,
}
CHANNELS = {"whatsapp": 45, "telegram": 25, "sms_gateway": 15, "twilio_sms": 10, "webchat": 5}
WORDS = [
    "پرواز",
    "ویزه",
    "پاسپورت",
    "طفل",
    "مادر",
    "دروازه",
    "کمپ",
    "پول",
    "خانه",
    "ډوډۍ",
    "اوبه",
    "ناروغ",
    "بس",
    "لار",
]


def _pick(rng: random.Random, weights: dict[Any, int]) -> Any:
    return rng.choices(list(weights), weights=list(weights.values()))[0]


def fill_questions(engine: Engine, now: datetime, turns: int, seed: int = 2021) -> int:
    """Writes ``turns`` turns of the week before ``now``; returns how many were unanswered."""
    rng = random.Random(seed)
    hours = [
        (now - timedelta(hours=h)).replace(minute=0, second=0, microsecond=0) for h in range(168)
    ]
    # Busier from 05:30 to 21:30 Kabul time (01:00 to 17:00 UTC).
    busy = [3 if 1 <= hour.hour < 17 else 1 for hour in hours]
    texts = [" ".join(rng.sample(WORDS, 4)) + " [number]" * (n % 2) for n in range(3000)]
    popularity = [1 / (rank + 1) for rank in range(len(texts))]
    counts: Counter[tuple[Any, ...]] = Counter()
    unanswered: list[dict[str, Any]] = []
    for _ in range(turns):
        hour = rng.choices(hours, weights=busy)[0]
        intent = _pick(rng, INTENTS)
        language, script = _pick(rng, LANGUAGES)
        channel = _pick(rng, CHANNELS)
        for facet, value in (("intent", intent), ("language", f"{language}-{script}")):
            counts[(hour, facet, value)] += 1
        counts[(hour, "channel", channel)] += 1
        if intent in ("nlu_fallback", "out_of_scope"):
            conversation = str(rng.randrange(40_000))
            text = rng.choices(texts, weights=popularity)[0]
            unanswered.append(
                {
                    "asked_at": hour + timedelta(seconds=rng.randrange(3600)),
                    "conversation_tag": wording(conversation),  # any 64-bit hash
                    "wording": wording(text),
                    "intent": intent,
                    "language": language,
                    "script": script,
                    "channel": channel,
                    "text": text,
                }
            )
    rows = [
        {"hour": hour, "facet": facet, "value": value, "turns": n}
        for (hour, facet, value), n in counts.items()
    ]
    with Session(engine) as session, session.begin():
        session.execute(insert(QuestionCount), rows)
        for start in range(0, len(unanswered), 5000):
            session.execute(insert(UnansweredQuestion), unanswered[start : start + 5000])
    return len(unanswered)
