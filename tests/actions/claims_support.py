"""Asks about rumours written as the chat writes them (``action_check_claim``): one row per
"is this true?", masked, with its group and whether its asker wants to be told."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest
from sqlalchemy import delete, select

from actions.claims.models import ANSWER_WINDOW_HOURS
from actions.content import db
from actions.content.asks import Ask
from tests.actions.content_support import NOW

#: A rumour three conversations asked about, in Dari, Pashto and English.
GATES = "gates-rumour-0001"
#: One only two conversations asked about: never on the editors' page.
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
) -> None:
    with db.session_scope() as session:
        session.add(
            Ask(
                conversation_id=conversation,
                channel=channel,
                language=language,
                masked_text=text,
                group_key=group,
                claim_id=claim_id,
                asked_at=asked_at,
                wants_answer=wants_answer,
                answer_by=asked_at + timedelta(hours=ANSWER_WINDOW_HOURS) if wants_answer else None,
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


@pytest.fixture
def no_asks(no_alert_subscribers: None) -> Iterator[None]:
    """No asks nor alerts before the test and none left after: the PostgreSQL schema is shared."""
    clear_asks()
    yield
    clear_asks()
