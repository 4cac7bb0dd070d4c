"""What people ask that nobody has answered yet, in groups, for the editors: the rumours of
"Rumours people ask about" and the questions of "What people ask".

Asks of one group (``group_key``: the same rumour or question told in other words) that no claim
or answer names yet, each kind of ask (``about``) apart, shown only once at least
:data:`MIN_CONVERSATIONS` different conversations sent one: a text one person typed, however
often, cannot reach the editors' pages, nor a text that could tell who sent it. Rumours are shown
newest first, so that what spreads now is on top; questions of the last :data:`QUESTION_WINDOW`
most people first (then most channels, then newest), a page at a time (:func:`page`), as an
editor reads 200 of them on a phone. "Write a verdict" or "Write an answer" starts the record
from a group (:func:`draft`), and publishing it links the group's asks to it
(:func:`link_group`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from sqlalchemy import ColumnElement, desc, distinct, func, select, update
from sqlalchemy.orm import InstrumentedAttribute, Session

from actions.content.asks import Ask, AskAbout

#: k-anonymity: fewer different conversations than this and the group is not shown at all.
MIN_CONVERSATIONS: Final = 3
SHOWN_GROUPS: Final = 50
#: The sample text on the page is cut to this many characters.
SAMPLE_CHARS: Final = 80
#: A phrasing is at most this long (``fields.lines``); longer asks are cut to it.
PHRASING_CHARS: Final = 200
#: At most this many phrasings are prefilled (a record takes up to ``validation.LINES_MAX``).
PREFILLED_PHRASINGS: Final = 20
_NOT_SLUG = re.compile(r"[^a-z0-9]+")
SLUG_WORDS: Final = 6
#: Unanswered questions this recent are counted ("What people ask" is the last week's).
QUESTION_WINDOW: Final = timedelta(days=7)


@dataclass(frozen=True)
class Kind:
    """How the asks of one ``about`` are grouped for the editors."""

    #: Where an ask names the record that answers it; asks without one are the page's.
    record: InstrumentedAttribute[int | None]
    #: Only asks this recent count (None: all of them).
    window: timedelta | None
    #: Most people first (then most channels, then newest); else newest first.
    by_people: bool
    #: A slug suggested for a group written in no Latin words starts with it.
    slug_prefix: str


KINDS: Final = {
    AskAbout.CLAIM: Kind(Ask.claim_id, None, by_people=False, slug_prefix="rumour"),
    AskAbout.ANSWER: Kind(Ask.answer_id, QUESTION_WINDOW, by_people=True, slug_prefix="question"),
}


@dataclass(frozen=True)
class AskedGroup:
    """One rumour or question as a page shows it: how many asked, where, in which languages,
    when, and what the newest of them wrote."""

    group_key: str
    conversations: int
    asks: int
    languages: tuple[str, ...]
    channels: tuple[str, ...]
    first_asked: datetime
    last_asked: datetime
    #: The newest texts, each cut to :data:`SAMPLE_CHARS`: one per conversation, no repeats.
    samples: tuple[str, ...]

    @property
    def sample(self) -> str:
        """The group's latest text."""
        return self.samples[0]


@dataclass(frozen=True)
class GroupsPage:
    """One page of the groups, the pages counted."""

    groups: list[AskedGroup]
    #: Groups shown on all the pages together.
    total: int
    page: int
    pages: int
    per_page: int

    @property
    def first(self) -> int:
        """The rank of the page's first group (1 on the first page)."""
        return (self.page - 1) * self.per_page + 1


@dataclass(frozen=True)
class Draft:
    """A new record started from a group: its masked texts as phrasings, and a slug to start."""

    group_key: str
    phrasings: list[str]
    slug: str
    #: How many different conversations asked it.
    conversations: int


def cut(text: str, limit: int) -> str:
    """``text`` on one line, at most ``limit`` characters, cut at a word with "…"."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    if " " in head:
        head = head.rsplit(" ", 1)[0]
    return head.rstrip() + "…"


def unanswered(about: AskAbout, now: datetime) -> tuple[ColumnElement[bool], ...]:
    """The asks of ``about`` nothing answers yet (of the window, for questions)."""
    kind = KINDS[about]
    found: tuple[ColumnElement[bool], ...] = (Ask.about == about, kind.record.is_(None))
    if kind.window is not None:
        found += (Ask.asked_at > now - kind.window,)
    return found


_PEOPLE = func.count(distinct(Ask.conversation_id)).label("conversations")
_CHANNELS = func.count(distinct(Ask.channel)).label("channels")
_LAST = func.max(Ask.asked_at).label("last")


def count(session: Session, about: AskAbout, now: datetime) -> int:
    """How many groups the page shows in all."""
    shown = (
        select(Ask.group_key)
        .where(*unanswered(about, now))
        .group_by(Ask.group_key)
        .having(_PEOPLE >= MIN_CONVERSATIONS)
        .subquery()
    )
    return int(session.scalar(select(func.count()).select_from(shown)) or 0)


def groups(
    session: Session,
    about: AskAbout,
    now: datetime,
    *,
    limit: int = SHOWN_GROUPS,
    offset: int = 0,
    samples: int = 1,
) -> list[AskedGroup]:
    """The groups of ``about`` at least :data:`MIN_CONVERSATIONS` conversations asked, in the
    page's order, each with up to ``samples`` texts; counted by the database, the few shown
    then read for their languages and texts."""
    unlinked = unanswered(about, now)
    ranked = (
        (desc(_PEOPLE), desc(_CHANNELS), desc(_LAST), Ask.group_key)
        if KINDS[about].by_people
        else (desc(_LAST), Ask.group_key)
    )
    counted = session.execute(
        select(Ask.group_key, _PEOPLE, func.count(), func.min(Ask.asked_at), _LAST)
        .where(*unlinked)
        .group_by(Ask.group_key)
        .having(_PEOPLE >= MIN_CONVERSATIONS)
        .order_by(*ranked)
        .limit(limit)
        .offset(offset)
    ).all()
    keys = [row[0] for row in counted]
    if not keys:
        return []
    of_shown = (*unlinked, Ask.group_key.in_(keys))
    languages: dict[str, set[str]] = defaultdict(set)
    channels: dict[str, set[str]] = defaultdict(set)
    for key, language, channel in session.execute(
        select(Ask.group_key, Ask.language, Ask.channel).where(*of_shown).distinct()
    ):
        languages[key].add(language)
        channels[key].add(channel)
    texts = _newest_texts(session, of_shown, samples)
    return [
        AskedGroup(
            key,
            int(people),
            int(asks),
            tuple(sorted(languages[key])),
            tuple(sorted(channels[key])),
            first,
            latest,
            tuple(texts[key]),
        )
        for key, people, asks, first, latest in counted
    ]


def _newest_texts(
    session: Session, of_shown: tuple[ColumnElement[bool], ...], samples: int
) -> dict[str, list[str]]:
    """Per group, its newest ``samples`` texts, cut: each conversation's latest ask only (one
    person sending many cannot fill the group's lines), a text said twice shown once."""
    newest = (
        func.row_number()
        .over(
            partition_by=(Ask.group_key, Ask.conversation_id),
            order_by=(desc(Ask.asked_at), desc(Ask.id)),
        )
        .label("newest")
    )
    latest = (
        select(Ask.group_key, Ask.masked_text, Ask.asked_at, Ask.id, newest)
        .where(*of_shown)
        .subquery()
    )
    texts: dict[str, list[str]] = defaultdict(list)
    for key, text in session.execute(
        select(latest.c.group_key, latest.c.masked_text)
        .where(latest.c.newest == 1)
        .order_by(latest.c.group_key, desc(latest.c.asked_at), desc(latest.c.id))
    ):
        shown = texts[key]
        line = cut(text, SAMPLE_CHARS)
        if len(shown) < samples and line not in shown:
            shown.append(line)
    return texts


def page(
    session: Session, about: AskAbout, now: datetime, number: int, per_page: int, samples: int
) -> GroupsPage:
    """Page ``number`` (from 1; one past the end is the last) of the groups of ``about``."""
    total = count(session, about, now)
    pages = max(1, -(-total // per_page))
    number = min(max(number, 1), pages)
    found = groups(
        session,
        about,
        now,
        limit=per_page,
        offset=(number - 1) * per_page,
        samples=samples,
    )
    return GroupsPage(found, total, number, pages, per_page)


def draft(session: Session, about: AskAbout, group_key: str, now: datetime) -> Draft | None:
    """A claim or answer to start from the group; None when the group is not one the page
    shows (gone, answered already, or asked by fewer than :data:`MIN_CONVERSATIONS`
    conversations)."""
    of_group = (Ask.group_key == group_key, *unanswered(about, now))
    people = session.scalar(select(func.count(distinct(Ask.conversation_id))).where(*of_group))
    if not people or people < MIN_CONVERSATIONS:
        return None
    texts = session.scalars(
        select(Ask.masked_text).where(*of_group).order_by(desc(Ask.asked_at), desc(Ask.id))
    )
    phrasings = list(dict.fromkeys(cut(text, PHRASING_CHARS) for text in texts))
    phrasings = phrasings[:PREFILLED_PHRASINGS]
    slug = suggest_slug(phrasings, group_key, KINDS[about].slug_prefix)
    return Draft(group_key, phrasings, slug, int(people))


def suggest_slug(phrasings: list[str], group_key: str, prefix: str = "rumour") -> str:
    """The first Latin words people used ("abbey gate open"), else ``<prefix>-<group>``: a
    slug is Latin lower case, and most asks are in Dari or Pashto script."""
    for text in phrasings:
        words = [w for w in _NOT_SLUG.split(text.lower()) if w][:SLUG_WORDS]
        if len(words) >= 2:
            return "-".join(words)[:48].strip("-")
    tail = _NOT_SLUG.sub("", group_key.lower())[:12] or "new"
    return f"{prefix}-{tail}"


def link_group(session: Session, about: AskAbout, group_key: str, record_id: int) -> int:
    """The group's unanswered asks of ``about`` now belong to the claim or answer
    ``record_id``; how many. The caller then tells those who wanted to know
    (``askers.tell``), in the same transaction."""
    record = KINDS[about].record
    result = session.execute(
        update(Ask)
        .where(Ask.group_key == group_key, Ask.about == about, record.is_(None))
        .values({record: record_id})
    )
    return int(getattr(result, "rowcount", 0) or 0)
