"""``action_check_claim``: "is this true?" answered from the rumours editors checked.

The message is matched against every live claim (``actions/claims/matching.py``): one claim
gets its verdict (as "what you heard" when the match is strong or the message is word for word
one of its phrasings, else as the closest rumour checked), two close ones a numbered "did you
mean", none "we have not checked this" with what to do meanwhile (about paying for a seat, the
anti-fraud line first) and, on channels that can write later, the offer to be told.

A claim about a gate, an airport or a flight (or a message naming one) comes with that live
record. A false or misleading verdict always comes first, the record after it. Any other
verdict gives way to a record checked after it, and otherwise follows the record.

Every ask typed is kept masked (``kernel/question_mask.py``) with a group key (``asks.py``): the
claim's for a match, else the key of a recent unknown ask telling the same rumour. Of two close
claims, the one the person picks gets their ask (the message the choice answered).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import select
from sqlalchemy.orm import Session

from actions.chat.airport import (
    AIRPORT_STATUS,
    DEFAULT_AIRPORT,
    GATE_STATUS,
    airport_reply,
    gate_reply,
)
from actions.chat.answers import ANSWERED, answered
from actions.chat.asks import OFFER_WINDOW, accept_wish, store_ask, store_unanswered
from actions.chat.claim_verdicts import MISLEAD, VERDICTS, claim_name, verdict_reply
from actions.chat.flights import ActionAnswerFlights
from actions.chat.written import WRITTEN
from actions.claims.frames import is_hearsay
from actions.claims.grams import all_words
from actions.claims.matching import decide
from actions.claims.models import MAX_ASK_TEXT
from actions.claims.money import speaks_of_money
from actions.content import queries
from actions.content.answering import (
    ContentAction,
    Reply,
    Shows,
    asked_detail,
    latest_entity,
    own_messages,
    shows,
)
from actions.content.asks import Ask, AskAbout
from actions.content.database_action import Turn
from actions.content.keys import same_key
from actions.content.localise import isolate_latin
from actions.content.models import Claim, ClaimAbout
from actions.content.queries import FlightQuery
from kernel.contract import ALERT_CHANNELS, FORWARDED
from kernel.danger import asks_more
from kernel.question_mask import mask

#: The ``detail`` of the offer's button: "tell me when you know".
NOTIFY = "notify"
#: A message longer than this many words that no rumour matches is still told "not checked
#: yet": a question is shorter; a chain letter is not.
QUESTION_WORDS = 30


class ActionCheckClaim(ContentAction):
    """Answers "is it true that…?", a forwarded message and a pasted chain letter."""

    reads_only = False
    #: The verdict, with the record the rumour is about (an airport, a gate, a flight) or
    #: the offer to be told; an everyday question goes to the editors' answers (``answered``).
    RESPONSES: ClassVar[Mapping[str, Shows]] = {
        **VERDICTS,
        **AIRPORT_STATUS,
        **GATE_STATUS,
        **ActionAnswerFlights.RESPONSES,
        **ANSWERED,
        "utter_claim_now": shows(),
        "utter_claim_heard": shows("claim"),
        "utter_claim_which": shows("claim_1", "claim_2"),
        "utter_claim_money": shows(),
        "utter_claim_money_offer": shows(sms=()),
        "utter_claim_unchecked": shows(),
        "utter_claim_unchecked_offer": shows(sms=()),
        "utter_claim_will_tell": shows(),
        "utter_claim_ask_again": shows(),
    }

    def name(self) -> str:
        return "action_check_claim"

    def answer(self, turn: Turn) -> Reply:
        """The last of the replies; the console's preview reads them all (``replies``)."""
        return self.parts(turn)[-1]

    def replies(self, turn: Turn) -> list[Reply]:
        return [sent for part in self.parts(turn) for sent in self.completed(part, turn)]

    def parts(self, turn: Turn) -> list[Reply]:
        """The replies in order: a live record first when there is one, then the verdict,
        the choice of two or "not checked yet"."""
        session, tracker, language, now = turn.session, turn.tracker, turn.language, turn.now
        picked = asked_detail(tracker)
        if picked is not None and same_key(picked) == NOTIFY:
            return [self._accept(turn)]
        if picked is not None:
            claim = _claim_by_key(session, picked, now)
            if claim is not None:
                _store_pick(turn, claim)
                return self._verdict(turn, claim)
        message = str((tracker.latest_message or {}).get("text") or "")
        checked = WRITTEN.get(session, now)
        phrased = checked.phrased(message)
        claim = queries.claim_by_slug(session, phrased, now) if phrased else None
        if claim is not None:
            _store_ask(turn, message, str(claim.slug), claim.id)
            return self._verdict(turn, claim)
        decision = decide(checked.claims(message))
        if decision.kind == "two":
            claims = [queries.claim_by_slug(session, c.claim, now) for c in decision.candidates]
            if all(claims):
                return [_which([c for c in claims if c is not None], language)]
        if decision.kind in ("one", "two"):
            claim = queries.claim_by_slug(session, decision.candidates[0].claim, now)
            if claim is not None:
                _store_ask(turn, message, str(claim.slug), claim.id)
                return self._verdict(turn, claim, closest=not decision.strong)
        record = self._record_named(turn)
        if record is None and _asks_a_question(tracker.latest_message or {}, message):
            # "Is the Torkham border open? anyone know": a question, not a rumour passed on.
            return answered(turn, message)
        store_unanswered(turn, message, AskAbout.CLAIM)
        unchecked = _unchecked(tracker.get_latest_input_channel(), speaks_of_money(message))
        return [record, unchecked] if record is not None else [unchecked]

    def _verdict(self, turn: Turn, claim: Claim, *, closest: bool = False) -> list[Reply]:
        """The verdict with the live record it is about. A false or misleading verdict is
        always shown, first: a newer record never hides it (a gate open for people called
        must not read as "all gates open tonight" confirmed). A claim the message came only
        loosely close to is named as the closest one checked, before what the message itself
        names; the record the claim is about may not be what the person heard."""
        language, now = turn.language, turn.now
        verdict = verdict_reply(
            claim,
            now,
            language,
            queries.official_contact(turn.session, claim, now),
            closest=closest,
        )
        named = self._record_named(turn)
        record = named if closest else self._record_about(turn, claim) or named
        if record is None:
            return [verdict]
        if closest or claim.verdict in MISLEAD:
            return [verdict, Reply("utter_claim_now"), record]
        heard = Reply(
            "utter_claim_heard", {"claim": isolate_latin(claim_name(claim, language), language)}
        )
        newest = max((fact.verified_at for fact in record.current), default=None)
        if newest is not None and claim.verified_at < newest:
            # The record was checked after the verdict: it alone says what is true now.
            return [heard, record]
        return [heard, record, verdict]

    def _record_about(self, turn: Turn, claim: Claim) -> Reply | None:
        """The answer from the record a claim names: a gate, an airport's gates, a flight."""
        key = claim.about_key or ""
        if claim.about_kind is ClaimAbout.GATE and "/" in key:
            return gate_reply(
                turn.session, key.split("/", 1)[0].upper(), key, turn.language, turn.now
            )
        if claim.about_kind in (ClaimAbout.GATE, ClaimAbout.AIRPORT):
            return airport_reply(
                turn.session, key.upper() or DEFAULT_AIRPORT, turn.language, turn.now
            )
        if claim.about_kind is ClaimAbout.FLIGHT:
            return self._flight(turn, key)
        return None

    def _record_named(self, turn: Turn) -> Reply | None:
        """The answer from a gate or a flight the message itself names."""
        gate = latest_entity(turn.tracker, "gate")
        if gate:
            iata = (latest_entity(turn.tracker, "airport") or DEFAULT_AIRPORT).upper()
            return gate_reply(turn.session, iata, gate, turn.language, turn.now)
        number = latest_entity(turn.tracker, "flight_number")
        if number:
            return self._flight(turn, number)
        return None

    def _flight(self, turn: Turn, number: str) -> Reply | None:
        flights = ActionAnswerFlights(clock=self._clock, freshness=self._freshness)
        query = FlightQuery(flight_number="".join(number.split()).upper())
        reply = flights._flights(turn, query, ())
        return reply if reply.current else None

    def _accept(self, turn: Turn) -> Reply:
        """ "1" after the offer: the latest unknown ask waits for its verdict."""
        return accept_wish(turn, AskAbout.CLAIM, "utter_claim_will_tell", "utter_claim_ask_again")


def _asks_a_question(latest: dict[str, Any], message: str) -> bool:
    """Whether a message the NLU took for "is this true?" that no checked rumour matches asks
    a question of its own rather than passing on what was heard: it asks (a question mark or
    word), is not forwarded, says nothing of hearsay ("I heard", «میگن», "is it true") and is
    no pasted chain letter."""
    words = all_words(message)
    forwarded = (latest.get("metadata") or {}).get(FORWARDED) is True
    heard = is_hearsay(words) or len(words) > QUESTION_WORDS
    return not forwarded and not heard and asks_more(message)


def _unchecked(channel: str | None, money: bool) -> Reply:
    """ "Not checked yet" with what to do meanwhile; about paying, the anti-fraud line first;
    on a channel that can write later, with the offer to be told."""
    name = "utter_claim_money" if money else "utter_claim_unchecked"
    return Reply(f"{name}_offer" if channel in ALERT_CHANNELS else name)


def _which(claims: Sequence[Claim], language: str) -> Reply:
    variables: dict[str, str] = {}
    for number, claim in enumerate(claims[:2], start=1):
        variables[f"claim_{number}"] = isolate_latin(claim_name(claim, language), language)
        variables[f"key_{number}"] = str(claim.slug)
    return Reply("utter_claim_which", variables)


def _claim_by_key(session: Session, key: str, now: datetime) -> Claim | None:
    """The claim a button named (the NLU folds a slug's hyphens: compare letters only)."""
    wanted = same_key(key)
    for slug, _ in queries.claims_for_matching(session, now):
        if same_key(slug) == wanted:
            return queries.claim_by_slug(session, slug, now)
    return None


def _choice_answered(turn: Turn) -> str:
    """The person's own words "which one did you hear?" answered: their latest message before
    the choice that is not a button's payload (an SMS "2" arrives as one)."""
    for event in reversed(own_messages(turn.tracker)[:-1]):
        text = str(event.get("text") or "")
        if text.strip() and not text.startswith("/"):
            return text
    return ""


def _store_pick(turn: Turn, claim: Claim) -> None:
    """The ask behind a choice of two, stored against the claim picked, so that it counts for
    that claim and its asker can be told. Picking again (the other one, or the same twice)
    moves the same ask; it is never stored twice."""
    message = _choice_answered(turn)
    masked = mask(message)[:MAX_ASK_TEXT]
    if not masked:
        return
    earlier = turn.session.scalars(
        select(Ask)
        .where(
            Ask.conversation_id == turn.conversation,
            Ask.masked_text == masked,
            Ask.asked_at > turn.now - OFFER_WINDOW,
        )
        .order_by(Ask.id.desc())
        .limit(1)
    ).first()
    if earlier is None:
        _store_ask(turn, message, str(claim.slug), claim.id)
        return
    earlier.claim_id = claim.id
    earlier.group_key = str(claim.slug)
    turn.session.flush()


def _store_ask(turn: Turn, message: str, group_key: str, claim_id: int | None) -> None:
    store_ask(turn, message, group_key, AskAbout.CLAIM, claim_id)
