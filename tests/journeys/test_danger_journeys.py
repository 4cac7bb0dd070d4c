"""Danger first, walked as people walk it on `make run`'s stack (docs/DANGER.md).

* A Dari mother on the web chat of her phone writes, as her first message, that her child is
  lost at the gate: the Red Cross family line (day and night) comes first, what to do, and that
  a caseworker sees urgent cases first; her next question, whether Abbey Gate is open, is
  answered as always. A caseworker signing in on a phone sees her case at the top, urgent.
* A Pashto SMS user writing in Latin letters: her mother fainted at the gate. The first SMS
  begins with the number that answers now.
* An English Telegram user with armed men at the door gets the protection line that answers
  now first, and an urgent case.
"""

from __future__ import annotations

import json
import re
import secrets
import sqlite3
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from playwright.sync_api import expect

from scripts.fake_providers import (
    CHANNEL_SECRETS,
    TELEGRAM_SECRET_HEADER,
    FakeProviders,
    ProvidersInThread,
    telegram_update,
)
from scripts.stack import ROOT, free_port
from tests.journeys.conftest import (
    MODEL,
    Phone,
    Running,
    screenshot,
    start_running,
    wait_for_the_line,
)
from tests.journeys.test_handoff_journeys import write
from tests.journeys.test_sms_journeys import SmsStack

pytestmark = pytest.mark.integration

FAMILY_LINE = "+93 700 000 121"
PROTECTION_LINE = "+93 700 000 142"
#: Bidi marks are invisible, and a number's unbreakable spaces read as spaces.
_INVISIBLE = re.compile("[\u200e\u200f\u2066-\u2069]")


@dataclass
class DangerStack:
    running: Running
    providers: FakeProviders

    def sms(self, sender: str, text: str) -> list[str]:
        """One SMS through the gateway's webhook; the SMS sent back."""
        return SmsStack(self.running.stack, self.providers, self.running.db_url).text(sender, text)

    def telegram(self, chat: int, text: str) -> str:
        """A private chat's message as Telegram posts it; what the Bot API was asked to show."""
        before = len(self.providers.to("telegram", str(chat)))
        request = urllib.request.Request(
            f"{self.running.stack.rasa_url}/webhooks/telegram/webhook",
            json.dumps(telegram_update(chat, text, "en")).encode(),
            {"Content-Type": "application/json", **TELEGRAM_SECRET_HEADER},
        )
        with urllib.request.urlopen(request, timeout=60) as response:
            assert response.status == 200
        wait_for_the_line(self.running.stack)
        return "\n".join(r.text for r in self.providers.to("telegram", str(chat))[before:])

    def priority(self, text: str) -> list[int]:
        """The priorities of the cases holding the person's line ``text``, as the caseworkers'
        queue orders them (urgent: 1)."""
        with sqlite3.connect(self.running.db_url.removeprefix("sqlite:///")) as db:
            rows = db.execute(
                "SELECT c.priority FROM cases c JOIN case_messages m ON m.case_id = c.id"
                " WHERE m.author = 'person' AND m.text = ?",
                (text,),
            ).fetchall()
        return [int(row[0]) for row in rows]


@pytest.fixture(scope="module")
def danger(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DangerStack]:
    """`make run`'s stack with its web chat, and the SMS gateway and Telegram to local fakes."""
    if not MODEL.exists():
        pytest.fail(f"{MODEL} is missing: run `make train` (make test does it first)")
    base = tmp_path_factory.mktemp("make-run-danger")
    credentials = base / "credentials.yml"
    credentials.write_text(
        (ROOT / "credentials.yml").read_text()
        + "bot.channels.sms_gateway.SmsGatewayInput:\nbot.channels.telegram.TelegramInput:\n"
    )
    providers = FakeProviders(sms_rate=None)
    serving = ProvidersInThread(providers)
    env = {**CHANNEL_SECRETS, **FakeProviders.environment(serving.start(free_port()))}
    started = start_running(base, env, credentials)
    try:
        yield DangerStack(started, providers)
    finally:
        started.stack.stop()
        serving.stop()


def test_a_dari_mother_whose_child_is_lost_gets_the_family_line_first_then_her_answer(
    danger: DangerStack, phone: Phone
) -> None:
    page = phone(locale="fa-AF")
    page.goto(f"{danger.running.stack.rasa_url}/webchat/")
    lost = "طفلم پیش دروازه گم شده"
    helped = _INVISIBLE.sub("", write(page, lost, "همین حالا زنگ بزنید")).replace("\xa0", " ")
    assert helped.startswith("طفل یا یکی از اعضای فامیل گم شده — همین حالا زنگ بزنید:"), helped
    assert FAMILY_LINE in helped and "شبانه‌روزی" in helped
    assert helped.index(FAMILY_LINE) < helped.index("کارمندان اول قضیه‌های عاجل را می‌بینند")
    assert "بازوی هر طفل" in helped
    screenshot(page, "danger-prs-webchat-lost-child")

    gate = write(page, "دروازهٔ ابی باز است؟", "دروازهٔ ابی")
    assert "همین حالا زنگ بزنید" not in gate  # her question, answered as always
    screenshot(page, "danger-prs-webchat-then-the-gate")

    caseworker = phone(locale="fa-AF")
    link = danger.running.invite("farida", "caseworker")
    caseworker.goto(danger.running.stack.admin_url + link[link.index("/console/") :] + "&lang=prs")
    caseworker.get_by_role("button", name="ورود").click()
    first = caseworker.locator("li.case").first
    expect(first).to_contain_text(lost)
    expect(first).to_contain_text("عاجل")
    screenshot(caseworker, "danger-caseworker-queue-urgent")


def test_a_romanized_pashto_sms_about_a_mother_who_fainted_gets_the_number_first(
    danger: DangerStack,
) -> None:
    fainted = "mor me pa gate ke behosha shwa doctor ta artia da"
    [first, *_] = danger.sms("+93701234561", fainted)
    seen = _INVISIBLE.sub("", first)
    assert seen.startswith("+93 700 000 1"), seen
    assert "بیړنۍ قضیه پرانیستل شوه" in seen
    assert danger.priority(fainted) == [1]


def test_an_english_telegram_user_with_armed_men_at_the_door(danger: DangerStack) -> None:
    chat = 731000000 + secrets.randbelow(1_000_000)
    time.sleep(1.1)  # Telegram sends at most one message a second to a chat
    armed = "there are armed men at our door, what do we do"
    reply = danger.telegram(chat, armed).replace("\xa0", " ")
    assert reply.startswith("If you are threatened or in danger — call now:"), reply
    assert reply.index(PROTECTION_LINE) < reply.index("A caseworker sees urgent cases first")
    assert danger.priority(armed) == [1]
