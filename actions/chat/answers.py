"""``action_answer_question``: a question no fixed topic answers, answered from what editors wrote.

A message the NLU could not place (or placed outside what the assistant answers) is matched
against every live answer and checked rumour (``written.py``):

* one clear match: that answer (or that rumour's verdict), with its source and check;
* two or three close ones: "which question is yours?" with numbered choices;
* none: an honest "we have no answer to this yet" and what it can answer (the menu; named in
  words where the channel can write later, with "reply 1 and we tell you when there is one").
  The ask is kept masked for "What people ask", in the group of those asking the same thing.

The fixed topics give way too (``AnswerFirst``, ``route``): a message that is an editor's
phrasing word for word, or that comes closer to an answer than to any question a fixed topic is
trained on, gets the editor's answer rather than the topic's ("Is the Torkham border open?" is
not the airport's status); a long one far from every such question, naming nothing the topics
know, gets "no answer yet".

Thresholds are chosen on the development split of ``scripts/bench_answers.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final

from actions.chat.asks import accept_wish, store_ask, store_unanswered
from actions.chat.claim_verdicts import VERDICTS, brief_explanation, verdict_reply
from actions.chat.written import WRITTEN, Written, answer_slug, is_answer
from actions.claims.decision import Candidate, Guard
from actions.claims.grams import all_words
from actions.content import format as fmt
from actions.content import queries
from actions.content.answering import ContentAction, Reply, Shows, asked_detail, shows
from actions.content.asks import AskAbout
from actions.content.database_action import Turn
from actions.content.keys import same_key
from actions.content.localise import isolate_latin
from actions.content.models import Answer, Claim
from kernel.contract import ALERT_CHANNELS
from kernel.sms_render import for_basic_phones
from kernel.sms_segments import fits

#: The ``detail`` of the offer's button: "tell me when there is an answer".
NOTIFY: Final = "notify"
#: At most this many close answers are offered to choose from.
OFFERED: Final = 3
#: What ``answer_reply`` and ``no_answer`` send.
ANSWER_OR_NONE: Final[Mapping[str, Shows]] = {
    "utter_answer": shows("answer", "verified", sms=("answer_brief", "verified")),
    "utter_answer_none": shows(),
    "utter_answer_none_offer": shows(sms=()),
    "utter_menu": shows(sms=()),
}
#: What ``answered`` sends: an answer, a rumour's verdict, a choice of close ones, or none.
ANSWERED: Final[Mapping[str, Shows]] = {
    **ANSWER_OR_NONE,
    **VERDICTS,
    "utter_fallback": shows(),
    "utter_answer_which": shows("question_1", "question_2", "question_3"),
    "utter_answer_which_two": shows("question_1", "question_2"),
}


@dataclass(frozen=True)
class AnswerThresholds:
    """Where a match starts and how close another must come to be offered too; where a fixed
    topic gives way. Chosen on the development split (scripts/bench_answers.py)."""

    #: Below this score the message matches nothing editors wrote.
    match: float = 0.26
    #: Answers within this of the first (and above ``match``): "which question is yours?"
    #: (0 on today's development split: a choice never found an answer the first one missed).
    close: float = 0.0
    #: A fixed topic's answer gives way to an editor's answer scoring at least this ...
    overrule: float = 0.34
    #: ... whose nearest text came at least this much closer than any fixed topic's question.
    overrule_margin: float = 0.0
    #: A message of at least ``topic_words`` words whose nearest fixed-topic question is less
    #: near than this, naming nothing the topics know, is about something they do not answer.
    topic_floor: float = 0.35
    topic_words: int = 6


THRESHOLDS: Final = AnswerThresholds()
#: A message counts as an editor's answer only when it comes nearly as close to one of its
#: texts as to the nearest question a fixed topic answers (chosen with the thresholds).
GUARD: Final = Guard(margin=-0.1, hearsay_margin=-0.1)


@dataclass(frozen=True)
class Found:
    """What the message is, to the editors' answers: ``one`` (a key), ``few`` (keys to choose
    from), or ``none``."""

    kind: str
    keys: tuple[str, ...] = ()


def find(written: Written, message: str, thresholds: AnswerThresholds = THRESHOLDS) -> Found:
    """The editors' answer (or rumour) ``message`` asks for, the close ones, or none."""
    phrased = written.phrased_answer(message)
    if phrased is not None:
        return Found("one", (f"answer:{phrased}",))
    claim = written.phrased(message)
    if claim is not None:
        return Found("one", (claim,))
    return decide_answers(written.answers(message, GUARD), thresholds)


def decide_answers(candidates: Sequence[Candidate], thresholds: AnswerThresholds) -> Found:
    """One answer, up to ``OFFERED`` close ones to choose from, or none. A rumour is never
    offered as a choice: it is given when it alone comes first."""
    if not candidates or candidates[0].score < thresholds.match:
        return Found("none")
    first = candidates[0]
    close = [
        c.claim
        for c in candidates[1:]
        if c.score >= thresholds.match and first.score - c.score <= thresholds.close
    ]
    offered = [key for key in (first.claim, *close) if is_answer(key)][:OFFERED]
    if close and len(offered) > 1:
        return Found("few", tuple(offered))
    return Found("one", (first.claim,))


@dataclass(frozen=True)
class Route:
    """Where a message the NLU gave a fixed topic goes: that ``topic``'s answer, an editor's
    ``answer`` (its slug), or ``none`` (it asks about nothing the assistant answers)."""

    kind: str
    slug: str = ""


TOPIC: Final = Route("topic")


def route(
    written: Written, message: str, named: bool, thresholds: AnswerThresholds = THRESHOLDS
) -> Route:
    """Whether a fixed topic's answer stands for ``message``. It gives way to the editor's
    answer the message is word for word a text of, or comes clearly nearer to than to any of
    the fixed topics' questions ("Is the Torkham border open?" is not the airport's status);
    and to the honest "no answer yet" when the message is far from every question the fixed
    topics answer and names nothing they know (``named``: the NLU found a gate, a flight, a
    place), so that "can I take my dog?" does not get the flights."""
    phrased = written.phrased_answer(message)
    if phrased is not None:
        return Route("answer", phrased)
    if written.phrased(message) is not None:
        return TOPIC  # a rumour's own words: its verdict comes first (RumourFirst)
    nearness = written.nearness(message)
    strict = Guard(margin=thresholds.overrule_margin, hearsay_margin=thresholds.overrule_margin)
    found = nearness.candidates(strict, 1)
    if found and is_answer(found[0].claim) and found[0].score >= thresholds.overrule:
        return Route("answer", answer_slug(found[0].claim))
    nearest_topic = max((score for _, score in nearness.everyday), default=0.0)
    if (
        not named
        and nearness.words >= thresholds.topic_words
        and nearest_topic < thresholds.topic_floor
    ):
        return Route("none")
    return TOPIC


def answer_reply(answer: Answer, turn: Turn) -> Reply:
    """The editor's answer with its source and check; on SMS what it says to do first, then
    the fact, in as much as three segments carry."""
    language, now = turn.language, turn.now
    told = fmt.text(answer, "answer", language)
    verified = fmt.verified(answer, now, language)
    brief = brief_explanation(
        told, language, lambda cut: fits(for_basic_phones(f"{cut}\n{verified}"))
    )
    return Reply(
        "utter_answer",
        {
            "question": isolate_latin(fmt.text(answer, "question", language), language),
            "answer": isolate_latin(told, language),
            "answer_brief": isolate_latin(brief, language),
            "verified": verified,
        },
        current=[answer],
    )


class ActionAnswerQuestion(ContentAction):
    """Answers what no fixed topic does, from the answers editors wrote (module docstring)."""

    reads_only = False
    RESPONSES: ClassVar[Mapping[str, Shows]] = {
        **ANSWERED,
        "utter_answer_will_tell": shows(),
        "utter_answer_ask_again": shows(),
        "utter_answer_gone": shows(),
    }

    def name(self) -> str:
        return "action_answer_question"

    def answer(self, turn: Turn) -> Reply:
        """The last of the replies; the console's preview reads them all (``replies``)."""
        return self.parts(turn)[-1]

    def replies(self, turn: Turn) -> list[Reply]:
        return [sent for part in self.parts(turn) for sent in self.completed(part, turn)]

    def parts(self, turn: Turn) -> list[Reply]:
        picked = asked_detail(turn.tracker)
        if picked is not None and same_key(picked) == NOTIFY:
            return [
                accept_wish(
                    turn, AskAbout.ANSWER, "utter_answer_will_tell", "utter_answer_ask_again"
                )
            ]
        if picked is not None:
            answer = _answer_by_key(turn, picked)
            return [answer_reply(answer, turn)] if answer else [Reply("utter_answer_gone")]
        message = str((turn.tracker.latest_message or {}).get("text") or "")
        return answered(turn, message)


def answered(turn: Turn, message: str) -> list[Reply]:
    """The editors' answer ``message`` asks for, a choice of close ones, or "no answer yet"
    with the menu (module docstring). A message of no words at all ("🙂🙂🙂") asks nothing:
    "sorry, I did not understand" and the menu, and nothing is kept for the editors."""
    if not all_words(message):
        return [Reply("utter_fallback"), Reply("utter_menu")]
    found = find(WRITTEN.get(turn.session, turn.now), message)
    if found.kind == "few":
        answers = [
            queries.answer_by_slug(turn.session, answer_slug(k), turn.now) for k in found.keys
        ]
        live = [a for a in answers if a is not None]
        if len(live) > 1:
            return [_which(live, turn.language)]
        found = Found("one", (f"answer:{live[0].slug}",)) if live else Found("none")
    if found.kind == "one":
        reply = _one(turn, message, found.keys[0])
        if reply is not None:
            return [reply]
    return no_answer(turn, message)


def _one(turn: Turn, message: str, key: str) -> Reply | None:
    """The answer or the rumour's verdict ``key`` names; None if it is no longer live."""
    session, now = turn.session, turn.now
    if is_answer(key):
        answer = queries.answer_by_slug(session, answer_slug(key), now)
        if answer is None:
            return None
        store_ask(turn, message, answer.slug, AskAbout.ANSWER, answer.id)
        return answer_reply(answer, turn)
    claim: Claim | None = queries.claim_by_slug(session, key, now)
    if claim is None:
        return None
    store_ask(turn, message, claim.slug, AskAbout.CLAIM, claim.id)
    contact = queries.official_contact(session, claim, now)
    return verdict_reply(claim, now, turn.language, contact)


class AnswerFirst(ContentAction):
    """A fixed topic's answer that gives way to the editor's answer the message really asks
    for, or to the honest "no answer yet" when it asks about nothing the topic knows
    (``route``)."""

    reads_only = False
    RESPONSES: ClassVar[Mapping[str, Shows]] = ANSWER_OR_NONE

    def replies(self, turn: Turn) -> list[Reply]:
        latest = turn.tracker.latest_message or {}
        message = str(latest.get("text") or "")
        if not message or message.startswith("/"):
            return super().replies(turn)
        named = bool(latest.get("entities"))
        found = route(WRITTEN.get(turn.session, turn.now), message, named)
        if found.kind == "answer":
            answer = queries.answer_by_slug(turn.session, found.slug, turn.now)
            if answer is not None:
                store_ask(turn, message, answer.slug, AskAbout.ANSWER, answer.id)
                return self.completed(answer_reply(answer, turn), turn)
        if found.kind == "none":
            return no_answer(turn, message)
        return super().replies(turn)


def no_answer(turn: Turn, message: str) -> list[Reply]:
    """ "No answer to this yet" and what it can answer, the ask kept for "What people ask".
    Where the channel can write later, the offer to be told comes last and names the topics in
    words: "reply 1" must pick the offer, and a menu after it would take the "1" for flights
    (``bot/typed_choice.py`` reads the last numbered buttons); elsewhere the menu follows."""
    store_unanswered(turn, message, AskAbout.ANSWER)
    if turn.tracker.get_latest_input_channel() in ALERT_CHANNELS:
        return [Reply("utter_answer_none_offer")]
    return [Reply("utter_answer_none"), Reply("utter_menu")]


def _answer_by_key(turn: Turn, key: str) -> Answer | None:
    """The answer a button named (the NLU folds a slug's hyphens: compare letters only)."""
    wanted = same_key(answer_slug(key))
    for slug, _ in queries.for_matching(turn.session, Answer, "question", turn.now):
        if same_key(slug) == wanted:
            return queries.answer_by_slug(turn.session, slug, turn.now)
    return None


def _which(answers: Sequence[Answer], language: str) -> Reply:
    variables: dict[str, str] = {}
    for number, answer in enumerate(answers[:OFFERED], start=1):
        question = fmt.text(answer, "question", language)
        variables[f"question_{number}"] = isolate_latin(question, language)
        variables[f"key_{number}"] = str(answer.slug)
    return Reply("utter_answer_which" if len(answers) > 2 else "utter_answer_which_two", variables)
