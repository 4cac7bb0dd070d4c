"""The editors' "Rumours people ask about": a rumour five people asked about on two channels or
over six hours is shown with how many, where and when, and what two or more of them wrote alike;
one fewer people asked, or one person from many conversations, is not, nor is a flood of
made-up rumours from a few web chat addresses, nor a name one person typed. Ranked by people,
50 to a page. "Write a verdict" starts the claim with what people wrote
alike; publishing it links their asks and tells those who wanted to know. "Hide as spam" keeps
a group, and what joins it later, off the page."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import datetime, timedelta

import pytest
from sqlalchemy import Engine, select

from actions.alerts.models import Broadcast, Topic
from actions.chat.claims import ActionCheckClaim
from actions.content import db
from actions.content.asks import Ask, HiddenAskGroup, asker_of
from actions.content.models import Claim
from scripts import bench_rumour_page as bench
from scripts.conversations import said
from tests.actions.alerts_support import deliveries
from tests.actions.claims_support import GATES, VISA, ask, asks, no_asks, person
from tests.actions.console_support import Client, csrf_in, form_of, invitation, visible
from tests.actions.content_support import NOW, clock, run
from tests.actions.test_claims_kind import RUMOUR, texts_of
from tests.actions.test_console_cases import browser_for, sign_in_as

__all__ = ["no_asks"]

LONG = "میگن دروازه ابی برای همه باز است و هر کس با تذکره میتواند داخل برود، راست است یا دروغ؟ " * 2
LATIN = "abbey gate baz ast bara hama?"
PASHTO = "ابی ګیټ ټولو ته خلاص دی؟ [phone]"
NASRIN = (
    "is it true that the taliban are looking for nasrin sultani of karte seh who worked for "
    "the british"
)


@pytest.fixture
async def editor(content_db: Engine, no_asks: None) -> AsyncIterator[Client]:
    async with await browser_for(content_db) as client:
        await sign_in_as(client, invitation(content_db, "amina", NOW))
        yield client


def five_ask_about_the_gate() -> None:
    """Five people on three channels within twenty minutes: two wrote the Dari in Latin letters
    alike, two the Pashto alike, one a long text of their own."""
    ask(person("telegram", 1), LATIN, language="prs", asked_at=NOW, tag="p1")
    ask(person("whatsapp", 2), LONG, language="prs", channel="whatsapp", asked_at=NOW, tag="p2")
    ask(person("telegram", 4), LATIN, asked_at=NOW + timedelta(minutes=5), tag="p4")
    ask(
        person("whatsapp", 5),
        PASHTO,
        language="ps",
        channel="whatsapp",
        asked_at=NOW + timedelta(minutes=15),
        tag="p5",
    )
    ask(
        person("sms_gateway", 3),
        PASHTO,
        language="ps",
        channel="sms_gateway",
        asked_at=NOW + timedelta(minutes=20),
        tag="p3",
    )


def two_ask_about_visas() -> None:
    # Five asks, but from two conversations only: still fewer than five people.
    for n in range(5):
        ask(person("telegram", 10 + n % 2), "visa canada ba pasport kohna?", VISA, language="en")


async def asked_in_chat(
    text: str, channel: str, tag: str, *, sender: str | None = None, at: datetime = NOW
) -> None:
    """An "is this true?" through ``action_check_claim``, from the person the channel tagged
    ``tag``: stored as the chat stores it."""
    state = said(text, "en", channel, "check_claim", sender=sender, person=tag)
    await run(ActionCheckClaim(clock=clock(at - NOW)), state)


def listed(page: str) -> list[str]:
    """The groups the rumours page offers a verdict for, in its order."""
    return re.findall(r'href="/console/new/claim\?group=([^"]+)"', page)


async def rumours_page(editor: Client, query: str = "") -> str:
    response = await editor.get(f"/console/claims?lang=en{query}")
    assert response.status == 200
    return await response.text()


async def test_a_rumour_five_people_asked_is_shown_one_two_asked_is_not(
    editor: Client,
) -> None:
    five_ask_about_the_gate()
    two_ask_about_visas()

    page = await rumours_page(editor)
    shown = visible(page)

    assert "Rumours people ask about" in shown
    assert "5 people asked, 5 times" in shown
    assert "visa canada" not in shown
    # The text most people wrote alike, the newest of those first, its mask in the editor's
    # words; one person's own long text is not shown. Cut to 80 characters at most.
    quoted = re.findall(r"<q[^>]*>(.*?)</q>", page, re.S)
    assert quoted == [PASHTO]
    assert "میگن دروازه ابی" not in shown
    for text in quoted:
        assert len(text) <= 80
    assert "دری" in shown and "پښتو" in shown  # Dari and Pashto as they name themselves
    assert "SMS (gateway)" in shown and "Telegram" in shown and "WhatsApp" in shown
    assert "First asked 2021-08-24 09:00, last 2021-08-24 09:20 (Kabul time)" in shown
    assert listed(page) == [GATES]
    assert f"group={VISA}" not in page
    assert 'href="/console/claims" aria-current="page"' in page  # in the console's menu


async def test_four_people_or_five_within_minutes_on_one_channel_are_not_enough(
    editor: Client,
) -> None:
    for n in range(4):  # four people, two channels
        channel = ("telegram", "whatsapp")[n % 2]
        ask(person(channel, 20 + n), "kabul bank baz ast?", "bank-rumour-003", channel=channel)
    for n in range(5):  # five people, one channel, an hour
        ask(
            person("webchat", 30 + n),
            "is it true that the hotel is a camp now",
            "hotel-rumour-04",
            channel="webchat",
            asked_at=NOW + timedelta(minutes=15 * n),
            tag=f"address-{n}",
        )
    page = await rumours_page(editor)
    assert listed(page) == []
    nothing = "No rumour without an answer was asked by 5 or more people, on two channels or over"
    assert nothing in visible(page)

    # Five on one channel over six hours, or five on two: shown.
    ask(
        person("webchat", 35),
        "is it true that the hotel is a camp now",
        "hotel-rumour-04",
        channel="webchat",
        asked_at=NOW + timedelta(hours=6),
        tag="address-5",
    )
    ask(person("telegram", 24), "kabul bank baz ast?", "bank-rumour-003", tag="p24")
    assert sorted(listed(await rumours_page(editor))) == ["bank-rumour-003", "hotel-rumour-04"]


async def test_the_page_speaks_dari_and_pashto_right_to_left(editor: Client) -> None:
    five_ask_about_the_gate()
    dari = await (await editor.get("/console/claims?lang=prs")).text()
    assert '<html lang="fa-AF" dir="rtl">' in dari
    assert "شایعه‌هایی که مردم می‌پرسند" in visible(dari)
    assert "۵ نفر پرسیده‌اند، ۵ بار" in visible(dari)
    assert "[نمبر تیلفون]" in visible(dari)
    assert "به حیث اسپم پنهان کنید" in visible(dari)
    pashto = await (await editor.get("/console/claims?lang=ps")).text()
    assert 'dir="rtl"' in pashto and "هغه اوازې چې خلک یې پوښتي" in visible(pashto)
    assert "د کتنې پایله ولیکئ" in visible(pashto)
    assert "۵ کسانو پوښتلي، ۵ ځله" in visible(pashto)
    assert "د سپام په توګه یې پټ کړئ" in visible(pashto)


async def test_nothing_to_show_says_so(editor: Client) -> None:
    two_ask_about_visas()
    shown = visible(await rumours_page(editor))
    assert "No rumour without an answer was asked by 5 or more people" in shown


async def test_write_a_verdict_starts_the_claim_with_what_people_wrote_alike(
    editor: Client,
) -> None:
    five_ask_about_the_gate()
    page = await (await editor.get(f"/console/new/claim?group={GATES}&lang=en")).text()
    form = form_of(page)
    assert form["group"] == GATES
    assert form["key"] == "abbey-gate-baz-ast-bara-hama"
    # What two people wrote alike, the newest first; one person's own words are not there.
    assert form["phrasings"].splitlines() == [PASHTO, LATIN]
    assert "Started from a rumour 5 people asked about." in visible(page)

    # A group under five people prefills nothing: the URL cannot show it either.
    two_ask_about_visas()
    hidden = form_of(await (await editor.get(f"/console/new/claim?group={VISA}")).text())
    assert "group" not in hidden and hidden["phrasings"] == "" and hidden["key"] == ""


async def test_publishing_the_verdict_links_the_asks_and_tells_the_askers(
    editor: Client,
) -> None:
    five_ask_about_the_gate()
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
    # The five who asked are told with the verdict: the preview counts them.
    assert "Publishing alerts 5 subscribers." in visible(preview)
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
    assert sorted(d.channel for d in deliveries()) == [
        "sms_gateway",
        "telegram",
        "telegram",
        "whatsapp",
        "whatsapp",
    ]
    # Checked now: off the page.
    after = visible(await rumours_page(editor))
    assert "No rumour without an answer" in after


async def test_a_flood_of_made_up_rumours_from_three_addresses_buries_no_real_one(
    editor: Client,
) -> None:
    """Three web chat senders, each from an address of its own, send the same
    55 made-up rumours, 165 turns in 9 seconds, after five people asked a real one on Telegram
    and WhatsApp over seven hours. Under the old rule (three conversations, newest first, 50
    shown) the page showed 50 made-up groups and not the real one."""
    for n, (channel, text) in enumerate(bench.REAL):
        at = NOW - timedelta(hours=7) + n * bench.REAL_APART
        await asked_in_chat(text, channel, f"real-person-{n}", at=at)
    made_up = bench.made_up_rumours()
    for index in range(3 * len(made_up)):
        sender, rumour = index % 3, made_up[index // 3]
        at = NOW + index * bench.FLOOD / (3 * len(made_up))
        await asked_in_chat(rumour, "webchat", f"address-{sender}", sender=f"flood-{sender}", at=at)

    with db.session_scope() as session:
        flood = session.scalars(select(Ask).where(Ask.channel == "webchat")).all()
        real = session.scalars(select(Ask).where(Ask.channel != "webchat")).all()
        assert len(flood) == 165 and len({ask.conversation_id for ask in flood}) == 3
        assert {ask.asker for ask in flood} == {asker_of(f"address-{n}") for n in range(3)}
        assert len({ask.group_key for ask in flood}) > 40  # each its own group, or nearly
        (real_group,) = {ask.group_key for ask in real}
        assert len({ask.asker for ask in real}) == 5

    page = await rumours_page(editor)
    assert listed(page) == [real_group]
    shown = visible(page)
    assert "5 people asked, 5 times" in shown
    # Two texts two people each wrote alike: the newer of them.
    assert re.findall(r"<q[^>]*>(.*?)</q>", page, re.S) == [bench.REAL[3][1]]
    assert "tomorrow" not in shown and "webchat" not in shown


async def test_three_senders_of_one_address_never_put_a_name_on_the_page_or_a_draft(
    editor: Client,
) -> None:
    """Three web chat conversations from one browser address are one person."""
    for n in range(3):
        await asked_in_chat(NASRIN, "webchat", "one-browser", sender=f"webchat-page-{n}")
    rows = asks()
    assert len({row.conversation_id for row in rows}) == 3
    assert {row.asker for row in rows} == {asker_of("one-browser")}
    (group,) = {row.group_key for row in rows}
    page = await rumours_page(editor)
    assert listed(page) == [] and "nasrin" not in page
    draft = form_of(await (await editor.get(f"/console/new/claim?group={group}")).text())
    assert "group" not in draft and draft["phrasings"] == ""

    # Five people on two channels ask the same rumour without the name; the one person's
    # three asks go into their group. Only the words two people or more wrote reach the page
    # and the draft.
    common = "is it true that the taliban are looking for people who worked for the british"
    for n in range(5):
        channel = ("telegram", "whatsapp")[n % 2]
        text = common if n < 2 else f"{common} {('embassy', 'army', 'council')[n - 2]}"
        ask(person(channel, 40 + n), text, group, channel=channel, language="en", tag=f"p{n}")
    page = await rumours_page(editor)
    assert listed(page) == [group]
    assert "6 people asked, 8 times" in visible(page)
    assert re.findall(r"<q[^>]*>(.*?)</q>", page, re.S) == [common]
    assert "nasrin" not in page and "karte seh" not in page
    draft = form_of(await (await editor.get(f"/console/new/claim?group={group}")).text())
    assert draft["group"] == group and draft["phrasings"].splitlines() == [common]


async def test_a_group_nobody_wrote_alike_shows_its_counts_and_starts_without_phrasings(
    editor: Client,
) -> None:
    for n in range(5):
        channel = ("telegram", "whatsapp")[n % 2]
        ask(person(channel, 50 + n), f"torkham baz ast {n}", "torkham-rumour5", channel=channel)
    page = await rumours_page(editor)
    assert listed(page) == ["torkham-rumour5"]
    assert "No two people wrote it alike: no text is shown" in visible(page)
    assert "<q" not in page
    draft = form_of(await (await editor.get("/console/new/claim?group=torkham-rumour5")).text())
    assert draft["group"] == "torkham-rumour5" and draft["phrasings"] == ""
    assert draft["key"] == "rumour-torkhamrumou"


async def test_hide_as_spam_keeps_the_group_and_its_later_asks_off_the_page(
    editor: Client,
) -> None:
    five_ask_about_the_gate()
    page = await rumours_page(editor)
    assert listed(page) == [GATES] and "Hide as spam" in visible(page)

    # Without the form's security code nothing is hidden.
    refused = await editor.post("/console/claims/hide", data={"group": GATES})
    assert refused.status == 403 and listed(await rumours_page(editor)) == [GATES]

    hidden = await editor.post("/console/claims/hide", data={"csrf": csrf_in(page), "group": GATES})
    assert hidden.status == 200 and hidden.url.path == "/console/claims"
    after = await hidden.text()
    assert "Hidden as spam. What people ask later in this group stays hidden too." in visible(after)
    assert listed(after) == []
    assert f'data-hidden="{GATES}"' in after
    assert "Hidden by amina, 2021-08-24 09:45 (Kabul time)" in visible(after)
    with db.session_scope() as session:
        (row,) = session.scalars(select(HiddenAskGroup))
        assert (row.group_key, row.hidden_by) == (GATES, "amina")
        assert row.hidden_at == NOW + timedelta(minutes=45)

    # Later asks the grouping puts in the same group stay hidden, and start no verdict.
    later = "is it true abbey gate baz ast bara hama"
    for n in range(3):
        await asked_in_chat(later, "telegram", f"later-{n}", at=NOW + timedelta(minutes=30))
    assert {row.group_key for row in asks()} == {GATES} and len(asks()) == 8
    assert listed(await rumours_page(editor)) == []
    draft = form_of(await (await editor.get(f"/console/new/claim?group={GATES}")).text())
    assert "group" not in draft

    shown = await editor.post("/console/claims/show", data={"csrf": csrf_in(page), "group": GATES})
    assert "Shown again" in visible(await shown.text())
    assert listed(await shown.text()) == [GATES]
    with db.session_scope() as session:
        assert session.scalars(select(HiddenAskGroup)).all() == []


async def test_hiding_a_group_that_is_gone_changes_nothing_and_caseworkers_cannot(
    editor: Client, content_db: Engine
) -> None:
    page = await rumours_page(editor)
    gone = await editor.post("/console/claims/hide", data={"csrf": csrf_in(page), "group": VISA})
    assert "Nothing changed" in visible(await gone.text())
    with db.session_scope() as session:
        assert session.scalars(select(HiddenAskGroup)).all() == []
    five_ask_about_the_gate()
    async with await browser_for(content_db) as client:
        await sign_in_as(client, invitation(content_db, "farida", NOW, "caseworker"))
        refused = await client.post("/console/claims/hide", data={"group": GATES})
        assert refused.status == 403
    assert listed(await rumours_page(editor)) == [GATES]


async def test_the_rumours_are_ranked_by_people_and_read_fifty_to_a_page(editor: Client) -> None:
    with db.session_scope() as session:
        for group in range(120):
            # Group 0 was asked by the most people, group 119 by the fewest (five).
            for n in range(5 + (119 - group) // 10):
                session.add(
                    Ask(
                        conversation_id=person("telegram", group * 100 + n),
                        channel=("telegram", "whatsapp")[n % 2],
                        language="prs",
                        masked_text=f"rumour {group} from {n}",
                        group_key=f"group-{group:03d}",
                        asked_at=NOW - timedelta(minutes=group),
                        wants_answer=False,
                    )
                )

    first = await rumours_page(editor)
    assert listed(first) == [f"group-{group:03d}" for group in range(50)]
    assert "Page 1 of 3" in visible(first)
    assert 'href="/console/claims?page=2" rel="next"' in first and 'rel="prev"' not in first
    assert '<ol class="asked rumours" start="1">' in first

    second = await rumours_page(editor, "&page=2")
    assert listed(second) == [f"group-{group:03d}" for group in range(50, 100)]
    assert '<ol class="asked rumours" start="51">' in second
    assert 'href="/console/claims" rel="prev"' in second
    assert 'href="/console/claims?page=3" rel="next"' in second

    last = await rumours_page(editor, "&page=3")
    assert listed(last) == [f"group-{group:03d}" for group in range(100, 120)]
    assert 'rel="next"' not in last
    assert listed(await rumours_page(editor, "&page=99")) == listed(last)

    dari = await (await editor.get("/console/claims?lang=prs&page=2")).text()
    assert "صفحهٔ ۲ از ۳" in visible(dari)
