"""Asks about rumours written as the chat writes them (``action_check_claim``): one row per
"is this true?", masked, with its group and whether its asker wants to be told."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest
from sqlalchemy import delete, select

from actions.claims.models import ANSWER_WINDOW_HOURS
from actions.content import db
from actions.content.asks import Ask, AskAbout, HiddenAskGroup, asker_of
from tests.actions.content_support import NOW

#: A rumour five people asked about, in Dari, Pashto and English, on three channels.
GATES = "gates-rumour-0001"
#: One only two people asked about: never on the editors' page.
VISA = "visa-rumour-0002"


def ask(
    conversation: str,
    text: str,
    group: str = GATES,
    *,
    language: str = "prs",
    channel: str = "telegram",
    asked_at: datetime = NOW,
    wants_answer: bool = True,
    claim_id: int | None = None,
    about: AskAbout = AskAbout.CLAIM,
    tag: str | None = None,
) -> None:
    """An ask as the chat keeps it (``actions/chat/asks.py``); ``tag``: the person tag its
    message carried, else it counts as its conversation."""
    with db.session_scope() as session:
        session.add(
            Ask(
                conversation_id=conversation,
                channel=channel,
                language=language,
                masked_text=text,
                group_key=group,
                about=about,
                claim_id=claim_id,
                asked_at=asked_at,
                wants_answer=wants_answer,
                answer_by=asked_at + timedelta(hours=ANSWER_WINDOW_HOURS) if wants_answer else None,
                asker=asker_of(tag),
            )
        )


def asks() -> list[Ask]:
    with db.session_scope() as session:
        return list(session.scalars(select(Ask).order_by(Ask.id)))


def person(channel: str, n: int) -> str:
    return f"{channel}-{n:040x}"


def clear_asks() -> None:
    with db.session_scope() as session:
        session.execute(delete(Ask))
        session.execute(delete(HiddenAskGroup))


@pytest.fixture
def no_asks(no_alert_subscribers: None) -> Iterator[None]:
    """No asks nor alerts before the test and none left after: the PostgreSQL schema is shared."""
    clear_asks()
    yield
    clear_asks()
