"""SMS through a real Kannel: bearerbox and smsbox configured with the groups
``python -m bot.channels.kannel conf`` prints, fakesmsc as the operator's SMSC, and the real
Rasa, action server and notifier with the ``kannel`` channel. A phone's SMS goes in through
fakesmsc, the answer comes back out through Kannel's sendsms to fakesmsc: English as GSM-7,
Dari and Pashto as UCS-2, each in its language and within three segments; the delivery report
Kannel brings for an alert is recorded on its row, without the number; a request without the
secret is refused."""

from __future__ import annotations

import re
import secrets
import sqlite3
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from scripts.stack import Stack, free_port
from tests.integration.conftest import MODEL, _content_cli
from tests.integration.kannel_processes import SHORT_CODE, Kannel, Received, missing_binaries
from tests.integration.test_alerts import API_TOKEN, NOTIFIER
from tests.integration.test_metrics import TOKEN as METRICS_TOKEN
from tests.integration.test_metrics import scrape

CREDENTIALS = "bot.channels.kannel.KannelInput:\n"
#: Letters Pashto has and Dari does not.
PASHTO_LETTERS = set("ښځڅډټړږګۍېڼ")
ARABIC_SCRIPT = re.compile(r"[\u0600-\u06FF]")


@dataclass
class KannelStack:
    stack: Stack
    kannel: Kannel
    secret: str
    posting: Kannel
    db_url: str
    db_path: Path

    def sms(self, number: str, text: str) -> list[Received]:
        """One SMS from ``number``; the SMS Kannel sent back to it."""
        before = len(self.kannel.to(number))
        self.kannel.phone_sends(number, text)
        return self.kannel.replies(number, before)

    def rows(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        with sqlite3.connect(self.db_path) as connection:
            return connection.execute(query, params).fetchall()


@pytest.fixture(scope="module")
def kannel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KannelStack]:
    if not MODEL.exists():
        pytest.fail(f"{MODEL} is missing: run `make train` (make test does it first)")
    if missing := missing_binaries():
        pytest.fail(f"{', '.join(missing)} missing: run `make deps` (kannel, kannel-extras)")
    base = tmp_path_factory.mktemp("kannel")
    db_path = base / "content.db"
    db_url = f"sqlite:///{db_path}"
    _content_cli(db_url, "migrate")
    _content_cli(db_url, "seed")
    credentials = base / "credentials.yml"
    credentials.write_text(CREDENTIALS)
    rasa_port, secret = free_port(), secrets.token_urlsafe(24)
    channel_env = {
        "KANNEL_SECRET": secret,
        "KANNEL_USERNAME": "assistant",
        "KANNEL_PASSWORD": secrets.token_urlsafe(12),
        "KANNEL_FROM": SHORT_CODE,
        "KANNEL_WEBHOOK_BASE_URL": f"http://127.0.0.1:{rasa_port}",
    }
    kannel = Kannel(base, channel_env)
    channel_env["KANNEL_SEND_URL"] = kannel.send_url
    kannel.start()
    # A second gateway whose sms-service POSTs the text (conf --post); its replies go out
    # through the first one's sendsms, the one KANNEL_SEND_URL names.
    posting = Kannel(tmp_path_factory.mktemp("kannel-post"), dict(channel_env), post=True)
    posting.start()
    stack = Stack(
        model=MODEL,
        content_db_url=db_url,
        log_dir=base / "logs",
        rasa_port=rasa_port,
        action_port=free_port(),
        credentials=credentials,
        with_notifier=True,  # alerts, whose delivery reports are recorded
        extra_env={
            **channel_env,
            **NOTIFIER,
            "CONVERSATION_ID_KEY": secrets.token_urlsafe(32),
            "ADDRESS_ENCRYPTION_KEY": secrets.token_urlsafe(32),
            "RASA_API_TOKEN": API_TOKEN,
            "METRICS_TOKEN": METRICS_TOKEN,
        },
    )
    try:
        stack.start()
        yield KannelStack(stack, kannel, secret, posting, db_url, db_path)
    finally:
        stack.stop()
        kannel.stop()
        posting.stop()


def new_number() -> str:
    return f"+9379{time.time_ns() % 10**7:07d}"


def assert_fits(replies: list[Received]) -> None:
    from kernel.sms_segments import MAX_SEGMENTS, segment_count

    assert replies, "no SMS came back through Kannel"
    for reply in replies:
        assert reply.parts <= MAX_SEGMENTS and segment_count(reply.text) == reply.parts, reply


def test_an_english_question_is_answered_in_gsm7_through_kannel(kannel: KannelStack) -> None:
    number = new_number()
    assert_fits(kannel.sms(number, "hello"))
    replies = kannel.sms(number, "when are the flights to Doha")
    assert_fits(replies)
    assert any("RCH871" in reply.text for reply in replies), replies
    assert {reply.coding for reply in replies} == {"text"}, "English travels as GSM-7"


@pytest.mark.parametrize(
    ("language", "hello", "question", "expected"),
    [
        ("prs", "سلام", "دروازهٔ ابی باز است؟", "دروازهٔ ابی"),
        ("ps", "سلام وروره", "څوک مرسته کولای شي", "+93 700 000 101"),
    ],
)
def test_dari_and_pashto_questions_are_answered_in_ucs2_in_their_language(
    kannel: KannelStack, language: str, hello: str, question: str, expected: str
) -> None:
    number = new_number()
    assert_fits(kannel.sms(number, hello))
    replies = kannel.sms(number, question)
    assert_fits(replies)
    (answer,) = replies
    assert expected in answer.text.replace("\u2068", "").replace("\u2069", ""), answer
    assert answer.coding == "ucs-2" and ARABIC_SCRIPT.search(answer.text), answer
    pashto = bool(PASHTO_LETTERS & set(answer.text))
    assert pashto == (language == "ps"), f"not written in {language}: {answer.text}"


def test_a_pashto_sms_posted_by_kannels_post_url_is_answered_in_pashto(
    kannel: KannelStack,
) -> None:
    number = new_number()
    for text in ("سلام وروره", "څوک مرسته کولای شي"):
        before = len(kannel.kannel.to(number))
        kannel.posting.phone_sends(number, text)
        replies = kannel.kannel.replies(number, before)
        assert_fits(replies)
    (answer,) = replies
    assert "+93 700 000 101" in answer.text.replace("\u2068", "").replace("\u2069", ""), answer
    assert answer.coding == "ucs-2" and PASHTO_LETTERS & set(answer.text), answer


def test_a_wound_written_first_gets_the_number_first_through_kannel(kannel: KannelStack) -> None:
    """Danger first (docs/DANGER.md): the first SMS back starts with the day-and-night line."""
    number = new_number()
    replies = kannel.sms(number, "my brother is wounded near abbey gate, bleeding")
    assert_fits(replies)
    first = re.sub("[\u200e\u200f\u2066-\u2069]", "", replies[0].text)
    assert first.startswith("+93 700 000 1"), first
    assert "Urgent case opened" in first


def test_a_long_answer_arrives_as_one_concatenated_sms(kannel: KannelStack) -> None:
    number = new_number()
    kannel.sms(number, "سلام")
    replies = kannel.sms(number, "پروازهای بعدی")
    assert_fits(replies)
    assert max(reply.parts for reply in replies) > 1, "expected an answer over one segment"


def test_kannels_delivery_report_is_recorded_without_the_number(kannel: KannelStack) -> None:
    """An alert goes out through sendsms under an id of ours; fakesmsc takes it, Kannel reports
    it delivered, and the report is on the alert's row, found by that id."""
    number = new_number()
    assert kannel.sms(number, '/subscribe_alerts{"alert_topic": "airport"}'), "no confirmation"
    before = len(kannel.kannel.to(number))
    _content_cli(
        kannel.db_url,
        "publish", "airport", "KBL", "--state", "restricted",
        "--advice-en", "Only the North Gate", "--advice-prs", "Only the North Gate (دری)",
        "--advice-ps", "Only the North Gate (پښتو)", "--source", "us-embassy-kabul",
        "--editor", "amina", "--note", "integration test",
    )  # fmt: skip
    assert kannel.kannel.replies(number, before), "no alert came through Kannel"

    delivered = "SELECT provider_message_id FROM alert_deliveries WHERE provider_status = ?"
    deadline = time.monotonic() + 30
    while not (recorded := kannel.rows(delivered, "delivered")):
        if time.monotonic() > deadline:
            pytest.fail("no delivery report recorded on the alert")
        time.sleep(0.3)
    [(message_id,)] = recorded
    assert re.fullmatch(r"kannel-[0-9a-f]{32}", message_id)
    digits = number.lstrip("+")
    for stored in kannel.db_path.parent.glob(f"{kannel.db_path.name}*"):  # with its WAL
        assert digits.encode() not in stored.read_bytes(), stored.name
    for log in kannel.stack.log_dir.glob("*.log"):
        assert digits not in log.read_text(errors="replace"), log.name


def _get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


def kannel_turns(stack: Stack) -> float:
    """How many turns Rasa took on the ``kannel`` channel, however they ended (its /metrics)."""
    return sum(
        value
        for (name, labels), value in scrape(f"{stack.rasa_url}/metrics").items()
        if name == "eia_turns_total" and ("channel", "kannel") in labels
    )


def test_a_forged_request_is_refused_and_nothing_is_sent(kannel: KannelStack) -> None:
    number = new_number()
    base = f"{kannel.stack.rasa_url}/webhooks/kannel"
    fields = f"from=%2B{number.lstrip('+')}&text=hello&coding=0&charset=UTF-8&id={number}"
    turns = kannel_turns(kannel.stack)
    assert _get(f"{base}/receive?secret=not-the-secret-at-all&{fields}") == 403
    assert _get(f"{base}/receive?{fields}") == 403
    assert _get(f"{base}/delivered?secret=wrong&id=kannel-{'0' * 32}&type=1") == 403
    # The same request with the secret is answered: the refusal was the secret's.
    assert _get(f"{base}/receive?secret={kannel.secret}&{fields}") == 200
    deadline = time.monotonic() + 60
    while not (kannel.kannel.to(number) and kannel_turns(kannel.stack) > turns):
        assert time.monotonic() < deadline, "no answer with the right secret"
        time.sleep(0.2)
    # One person's messages are answered in order: a forged one's turn would have come first.
    assert kannel_turns(kannel.stack) == turns + 1, "a forged request made the assistant answer"
