"""An editor's answer, as it reaches someone who asked the question before there was one and
wanted to be told.

Written by ``action_send_alert`` for a broadcast of topic ``answers``
(``actions/claims/askers.py``): the question, the answer, who said it and when it was checked,
in the language the person asked in. On SMS it must arrive whole in at most three segments
(nobody is waiting to write MORE), so the answer keeps what it says to do first, then its fact
(``brief_explanation``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Final

from sqlalchemy.orm import Session

from actions.chat.claim_verdicts import brief_explanation
from actions.content import format as fmt
from actions.content.models import Answer, Revision
from kernel.contract import SMS_CHANNELS
from kernel.lang import texts
from kernel.sms_render import for_basic_phones
from kernel.sms_segments import fits

MESSAGE: Final = "alerts.answer"


def answer_alert(
    session: Session, revision: Revision, language: str, now: datetime, channel: str | None
) -> str | None:
    """The finished text; None when the answer is gone or withdrawn since it was queued."""
    answer = session.get(Answer, revision.record_id)
    if answer is None or answer.withdrawn_at is not None:
        return None
    told = fmt.text(answer, "answer", language)
    if channel in SMS_CHANNELS:
        told = brief_explanation(
            told,
            language,
            lambda cut: fits(for_basic_phones(_rendered(answer, now, language, cut))),
        )
    return _rendered(answer, now, language, told)


def _rendered(answer: Answer, now: datetime, language: str, told: str) -> str:
    return texts.render(
        MESSAGE,
        language,
        question=fmt.text(answer, "question", language),
        answer=told,
        verified=fmt.verified(answer, now, language),
    )
