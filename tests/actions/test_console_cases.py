"""The caseworkers' pages: only caseworkers see cases, the queue puts the urgent and the longest
waiting first and never shows an address, opening a case is audited, and one caseworker wins a
case that two take at once."""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections.abc import AsyncIterator, Callable
from datetime import datetime, timedelta

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from alembic import command
from sqlalchemy import Engine, delete, insert, select, update
from sqlalchemy.orm import Session

from actions.admin import cli
from actions.admin.app import AccessLog, create_app
from actions.admin.cli import organisation_named
from actions.admin.console import sessions
from actions.admin.settings import AdminSettings
from actions.alerts.models import DeliveryStatus
from actions.cases import handback, queue, store
from actions.cases.models import Case, CaseAudit, CaseMessage, CaseReply, CaseStatus
from actions.common.clock import utc_now_to_second
from actions.common.rasa_api import refusal
from actions.content import db
from actions.content.migrate import alembic_config
from actions.content.models import ConsoleSession, Organisation, SignInCode
from actions.settings import RasaSettings
from kernel.contract import NotDelivered
from tests.actions.console_support import Client, csrf_in, invitation, visible
from tests.actions.content_support import NOW

LATER = NOW + timedelta(minutes=45)
PERSON = "telegram-5f0c1e7a9b2d4c6e8f0a1b3c5d7e9f1a2b4c6d8e"


@pytest.fixture
def no_cases(content_db: Engine) -> Engine:
    with Session(content_db) as session, session.begin():
        for table in (CaseAudit, CaseReply, CaseMessage, Case, ConsoleSession, SignInCode):
            session.execute(delete(table))
    return content_db


def opened(
    conversation: str,
    request: str,
    minutes_ago: int,
    language: str = "prs",
    organisation: str | None = None,
) -> int:
    """A case waiting for ``organisation``'s caseworkers (a slug), or for no organisation's."""
    with db.session_scope() as session:
        answering = None if organisation is None else organisation_named(session, organisation)
        case = store.open_case(
            session,
            conversation_id=conversation,
            channel="telegram",
            language=language,
            organisation=answering,
            request=request,
            assistant_answers=["Hello! Ask me about flights."],
            now=NOW - timedelta(minutes=minutes_ago),
        )
        return case.id


async def browser_for(
    engine: Engine,
    settings: AdminSettings | None = None,
    clock: Callable[[], datetime] = lambda: LATER,
) -> Client:
    app = create_app(engine, settings or AdminSettings(), clock=clock)
    server = TestServer(app)
    await server.start_server(access_log_class=AccessLog)
    return TestClient(server)


@pytest.fixture
async def caseworker(no_cases: Engine) -> AsyncIterator[Client]:
    async with await browser_for(no_cases) as client:
        await sign_in_as(client, invitation(no_cases, "farida", NOW, "caseworker"))
        yield client


async def sign_in_as(client: Client, code: str) -> str:
    form = await (await client.get("/console/signin")).text()
    response = await client.post("/console/signin", data={"csrf": csrf_in(form), "code": code})
    assert response.status == 200, await response.text()
    return response.url.path


async def test_the_queue_puts_urgent_then_longest_waiting_first_without_an_address(
    caseworker: Client,
) -> None:
    calm = opened("telegram-kqz", "ویزه ام رد شد", minutes_ago=30)
    older = opened("whatsapp-mvw", "pasport ma gum shuda", minutes_ago=50, language="en")
    urgent = opened("sms_gateway-xyq", "طفلم زخمی است", minutes_ago=5)
    response = await caseworker.get("/console/cases?lang=ps")
    page = await response.text()
    assert response.status == 200 and 'dir="rtl"' in page
    order = [page.index(f"/console/cases/{n}") for n in (urgent, older, calm)]
    assert order == sorted(order)
    text = visible(page)
    assert "طفلم زخمی است" in text and "بیړنی" in text and "خلاصې قضیې: ۳" in text
    # Letters no hexadecimal token on the page (CSRF, session) can contain.
    for conversation in ("telegram-kqz", "whatsapp-mvw", "sms_gateway-xyq", "kqz", "xyq"):
        assert conversation not in page


async def test_opening_a_case_is_audited_and_taking_it_is_one_caseworkers(
    caseworker: Client, no_cases: Engine
) -> None:
    case_id = opened(PERSON, "فامیلم ده دروازه جدا شدن", minutes_ago=20)
    page = await (await caseworker.get(f"/console/cases/{case_id}")).text()
    assert "فامیلم ده دروازه جدا شدن" in visible(page) and PERSON not in page
    response = await caseworker.post(f"/console/cases/{case_id}/take", data={"csrf": csrf_in(page)})
    assert "You hold this case now." in visible(await response.text())
    with db.session_scope() as session:
        case = session.get(Case, case_id)
        assert case is not None and (case.status, case.taken_by) == (CaseStatus.TAKEN, "farida")
        audit = [(a.caseworker, a.action) for a in session.scalars(select(CaseAudit))]
    assert audit[:2] == [("farida", "opened"), ("farida", "took")]

    async with await browser_for(no_cases) as other:
        await sign_in_as(other, invitation(no_cases, "wahid", NOW, "caseworker"))
        page = await (await other.get(f"/console/cases/{case_id}")).text()
        assert "Take this case" not in visible(page)
        late = await other.post(f"/console/cases/{case_id}/take", data={"csrf": csrf_in(page)})
        assert "farida took this case first." in visible(await late.text())


def test_two_caseworkers_taking_one_case_at_once_one_wins(no_cases: Engine) -> None:
    case_id = opened(PERSON, "help", minutes_ago=1)

    def take(name: str) -> str | None:
        with db.session_scope() as session:
            return queue.take(session, case_id, name, NOW)

    async def both() -> list[str | None]:
        return list(await asyncio.gather(*(asyncio.to_thread(take, n) for n in ("a", "b"))))

    holders = asyncio.run(both())
    assert holders[0] == holders[1] and holders[0] in ("a", "b")
    with db.session_scope() as session:
        took = session.scalars(select(CaseAudit).where(CaseAudit.action == "took")).all()
    assert len(took) == 1


async def test_editors_and_caseworkers_see_only_their_own_pages(
    caseworker: Client, no_cases: Engine
) -> None:
    refused = await caseworker.get("/console/", allow_redirects=False)
    assert refused.status == 403
    assert "Caseworkers do not change the content." in visible(await refused.text())
    assert (await caseworker.get("/console/edit/gate/KBL/abbey-gate")).status == 403
    async with await browser_for(no_cases) as editor:
        assert await sign_in_as(editor, invitation(no_cases, "amina", NOW)) == "/console/"
        response = await editor.get("/console/cases", allow_redirects=False)
        assert response.status == 403
        assert "Editors do not see people's cases." in visible(await response.text())
    async with await browser_for(no_cases) as signed_out:
        response = await signed_out.get("/console/cases", allow_redirects=False)
        assert response.headers["Location"] == "/console/signin?next=/console/cases"


class FakeRasa:
    """Rasa's HTTP API as a local server: records each trigger_intent, answers ``status``."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, dict[str, object]]] = []
        self.channels: list[str | None] = []  # the output channel each call named
        self.status = 200
        #: Refuse a call naming an output channel as Rasa does when the channel cannot deliver.
        self.channel_refuses = False
        #: The channel's refusal Rasa answers to a call naming an output channel, if any.
        self.refusal: NotDelivered | None = None

    async def trigger(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.calls.append((request.path, request.headers.get("Authorization", ""), body))
        channel = request.query.get("output_channel")
        self.channels.append(channel)
        if self.channel_refuses and channel:
            refusal = NotDelivered(f"{channel}: no stored address", permanent=True)
            return web.json_response(refusal.body(), status=500)
        if self.refusal is not None and channel:
            return web.json_response(self.refusal.body(), status=500)
        return web.json_response({"messages": []}, status=self.status)


@pytest.fixture
async def rasa() -> AsyncIterator[tuple[FakeRasa, str]]:
    fake = FakeRasa()
    app = web.Application()
    app.router.add_post("/conversations/{id}/trigger_intent", fake.trigger)
    server = TestServer(app)
    await server.start_server()
    yield fake, str(server.make_url("")).rstrip("/")
    await server.close()


async def test_closing_hands_the_conversation_back_through_rasa_then_closes(
    no_cases: Engine, rasa: tuple[FakeRasa, str]
) -> None:
    fake, url = rasa
    case_id = opened(PERSON, "visa", minutes_ago=10)
    settings = AdminSettings(rasa=RasaSettings(url, "rasa-api-token"))
    async with await browser_for(no_cases, settings) as client:
        await sign_in_as(client, invitation(no_cases, "farida", NOW, "caseworker"))
        page = await (await client.get(f"/console/cases/{case_id}")).text()
        page = await (
            await client.post(f"/console/cases/{case_id}/take", data={"csrf": csrf_in(page)})
        ).text()
        assert "Close: hand back to the assistant" in visible(page)

        fake.status = 500  # Rasa cannot: nothing changes, the case stays hers
        refused = await client.post(f"/console/cases/{case_id}/close", data={"csrf": csrf_in(page)})
        assert refused.status == 502 and "Rasa HTTP 500" in visible(await refused.text())
        with db.session_scope() as session:
            assert session.get(Case, case_id).status == CaseStatus.TAKEN  # type: ignore[union-attr]

        fake.status = 200
        done = await client.post(f"/console/cases/{case_id}/close", data={"csrf": csrf_in(page)})
        assert "the assistant answers this person again" in visible(await done.text())
    assert fake.calls[-1] == (
        f"/conversations/{PERSON}/trigger_intent",
        "Bearer rasa-api-token",
        {"name": "EXTERNAL_case_closed", "entities": {}},
    )
    assert fake.channels[-1] == "telegram"  # "I am back" goes out on the person's channel
    with db.session_scope() as session:
        case = session.get(Case, case_id)
        assert case is not None and case.status == CaseStatus.CLOSED
        actions = [a.action for a in session.scalars(select(CaseAudit).order_by(CaseAudit.id))]
    assert actions == ["opened", "took", "opened", "closed"]


async def test_a_form_without_its_token_takes_or_closes_nothing(caseworker: Client) -> None:
    case_id = opened(PERSON, "visa", minutes_ago=1)
    for action in ("take", "close"):
        response = await caseworker.post(f"/console/cases/{case_id}/{action}", data={"csrf": "0"})
        assert response.status == 403
    missing = await caseworker.post("/console/cases/999999/take", data={"csrf": "0"})
    assert missing.status == 403  # the token is checked before anything is looked up
    with db.session_scope() as session:
        case = session.get(Case, case_id)
        assert case is not None and case.status == CaseStatus.WAITING


async def taken_by_farida(caseworker: Client, language: str = "ps") -> tuple[int, str]:
    """A case farida holds, and the CSRF token of its page."""
    case_id = opened(PERSON, "زما ویزه رد شوه", minutes_ago=5, language=language)
    page = await (await caseworker.get(f"/console/cases/{case_id}")).text()
    taken = await caseworker.post(f"/console/cases/{case_id}/take", data={"csrf": csrf_in(page)})
    return case_id, csrf_in(await taken.text())


def replies_of(case_id: int) -> list[tuple[str, str, str, DeliveryStatus]]:
    with db.session_scope() as session:
        rows = session.execute(
            select(CaseMessage.text, CaseReply.language, CaseReply.channel, CaseReply.status)
            .join(CaseReply, CaseReply.message_id == CaseMessage.id)
            .where(CaseReply.case_id == case_id)
            .order_by(CaseReply.id)
        )
        return [tuple(row) for row in rows]  # type: ignore[misc]


async def test_the_holder_replies_in_the_persons_language_by_default_or_with_a_saved_reply(
    caseworker: Client,
) -> None:
    case_id, csrf = await taken_by_farida(caseworker)
    page = await (await caseworker.get(f"/console/cases/{case_id}")).text()
    assert '<option value="ps" selected>' in page  # the person writes Pashto
    # The saved replies in the language they go in, not the console's English.
    assert "مهرباني وکړئ خپل بشپړ نوم" in visible(page)
    assert "Please tell me your full name" not in visible(page)

    typed = await caseworker.post(
        f"/console/cases/{case_id}/reply",
        data={"csrf": csrf, "text": "  سلام، زه فریده یم.  ", "language": "ps"},
    )
    assert "Your reply is on its way to the person." in visible(await typed.text())
    saved = await caseworker.post(
        f"/console/cases/{case_id}/reply",
        data={"csrf": csrf, "text": "", "language": "ps", "saved": "full_name:ps"},
    )
    page = visible(await saved.text())
    assert "on its way" in page
    name_in_pashto = "مهرباني وکړئ خپل بشپړ نوم هغسې راته ولیکئ"
    assert replies_of(case_id) == [
        ("سلام، زه فریده یم.", "ps", "telegram", DeliveryStatus.QUEUED),
        (
            name_in_pashto + " لکه څنګه چې ستاسو په پاسپورټ کې لیکل شوی دی.",
            "ps",
            "telegram",
            DeliveryStatus.QUEUED,
        ),
    ]
    assert name_in_pashto in page  # a line of the case, with its delivery
    with db.session_scope() as session:
        authors = [m.author.value for m in session.scalars(select(CaseMessage))]
        audit = [(a.caseworker, a.action) for a in session.scalars(select(CaseAudit))]
    assert authors[-2:] == ["caseworker", "caseworker"]
    assert audit.count(("farida", "replied")) == 2  # who wrote each reply, from the session


@pytest.mark.parametrize(
    ("fields", "told"),
    [
        ({"text": "   "}, "Nothing was sent: write a reply or pick a saved one."),
        ({"text": "x" * 1001}, "a reply can have at most 1000 characters"),
        ({"text": "hello", "language": "fr"}, "choose English, Dari or Pashto"),
        ({"saved": "no_such_reply"}, "write a reply or pick a saved one"),
    ],
)
async def test_a_reply_that_cannot_be_sent_is_explained_and_nothing_is_written(
    caseworker: Client, fields: dict[str, str], told: str
) -> None:
    case_id, csrf = await taken_by_farida(caseworker)
    response = await caseworker.post(
        f"/console/cases/{case_id}/reply", data={"csrf": csrf, "language": "prs", **fields}
    )
    assert told in visible(await response.text())
    assert replies_of(case_id) == []


async def test_only_the_holder_can_reply_and_never_without_the_token(
    caseworker: Client, no_cases: Engine
) -> None:
    case_id, csrf = await taken_by_farida(caseworker)
    forged = await caseworker.post(
        f"/console/cases/{case_id}/reply", data={"csrf": "0", "text": "hi", "language": "en"}
    )
    assert forged.status == 403
    async with await browser_for(no_cases) as other:
        await sign_in_as(other, invitation(no_cases, "wahid", NOW, "caseworker"))
        page = await (await other.get(f"/console/cases/{case_id}")).text()
        assert 'action="/console/cases/' + str(case_id) + '/reply"' not in page
        late = await other.post(
            f"/console/cases/{case_id}/reply",
            data={"csrf": csrf_in(page), "text": "hi", "language": "en"},
        )
        assert "only the caseworker who holds an open case can reply" in visible(await late.text())
    waiting = opened("whatsapp-" + "0" * 40, "visa", minutes_ago=1)  # nobody took it
    not_taken = await caseworker.post(
        f"/console/cases/{waiting}/reply", data={"csrf": csrf, "text": "hi", "language": "en"}
    )
    assert "only the caseworker who holds" in visible(await not_taken.text())
    assert replies_of(case_id) == [] and replies_of(waiting) == []


@pytest.mark.parametrize(
    ("status", "shown"),
    [
        (DeliveryStatus.SENT, ("delivered", "رسید", "ورسېد")),
        (DeliveryStatus.FAILED, ("not delivered", "نرسید", "ونه رسېد")),
    ],
)
async def test_the_case_page_shows_whether_each_reply_was_delivered(
    caseworker: Client, status: DeliveryStatus, shown: tuple[str, str, str]
) -> None:
    case_id, csrf = await taken_by_farida(caseworker)
    await caseworker.post(
        f"/console/cases/{case_id}/reply", data={"csrf": csrf, "text": "سلام", "language": "ps"}
    )
    with db.session_scope() as session:
        session.execute(update(CaseReply).values(status=status, finished_at=NOW))
    for language, words in zip(("en", "prs", "ps"), shown, strict=True):
        page = visible(
            await (await caseworker.get(f"/console/cases/{case_id}?lang={language}")).text()
        )
        separator = " · " if language == "en" else "، "
        assert f"{separator}{words}" in page, (language, page)


async def test_a_person_who_cannot_be_told_is_still_handed_back(
    no_cases: Engine, rasa: tuple[FakeRasa, str]
) -> None:
    fake, url = rasa
    fake.channel_refuses = True
    outcome = await handback.hand_back(RasaSettings(url), PERSON, "telegram")
    assert outcome == handback.HandBack(None, told=False)
    assert fake.channels == ["telegram", None]  # then resumed without sending, only recorded
    fake.channel_refuses, fake.status = False, 500
    failed = await handback.hand_back(RasaSettings(url), PERSON, "telegram")
    assert failed.problem == "Rasa HTTP 500" and fake.channels[-1] == "telegram"  # not retried


@pytest.mark.parametrize(
    ("refusal", "for_good"),
    [
        (NotDelivered("telegram: no stored address", permanent=True), True),
        # The person blocked the bot: the channel says it is for good (bot/channels/telegram.py).
        (NotDelivered("telegram: provider refused the alert", True, None, 403), True),
        (NotDelivered("telegram: provider refused the alert", False, 3.0, 429), False),
        (NotDelivered("telegram: provider refused the alert", provider_status=502), False),
        (NotDelivered("webchat: mailbox unavailable (channel memory down)"), False),
    ],
)
async def test_only_a_person_who_can_never_be_reached_is_handed_back_untold(
    no_cases: Engine, rasa: tuple[FakeRasa, str], refusal: NotDelivered, for_good: bool
) -> None:
    fake, url = rasa
    fake.refusal = refusal
    outcome = await handback.hand_back(RasaSettings(url), PERSON, "telegram")
    if for_good:
        assert outcome == handback.HandBack(None, told=False)
        assert fake.channels == ["telegram", None]
    else:  # it may pass: the caseworker is asked to close again, nothing is resumed
        assert outcome == handback.HandBack("Rasa HTTP 500")
        assert fake.channels == ["telegram"]


@pytest.mark.parametrize(
    "answer",
    [
        '{"message": "An unexpected error occurred. Error: telegram: no stored address"}',
        "<html><body>502 Bad Gateway: telegram: no stored address</body></html>",
        '{"reason": "ConversationError", "permanent": "yes"}',
    ],
)
def test_an_answer_that_is_not_a_channels_refusal_is_never_taken_for_one(answer: str) -> None:
    assert refusal(500, answer).permanent is False


async def test_a_saved_reply_is_shown_and_sent_in_the_language_of_its_button(
    caseworker: Client,
) -> None:
    case_id, csrf = await taken_by_farida(caseworker, language="prs")
    page = await (await caseworker.get(f"/console/cases/{case_id}?lang=en")).text()
    shown = visible(page)
    assert "همین حالا کار شما را می‌بینم." in shown  # Dari, in an English console
    assert "I am looking at your case now." not in shown
    assert "in the language they are sent in: دری" in shown
    assert 'value="looking_now:prs"' in page
    await caseworker.post(
        f"/console/cases/{case_id}/reply",
        data={"csrf": csrf, "language": "prs", "saved": "looking_now:prs"},
    )
    # A caseworker who picked English (the page's script relabels the buttons) sends English.
    await caseworker.post(
        f"/console/cases/{case_id}/reply",
        data={"csrf": csrf, "language": "en", "saved": "looking_now:en"},
    )
    refused = await caseworker.post(
        f"/console/cases/{case_id}/reply",
        data={"csrf": csrf, "language": "prs", "saved": "looking_now:fr"},
    )
    assert "choose English, Dari or Pashto" in visible(await refused.text())
    assert [(text, language) for text, language, _, _ in replies_of(case_id)] == [
        ("همین حالا کار شما را می‌بینم.", "prs"),
        ("I am looking at your case now.", "en"),
    ]


@pytest.mark.parametrize(
    ("status", "error", "language", "shown"),
    [
        (
            DeliveryStatus.FAILED,
            "Rasa HTTP 500: webchat: no database to record the delivery in "
            "(ADDRESS_ENCRYPTION_KEY unset)",
            "en",
            "not delivered: the server lacks its address key (ADDRESS_ENCRYPTION_KEY)",
        ),
        (
            DeliveryStatus.FAILED,
            "no stored address",
            "prs",
            "نرسید: دیگر به این شخص در کانال خودش رسیده نمی‌توانیم",
        ),
        (
            DeliveryStatus.QUEUED,
            "Rasa HTTP 500: telegram: provider refused the alert",
            "ps",
            "لا نه دی رسېدلی، بیا هڅه کېږي: د کس چینل پیغام ونه مانه",
        ),
        (
            DeliveryStatus.QUEUED,
            "Rasa unreachable (ClientConnectorError)",
            "en",
            "not delivered yet, trying again: the assistant's server could not be reached",
        ),
        (DeliveryStatus.FAILED, "HTTP 418 teapot", "en", "not delivered: the notifier gave up"),
    ],
)
async def test_a_reply_that_did_not_arrive_says_why_in_the_caseworkers_language(
    caseworker: Client, status: DeliveryStatus, error: str, language: str, shown: str
) -> None:
    case_id, csrf = await taken_by_farida(caseworker)
    await caseworker.post(
        f"/console/cases/{case_id}/reply", data={"csrf": csrf, "text": "سلام", "language": "ps"}
    )
    with db.session_scope() as session:
        session.execute(update(CaseReply).values(status=status, last_error=error, attempts=2))
    page = visible(await (await caseworker.get(f"/console/cases/{case_id}?lang={language}")).text())
    assert shown in page
    assert "on its way" not in page and "در راه" not in page


async def test_a_closed_case_opens_read_only_with_each_replys_delivery(
    no_cases: Engine, rasa: tuple[FakeRasa, str]
) -> None:
    _, url = rasa
    async with await browser_for(no_cases, AdminSettings(rasa=RasaSettings(url))) as client:
        await sign_in_as(client, invitation(no_cases, "farida", NOW, "caseworker"))
        case_id, csrf = await taken_by_farida(client, language="prs")
        for text in ("سلام، من فریده هستم.", "پسر تان پیدا شد."):
            await client.post(
                f"/console/cases/{case_id}/reply",
                data={"csrf": csrf, "text": text, "language": "prs"},
            )
        with db.session_scope() as session:
            first = min(session.scalars(select(CaseReply.id)))
            session.execute(
                update(CaseReply).where(CaseReply.id == first).values(status=DeliveryStatus.SENT)
            )
            session.execute(
                update(CaseReply)
                .where(CaseReply.id != first)
                .values(status=DeliveryStatus.FAILED, last_error="no stored address")
            )
        closed = await client.post(f"/console/cases/{case_id}/close", data={"csrf": csrf})
        assert closed.status == 200
        for language, words in (
            ("prs", ("ختم شده", "رسید", "نرسید: دیگر به این شخص")),
            ("en", ("Closed", "delivered", "not delivered: the person can no longer be reached")),
        ):
            response = await client.get(f"/console/cases/{case_id}?lang={language}")
            page = await response.text()
            assert response.status == 200, page[:500]
            text = visible(page)
            for word in words:
                assert word in text, (language, word, text)
            assert "سلام، من فریده هستم." in text and "پسر تان پیدا شد." in text
            for action in ("take", "reply", "close"):
                assert f"/console/cases/{case_id}/{action}" not in page  # read-only
        assert "you can read it, not change it" in visible(page)


async def test_the_dari_queue_separates_its_facts_with_a_comma_not_a_dot(
    caseworker: Client,
) -> None:
    opened(PERSON, "ویزه ام رد شد", minutes_ago=12)
    text = visible(await (await caseworker.get("/console/cases?lang=prs")).text())
    queue = text[text.index("قضیه‌های باز") :]
    assert "منتظر، ۵۷ دقیقه انتظار، زبان: دری، کانال: تلگرام" in queue  # 12 + 45 minutes
    assert "·" not in queue


@pytest.mark.parametrize(
    ("language", "channel", "named"),
    [("prs", "webchat", "چت ویب‌سایت"), ("ps", "webchat", "د وېب پاڼې چټ"),
     ("en", "sms_gateway", "SMS (gateway)"), ("prs", "a_new_channel", "a new channel")],
)  # fmt: skip
async def test_a_caseworker_reads_the_channel_in_her_language(
    caseworker: Client, language: str, channel: str, named: str
) -> None:
    """In the queue, its filter and the case's page; a channel the catalogue does not know yet
    shows its own name rather than nothing."""
    case_id = opened(PERSON, "help", minutes_ago=3)
    with db.session_scope() as session:
        session.execute(update(Case).where(Case.id == case_id).values(channel=channel))
    queue = await (await caseworker.get(f"/console/cases?lang={language}")).text()
    assert f">{named}</option>" in queue
    assert named in visible(queue[queue.index("</select>") :]) and channel not in visible(queue)
    page = visible(await (await caseworker.get(f"/console/cases/{case_id}?lang={language}")).text())
    assert named in page and channel not in page


async def test_a_reply_nobody_is_sending_says_so_instead_of_on_its_way(caseworker: Client) -> None:
    case_id, csrf = await taken_by_farida(caseworker, language="prs")
    await caseworker.post(
        f"/console/cases/{case_id}/reply", data={"csrf": csrf, "text": "سلام", "language": "prs"}
    )
    page = visible(await (await caseworker.get(f"/console/cases/{case_id}")).text())
    assert "on its way" in page  # just queued: the notifier polls every second
    with db.session_scope() as session:  # due three minutes ago, never tried: no notifier
        session.execute(update(CaseReply).values(next_attempt_at=LATER - timedelta(minutes=3)))
    page = visible(await (await caseworker.get(f"/console/cases/{case_id}?lang=prs")).text())
    assert "هنوز فرستاده نشده: هیچ چیز جواب‌ها را نمی‌فرستد" in page and "در راه" not in page


# -- Two organisations staff the service ---------------------------------------------------

AID, UNHCR = "kabul-aid-network", "unhcr"


def admin(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """``python -m actions.admin ARGS`` as the operator runs it, on this test's database."""
    status = cli.main(list(args))
    out, err = capsys.readouterr()
    return status, out + err


def invited(capsys: pytest.CaptureFixture[str], name: str, organisation: str) -> str:
    """The code ``invite NAME --role caseworker --organisation SLUG`` prints."""
    status, out = admin(
        capsys, "invite", name, "--role", "caseworker", "--organisation", organisation
    )
    assert status == 0, out
    return out.rsplit("code: ", 1)[1].strip()


@pytest.fixture
def two_organisations(no_cases: Engine) -> Engine:
    """UNHCR's caseworkers take cases too, beside the demo's Kabul Aid Network."""
    with db.session_scope() as session:
        session.execute(
            update(Organisation).where(Organisation.slug == UNHCR).values(case_hours="00:00-00:00")
        )
    return no_cases


async def test_each_organisations_caseworker_sees_takes_and_answers_only_its_own_cases(
    two_organisations: Engine, capsys: pytest.CaptureFixture[str], rasa: tuple[FakeRasa, str]
) -> None:
    aid = opened("telegram-kqz", "ویزه ام رد شد", minutes_ago=30, organisation=AID)
    unhcr = opened("whatsapp-mvw", "pasport ma gum shuda", minutes_ago=20, organisation=UNHCR)
    nobodys = opened("sms_gateway-xyq", "طفلم زخمی است", minutes_ago=5)  # none was open
    settings = AdminSettings(rasa=RasaSettings(rasa[1]))
    async with (
        await browser_for(two_organisations, settings) as farida,
        await browser_for(two_organisations, settings) as wahid,
    ):
        await sign_in_as(farida, invited(capsys, "farida", AID))
        await sign_in_as(wahid, invited(capsys, "wahid", UNHCR))
        for who, own, theirs in (
            (farida, aid, "pasport ma gum shuda"),
            (wahid, unhcr, "ویزه ام رد شد"),
        ):
            page = await (await who.get("/console/cases")).text()
            shown = sorted(map(int, re.findall(r'href="/console/cases/(\d+)"', page)))
            assert shown == sorted((own, nobodys))
            text = visible(page)
            assert "Open cases: 2" in text and theirs not in text
            assert "طفلم زخمی است" in text  # a case no organisation answers: everyone's
            assert "Your sign-in names no organisation" not in text

        # Another organisation's case is a case that does not exist: 404, never 403.
        missing = await farida.get("/console/cases/999999")
        page = await farida.get(f"/console/cases/{unhcr}")
        assert (page.status, missing.status) == (404, 404)
        assert visible(await page.text()) == visible(await missing.text())
        assert "pasport ma gum shuda" not in await page.text()
        found = await farida.get(f"/console/cases?case={unhcr}")
        assert f"There is no case {unhcr}." in visible(await found.text())
        csrf = csrf_in(await (await farida.get("/console/cases")).text())
        took = await farida.post(f"/console/cases/{unhcr}/take", data={"csrf": csrf})
        assert took.status == 404
        wahid_page = await (await wahid.get(f"/console/cases/{unhcr}")).text()
        held = await wahid.post(f"/console/cases/{unhcr}/take", data={"csrf": csrf_in(wahid_page)})
        assert "You hold this case now." in visible(await held.text())
        # Not even a UNHCR case farida held before caseworkers had organisations, nor a waiting
        # one in a bulk close: Rasa is never asked to hand either back.
        held = opened("telegram-old", "ma pasport nadaram", minutes_ago=90, organisation=UNHCR)
        waiting = opened("webchat-zzz", "help", minutes_ago=2, organisation=UNHCR)
        with db.session_scope() as session:
            session.execute(
                update(Case)
                .where(Case.id == held)
                .values(status=CaseStatus.TAKEN, taken_by="farida", taken_at=NOW)
            )
        for action, fields in (("reply", {"text": "salam", "language": "en"}), ("close", {})):
            refused = await farida.post(
                f"/console/cases/{held}/{action}", data={"csrf": csrf, **fields}
            )
            assert refused.status == 404, action
        abuse = await farida.post(
            "/console/cases/close-as-abuse", data={"csrf": csrf, "case": str(waiting)}
        )
        assert "0 cases closed as abuse; 1 left open" in visible(await abuse.text())

    assert rasa[0].calls == [] and replies_of(held) == []
    with db.session_scope() as session:
        states = {
            case.id: (case.status, case.taken_by)
            for case in session.scalars(select(Case).where(Case.id.in_((unhcr, held, waiting))))
        }
        seen_by_farida = session.scalars(
            select(CaseAudit.case_id).where(CaseAudit.caseworker == "farida")
        ).all()
    assert states == {
        unhcr: (CaseStatus.TAKEN, "wahid"),
        held: (CaseStatus.TAKEN, "farida"),
        waiting: (CaseStatus.WAITING, None),
    }
    assert not {unhcr, held, waiting} & set(seen_by_farida)


async def test_a_caseworker_signed_in_before_organisations_sees_only_cases_nobody_answers(
    no_cases: Engine, capsys: pytest.CaptureFixture[str]
) -> None:
    """The upgrade: her session names no organisation (0026 gives the old ones none), so she
    sees no organisation's case until the operator names hers; then, from her next page, she
    does, without signing in again."""
    aid = opened("telegram-kqz", "ویزه ام رد شد", minutes_ago=30, organisation=AID)
    nobodys = opened("sms_gateway-xyq", "طفلم زخمی است", minutes_ago=5)
    # The operator's command runs on the real clock, so the console does too.
    async with await browser_for(no_cases, clock=utc_now_to_second) as zarmina:
        code = invitation(no_cases, "zarmina", utc_now_to_second(), "caseworker")
        await sign_in_as(zarmina, code)
        page = await (await zarmina.get("/console/cases?lang=ps")).text()
        text = visible(page)
        assert "ستاسو ننوتل هېڅ اداره نه نوموي" in text and "خلاصې قضیې: ۱" in text
        assert "python -m actions.admin organisation zarmina SLUG" in text
        assert f"/console/cases/{nobodys}" in page and f"/console/cases/{aid}" not in page
        assert (await zarmina.get(f"/console/cases/{aid}")).status == 404

        assert admin(capsys, "organisation", "zarmina", "nowhere") == (
            1,
            "error: 'nowhere' is no organisation of the content; organisations that take "
            "cases: kabul-aid-network\n",
        )
        status, out = admin(capsys, "organisation", "zarmina", AID)
        assert status == 0 and "1 console session(s) and 0 unused invitation(s)" in out
        page = await (await zarmina.get("/console/cases?lang=en")).text()
        assert "Open cases: 2" in visible(page) and "names no organisation" not in page
        assert (await zarmina.get(f"/console/cases/{aid}")).status == 200


def test_the_upgrade_to_0026_keeps_a_caseworkers_code_without_an_organisation(
    no_cases: Engine,
) -> None:
    """A code issued before 0026 still signs its caseworker in after it, naming no organisation
    (SQLite rebuilds the table to add the column: the row must survive)."""
    config = alembic_config()
    with no_cases.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0025")
        code = "ABCDEFGHJKLM"
        connection.execute(
            insert(SignInCode.__table__).values(  # only 0025's columns
                editor="zarmina",
                code_hash=hashlib.sha256(code.encode()).hexdigest(),  # as sessions.py keeps it
                role="caseworker",
                created_at=NOW,
                expires_at=NOW + timedelta(hours=24),
            )
        )
        command.upgrade(config, "head")
    with db.session_scope() as session:
        who = sessions.redeem(session, code, NOW)
    assert (who.name, who.role, who.organisation_id) == ("zarmina", "caseworker", None)


def test_invite_names_a_caseworkers_organisation_and_refuses_what_would_go_wrong(
    two_organisations: Engine, capsys: pytest.CaptureFixture[str]
) -> None:
    taking = "organisations that take cases: kabul-aid-network, unhcr"
    for args, told in (
        (("--role", "caseworker", "--organisation", "nowhere"), "'nowhere' is no organisation"),
        (("--role", "caseworker"), "a caseworker answers the cases of one organisation"),
        (("--organisation", AID), "'organisation' is for caseworkers (--role caseworker)"),
    ):
        status, out = admin(capsys, "invite", "farida", *args)
        assert status == 1 and out.startswith(f"error: {told}"), out
        assert taking in out or "editors see no cases" in out
    with db.session_scope() as session:
        session.execute(
            update(Organisation).where(Organisation.slug == UNHCR).values(withdrawn_at=NOW)
        )
    status, out = admin(capsys, "invite", "farida", "--role", "caseworker", "--organisation", UNHCR)
    assert (status, out) == (
        1,
        "error: 'unhcr' is withdrawn; organisations that take cases: kabul-aid-network\n",
    )
    assert admin(capsys, "sessions")[1].splitlines() == [
        "Open console sessions (0):",
        "Unused invitations (0):",
    ]
    invited(capsys, "farida", AID)
    listed = admin(capsys, "sessions")[1].splitlines()
    assert listed[2].split()[:3] == ["farida", "caseworker", "issued"]
    assert listed[2].endswith("organisation kabul-aid-network")
    assert admin(capsys, "organisation", "ghost", AID) == (
        1,
        "error: ghost has no open caseworker session and no unused caseworker invitation; see "
        "`sessions`, or invite them: python -m actions.admin invite ghost --role caseworker "
        "--organisation kabul-aid-network\n",
    )
