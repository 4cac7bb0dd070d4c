"""The queue reaches every open case: a flood of urgent-sounding web chat cases does not bury a
genuine one, every case is on some page, the filters and the search by number find it, and a
caseworker clears the flood in one form, without a message to anybody."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer
from sqlalchemy import Engine, delete, select

from actions.admin.settings import AdminSettings
from actions.cases import queue, store
from actions.cases.models import Case, CaseAudit, CaseMessage, CaseReply, CaseStatus
from actions.content import db
from actions.content.models import ConsoleSession, SignInCode
from actions.settings import RasaSettings
from tests.actions.console_support import Client, csrf_in, invitation, visible
from tests.actions.content_support import NOW
from tests.actions.test_console_cases import LATER, FakeRasa, browser_for, sign_in_as

URGENT = "my child is bleeding, we need a doctor"
CASE_LINK = re.compile(r'href="/console/cases/(\d+)"')


@pytest.fixture
def no_cases(content_db: Engine) -> Engine:
    with db.session_scope() as session:
        for table in (CaseAudit, CaseReply, CaseMessage, Case, ConsoleSession, SignInCode):
            session.execute(delete(table))
    return content_db


@pytest.fixture
async def rasa() -> AsyncIterator[tuple[FakeRasa, str]]:
    fake = FakeRasa()
    app = web.Application()
    app.router.add_post("/conversations/{id}/trigger_intent", fake.trigger)
    server = TestServer(app)
    await server.start_server()
    yield fake, str(server.make_url("")).rstrip("/")
    await server.close()


@pytest.fixture
async def caseworker(no_cases: Engine, rasa: tuple[FakeRasa, str]) -> AsyncIterator[Client]:
    async with await browser_for(no_cases, AdminSettings(rasa=RasaSettings(rasa[1]))) as client:
        await sign_in_as(client, invitation(no_cases, "farida", NOW, "caseworker"))
        yield client


def opened(
    number: int, channel: str, request: str, minutes_ago: float, language: str = "en"
) -> int:
    with db.session_scope() as session:
        return store.open_case(
            session,
            conversation_id=f"{channel}-{number:040x}",
            channel=channel,
            language=language,
            organisation=None,
            request=request,
            assistant_answers=[],
            now=LATER - timedelta(minutes=minutes_ago),  # the console's clock
        ).id


def flood(count: int, minutes_ago: float = 30) -> list[int]:
    """``count`` urgent web chat cases, as one client without identity opens them."""
    return [opened(n, "webchat", URGENT, minutes_ago - n / 1000) for n in range(count)]


def listed(page: str) -> list[int]:
    return [int(n) for n in CASE_LINK.findall(page)]


async def test_a_genuine_urgent_case_after_a_flood_is_first_and_the_others_are_not_buried(
    caseworker: Client,
) -> None:
    older = opened(9001, "sms_gateway", "pasport ma gum shuda", minutes_ago=50)
    fake = flood(120)
    genuine = opened(9002, "telegram", "my wife is injured and bleeding at abbey gate", 1)
    first = await (await caseworker.get("/console/cases")).text()
    shown = listed(first)
    assert shown[0] == genuine  # urgent on a channel with an address
    assert older in shown[:3]  # a web chat flood takes every other place, no more
    assert len(shown) == queue.QUEUE_PAGE
    assert "Open cases: 122" in visible(first) and "Page 1 of 3" in visible(first)
    everything: list[int] = []
    page: str | None = first
    while page is not None:
        everything += listed(page)
        after = re.search(r'href="([^"]+)" rel="next"', page)
        page = (
            await (await caseworker.get(after.group(1).replace("&amp;", "&"))).text()
            if after
            else None
        )
    assert sorted(everything) == sorted([older, genuine, *fake])  # every case on some page
    past_the_end = await (await caseworker.get("/console/cases?page=99999")).text()
    assert listed(past_the_end) == everything[2 * queue.QUEUE_PAGE :]  # the last page
    assert "Page 3 of 3" in visible(past_the_end)


async def test_filters_and_the_search_by_number_find_a_case(caseworker: Client) -> None:
    flood(60, minutes_ago=5)
    dari = opened(9003, "whatsapp", "ویزه ام رد شد", minutes_ago=90, language="prs")
    telegram = opened(9004, "telegram", "visa", minutes_ago=20)
    by_channel = await (await caseworker.get("/console/cases?channel=telegram")).text()
    assert listed(by_channel) == [telegram]
    assert "1 of them match." in visible(by_channel)
    assert listed(await (await caseworker.get("/console/cases?language=prs")).text()) == [dari]
    waited = await (await caseworker.get("/console/cases?age=over_15m&channel=")).text()
    assert listed(waited) == [dari, telegram]
    assert listed(await (await caseworker.get("/console/cases?age=over_1h")).text()) == [dari]
    assert len(listed(await (await caseworker.get("/console/cases?age=under_15m")).text())) == 50
    assert listed(await (await caseworker.get("/console/cases?language=xx&age=1")).text())
    found = await caseworker.get(f"/console/cases?case=%23{dari}", allow_redirects=False)
    assert found.status == 303 and found.headers["Location"] == f"/console/cases/{dari}"
    await caseworker.get("/console/cases?lang=prs")  # the console in Dari from now on
    missing = await caseworker.get("/console/cases?case=99999")
    assert missing.status == 200 and "قضیهٔ ۹۹۹۹۹ وجود ندارد." in visible(await missing.text())
    odd = await caseworker.get("/console/cases?case=<b>&page=-3")
    assert odd.status == 200 and "قضیهٔ <b> وجود ندارد." in visible(await odd.text())


async def test_a_flood_is_closed_as_abuse_in_one_form_without_a_message_to_anybody(
    caseworker: Client, rasa: tuple[FakeRasa, str]
) -> None:
    fake_rasa, _ = rasa
    fake = flood(4)
    held_by_wahid = opened(9005, "webchat", URGENT, minutes_ago=3)
    with db.session_scope() as session:
        queue.take(session, held_by_wahid, "wahid", NOW)
    genuine = opened(9006, "telegram", "visa", minutes_ago=2)
    page = await (await caseworker.get("/console/cases")).text()
    chosen = [*fake, held_by_wahid]
    response = await caseworker.post(
        "/console/cases/close-as-abuse",
        data=[("csrf", csrf_in(page)), *(("case", str(n)) for n in chosen)],
    )
    said = visible(await response.text())
    assert "4 cases closed as abuse; 1 left open" in said
    assert listed(await (await caseworker.get("/console/cases")).text()) == [
        held_by_wahid,
        genuine,
    ]
    # Each conversation is resumed quietly: no output channel, so nobody is sent a word.
    assert len(fake_rasa.calls) == 4 and fake_rasa.channels == [None] * 4
    assert {body["name"] for _, _, body in fake_rasa.calls} == {"EXTERNAL_case_closed"}
    with db.session_scope() as session:
        statuses = {c.id: c.status for c in session.scalars(select(Case))}
        abuse = session.scalars(
            select(CaseAudit.case_id).where(CaseAudit.action == queue.ABUSE)
        ).all()
    assert all(statuses[n] is CaseStatus.CLOSED for n in fake)
    assert statuses[held_by_wahid] is CaseStatus.TAKEN and sorted(abuse) == sorted(fake)

    nothing = await caseworker.post("/console/cases/close-as-abuse", data={"csrf": csrf_in(page)})
    assert "Nothing was closed: select the cases first." in visible(await nothing.text())
    forged = await caseworker.post(
        "/console/cases/close-as-abuse", data={"csrf": "0", "case": str(genuine)}
    )
    assert forged.status == 403


async def test_when_rasa_cannot_take_a_conversation_back_its_case_stays_open(
    caseworker: Client, rasa: tuple[FakeRasa, str]
) -> None:
    fake_rasa, _ = rasa
    fake_rasa.status = 500
    fake = flood(2)
    page = await (await caseworker.get("/console/cases")).text()
    response = await caseworker.post(
        "/console/cases/close-as-abuse",
        data=[("csrf", csrf_in(page)), *(("case", str(n)) for n in fake)],
    )
    assert "0 cases closed as abuse; 2 left open" in visible(await response.text())
    assert sorted(listed(await (await caseworker.get("/console/cases")).text())) == fake
