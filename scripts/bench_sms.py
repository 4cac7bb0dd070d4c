"""What an SMS user pays for an answer: messages sent and segments received, per question.

For a fixed list of questions in five slices (English; Dari and Pashto, each in Arabic script
and romanized) a person writes over the real ``sms_gateway`` channel of a real stack (Rasa,
action server, the demo content) to the local fake gateway, and keeps writing the channel's
MORE word until the answer holds what they asked for, or ``MAX_SENDS`` is reached. Each person
has said hello first, so the figures are those of a returning user (a new user's first turn
also carries the safety offer). "Answered" is decided from the content database itself: every
upcoming flight to the destination asked about, the gate asked about with its state, the
announcement on the topic asked about with its verification status, the first documents topic,
the first contact's number, each with a "verified … ago" line; the menu with all its numbers.

    .venv/actions/bin/python scripts/bench_sms.py      (make bench-sms; about 2 minutes)

Prints a Markdown table: sends and segments per question and slice; then what a new person's
first message costs (the greeting, or the first question straight away), notice included.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import secrets
import sys
import tempfile
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kernel.lang.letters import TO_ASCII_DIGITS  # noqa: E402
from kernel.sms_segments import segment_count  # noqa: E402
from scripts.fake_providers import SMS_SECRET, FakeProviders  # noqa: E402
from scripts.stack import Stack, free_port  # noqa: E402

MODEL = ROOT / "models" / "assistant.tar.gz"
MAX_SENDS = 8
CREDENTIALS = "bot.channels.sms_gateway.SmsGatewayInput:\n"
#: Bidi controls are invisible: matched text ignores them.
_INVISIBLE = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")


@dataclass(frozen=True)
class Slice:
    name: str
    answer_language: str
    hello: str
    more: str
    questions: dict[str, str]


SLICES: tuple[Slice, ...] = (
    Slice(
        "en",
        "en",
        "hello",
        "MORE",
        {
            "flights to Doha": "when are the flights to Doha",
            "Abbey Gate": "is abbey gate open",
            "amnesty": "amnesty",
            "documents": "which documents do I need",
            "who can help": "who can help me",
            "menu": "menu",
        },
    ),
    Slice(
        "prs Arabic script",
        "prs",
        "سلام",
        "بیشتر",
        {
            "flights to Doha": "پرواز به دوحه کی است",
            "Abbey Gate": "دروازهٔ ابی باز است؟",
            "amnesty": "عفو",
            "documents": "کدام اسناد را همراه بیاورم",
            "who can help": "کی کمک کرده میتواند",
            "menu": "مینو",
        },
    ),
    Slice(
        "prs romanized",
        "prs",
        "salam chetor hasti",
        "beshtar",
        {
            "flights to Doha": "parwaz ba doha chi waqt ast",
            "Abbey Gate": "abbey gate baz ast",
            "amnesty": "afw-e umumi",
            "documents": "kodam asnad ra biyarom",
            "who can help": "ki komak karda metana",
            "menu": "meno",
        },
    ),
    Slice(
        "ps Arabic script",
        "ps",
        "سلام",
        "نور",
        {
            "flights to Doha": "دوحې ته الوتنه کله ده",
            "Abbey Gate": "د ابي دروازه خلاصه ده؟",
            "amnesty": "بښنه",
            "documents": "کوم اسناد له ځان سره یوسم",
            "who can help": "څوک مرسته کولای شي",
            "menu": "مینو",
        },
    ),
    Slice(
        "ps romanized",
        "ps",
        "salam wrora",
        "noor",
        {
            "flights to Doha": "doha ta alwatka kala da",
            "Abbey Gate": "abbey gate khlasa da",
            "amnesty": "umumi afwa",
            "documents": "kom asnad rawrum",
            "who can help": "sok mrasta kawalay shi",
            "menu": "meenu",
        },
    ),
)

Check = Callable[[str], bool]
#: A new person's first turn: (first message, slice, SMS received, segments of each).
first_contact: list[list[str]] = []


def plain(text: str) -> str:
    """What a reader sees: no bidi controls, ASCII digits, Unicode NFC."""
    return unicodedata.normalize("NFC", _INVISIBLE.sub("", text)).translate(TO_ASCII_DIGITS)


def all_of(*needles: str) -> Check:
    wanted = [plain(needle) for needle in needles]
    return lambda text: all(needle in text for needle in wanted)


def soonest_then_rest(numbers: Sequence[str], more_hint: str) -> Check:
    """The soonest flight in the first SMS; the others there too, or the word that fetches them.
    How many fit in three segments depends on the hour (a Pashto "tonight after midnight" is
    longer than a day time), so the first SMS is judged on what it promises, not on a count."""
    soonest, rest = all_of(*numbers[:1]), all_of(*numbers[1:])
    hint = plain(more_hint)
    return lambda text: soonest(text) and (rest(text) or hint in text)


def expectations(db_url: str) -> dict[str, dict[str, Check]]:
    """Per answer language, what each question's answer must hold, from the seeded database."""
    os.environ["CONTENT_DB_URL"] = db_url
    from actions.content import queries
    from actions.content.db import session_scope
    from actions.content.format import text
    from actions.content.localise import word
    from actions.content.models import AnnouncementKind, GuidanceKind
    from actions.content.queries import FlightQuery
    from kernel.lang import texts

    now = datetime.now(timezone.utc)
    checks: dict[str, dict[str, Check]] = {}
    with session_scope() as session:
        doha = queries.airports_at(session, "Doha")
        flights = queries.upcoming_flights(
            session, now, FlightQuery("Doha", destination_ids=tuple(a.id for a in doha))
        )
        kabul = queries.airport_with_status(session, "KBL")
        assert kabul is not None
        abbey = next(gate for gate in kabul.gates if gate.slug == "abbey-gate")
        amnesty = next(
            item
            for item in queries.latest_announcements(session, now, 100)
            if item.kind is AnnouncementKind.AMNESTY
        )
        documents = queries.current_guidance(session, now, (GuidanceKind.DOCUMENTS,))[0]
        contact = queries.current_guidance(session, now, (GuidanceKind.CONTACTS,))[0]
        for language in ("en", "prs", "ps"):
            # The words of "verified {ago} · source: {source}" around the time and the source.
            verified = texts.text("content.pattern.verified", language).split("{")[0].strip() or "·"
            checked = re.compile("|".join(map(re.escape, provenance_words(language, verified))))

            def with_provenance(check: Check, checked: re.Pattern[str] = checked) -> Check:
                return lambda reply: check(reply) and bool(checked.search(reply))

            status = word("verification", amnesty.verification.value, language)
            checks[language] = {
                "flights to Doha": with_provenance(
                    soonest_then_rest(
                        [f.flight_number for f in flights], texts.render("sms.more_hint", language)
                    )
                ),
                "Abbey Gate": with_provenance(
                    all_of(
                        short_name(text(abbey, "name", language)),
                        word("gate", abbey.state.value, language),
                    )
                ),
                "amnesty": with_provenance(
                    all_of(text(amnesty, "title", language), status.split(":")[0].strip("⚠ "))
                ),
                "documents": with_provenance(all_of(text(documents, "title", language))),
                "who can help": with_provenance(all_of(contact.phone or contact.email or "")),
                "menu": all_of(*(str(n) for n in range(1, 10))),
            }
    return checks


def provenance_words(language: str, verified: str) -> list[str]:
    """Words that say when a fact was checked, in the chat and in the SMS wording."""
    words = {"en": ["verified", "checked"], "prs": ["تایید"], "ps": ["تایید"]}
    return [verified, *words[language]]


def short_name(name: str) -> str:
    """ "Abbey Gate" of "دروازهٔ ابی (Abbey Gate)": the name before a Latin gloss."""
    return name.split(" (")[0]


@dataclass(frozen=True)
class Cost:
    sends: int
    segments: int
    answered: bool
    received: tuple[str, ...]


async def ask(
    session: aiohttp.ClientSession,
    webhook: str,
    providers: FakeProviders,
    number: str,
    text: str,
) -> list[str]:
    """One SMS from ``number``; the SMS replies it got, once the gateway has been answered."""
    before = len(providers.received)
    async with session.post(
        webhook,
        json={"from": number, "text": text, "id": secrets.token_hex(8)},
        headers={"X-Gateway-Secret": SMS_SECRET},
    ) as response:
        if response.status != 200:
            raise RuntimeError(f"gateway webhook answered {response.status}")
    return [r.text for r in providers.received[before:] if r.to == number]


async def cost_of(
    session: aiohttp.ClientSession,
    webhook: str,
    providers: FakeProviders,
    number: str,
    slice_: Slice,
    question: str,
    answered: Check,
) -> Cost:
    await ask(session, webhook, providers, number, slice_.hello)
    received: list[str] = []
    sends = 0
    text = slice_.questions[question]
    while sends < MAX_SENDS:
        received += await ask(session, webhook, providers, number, text)
        sends += 1
        if answered(plain("\n".join(received))):
            return Cost(sends, sum(map(segment_count, received)), True, tuple(received))
        text = slice_.more
    return Cost(sends, sum(map(segment_count, received)), False, tuple(received))


async def run(
    db_url: str, webhook: str, providers: FakeProviders, transcript: Path | None
) -> list[list[str]]:
    checks = expectations(db_url)
    rows = []
    said: list[str] = []
    first_contact.clear()
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=120)) as session:
        for index, slice_ in enumerate(SLICES):
            for position, question in enumerate(slice_.questions):
                number = f"+9370{index}{position:02d}{time.time_ns() % 10000:04d}"
                cost = await cost_of(
                    session,
                    webhook,
                    providers,
                    number,
                    slice_,
                    question,
                    checks[slice_.answer_language][question],
                )
                sends = str(cost.sends) if cost.answered else f"> {cost.sends} (not answered)"
                rows.append([question, slice_.name, sends, str(cost.segments)])
                said += [f"## {question} · {slice_.name}", *cost.received, ""]
        for index, slice_ in enumerate(SLICES):
            # A new person's first message: the greeting, or straight away the first question.
            for position, text in enumerate((slice_.hello, slice_.questions["flights to Doha"])):
                number = f"+9371{index}{position:02d}{time.time_ns() % 10000:04d}"
                received = await ask(session, webhook, providers, number, text)
                first = "hello" if position == 0 else "flights to Doha"
                segments = [str(segment_count(sms)) for sms in received]
                first_contact.append([first, slice_.name, str(len(received)), " + ".join(segments)])
                said += [f"## first contact: {first} · {slice_.name}", *received, ""]
    if transcript is not None:
        transcript.write_text("\n---\n".join(said), encoding="utf-8")
    return rows


def table(rows: Sequence[Sequence[str]]) -> str:
    lines = ["| question | slice | sends | segments received |", "|---|---|---:|---:|"]
    lines += [f"| {' | '.join(row)} |" for row in rows]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--transcript", type=Path, help="write every SMS received to this file")
    args = parser.parse_args()
    if not MODEL.exists():
        print(f"{MODEL} is missing: run `make train`", file=sys.stderr)
        return 1
    import subprocess

    from scripts.fake_providers import ProvidersInThread

    with tempfile.TemporaryDirectory(prefix="bench-sms-") as tmp:
        base = Path(tmp)
        db_url = f"sqlite:///{base / 'content.db'}"
        env = dict(os.environ, CONTENT_DB_URL=db_url, PYTHONPATH=str(ROOT))
        for command in ("migrate", "seed"):
            subprocess.run(
                [sys.executable, "-m", "actions.content", command], env=env, check=True, cwd=ROOT
            )
        credentials = base / "credentials.yml"
        credentials.write_text(CREDENTIALS)
        providers = FakeProviders(sms_rate=None)
        serving = ProvidersInThread(providers)
        provider_url = serving.start(free_port())
        stack = Stack(
            model=MODEL,
            content_db_url=db_url,
            log_dir=base / "logs",
            rasa_port=free_port(),
            action_port=free_port(),
            credentials=credentials,
            extra_env={
                **FakeProviders.environment(provider_url),
                "CONVERSATION_ID_KEY": secrets.token_urlsafe(32),
                "ADDRESS_ENCRYPTION_KEY": secrets.token_urlsafe(32),
            },
        )
        try:
            stack.start()
            webhook = f"{stack.rasa_url}/webhooks/sms_gateway/webhook"
            rows = asyncio.run(run(db_url, webhook, providers, args.transcript))
        finally:
            stack.stop()
            serving.stop()
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    print(f"bench-sms, {stamp}, {os.cpu_count()} cores; at most {MAX_SENDS} sends per question\n")
    print(table(rows))
    print("\nFirst contact (a new person's first message; the safety notice included):\n")
    print("| first message | slice | SMS received | segments |\n|---|---|---:|---:|")
    print("\n".join(f"| {' | '.join(row)} |" for row in first_contact))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
