"""The questions nobody answered, on "What people ask": grouped, ranked by how many people asked
(then channels, then newest), never shown for fewer than five people or for five within minutes
on one channel, a flood from one person counted once however many conversations it opens, 20
groups to a page; "Write an answer" starts the answer with what people wrote alike, and
publishing it links their asks and tells those who wanted to know; "Hide as spam" keeps a group,
and the questions the chat puts in it later, off the page. The rumours page keeps its own
asks."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import datetime, timedelta

import pytest
from sqlalchemy import Engine, select

from actions.alerts.models import Broadcast, Topic
from actions.chat.answers import ActionAnswerQuestion
from actions.content import db
from actions.content.asks import Ask, AskAbout, HiddenAskGroup
from actions.content.models import Answer
from scripts.conversations import said
from tests.actions.alerts_support import deliveries
from tests.actions.claims_support import ask, asks, no_asks, person
from tests.actions.console_support import Client, csrf_in, form_of, invitation, visible
from tests.actions.content_support import NOW, clock, run
from tests.actions.test_console_cases import browser_for, sign_in_as

__all__ = ["no_asks"]

#: The same question asked by five people, in Dari, Pashto and English.
BORDER = "border-question-01"
#: Asked by six people, but earlier.
BUSES = "buses-question-002"
RUMOUR = "gates-rumour-0001"
#: The console's clock (``browser_for``): 45 minutes after NOW.
CONSOLE_NOW = NOW + timedelta(minutes=45)
LATIN = "rah jalalabad baz ast?"
PASHTO = "د جلال اباد لار خلاصه ده؟ [phone]"
ANSWER = {
    "question.en": "Is the road to Jalalabad open?",
    "question.prs": "آیا راه جلال‌آباد باز است؟",
    "question.ps": "د جلال اباد لار خلاصه ده؟",
    "answer.en": "The road is open by day. Travel only by day and carry your tazkira.",
    "answer.prs": "راه در روز باز است. فقط در روز سفر کنید و تذکرهٔ خود را با خود داشته باشید.",
    "answer.ps": "لار د ورځې خلاصه ده. یوازې د ورځې سفر وکړئ او خپله تذکره له ځانه سره ولرئ.",
    "source": "us-embassy-kabul",
}


@pytest.fixture
async def editor(content_db: Engine, no_asks: None) -> AsyncIterator[Client]:
    async with await browser_for(content_db) as client:
        await sign_in_as(client, invitation(content_db, "amina", NOW))
        yield client


def question(
    conversation: str,
    text: str,
    group: str = BORDER,
    *,
    language: str = "prs",
    channel: str = "telegram",
    asked_at: datetime = NOW,
    wants_answer: bool = False,
    tag: str | None = None,
) -> None:
    """An unanswered question as the chat keeps it (``actions/chat/asks.py``)."""
    ask(
        conversation,
        text,
        group,
        language=language,
        channel=channel,
        asked_at=asked_at,
        wants_answer=wants_answer,
        about=AskAbout.ANSWER,
        tag=tag,
    )


def five_ask_about_the_border(wants_answer: bool = False) -> None:
    """Five people on three channels: two wrote the Latin letters alike, two the Pashto."""
    for n, (channel, text, language, minutes) in enumerate(
        [
            ("telegram", LATIN, "prs", 0),
            ("webchat", "راه جلال آباد باز است؟", "prs", 5),
            ("whatsapp", PASHTO, "ps", 10),
            ("telegram", LATIN, "prs", 1),
            ("whatsapp", PASHTO, "ps", 12),
        ]
    ):
        question(
            person(channel, n + 1),
            text,
            language=language,
            channel=channel,
            asked_at=NOW + timedelta(minutes=minutes),
            wants_answer=wants_answer,
            tag=f"border-{n}",
        )


def six_ask_about_buses() -> None:
    """More people than the border, on one channel but over ten hours, all of them earlier."""
    for n in range(6):
        question(
            person("telegram", 20 + n),
            f"bus ba mazar kai ast? {n}",
            BUSES,
            asked_at=NOW - timedelta(days=2, hours=2 * n),
        )


def waiting(page: str) -> str:
    """The page's section of questions waiting for an answer."""
    return page[page.index('id="waiting"') : page.index('aria-labelledby="unanswered"')]


def listed(page: str) -> list[str]:
    """The groups the questions page offers to answer, in its order."""
    return re.findall(r'href="/console/new/answer\?group=([^"]+)"', page)


async def questions_page(editor: Client, query: str = "") -> str:
    response = await editor.get(f"/console/questions?lang=en{query}")
    assert response.status == 200
    return await response.text()


async def test_groups_are_ranked_by_people_not_by_the_newest(editor: Client) -> None:
    five_ask_about_the_border()
    six_ask_about_buses()
    # Five people, the newest of all, but on two channels: after the border's five on three.
    for n in range(5):
        question(
            person("telegram" if n else "whatsapp", 40 + n),
            "visa pakistan?",
            "visa-question-003",
            channel="telegram" if n else "whatsapp",
            asked_at=NOW + timedelta(minutes=30),
        )

    page = await questions_page(editor)
    assert listed(page) == [BUSES, BORDER, "visa-question-003"]
    shown = visible(page)
    assert "Questions waiting for an answer" in shown and "Questions waiting: 3" in shown
    assert "6 people asked, 6 times" in shown and "5 people asked, 5 times" in shown
    # What two people or more wrote alike, masks in the editor's words, escaped; languages
    # and channels. The Dari only one person wrote is not shown.
    border = page[page.index(f'data-group="{BORDER}"') :]
    border = border[: border.index("</a>")]
    assert re.findall(r"<q[^>]*>(.*?)</q>", border, re.S) == [PASHTO, LATIN]
    assert "راه جلال آباد" not in border
    assert "دری" in visible(border) and "پښتو" in visible(border)
    assert "Web chat" in border and "WhatsApp" in border and "Telegram" in border
    assert "Write an answer" in shown and "Hide as spam" in shown
    # Nobody wrote the buses question alike: its counts only.
    buses = page[page.index(f'data-group="{BUSES}"') : page.index(f'data-group="{BORDER}"')]
    assert "<q" not in buses and "No two people wrote it alike" in visible(buses)


async def test_a_flood_from_one_person_counts_once_from_however_many_conversations(
    editor: Client,
) -> None:
    for n in range(40):  # one web chat address, forty conversations
        question(
            person("webchat", 700 + n),
            "kabul bank kai baz mesha?",
            "bank-question-04",
            channel="webchat",
            tag="one-address",
        )
    for n, channel in enumerate(("whatsapp", "telegram", "sms_gateway")):
        question(
            person(channel, 8 + n), "بانک کابل کی باز میشه؟", "bank-question-04", channel=channel
        )

    page = await questions_page(editor)
    assert "bank-question-04" not in page  # four people, however many messages
    nothing = "No question without an answer was asked by 5 or more people, on two channels"
    assert nothing in visible(page)

    question(person("telegram", 12), "بانک کابل کی خلاصیږي؟", "bank-question-04", tag="p12")
    page = await questions_page(editor)
    assert listed(page) == ["bank-question-04"]
    assert "5 people asked, 44 times" in visible(page)
    # One person's forty messages are one writer: only what three people wrote alike shows.
    quoted = re.findall(r"<q[^>]*>(.*?)</q>", waiting(page), re.S)
    assert quoted == ["بانک کابل کی باز میشه؟"]


async def test_the_rumours_page_shows_no_questions_and_the_questions_page_no_rumours(
    editor: Client,
) -> None:
    five_ask_about_the_border()
    for n in range(5):
        channel = ("telegram", "whatsapp")[n % 2]
        ask(person(channel, 50 + n), "abbey gate baz ast?", RUMOUR, channel=channel)
    # Four rumour asks and a question under one key: neither page counts five people.
    for n in range(4):
        channel = ("telegram", "whatsapp")[n % 2]
        ask(person(channel, 55 + n), "torkham baz ast?", "mixed-group-0007", channel=channel)
    question(person("telegram", 59), "torkham baz ast?", "mixed-group-0007")

    rumours = await (await editor.get("/console/claims?lang=en")).text()
    assert f"/console/new/claim?group={RUMOUR}" in rumours
    assert BORDER not in rumours and "jalalabad" not in rumours
    assert "mixed-group-0007" not in rumours
    assert "5 people asked, 5 times" in visible(rumours)

    page = await questions_page(editor)
    assert listed(page) == [BORDER]
    assert RUMOUR not in page and "abbey gate" not in page
    assert "mixed-group-0007" not in page

    # A rumour's asks do not start an answer, nor a question's a claim.
    hidden = form_of(await (await editor.get(f"/console/new/answer?group={RUMOUR}")).text())
    assert "group" not in hidden and hidden["phrasings"] == ""
    hidden = form_of(await (await editor.get(f"/console/new/claim?group={BORDER}")).text())
    assert "group" not in hidden and hidden["phrasings"] == ""


async def test_questions_older_than_a_week_are_not_shown(editor: Client) -> None:
    for n in range(5):
        channel = ("telegram", "whatsapp")[n % 2]
        question(
            person(channel, 60 + n),
            "old question?",
            "old-question-05",
            channel=channel,
            asked_at=NOW - timedelta(days=8),
        )
    page = await questions_page(editor)
    assert "old-question-05" not in page
    hidden = form_of(await (await editor.get("/console/new/answer?group=old-question-05")).text())
    assert "group" not in hidden


async def test_write_an_answer_starts_it_with_what_people_wrote_alike(editor: Client) -> None:
    five_ask_about_the_border()
    question(person("telegram", 6), LATIN, asked_at=NOW + timedelta(minutes=1), tag="p6")

    page = await (await editor.get(f"/console/new/answer?group={BORDER}&lang=en")).text()
    form = form_of(page)
    assert form["group"] == BORDER
    assert form["key"] == "rah-jalalabad-baz-ast"
    # What most people wrote alike first; what one person wrote alone is not prefilled.
    assert form["phrasings"].splitlines() == [LATIN, PASHTO]
    assert "Started from a question 6 people asked." in visible(page)

    dari = await (await editor.get(f"/console/new/answer?group={BORDER}&lang=prs")).text()
    assert '<html lang="fa-AF" dir="rtl">' in dari
    assert "از سوالی شروع شده که ۶ نفر پرسیده‌اند." in visible(dari)


async def test_a_group_in_no_latin_words_gets_a_slug_to_start(editor: Client) -> None:
    for n in range(5):
        channel = ("telegram", "whatsapp")[n % 2]
        question(
            person(channel, 70 + n),
            "تذکره برقی کجا گرفته میشه؟",
            "tazkira-question6",
            channel=channel,
        )
    form = form_of(await (await editor.get("/console/new/answer?group=tazkira-question6")).text())
    assert form["key"] == "question-tazkiraquest"
    assert form["phrasings"] == "تذکره برقی کجا گرفته میشه؟"


async def test_publishing_the_answer_links_the_asks_and_tells_those_waiting(
    editor: Client,
) -> None:
    five_ask_about_the_border(wants_answer=True)
    page = await (await editor.get(f"/console/new/answer?group={BORDER}&lang=en")).text()
    form = {
        **{
            name: value
            for name, value in form_of(page).items()
            if not name.startswith("same.") and name != "allow_missing"
        },
        "key": "jalalabad-road",
        **ANSWER,
    }

    previewed = await editor.post("/console/new/answer", data={**form, "do": "preview"})
    preview = await previewed.text()
    assert previewed.status == 200, visible(preview)[:2000]
    # The four who asked on a channel that carries alerts are told: the preview counts them.
    assert "Publishing alerts 4 subscribers." in visible(preview)
    assert "Started from a question 5 people asked." in visible(preview)
    assert all(row.answer_id is None for row in asks())  # a preview changes nothing
    assert deliveries() == []

    published = await editor.post("/console/new/answer", data={**form, "do": "publish"})
    assert published.url.path == "/console/edit/answer/jalalabad-road", visible(
        await published.text()
    )[:2000]
    with db.session_scope() as session:
        answer_id = session.scalar(select(Answer.id).where(Answer.slug == "jalalabad-road"))
        (broadcast,) = session.scalars(select(Broadcast))
        assert broadcast.topic is Topic.ANSWERS
    assert answer_id is not None
    assert {row.answer_id for row in asks()} == {answer_id}
    assert all(row.claim_id is None for row in asks())
    # Telegram and WhatsApp carry an alert; the web chat cannot, and nobody is told there.
    assert sorted(d.channel for d in deliveries()) == [
        "telegram",
        "telegram",
        "whatsapp",
        "whatsapp",
    ]
    told = {row.channel: row.told_at for row in asks()}
    assert told["telegram"] is not None and told["webchat"] is None
    # Answered now: off the page.
    after = await questions_page(editor)
    assert BORDER not in after


async def test_a_question_nobody_wants_told_is_linked_and_tells_nobody(editor: Client) -> None:
    five_ask_about_the_border(wants_answer=False)
    page = await (await editor.get(f"/console/new/answer?group={BORDER}")).text()
    form = {**form_of(page), "key": "jalalabad-road", **ANSWER, "do": "publish"}
    published = await editor.post("/console/new/answer", data=form)
    assert published.url.path == "/console/edit/answer/jalalabad-road"
    assert all(row.answer_id is not None for row in asks())
    assert deliveries() == []


async def test_two_hundred_groups_are_read_twenty_to_a_page(editor: Client) -> None:
    with db.session_scope() as session:
        for group in range(45):
            # Group 0 was asked by the most people, group 44 by the fewest (five).
            for n in range(5 + (44 - group) // 5):
                session.add(
                    Ask(
                        conversation_id=person("telegram", group * 100 + n),
                        channel=("telegram", "whatsapp")[n % 2],
                        language="prs",
                        masked_text=f"question {group} from {n}",
                        group_key=f"group-{group:02d}",
                        about=AskAbout.ANSWER,
                        asked_at=NOW - timedelta(minutes=group),
                    )
                )

    first = await questions_page(editor)
    assert listed(first) == [f"group-{group:02d}" for group in range(20)]
    assert "Page 1 of 3" in visible(first) and "Questions waiting: 45" in visible(first)
    assert 'href="/console/questions?page=2#waiting" rel="next"' in first
    assert 'rel="prev"' not in first
    assert '<ol class="rumours waiting" start="1">' in first

    second = await questions_page(editor, "&page=2")
    assert listed(second) == [f"group-{group:02d}" for group in range(20, 40)]
    assert '<ol class="rumours waiting" start="21">' in second
    assert 'href="/console/questions#waiting" rel="prev"' in second
    assert 'href="/console/questions?page=3#waiting" rel="next"' in second

    last = await questions_page(editor, "&page=3")
    assert listed(last) == [f"group-{group:02d}" for group in range(40, 45)]
    assert 'rel="next"' not in last
    # Past the end, or not a number: the last page, the first.
    assert listed(await questions_page(editor, "&page=99")) == listed(last)
    assert listed(await questions_page(editor, "&page=x")) == listed(first)

    pashto = await (await editor.get("/console/questions?lang=ps&page=2")).text()
    assert 'dir="rtl"' in pashto
    assert "۲ پاڼه له ۳ څخه" in visible(pashto) and "ځواب ولیکئ" in visible(pashto)


async def test_hide_as_spam_keeps_a_question_and_what_the_chat_adds_to_it_off_the_page(
    editor: Client,
) -> None:
    five_ask_about_the_border()
    page = await questions_page(editor)
    assert listed(page) == [BORDER]
    hidden = await editor.post(
        "/console/questions/hide", data={"csrf": csrf_in(page), "group": BORDER}
    )
    after = await hidden.text()
    assert hidden.url.path == "/console/questions" and listed(after) == []
    assert "Hidden as spam." in visible(after)
    assert "Hidden by amina, 2021-08-24 09:45 (Kabul time)" in visible(after)
    with db.session_scope() as session:
        (row,) = session.scalars(select(HiddenAskGroup))
        assert (row.about, row.group_key, row.hidden_by) == (AskAbout.ANSWER, BORDER, "amina")

    # The same question through the chat, from three more people: grouped with the hidden
    # ones, and hidden with them.
    for n in range(3):
        state = said(LATIN, "prs", "telegram", "nlu_fallback", person=f"later-{n}")
        await run(ActionAnswerQuestion(clock=clock(timedelta(minutes=30))), state)
    assert {row.group_key for row in asks()} == {BORDER} and len(asks()) == 8
    assert listed(await questions_page(editor)) == []
    draft = form_of(await (await editor.get(f"/console/new/answer?group={BORDER}")).text())
    assert "group" not in draft
    # The rumours page's hiding is its own: the same key there is not hidden.
    assert not hidden_as_rumour(BORDER)

    shown = await editor.post(
        "/console/questions/show", data={"csrf": csrf_in(page), "group": BORDER}
    )
    assert listed(await shown.text()) == [BORDER]
    assert "8 people asked, 8 times" in visible(await shown.text())


def hidden_as_rumour(group: str) -> bool:
    with db.session_scope() as session:
        return session.get(HiddenAskGroup, (AskAbout.CLAIM, group)) is not None
