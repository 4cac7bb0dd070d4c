"""Everything editors wrote for people to find by their own words: the rumours they checked
(claims) and the questions they answered (answers), as a message is compared with them.

One matcher (``actions/claims/matching.py``) over both, built once per process and again
only when a claim or an answer changed, so that a published answer is found at the next
message in every process, with no retraining. Two indexes of it:

* ``claims``: the checked rumours, guarded by every everyday question the assistant is
  trained on ("is abbey gate open?" is the gate question, not a rumour of names read there);
* ``answers``: the answers and the rumours together (a question may be a rumour, and the
  person then gets its verdict), guarded only by the questions a fixed topic answers. The
  examples of what the assistant does not answer (``out_of_scope``: "hawala rates") must not
  keep a message away from the editor who now answers it.

An answer's key in the index is ``answer:`` and its slug; a claim's is its slug.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Final

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from actions.claims.decision import Candidate, Guard, Nearness
from actions.claims.everyday import everyday_questions
from actions.claims.matching import ClaimIndex
from actions.content import queries
from actions.content.models import Answer, Claim, RecordKind
from actions.content.revision import Revision
from kernel.lang.codes import LANGUAGES
from kernel.lang.normalise import normalise

#: The key of an answer in the index: this and its slug (a claim's key is its slug).
ANSWER: Final = "answer:"
#: Intents whose examples do not guard answers: what the assistant cannot answer yet, and
#: rumours (the answers' index has the claims themselves).
UNANSWERED: Final = frozenset({"out_of_scope", "check_claim"})
#: An answer's (or claim's) places are those its own texts name, in each language, not those
#: its phrasings name in passing (``ClaimIndex``'s ``placed_by``).
PLACED_BY: Final = len(LANGUAGES)
#: Candidates scored before a kind is kept (the nearest of the other kind may come first).
SCORED: Final = 25
#: What is left of a text to compare word for word: its words, without case or punctuation.
_WORDS: Final = re.compile(r"\w+")


def word_for_word(text: str) -> str:
    """``text`` as compared with an editor's phrasing: «آیا سرحد تورخم باز است؟» and
    "ایا سرحد تورخم باز است" are the same."""
    return " ".join(_WORDS.findall(normalise(text)))


def is_answer(key: str) -> bool:
    return key.startswith(ANSWER)


def answer_slug(key: str) -> str:
    return key.removeprefix(ANSWER)


@lru_cache(maxsize=2)
def _everyday(leaving_out: frozenset[str]) -> tuple[str, ...]:
    return tuple(everyday_questions(leaving_out=leaving_out))


@dataclass(frozen=True)
class Written:
    """The live claims and answers as a message is compared with them."""

    #: The claims alone, guarded by every everyday question.
    claims_index: ClaimIndex
    #: The answers and the claims, guarded by the questions fixed topics answer.
    answers_index: ClaimIndex
    #: Each text and phrasing, word for word, to the key of what it says.
    phrasings: Mapping[str, str]

    def phrased(self, message: str) -> str | None:
        """The slug of the claim ``message`` is word for word a text or phrasing of."""
        key = self._phrased(message)
        return None if key is None or is_answer(key) else key

    def phrased_answer(self, message: str) -> str | None:
        """The slug of the answer ``message`` is word for word a question or phrasing of."""
        key = self._phrased(message)
        return answer_slug(key) if key is not None and is_answer(key) else None

    def _phrased(self, message: str) -> str | None:
        return self.phrasings.get(word_for_word(message)) if message.strip() else None

    def claims(self, message: str) -> list[Candidate]:
        """The claims nearest to ``message`` that count as what it tells, best first."""
        return self.claims_index.match(message)

    def nearness(self, message: str) -> Nearness:
        """How near ``message`` came to each answer and claim, and to the fixed topics."""
        return self.answers_index.nearness(message)

    def answers(self, message: str, guard: Guard) -> list[Candidate]:
        """The answers and claims nearest to ``message`` under ``guard``, best first."""
        return self.nearness(message).candidates(guard, SCORED)


class WrittenCache:
    """Built once per process and again only when a claim or an answer changed.

    The check is two cheap queries: the newest revision of either (an edit, a rollback, a
    withdrawal) and how many of both are live now (one that lapsed writes no revision).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._version: tuple[int, int] | None = None
        self._written: Written | None = None
        #: The turn (its session and moment) each worker thread last checked for: a turn asks
        #: more than once (a topic's route, then its rumour's phrasing) and is answered from
        #: one check, so that what it reads cannot change between its own steps.
        self._checked = threading.local()

    def get(self, session: Session, now: datetime) -> Written:
        checked = getattr(self._checked, "turn", None)
        if checked is not None and checked[0] is session and checked[1] == now:
            written: Written = checked[2]
            return written
        version = _version(session, now)
        with self._lock:
            if self._written is None or version != self._version:
                self._written = _built(session, now)
                self._version = version
            written = self._written
        self._checked.turn = (session, now, written)
        return written


def _built(session: Session, now: datetime) -> Written:
    claims = queries.for_matching(session, Claim, "claim", now)
    answers = [
        (f"{ANSWER}{slug}", texts)
        for slug, texts in queries.for_matching(session, Answer, "question", now)
    ]
    phrasings = {word_for_word(text): key for key, texts in [*claims, *answers] for text in texts}
    return Written(
        ClaimIndex(claims, everyday=_everyday(frozenset({"check_claim"}))),
        ClaimIndex([*answers, *claims], everyday=_everyday(UNANSWERED), placed_by=PLACED_BY),
        phrasings,
    )


def _version(session: Session, now: datetime) -> tuple[int, int]:
    kinds = (RecordKind.CLAIM, RecordKind.ANSWER)
    newest = session.scalar(select(func.max(Revision.id)).where(Revision.kind.in_(kinds)))
    live = 0
    for model in (Claim, Answer):
        live += (
            session.scalar(
                select(func.count(model.id)).where(
                    model.withdrawn_at.is_(None),
                    model.valid_until.is_(None) | (model.valid_until > now),
                )
            )
            or 0
        )
    return int(newest or 0), live


WRITTEN = WrittenCache()
