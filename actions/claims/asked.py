"""What people ask that nobody has answered yet, in groups, for the editors: the rumours of
"Rumours people ask about" and the questions of "Questions waiting for an answer".

Asks of one group (``group_key``: the same rumour or question told in other words) that no claim
or answer names yet, each kind of ask (``about``) apart, shown only when the rule of
``actions/content/crowd.py`` holds: at least ``MIN_PEOPLE`` different *people* (``asker``: one
phone number, Telegram chat or web chat address, however many conversations it opens; older
asks count as their conversation), on two channels or over six hours. A text one person
typed, however often and from however many conversations, cannot reach the editors' pages, nor
can a burst of made-up rumours from a few addresses bury the real ones. Both kinds are ranked
most people first (then most channels, then newest), a page at a time (:func:`page`): what
many people ask is on top, whatever arrived last. Questions count only the last
:data:`QUESTION_WINDOW`.

What a page shows of a group, and what "Write a verdict" or "Write an answer" prefills
(:func:`draft`), are only its texts that at least :data:`MIN_ALIKE` different askers wrote in
the same masked form (:func:`_texts_alike`): masking replaces numbers but misses names written
as words, so a text only one person wrote may name someone ("they are looking for <name> of
<street>") even in a group many people asked; people who repeat a rumour write its words, not
the same stranger's name. A group nobody wrote alike shows its counts only, and its draft
starts without phrasings: no single asker's words go into a record either.

An editor can hide a group as spam (:func:`hide`): it leaves its page for good, with the asks
the grouping puts in it later (``actions/chat/asks.py`` ``group_key``); :func:`show_again`
undoes it. Publishing a record started from a group links the group's asks to it
(:func:`link_group`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from sqlalchemy import (
    ColumnElement,
    Select,
    String,
    cast,
    delete,
    desc,
    distinct,
    exists,
    func,
    select,
    update,
)
from sqlalchemy.orm import InstrumentedAttribute, Session

from actions.content.asks import Ask, AskAbout, HiddenAskGroup
from actions.content.crowd import MIN_PEOPLE, widely_asked

#: A text is shown or prefilled only when at least this many different askers wrote it alike.
MIN_ALIKE: Final = 2
#: Groups on one page of the rumours (the questions page shows fewer, with more texts each).
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
    #: A slug suggested for a group written in no Latin words starts with it.
    slug_prefix: str


KINDS: Final = {
    AskAbout.CLAIM: Kind(Ask.claim_id, None, slug_prefix="rumour"),
    AskAbout.ANSWER: Kind(Ask.answer_id, QUESTION_WINDOW, slug_prefix="question"),
}


@dataclass(frozen=True)
class AskedGroup:
    """One rumour or question as a page shows it: how many asked, where, in which languages,
    when, and what several of them wrote alike."""

    group_key: str
    people: int
    asks: int
    languages: tuple[str, ...]
    channels: tuple[str, ...]
    first_asked: datetime
    last_asked: datetime
    #: Texts at least :data:`MIN_ALIKE` askers wrote, each cut to :data:`SAMPLE_CHARS`, the
    #: most written first; none when nobody wrote alike.
    samples: tuple[str, ...]


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
class HiddenGroup:
    """A group an editor hid as spam, as its page lists it to show again."""

    group_key: str
    hidden_by: str
    hidden_at: datetime
    #: As :attr:`AskedGroup.samples`.
    samples: tuple[str, ...]


@dataclass(frozen=True)
class Draft:
    """A new record started from a group: the texts its askers wrote alike as phrasings, and a
    slug to start."""

    group_key: str
    phrasings: list[str]
    slug: str
    #: How many different people asked it.
    people: int


@dataclass(frozen=True)
class _Counted:
    group_key: str
    people: int
    asks: int
    first: datetime
    last: datetime


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


def _hidden_keys(about: AskAbout) -> Select[tuple[str]]:
    return select(HiddenAskGroup.group_key).where(HiddenAskGroup.about == about)


def waiting(about: AskAbout, now: datetime) -> tuple[ColumnElement[bool], ...]:
    """The asks of ``about`` the page shows: unanswered, in no group an editor hid."""
    return (*unanswered(about, now), Ask.group_key.not_in(_hidden_keys(about)))


#: Whom an ask counts as: its asker, else (asks kept before migration 0025, channels that know
#: no address) its conversation. A channel's conversation id ("telegram-<hex>") is no number.
_ASKER = func.coalesce(cast(Ask.asker, String), Ask.conversation_id)
_PEOPLE = func.count(distinct(_ASKER)).label("people")
_CHANNELS = func.count(distinct(Ask.channel)).label("channels")
_LAST = func.max(Ask.asked_at).label("last")


def _ranked(session: Session, about: AskAbout, now: datetime) -> list[_Counted]:
    """Every group of ``about`` the page shows, in its order: counted by the database (only
    groups of :data:`MIN_PEOPLE` people or more come back), the channels-or-spread part of the
    rule judged here, as ``report.py`` does (date arithmetic differs between SQLite and
    PostgreSQL)."""
    counted = session.execute(
        select(Ask.group_key, _PEOPLE, func.count(), _CHANNELS, func.min(Ask.asked_at), _LAST)
        .where(*waiting(about, now))
        .group_by(Ask.group_key)
        .having(_PEOPLE >= MIN_PEOPLE)
        .order_by(desc(_PEOPLE), desc(_CHANNELS), desc(_LAST), Ask.group_key)
    )
    return [
        _Counted(key, int(people), int(asks), first, last)
        for key, people, asks, channels, first, last in counted
        if widely_asked(int(people), int(channels), first, last)
    ]


def page(
    session: Session, about: AskAbout, now: datetime, number: int, per_page: int, samples: int
) -> GroupsPage:
    """Page ``number`` (from 1; one past the end is the last) of the groups of ``about``, each
    with up to ``samples`` texts; the few shown are then read for their languages and texts."""
    ranked = _ranked(session, about, now)
    pages = max(1, -(-len(ranked) // per_page))
    number = min(max(number, 1), pages)
    counted = ranked[(number - 1) * per_page : number * per_page]
    keys = [group.group_key for group in counted]
    of_shown = (*waiting(about, now), Ask.group_key.in_(keys))
    languages: dict[str, set[str]] = defaultdict(set)
    channels: dict[str, set[str]] = defaultdict(set)
    if keys:
        for key, language, channel in session.execute(
            select(Ask.group_key, Ask.language, Ask.channel).where(*of_shown).distinct()
        ):
            languages[key].add(language)
            channels[key].add(channel)
    texts = _texts_alike(session, of_shown, samples, SAMPLE_CHARS) if keys else {}
    found = [
        AskedGroup(
            group.group_key,
            group.people,
            group.asks,
            tuple(sorted(languages[group.group_key])),
            tuple(sorted(channels[group.group_key])),
            group.first,
            group.last,
            tuple(texts.get(group.group_key, ())),
        )
        for group in counted
    ]
    return GroupsPage(found, len(ranked), number, pages, per_page)


def _texts_alike(
    session: Session, where: Sequence[ColumnElement[bool]], most: int, chars: int
) -> dict[str, list[str]]:
    """Per group, up to ``most`` of its texts at least :data:`MIN_ALIKE` different askers wrote
    in the same masked form, cut to ``chars``: the most written first, then the newest. One
    person sending a text from many conversations is still one asker."""
    writers = func.count(distinct(_ASKER)).label("writers")
    latest = func.max(Ask.asked_at).label("latest")
    texts: dict[str, list[str]] = defaultdict(list)
    for key, text, _, _ in session.execute(
        select(Ask.group_key, Ask.masked_text, writers, latest)
        .where(*where)
        .group_by(Ask.group_key, Ask.masked_text)
        .having(writers >= MIN_ALIKE)
        .order_by(Ask.group_key, desc(writers), desc(latest), Ask.masked_text)
    ):
        shown = texts[key]
        line = cut(text, chars)
        if len(shown) < most and line not in shown:
            shown.append(line)
    return texts


def draft(session: Session, about: AskAbout, group_key: str, now: datetime) -> Draft | None:
    """A claim or answer to start from the group; None when the group is not one the page
    shows (gone, answered already, hidden, or not asked widely enough: ``crowd.py``). Its
    phrasings are the texts several askers wrote alike, none if nobody did (the module's
    docstring says why)."""
    of_group = (Ask.group_key == group_key, *waiting(about, now))
    people, channels, first, last = session.execute(
        select(_PEOPLE, _CHANNELS, func.min(Ask.asked_at), _LAST).where(*of_group)
    ).one()
    if not people or not widely_asked(int(people), int(channels), first, last):
        return None
    texts = _texts_alike(session, of_group, PREFILLED_PHRASINGS, PHRASING_CHARS)
    phrasings = texts.get(group_key, [])
    slug = suggest_slug(phrasings, group_key, KINDS[about].slug_prefix)
    return Draft(group_key, phrasings, slug, int(people))


def hide(session: Session, about: AskAbout, group_key: str, editor: str, now: datetime) -> bool:
    """Hides the group as spam, recording who and when; False when no unanswered ask of
    ``about`` is in it (nothing to hide). Hiding it twice keeps the first."""
    asks_in_it = exists().where(Ask.group_key == group_key, *unanswered(about, now))
    if not session.scalar(select(asks_in_it)):
        return False
    if session.get(HiddenAskGroup, (about, group_key)) is None:
        session.add(
            HiddenAskGroup(about=about, group_key=group_key, hidden_by=editor, hidden_at=now)
        )
        session.flush()
    return True


def show_again(session: Session, about: AskAbout, group_key: str) -> bool:
    """Shows a hidden group again (if the rule still lets it); whether it was hidden."""
    result = session.execute(
        delete(HiddenAskGroup).where(
            HiddenAskGroup.about == about, HiddenAskGroup.group_key == group_key
        )
    )
    return bool(getattr(result, "rowcount", 0))


def hidden(
    session: Session, about: AskAbout, now: datetime, limit: int = SHOWN_GROUPS
) -> list[HiddenGroup]:
    """The groups of ``about`` editors hid that still have unanswered asks, the latest hidden
    first, with what several of their askers wrote alike (to tell whether one was real)."""
    rows = session.execute(
        select(HiddenAskGroup.group_key, HiddenAskGroup.hidden_by, HiddenAskGroup.hidden_at)
        .where(
            HiddenAskGroup.about == about,
            exists().where(Ask.group_key == HiddenAskGroup.group_key, *unanswered(about, now)),
        )
        .order_by(desc(HiddenAskGroup.hidden_at), HiddenAskGroup.group_key)
        .limit(limit)
    ).all()
    keys = [key for key, _, _ in rows]
    texts = (
        _texts_alike(session, (*unanswered(about, now), Ask.group_key.in_(keys)), 1, SAMPLE_CHARS)
        if keys
        else {}
    )
    return [HiddenGroup(key, by, at, tuple(texts.get(key, ()))) for key, by, at in rows]


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
