"""Rumours people ask about that nobody has checked yet: the editors' "Claims people ask about".

Asks of one group (``group_key``: the same rumour told in other words) with no claim yet, shown
only once at least :data:`MIN_CONVERSATIONS` different conversations sent one: a rumour one
person typed cannot reach the editors' page, nor a text that could tell who sent it. Newest
first, so that what spreads now is on top. "Write a verdict" starts a claim from a group
(:func:`draft`), and publishing it links the group's asks to the claim (:func:`link_group`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from sqlalchemy import desc, distinct, func, select, update
from sqlalchemy.orm import Session

from actions.content.claim_asks import ClaimAsk

#: k-anonymity: fewer different conversations than this and the group is not shown at all.
MIN_CONVERSATIONS: Final = 3
SHOWN_GROUPS: Final = 50
#: The sample text on the page is cut to this many characters.
SAMPLE_CHARS: Final = 80
#: A claim's phrasing is at most this long (``fields.lines``); longer asks are cut to it.
PHRASING_CHARS: Final = 200
PREFILLED_PHRASINGS: Final = 20
_NOT_SLUG = re.compile(r"[^a-z0-9]+")
SLUG_WORDS: Final = 6


@dataclass(frozen=True)
class AskedGroup:
    """One rumour as the page shows it: how many asked, where, in which languages, when."""

    group_key: str
    conversations: int
    asks: int
    languages: tuple[str, ...]
    channels: tuple[str, ...]
    first_asked: datetime
    last_asked: datetime
    sample: str


@dataclass(frozen=True)
class Draft:
    """A new claim started from a group: its masked texts as phrasings, and a slug to start."""

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


def groups(session: Session, limit: int = SHOWN_GROUPS) -> list[AskedGroup]:
    """The unchecked groups at least :data:`MIN_CONVERSATIONS` conversations asked, newest
    first; counted by the database, the few shown then read for their languages and a text."""
    conversations = func.count(distinct(ClaimAsk.conversation_id)).label("conversations")
    last = func.max(ClaimAsk.asked_at).label("last")
    counted = session.execute(
        select(ClaimAsk.group_key, conversations, func.count(), func.min(ClaimAsk.asked_at), last)
        .where(ClaimAsk.claim_id.is_(None))
        .group_by(ClaimAsk.group_key)
        .having(conversations >= MIN_CONVERSATIONS)
        .order_by(desc("last"), ClaimAsk.group_key)
        .limit(limit)
    ).all()
    keys = [row[0] for row in counted]
    if not keys:
        return []
    unchecked = (ClaimAsk.claim_id.is_(None), ClaimAsk.group_key.in_(keys))
    languages: dict[str, set[str]] = defaultdict(set)
    channels: dict[str, set[str]] = defaultdict(set)
    for key, language, channel in session.execute(
        select(ClaimAsk.group_key, ClaimAsk.language, ClaimAsk.channel).where(*unchecked).distinct()
    ):
        languages[key].add(language)
        channels[key].add(channel)
    samples: dict[str, str] = {}
    for key, text in session.execute(
        select(ClaimAsk.group_key, ClaimAsk.masked_text)
        .where(*unchecked)
        .order_by(ClaimAsk.group_key, desc(ClaimAsk.asked_at), desc(ClaimAsk.id))
    ):
        samples.setdefault(key, text)  # the latest text of each group
    return [
        AskedGroup(
            key,
            int(people),
            int(asks),
            tuple(sorted(languages[key])),
            tuple(sorted(channels[key])),
            first,
            latest,
            cut(samples[key], SAMPLE_CHARS),
        )
        for key, people, asks, first, latest in counted
    ]


def draft(session: Session, group_key: str) -> Draft | None:
    """A claim to start from the group; None when the group is not one the page shows (gone,
    checked already, or asked by fewer than :data:`MIN_CONVERSATIONS` conversations)."""
    people = session.scalar(
        select(func.count(distinct(ClaimAsk.conversation_id))).where(
            ClaimAsk.group_key == group_key, ClaimAsk.claim_id.is_(None)
        )
    )
    if not people or people < MIN_CONVERSATIONS:
        return None
    texts = session.scalars(
        select(ClaimAsk.masked_text)
        .where(ClaimAsk.group_key == group_key, ClaimAsk.claim_id.is_(None))
        .order_by(desc(ClaimAsk.asked_at), desc(ClaimAsk.id))
    )
    phrasings = list(dict.fromkeys(cut(text, PHRASING_CHARS) for text in texts))
    phrasings = phrasings[:PREFILLED_PHRASINGS]
    return Draft(group_key, phrasings, suggest_slug(phrasings, group_key), int(people))


def suggest_slug(phrasings: list[str], group_key: str) -> str:
    """The first Latin words people used ("abbey gate open"), else ``rumour-<group>``: a
    slug is Latin lower case, and most asks are in Dari or Pashto script."""
    for text in phrasings:
        words = [w for w in _NOT_SLUG.split(text.lower()) if w][:SLUG_WORDS]
        if len(words) >= 2:
            return "-".join(words)[:48].strip("-")
    tail = _NOT_SLUG.sub("", group_key.lower())[:12] or "new"
    return f"rumour-{tail}"


def link_group(session: Session, group_key: str, claim_id: int) -> int:
    """The group's unchecked asks now belong to the claim; how many. The caller then tells
    those who wanted to know (``askers.tell``), in the same transaction."""
    result = session.execute(
        update(ClaimAsk)
        .where(ClaimAsk.group_key == group_key, ClaimAsk.claim_id.is_(None))
        .values(claim_id=claim_id)
    )
    return int(getattr(result, "rowcount", 0) or 0)
