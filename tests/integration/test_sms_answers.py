"""SMS answers through the real channels: the real Rasa and action server, the demo content,
the ``sms_gateway`` and ``twilio_sms`` blueprints, and the local fake providers recording
every SMS. Each answer comes in the first SMS, within three segments, with its provenance;
details come by number; the menu fits; no bidi isolate reaches a phone (docs/SMS.md)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from scripts.bench_sms import SLICES, Check, expectations, plain
from scripts.fake_providers import (
    SMS_SECRET,
    TWILIO_AUTH_TOKEN,
    TWILIO_FROM_NUMBER,
    FakeProviders,
    ProvidersInThread,
)
from scripts.stack import Stack, free_port
from tests.integration.conftest import MODEL, _content_cli

MAX_SEGMENTS = 3
CREDENTIALS = """\
bot.channels.sms_gateway.SmsGatewayInput:
bot.channels.twilio_sms.TwilioSmsInput:
"""
ISOLATES = set("\u2066\u2067\u2068\u2069")


def segments(text: str) -> int:
    """SMS segments, counted as kernel/sms_segments.py does (GSM-7 or UCS-2)."""
    from kernel.sms_segments import segment_count

    return segment_count(text)


@dataclass
class SmsStack:
    stack: Stack
    providers: FakeProviders
    checks: dict[str, dict[str, Check]]

    def _wait_for(self, channel: str, number: str, before: int) -> list[str]:
        # The webhook answers after the replies were handed to the provider.
        return [r.text for r in self.providers.to(channel, number)[before:]]

    def gateway(self, number: str, text: str) -> list[str]:
        """One SMS through the gateway webhook; the SMS it got back."""
        before = len(self.providers.to("sms_gateway", number))
        body = f'{{"from": "{number}", "text": {_json(text)}, "id": "{secrets.token_hex(8)}"}}'
        request = urllib.request.Request(
            f"{self.stack.rasa_url}/webhooks/sms_gateway/webhook",
            body.encode(),
            {"Content-Type": "application/json", "X-Gateway-Secret": SMS_SECRET},
        )
        with urllib.request.urlopen(request, timeout=60) as response:
            assert response.status == 200
        return self._wait_for("sms_gateway", number, before)

    def twilio(self, number: str, text: str) -> list[str]:
        """One SMS through the Twilio webhook, signed as Twilio signs; the SMS it got back."""
        before = len(self.providers.to("twilio_sms", number))
        url = f"{self.stack.rasa_url}/webhooks/twilio_sms/webhook"
        fields = {
            "From": number,
            "To": TWILIO_FROM_NUMBER,
            "Body": text,
            "MessageSid": "SM" + secrets.token_hex(16),
            "NumMedia": "0",
        }
        signed = url + "".join(name + fields[name] for name in sorted(fields))
        digest = hmac.new(TWILIO_AUTH_TOKEN.encode(), signed.encode(), hashlib.sha1).digest()
        request = urllib.request.Request(
            url,
            urllib.parse.urlencode(fields).encode(),
            {
                "Content-Type": "application/x-www-form-urlencoded",
                "X-Twilio-Signature": base64.b64encode(digest).decode(),
            },
        )
        with urllib.request.urlopen(request, timeout=60) as response:
            assert response.status == 200
        return self._wait_for("twilio_sms", number, before)


def _json(text: str) -> str:
    import json

    return json.dumps(text)


@pytest.fixture(scope="module")
def sms(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SmsStack]:
    yield from _serve_sms(tmp_path_factory, {})


@pytest.fixture(scope="module")
def stale_sms(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SmsStack]:
    """The same stack with airport facts past their freshness limit a minute after a check:
    every airport answer of the demo (checked 25 minutes ago or earlier) is then stale."""
    yield from _serve_sms(tmp_path_factory, {"CONTENT_FRESHNESS_AIRPORT": "1m"})


def _serve_sms(tmp_path_factory: pytest.TempPathFactory, env: dict[str, str]) -> Iterator[SmsStack]:
    if not MODEL.exists():
        pytest.fail(f"{MODEL} is missing: run `make train` (make test does it first)")
    base = tmp_path_factory.mktemp("sms")
    db_url = f"sqlite:///{base / 'content.db'}"
    _content_cli(db_url, "migrate")
    _content_cli(db_url, "seed")
    credentials = base / "credentials.yml"
    credentials.write_text(CREDENTIALS)
    providers = FakeProviders(sms_rate=None)
    serving = ProvidersInThread(providers)
    provider_url = serving.start(free_port())
    rasa_port = free_port()
    stack = Stack(
        model=MODEL,
        content_db_url=db_url,
        log_dir=base / "logs",
        rasa_port=rasa_port,
        action_port=free_port(),
        credentials=credentials,
        extra_env={
            **FakeProviders.environment(provider_url),
            **FakeProviders.twilio_environment(provider_url, f"http://127.0.0.1:{rasa_port}"),
            "CONVERSATION_ID_KEY": secrets.token_urlsafe(32),
            "ADDRESS_ENCRYPTION_KEY": secrets.token_urlsafe(32),
            **env,
        },
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CONTENT_DB_URL", db_url)
        checks = expectations(db_url)
    stack.start()
    yield SmsStack(stack, providers, checks)
    stack.stop()
    serving.stop()


def new_number() -> str:
    return f"+9379{time.time_ns() % 10**7:07d}"


def assert_fits(replies: list[str]) -> None:
    assert replies, "no SMS came back"
    for reply in replies:
        assert segments(reply) <= MAX_SEGMENTS, reply
        assert not ISOLATES & set(reply), "a bidi isolate reached the phone"


QUESTIONS = [(s.name, question) for s in SLICES for question in s.questions]


@pytest.mark.parametrize(("slice_name", "question"), QUESTIONS)
def test_the_first_sms_answers_the_question_within_three_segments(
    sms: SmsStack, slice_name: str, question: str
) -> None:
    slice_ = next(s for s in SLICES if s.name == slice_name)
    number = new_number()
    sms.gateway(number, slice_.hello)
    replies = sms.gateway(number, slice_.questions[question])
    assert_fits(replies)
    assert sum(map(segments, replies)) <= MAX_SEGMENTS
    assert sms.checks[slice_.answer_language][question](plain("\n".join(replies))), replies


#: More of the demo's answers, in each language: every one must fit.
MORE_QUESTIONS = {
    "en": [
        "next flights", "flights to Tashkent", "flights to Germany", "is the east gate open",
        "north gate", "is the airport open", "latest announcements", "shelter in place",
        "flights to Islamabad", "QR8010", "RCH871",
    ],
    "prs": [
        "پروازهای بعدی", "پرواز به تاشکند", "دروازهٔ شرقی باز است؟", "میدان هوایی باز است؟",
        "اعلامیه‌های تازه", "پرواز به اسلام‌آباد",
    ],
    "ps": [
        "راتلونکې الوتنې", "تاشکند ته الوتنه", "ختیځه دروازه خلاصه ده؟",
        "هوايي ډګر خلاص دی؟", "تازه اعلانونه",
    ],
}  # fmt: skip
HELLO = {"en": "hello", "prs": "سلام", "ps": "سلام وروره"}


@pytest.mark.parametrize("language", ["en", "prs", "ps"])
def test_every_sms_answer_of_the_demo_fits_in_three_segments(sms: SmsStack, language: str) -> None:
    for question in MORE_QUESTIONS[language]:
        number = new_number()
        sms.gateway(number, HELLO[language])
        replies = sms.gateway(number, question)
        assert_fits(replies)


#: A new person's first SMS, asking for the flights to Doha (three of them in the demo).
FIRST_DOHA = {
    "en": "when are the flights to Doha",
    "prs": "پرواز به دوحه کی است",
    "ps": "دوحې ته الوتنه کله ده",
}


@pytest.mark.parametrize("language", ["en", "prs", "ps"])
def test_a_first_sms_names_every_flight_asked_for_or_says_more_waits(
    sms: SmsStack, language: str
) -> None:
    replies = sms.gateway(new_number(), FIRST_DOHA[language])
    assert_fits(replies)
    said = plain("\n".join(replies))
    missing = [number for number in ("RCH871", "QR8010", "RCH618") if number not in said]
    assert not missing or "MORE" in said or "«بیشتر»" in said or "«نور»" in said, replies


DETAILS = {
    "en": ("when are the flights to Doha", "1"),
    "prs": ("پرواز به دوحه کی است", "۱"),
    "ps": ("دوحې ته الوتنه کله ده", "۱"),
}


@pytest.mark.parametrize("language", ["en", "prs", "ps"])
def test_details_come_by_number_each_in_a_message_of_its_own(sms: SmsStack, language: str) -> None:
    from actions.content.localise import word

    question, one = DETAILS[language]
    who, where = (word("label", field, language) for field in ("eligibility", "assembly_point"))
    number = new_number()
    sms.gateway(number, HELLO[language])
    (answer,) = sms.gateway(number, question)
    assert "RCH871" in answer
    details = sms.gateway(number, one)
    assert_fits(details)
    # Two whole thoughts, in one SMS when they fit in its segments together (English).
    assert len(details) == (1 if language == "en" else 2)
    both = "\n".join(details)
    assert both.index(who) < both.index(where)
    assert "RCH871" in details[0] and who in details[0] and where in details[-1]
    # Another number after a detail is the menu's again: "2" is the airport.
    (airport,) = sms.gateway(number, "2")
    assert "Abbey" in airport or "ابی" in airport or "ابي" in airport


def test_a_gate_then_all_gates_then_the_advice(sms: SmsStack) -> None:
    number = new_number()
    sms.gateway(number, "hello")
    (gate,) = sms.gateway(number, "is abbey gate open")
    assert gate.startswith("Abbey Gate: closed.")
    assert "2 All gates" in gate
    (gates,) = sms.gateway(number, "2")
    assert_fits([gates])
    assert "East Gate: open" in gates and "Abbey Gate: closed" in gates
    (advice,) = sms.gateway(number, "1")
    assert_fits([advice])
    assert advice.startswith("Do not go to the airport unless")


def test_an_announcements_full_text_comes_by_number(sms: SmsStack) -> None:
    number = new_number()
    sms.gateway(number, "سلام")
    (first,) = sms.gateway(number, "عفو")
    assert first.startswith("اعلام عفو عمومی")
    full = sms.gateway(number, "۱")
    assert_fits(full)
    assert full[0].startswith("تایید نشده: ذبیح‌الله مجاهد، سخنگوی طالبان"), full


def test_the_menu_fits_in_one_sms_in_each_language(sms: SmsStack) -> None:
    for hello, menu, digits in (
        ("hello", "menu", "123456789"),
        ("سلام", "مینو", "۱۲۳۴۵۶۷۸۹"),
        ("سلام وروره", "meenu", "۱۲۳۴۵۶۷۸۹"),
    ):
        number = new_number()
        sms.gateway(number, hello)
        replies = sms.gateway(number, menu)
        assert_fits(replies)
        assert len(replies) == 1
        lines = replies[0].split("\n")
        assert [line[0] for line in lines[1:]] == list(digits)


@pytest.mark.parametrize(
    ("hello", "question", "expected"),
    [
        ("سلام", "دروازهٔ ابی باز است؟", "دروازهٔ ابی"),
        ("hello", "when are the flights to Doha", "RCH871"),
        ("سلام وروره", "څوک مرسته کولای شي", "+93 700 000 101"),
    ],
)
def test_twilio_sms_answers_in_the_first_sms_too(
    sms: SmsStack, hello: str, question: str, expected: str
) -> None:
    number = new_number()
    sms.twilio(number, hello)
    replies = sms.twilio(number, question)
    assert_fits(replies)
    assert len(replies) == 1
    assert expected in plain(replies[0])


#: The few words of the SMS freshness warning, and the advice button's title, per language.
MAY_BE_OLD = {
    "en": "May be out of date: checked",
    "prs": "ممکن کهنه باشد: تایید",
    "ps": "کېدای شي زاړه وي: تایید",
}
ADVICE_BUTTON = {"en": "1 Advice", "prs": "1 مشوره", "ps": "1 مشوره"}
AIRPORT_QUESTION = {
    "en": "is the airport open",
    "prs": "میدان هوایی باز است؟",
    "ps": "هوايي ډګر خلاص دی؟",
}


@pytest.mark.parametrize("language", ["en", "prs", "ps"])
def test_on_sms_the_freshness_warning_is_inside_the_answer(
    stale_sms: SmsStack, language: str
) -> None:
    number = new_number()
    stale_sms.gateway(number, HELLO[language])
    replies = stale_sms.gateway(number, AIRPORT_QUESTION[language])
    assert_fits(replies)
    # One SMS: the answer, its warning in a few words, its numbered detail; chat's separate
    # warning before the answer sends nothing on SMS.
    (answer,) = replies
    text = plain(answer)
    assert MAY_BE_OLD[language] in text, text
    assert text.index(MAY_BE_OLD[language]) > 0, "the warning comes after the answer"
    assert ADVICE_BUTTON[language] in text, text
    assert "سلا" not in text  # Pashto advice is «مشوره», not «سلا مشوره»


def test_a_fresh_sms_answer_carries_no_warning(sms: SmsStack) -> None:
    number = new_number()
    sms.gateway(number, HELLO["ps"])
    (answer,) = sms.gateway(number, AIRPORT_QUESTION["ps"])
    assert "کېدای شي زاړه وي" not in answer and "تایید" in answer
