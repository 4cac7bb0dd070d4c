"""A Pashto SMS user asks in the evening about their flight, which leaves at 01:35 that night.

The answer must say "tonight, after midnight" («نن شپه ۱:۳۵ له نیمې شپې وروسته»), never
«سبا د شپې ۱:۳۵» ("tomorrow night", which in Kabul is the night after: a day late).

`make run`'s stack reads the system clock and has no way to set it, so the flight is published,
as an editor would, for the next 01:35 in Kabul by the real clock. From 04:00 until 01:35 that
is the reader's "tonight", as at 21:40; between 01:35 and 04:00 the next 01:35 is the night
after, which the answer names by its evening's weekday (tests/actions/test_night_hours.py
pins 21:40 and the other moments).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from kernel.sms_segments import segment_count
from scripts.fake_providers import FakeProviders, ProvidersInThread
from scripts.stack import ROOT, free_port
from tests.journeys.conftest import MODEL, Running, start_running
from tests.journeys.test_sms_journeys import SmsStack, assert_in_language, plain

pytestmark = pytest.mark.integration

KABUL = ZoneInfo("Asia/Kabul")
NUMBER = "RCH735"
PERSON = "+93700100021"
#: The night after each ISO weekday's day, in Pashto.
PASHTO_NIGHTS = {
    1: "د دوشنبې شپه",
    2: "د سه‌شنبې شپه",
    3: "د چهارشنبې شپه",
    4: "د پنجشنبې شپه",
    5: "د جمعې شپه",
    6: "د شنبې شپه",
    7: "د یکشنبې شپه",
}


@dataclass
class NightStack:
    running: Running
    sms: SmsStack


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> Iterator[NightStack]:
    """`make run`'s stack with the SMS gateway channel and its fake provider."""
    if not MODEL.exists():
        pytest.fail(f"{MODEL} is missing: run `make train` (make test does it first)")
    base = tmp_path_factory.mktemp("make-run-night")
    credentials = base / "credentials.yml"
    credentials.write_text(
        (ROOT / "credentials.yml").read_text() + "bot.channels.sms_gateway.SmsGatewayInput:\n"
    )
    providers = FakeProviders(sms_rate=None)
    serving = ProvidersInThread(providers)
    provider_url = serving.start(free_port())
    running = start_running(base, FakeProviders.environment(provider_url), credentials)
    try:
        yield NightStack(running, SmsStack(running.stack, providers, running.db_url))
    finally:
        running.stack.stop()
        serving.stop()


def next_one_thirty_five(now: datetime) -> datetime:
    """The next 01:35 in Kabul, far enough ahead to still be upcoming when asked."""
    departs = now.replace(hour=1, minute=35, second=0, microsecond=0)
    while departs < now + timedelta(minutes=15):
        departs += timedelta(days=1)
    return departs


def reader_day(moment: datetime) -> date:
    """The day a Kabul reader counts ``moment`` in: until 04:00, still the day before."""
    return (moment - timedelta(hours=4)).date()


def publish_flight(running: Running, departs: datetime) -> None:
    """What an editor types (README): a US Air Force flight to Dubai, checked now (the demo's
    only other flight there has left)."""
    texts = {
        "eligibility": ("Called-up SIV holders.", "دارندگان SIV که خبر شده‌اند.", "د SIV خاوندان."),
        "assembly-point": ("North Gate.", "دروازهٔ شمالی.", "شمالي دروازه."),
    }
    options = [
        f"--{field}-{language}={text}"
        for field, words in texts.items()
        for language, text in zip(("en", "prs", "ps"), words, strict=True)
    ]
    running.cli(
        "actions.content",
        *("publish", "flight", f"{NUMBER}@{departs.date().isoformat()}"),
        *("--operator", "us-air-force", "--from", "KBL", "--to", "DWC"),
        *("--departs-at", departs.isoformat(timespec="minutes"), "--status", "scheduled"),
        *("--source", "us-embassy-kabul", "--valid-for", "1d", "--editor", "amina"),
        *options,
    )


def test_a_flight_after_midnight_is_tonight_after_midnight_not_tomorrow_night(
    night: NightStack,
) -> None:
    now = datetime.now(KABUL)
    departs = next_one_thirty_five(now)
    publish_flight(night.running, departs)
    evening = departs.date() - timedelta(days=1)
    named = "نن شپه" if evening == reader_day(now) else PASHTO_NIGHTS[evening.isoweekday()]

    night.sms.text(PERSON, "سلام وروره")  # the greeting, the menu and the safety notice
    [answer] = night.sms.text(PERSON, "دوبۍ ته الوتنه کله ده؟")

    assert segment_count(answer) <= 3, answer
    assert_in_language(answer, "ps", ("تایید",))
    lines = [line for line in plain(answer).splitlines() if line.startswith(NUMBER)]
    assert len(lines) == 1, answer
    line = lines[0]
    assert line.startswith(f"{NUMBER} {named} 1:35 له نیمې شپې وروسته"), answer
    assert "سبا" not in line and "د شپې" not in line, answer
