"""An SMS user's first three questions, through the real SMS gateway channel of `make run`.

The stack is `make run`'s own (``embedded_stack``), with the ``sms_gateway`` channel switched
on and its provider a local fake that keeps every SMS it is asked to send. A person on a cheap
phone writes three questions, in Dari, in Pashto typed in Latin letters, or in English. Each
answer must come in one SMS of at most three segments (a new person's one-time safety notice
inside the first), in the person's language and script, and name the
source of what it lists as the content database holds it: the flights it lists and each one's
source, the gate with its own source, the documents' source.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import unicodedata
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import pytest
from playwright.sync_api import expect

from kernel.lang.letters import TO_ASCII_DIGITS
from kernel.sms_segments import encoding, segment_count
from scripts.fake_providers import SMS_SECRET, FakeProviders, ProvidersInThread
from scripts.stack import ROOT, Stack, free_port
from tests.journeys.conftest import Phone, screenshot, start_running, wait_for_the_line

pytestmark = pytest.mark.integration

MODEL = ROOT / "models" / "assistant.tar.gz"
#: Bidi marks are invisible; what a person reads is compared without them.
_INVISIBLE = re.compile("[\u200e\u200f\u2066-\u2069]")
PASHTO_ONLY = set("ټډړږښګڼېۍځڅ")


@dataclass
class SmsStack:
    stack: Stack
    providers: FakeProviders
    db_url: str

    def text(self, sender: str, message: str) -> list[str]:
        """One SMS from ``sender`` to the gateway's webhook; the SMS it sent back."""
        before = len(self.providers.received)
        request = urllib.request.Request(
            f"{self.stack.rasa_url}/webhooks/sms_gateway/webhook",
            json.dumps({"from": sender, "text": message, "id": secrets.token_hex(8)}).encode(),
            {"Content-Type": "application/json", "X-Gateway-Secret": SMS_SECRET},
        )
        with urllib.request.urlopen(request, timeout=60) as response:
            assert response.status == 200
        wait_for_the_line(self.stack)
        return [r.text for r in self.providers.received[before:] if r.to == sender]


@pytest.fixture(scope="module")
def sms(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SmsStack]:
    """`make run`'s stack on a seeded database, with the SMS gateway channel and its fake."""
    if not MODEL.exists():
        pytest.fail(f"{MODEL} is missing: run `make train` (make test does it first)")
    base = tmp_path_factory.mktemp("make-run-sms")
    credentials = base / "credentials.yml"
    credentials.write_text(
        (ROOT / "credentials.yml").read_text() + "bot.channels.sms_gateway.SmsGatewayInput:\n"
    )
    providers = FakeProviders(sms_rate=None)
    serving = ProvidersInThread(providers)
    provider_url = serving.start(free_port())
    started = start_running(base, FakeProviders.environment(provider_url), credentials)
    stack, db_url = started.stack, started.db_url
    try:
        yield SmsStack(stack, providers, db_url)
    finally:
        stack.stop()
        serving.stop()


def plain(text: str) -> str:
    """What the reader sees: no bidi marks, ASCII digits, Unicode NFC."""
    return unicodedata.normalize("NFC", _INVISIBLE.sub("", text)).translate(TO_ASCII_DIGITS)


@dataclass(frozen=True)
class Sources:
    """What the content database says the answers should name, in one language."""

    doha: dict[str, str]  # upcoming flight to Doha → its source's name
    abbey_gate: tuple[str, str]  # its short name, its source's name
    documents: str  # the first documents topic's source


def sources(db_url: str, language: str) -> Sources:
    os.environ["CONTENT_DB_URL"] = db_url
    from actions.content import queries
    from actions.content.db import session_scope
    from actions.content.format import text
    from actions.content.models import GuidanceKind
    from actions.content.queries import FlightQuery

    now = datetime.now(timezone.utc)
    with session_scope() as session:
        doha = queries.airports_at(session, "Doha")
        query = FlightQuery("Doha", destination_ids=tuple(a.id for a in doha))
        flights = queries.upcoming_flights(session, now, query)
        kabul = queries.airport_with_status(session, "KBL")
        assert kabul is not None
        abbey = next(gate for gate in kabul.gates if gate.slug == "abbey-gate")
        topic = queries.current_guidance(session, now, (GuidanceKind.DOCUMENTS,))[0]
        return Sources(
            doha={f.flight_number: plain(text(f.source, "name", language)) for f in flights},
            abbey_gate=(
                plain(text(abbey, "name", language)).split(" (")[0],
                plain(text(abbey.source, "name", language)),
            ),
            documents=plain(text(topic.source, "name", language)),
        )


#: Per person: how they write, and their three questions (flights to Doha, Abbey Gate,
#: documents), with the words that show the answer is in their language.
PEOPLE = {
    "prs": (
        "+93700100001",
        ["پرواز بعدی به دوحه کی است", "دروازهٔ ابی باز است؟", "کدام اسناد را همراه بیاورم"],
        ("تایید", "پیش"),
    ),
    "ps": (
        "+93700100002",
        ["doha ta alwatka kala da", "abbey gate khlasa da", "kom asnad rawrum"],
        ("تایید", "مخکې"),
    ),
    "en": (
        "+93700100003",
        ["when are the flights to Doha", "is abbey gate open", "which documents do I need"],
        ("checked", "ago"),
    ),
}


def assert_in_language(sms: str, language: str, words: tuple[str, ...]) -> None:
    shown = plain(sms)
    assert all(word in shown for word in words), (language, sms)
    arabic_letters = [ch for ch in shown if "\u0600" <= ch <= "\u06ff"]
    if language == "en":
        assert encoding(sms) == "GSM-7", sms
    else:
        assert len(arabic_letters) > len(shown) / 3, sms
        pashto = any(ch in PASHTO_ONLY for ch in shown)
        assert pashto == (language == "ps"), sms


@pytest.mark.parametrize("language", list(PEOPLE))
def test_an_sms_users_first_three_questions(sms: SmsStack, language: str) -> None:
    number, questions, words = PEOPLE[language]
    expected = sources(sms.db_url, language)
    answers = [sms.text(number, questions[0])]
    # A new person's first answer ends with the safety notice; in Dari and Pashto the next
    # flights' numbers then wait for MORE (docs/SMS.md, "First contact").
    more = {"prs": "بیشتر", "ps": "noor"}.get(language)
    rest = sms.text(number, more) if more else []
    answers += [sms.text(number, question) for question in questions[1:]]

    # Each answer: one SMS of at most three segments; the first also carries the one-time
    # safety notice.
    first, *later = answers
    first = [with_notice(first, language)]
    safety = {"prs": "«امنیت»", "ps": "«خوندیتوب»", "en": '"safety"'}[language]
    assert safety in "\n".join(first)
    for answer in later:
        assert len(answer) == 1 and segment_count(answer[0]) <= 3, answer
        assert safety not in answer[0]
    flights, gate, documents = (plain(answer[0]) for answer in answers)
    for answer in answers:
        assert_in_language(answer[0], language, words)

    # The flights it lists are the Doha flights, each with its own source named; the others
    # are named by number.
    listed = [n for n in expected.doha if re.search(rf"^{n} .*\d", flights, re.MULTILINE)]
    assert listed, flights
    flights = "\n".join([flights, *map(plain, rest)])
    assert all(number in flights for number in expected.doha), flights
    for flight in listed:
        assert expected.doha[flight] in flights, (flight, flights)
    unlisted_sources = {expected.doha[n] for n in expected.doha} - {
        expected.doha[n] for n in listed
    }
    for source in unlisted_sources:
        assert source not in flights, (source, flights)

    # The gate asked about, with the source that checked it.
    name, source = expected.abbey_gate
    assert gate.startswith(name), gate
    assert source in gate, gate

    # The documents, with the source of the ones it names.
    assert expected.documents in documents, documents


def test_the_english_sms_menu_is_one_gsm_7_message(sms: SmsStack) -> None:
    [menu] = sms.text("+93700100004", "menu")  # a returning person would see the same
    assert encoding(menu) == "GSM-7", menu
    assert segment_count(menu) <= 3
    assert "dari" in menu.lower() and "pashto" in menu.lower()


def test_a_new_english_user_saying_hello_gets_greeting_menu_and_notice_in_one_sms(
    sms: SmsStack,
) -> None:
    received = sms.text("+93700100005", "hello")
    assert len(received) == 1, received
    [greeting] = received
    assert segment_count(greeting) <= 3 and encoding(greeting) == "GSM-7"
    assert "Hello" in greeting and "9 This menu" in greeting and '"safety"' in greeting


#: A new person's very first SMS, in Dari and Pashto, Arabic script and Latin letters: the
#: greeting, or straight away a question about flights; and what shows the answer's language.
FIRST_CONTACTS = [
    ("prs", "+93700100011", "سلام", "پرواز به دوحه کی است"),
    ("prs", "+93700100012", "salam chetor hasti", "parwaz ba doha chi waqt ast"),
    ("ps", "+93700100013", "salam wrora", "دوحې ته الوتنه کله ده"),
    ("ps", "+93700100014", "salam wrora", "doha ta alwatka kala da"),
]
SAFETY_WORD = {"prs": "«امنیت»", "ps": "«خوندیتوب»"}
GO_ONLY_WHEN_TOLD = {"prs": "فقط وقتی بروید که خبرتان کنند.", "ps": "یوازې چې ووايي، ولاړ شئ."}
MENU_END = {"prs": "9 همین مینو", "ps": "9 همدا مینو"}


def with_notice(received: list[str], language: str) -> str:
    """A new person's first answer, checked to be one SMS of at most three segments that
    ends with the safety notice, or, when the answer fills its three segments (no line of it
    gives way), the answer whole and the notice in one segment of its own; the answer with the
    notice."""
    safety = {"prs": "«امنیت»", "ps": "«خوندیتوب»", "en": '"safety"'}[language]
    assert all(segment_count(sms) <= 3 for sms in received), received
    if len(received) == 2:
        assert segment_count(received[1]) == 1 and safety in received[1], received
        return "\n".join(received)
    assert len(received) == 1, received
    assert safety in received[0].splitlines()[-1] or language == "en", received
    return received[0]


@pytest.mark.parametrize(("language", "number", "hello", "flights"), FIRST_CONTACTS)
def test_a_new_persons_first_sms_is_three_segments_with_the_safety_notice(
    sms: SmsStack, language: str, number: str, hello: str, flights: str
) -> None:
    # Saying hello: greeting, the whole menu and the notice, in one SMS.
    [greeting] = sms.text(number, hello)
    assert segment_count(greeting) <= 3, greeting
    shown = plain(greeting)
    assert SAFETY_WORD[language] in shown and MENU_END[language] in shown, greeting
    assert all(f"\n{n} " in shown for n in range(1, 10)), greeting

    # Asking about flights straight away: the soonest flight with its own check and source,
    # "go only when you are told to", the option for its details and the notice, in one SMS.
    expected = sources(sms.db_url, language)
    answer = with_notice(sms.text(f"{number}0", flights), language)  # another new person
    shown = plain(answer)
    lines = shown.splitlines()
    assert SAFETY_WORD[language] in lines[-1], answer
    assert GO_ONLY_WHEN_TOLD[language] in lines, answer
    soonest = next(iter(expected.doha))
    assert lines[1].startswith(soonest), answer
    assert lines[2].startswith("تایید") and lines[2].endswith(expected.doha[soonest]), answer
    assert_in_language(answer, language, ("تایید",))


def test_on_the_web_chat_each_flight_bubble_carries_its_own_check(
    sms: SmsStack, phone: Phone
) -> None:
    page = phone(locale="fa-AF")
    page.goto(f"{sms.stack.rasa_url}/webchat/")
    page.locator("#input").fill("پرواز بعدی به دوحه کی است")
    page.locator("#send").click()
    bubbles = page.locator(".msg.bot")
    expect(bubbles.nth(3)).to_be_visible(timeout=30_000)  # heading, three flights, advice …
    shown = [plain(text) for text in bubbles.all_inner_texts()]
    expected = sources(sms.db_url, "prs")
    flights = [text for text in shown if text.lstrip("• ").split(" ")[0] in expected.doha]
    assert [text.lstrip("• ").split(" ")[0] for text in flights] == list(expected.doha)
    for text, number in zip(flights, expected.doha, strict=True):
        last = text.strip().split("\n")[-1]
        assert "تایید شده" in last and last.endswith(expected.doha[number]), text
    # No bubble of check lines apart from the flights they belong to.
    assert not [t for t in shown if t not in flights and "تایید شده · منبع" in t], shown
    screenshot(page, "sms-journeys-webchat-flights-prs")


@pytest.mark.parametrize(
    ("language", "number", "question", "why"),
    [
        ("prs", "+93700100021", "طیاره به جرمنی", "به تاشکند، تخلیه از طرف آلمان"),
        ("en", "+93700100022", "flight to Germany", "to Tashkent, evacuates for Germany"),
    ],
)
def test_flights_to_germany_by_sms_name_germanys_flight_to_tashkent_and_say_why(
    sms: SmsStack, language: str, number: str, question: str, why: str
) -> None:
    """Germany's evacuation flight goes to Tashkent: the answer lists it with where it goes
    and whom it evacuates for, in one SMS of at most three segments."""
    received = with_notice(sms.text(number, question), language)
    assert_in_language(received, language, ("GAF612",))
    answer = plain(received)
    first = next(line for line in answer.splitlines() if line.startswith("GAF612 "))
    assert first.endswith(why), answer
    # A new person's first answer in Dari keeps the later flights for MORE, as above.
    more = sms.text(number, "بیشتر") if language == "prs" else []
    rest = "\n".join([answer, *map(plain, more)])
    assert "RCH233" in rest and "GAF614" in rest, rest  # listed or named as later ones


ROOT_RESULTS = ROOT / "results" / "journeys"


def test_keep_the_transcript(sms: SmsStack) -> None:
    """What every person received, for the person reviewing the run."""
    ROOT_RESULTS.mkdir(parents=True, exist_ok=True)
    lines = [f"{r.to}: {r.text}\n---" for r in sms.providers.received]
    Path(ROOT_RESULTS / "sms-journeys.txt").write_text("\n".join(lines), encoding="utf-8")
    assert lines
