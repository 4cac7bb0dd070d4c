"""The editors' "Rumours people ask about": a rumour three conversations asked about is shown
with how many, where and when, one asked by two is not; "Write a verdict" starts the claim
with what people wrote; publishing it links their asks and tells those who wanted to know."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest
from sqlalchemy import Engine, select

from actions.alerts.models import Broadcast, Topic
from actions.content import db
from actions.content.models import Claim
from tests.actions.alerts_support import deliveries
from tests.actions.claims_support import GATES, VISA, ask, asks, no_asks, person
from tests.actions.console_support import Client, form_of, invitation, visible
from tests.actions.content_support import NOW
from tests.actions.test_claims_kind import RUMOUR, texts_of
from tests.actions.test_console_cases import browser_for, sign_in_as

__all__ = ["no_asks"]

LONG = "میگن دروازه ابی برای همه باز است و هر کس با تذکره میتواند داخل برود، راست است یا دروغ؟ " * 2


@pytest.fixture
async def editor(content_db: Engine, no_asks: None) -> AsyncIterator[Client]:
    async with await browser_for(content_db) as client:
        await sign_in_as(client, invitation(content_db, "amina", NOW))
        yield client


def three_ask_about_the_gate() -> None:
    ask(person("telegram", 1), "abbey gate baz ast bara hama?", language="prs", asked_at=NOW)
    ask(person("whatsapp", 2), LONG, language="prs", channel="whatsapp", asked_at=NOW)
    ask(
        person("sms_gateway", 3),
        "ابی ګیټ ټولو ته خلاص دی؟ [phone]",
        language="ps",
        channel="sms_gateway",
        asked_at=NOW + timedelta(minutes=20),
    )


def two_ask_about_visas() -> None:
    # Five asks, but from two conversations only: still fewer than three people.
    for n in range(5):
        ask(person("telegram", 10 + n % 2), "visa canada ba pasport kohna?", VISA, language="en")


async def test_a_rumour_three_conversations_asked_is_shown_one_two_asked_is_not(
    editor: Client,
) -> None:
    three_ask_about_the_gate()
    two_ask_about_visas()

    page = await (await editor.get("/console/claims?lang=en")).text()
    shown = visible(page)

    assert "Rumours people ask about" in shown
    assert "3 conversations asked, 3 times" in shown
    assert "visa canada" not in shown and "5 times" not in shown
    # The latest text, its mask in the editor's words; cut to 80 characters at most.
    assert "ابی ګیټ ټولو ته خلاص دی؟ [phone]" in shown
    for quoted in re.findall(r"<q[^>]*>(.*?)</q>", page, re.S):
        assert len(quoted) <= 80
    assert "دری" in shown and "پښتو" in shown  # Dari and Pashto as they name themselves
    assert "sms_gateway" in shown and "telegram" in shown and "whatsapp" in shown
    assert "First asked 2021-08-24 09:00, last 2021-08-24 09:20 (Kabul time)" in shown
    assert f'href="/console/new/claim?group={GATES}"' in page
    assert f"group={VISA}" not in page
    assert 'href="/console/claims" aria-current="page"' in page  # in the console's menu


async def test_the_page_speaks_dari_and_pashto_right_to_left(editor: Client) -> None:
    three_ask_about_the_gate()
    dari = await (await editor.get("/console/claims?lang=prs")).text()
    assert '<html lang="fa-AF" dir="rtl">' in dari
    assert "شایعه‌هایی که مردم می‌پرسند" in visible(dari)
    assert "۳ گفتگو پرسیده‌اند، ۳ بار" in visible(dari)
    assert "[نمبر تیلفون]" in visible(dari)
    pashto = await (await editor.get("/console/claims?lang=ps")).text()
    assert 'dir="rtl"' in pashto and "هغه اوازې چې خلک یې پوښتي" in visible(pashto)
    assert "د کتنې پایله ولیکئ" in visible(pashto)


async def test_nothing_to_show_says_so(editor: Client) -> None:
    two_ask_about_visas()
    shown = visible(await (await editor.get("/console/claims?lang=en")).text())
    assert "No rumour without an answer was sent by 3 or more conversations." in shown


async def test_write_a_verdict_starts_the_claim_with_what_people_wrote(editor: Client) -> None:
    three_ask_about_the_gate()
    page = await (await editor.get(f"/console/new/claim?group={GATES}&lang=en")).text()
    form = form_of(page)
    assert form["group"] == GATES
    assert form["key"] == "abbey-gate-baz-ast-bara-hama"
    phrasings = form["phrasings"].splitlines()
    assert phrasings[0] == "ابی ګیټ ټولو ته خلاص دی؟ [phone]"  # newest first
    assert "abbey gate baz ast bara hama?" in phrasings and len(phrasings) == 3
    assert "Started from a rumour 3 conversations asked about." in visible(page)

    # A group under three conversations prefills nothing: the URL cannot show it either.
    two_ask_about_visas()
    hidden = form_of(await (await editor.get(f"/console/new/claim?group={VISA}")).text())
    assert "group" not in hidden and hidden["phrasings"] == "" and hidden["key"] == ""


async def test_publishing_the_verdict_links_the_asks_and_tells_the_askers(
    editor: Client,
) -> None:
    three_ask_about_the_gate()
    page = await (await editor.get(f"/console/new/claim?group={GATES}&lang=en")).text()
    form = {
        **form_of(page),
        "key": "abbey-gate-open-to-everyone",
        "verdict": "false",
        **texts_of(RUMOUR),
        "source": "us-embassy-kabul",
    }

    previewed = await editor.post("/console/new/claim", data={**form, "do": "preview"})
    preview = await previewed.text()
    assert previewed.status == 200, visible(preview)[:2000]
    # The three who asked are told with the verdict: the preview counts them.
    assert "Publishing alerts 3 subscribers." in visible(preview)
    chat = re.search(r'data-language="prs".*?data-channel="chat">(.*?)</div>', preview, re.S)
    assert chat is not None and "کانادا هر کسی را که تذکره دارد می‌برد" in chat.group(1)
    assert re.search(r'data-language="ps".*?data-channel="sms">', preview, re.S)
    assert all(row.claim_id is None for row in asks())  # a preview changes nothing
    assert deliveries() == []

    published = await editor.post("/console/new/claim", data={**form, "do": "publish"})
    assert published.url.path == "/console/edit/claim/abbey-gate-open-to-everyone"
    with db.session_scope() as session:
        claim_id = session.scalar(
            select(Claim.id).where(Claim.slug == "abbey-gate-open-to-everyone")
        )
        (broadcast,) = session.scalars(select(Broadcast))
        assert broadcast.topic is Topic.CLAIMS
    assert {row.claim_id for row in asks()} == {claim_id}
    assert all(row.told_at is not None for row in asks())
    assert sorted(d.channel for d in deliveries()) == ["sms_gateway", "telegram", "whatsapp"]
    # Checked now: off the page.
    after = visible(await (await editor.get("/console/claims?lang=en")).text())
    assert "No rumour without an answer" in after
