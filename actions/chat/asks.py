"""What people asked that editors answer, kept for editors and for telling the askers later.

Every rumour checked and every question nobody had answered is kept masked
(``kernel/question_mask.py``) in the asks (``actions/content/asks.py``) with a group key: the
record's for a match, else the key of a recent unanswered ask of the same kind that says the
same thing (so that "torkham baz ast?", «تورخم باز است؟» and «تورخم خلاص دی؟» are one group on
the editors' pages). Each ask counts as the person the channel tagged the message with
(``asks.asker_of``), so that one person's conversations count once there. "1" after the offer
keeps the person's wish to be told, with their address, for at most ``ANSWER_WINDOW_HOURS``.
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Final

from sqlalchemy import select

from actions.claims.matching import ClaimIndex, decide
from actions.claims.models import ANSWER_WINDOW_HOURS, MAX_ASK_TEXT
from actions.content.answering import Reply
from actions.content.asks import Ask, AskAbout, asker_of
from actions.content.database_action import Turn
from kernel.contract import ALERT_CHANNELS, REMEMBER_ADDRESS, person_in
from kernel.question_mask import mask

#: Unanswered asks this recent are grouped with a new one saying the same thing.
GROUPING_WINDOW: Final = timedelta(days=7)
GROUPING_ASKS: Final = 2000
#: An offer accepted later than this after the ask no longer names it.
OFFER_WINDOW: Final = timedelta(hours=1)


def store_ask(
    turn: Turn, message: str, group_key: str, about: AskAbout, record_id: int | None = None
) -> None:
    """Keeps the ask masked, counted as the person who sent the turn's message; ``record_id``:
    the claim or answer it matched, if any."""
    masked = mask(message)[:MAX_ASK_TEXT]
    if not masked:
        return
    person = person_in((turn.tracker.latest_message or {}).get("metadata"))
    turn.session.add(
        Ask(
            conversation_id=turn.conversation,
            channel=str(turn.tracker.get_latest_input_channel() or ""),
            language=turn.language,
            masked_text=masked,
            group_key=group_key,
            about=about,
            claim_id=record_id if about is AskAbout.CLAIM else None,
            answer_id=record_id if about is AskAbout.ANSWER else None,
            asked_at=turn.now,
            wants_answer=False,
            asker=asker_of(person),
        )
    )
    turn.session.flush()


def store_unanswered(turn: Turn, message: str, about: AskAbout) -> None:
    """Keeps an ask nothing answered yet, in the group of recent ones saying the same."""
    store_ask(turn, message, group_key(turn, mask(message), about), about)


def group_key(turn: Turn, masked: str, about: AskAbout) -> str:
    """The key of recent unanswered asks of the kind saying the same thing, else a new one."""
    record = Ask.claim_id if about is AskAbout.CLAIM else Ask.answer_id
    rows = turn.session.execute(
        select(Ask.group_key, Ask.masked_text)
        .where(
            Ask.about == about,
            record.is_(None),
            Ask.asked_at > turn.now - GROUPING_WINDOW,
        )
        .order_by(Ask.id.desc())
        .limit(GROUPING_ASKS)
    ).all()
    groups: dict[str, list[str]] = {}
    for key, text in rows:
        groups.setdefault(key, []).append(text)
    if masked and groups:
        decision = decide(ClaimIndex(groups.items()).match(masked))
        if decision.kind != "none":
            return decision.candidates[0].claim
    return uuid.uuid4().hex[:16]


def accept_wish(turn: Turn, about: AskAbout, will_tell: str, ask_again: str) -> Reply:
    """ "1" after the offer: the latest unanswered ask of this conversation waits for its
    answer up to ``ANSWER_WINDOW_HOURS``, and the channel keeps the address as long."""
    channel = turn.tracker.get_latest_input_channel()
    if channel not in ALERT_CHANNELS:
        return Reply("utter_alerts_channel_unsupported")
    record = Ask.claim_id if about is AskAbout.CLAIM else Ask.answer_id
    ask = turn.session.scalars(
        select(Ask)
        .where(
            Ask.conversation_id == turn.conversation,
            Ask.about == about,
            record.is_(None),
            Ask.asked_at > turn.now - OFFER_WINDOW,
        )
        .order_by(Ask.asked_at.desc(), Ask.id.desc())
        .limit(1)
    ).first()
    if ask is None:
        return Reply(ask_again)
    ask.wants_answer = True
    ask.answer_by = turn.now + timedelta(hours=ANSWER_WINDOW_HOURS)
    turn.dispatcher.utter_message(
        json_message={REMEMBER_ADDRESS: {"expires_at": ask.answer_by.isoformat()}}
    )
    return Reply(will_tell)
