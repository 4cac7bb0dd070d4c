"""The verdict of a checked rumour, and the rumour a message is: shared by the claims' action
and the answers a rumour may be hiding behind.

An editor's own phrasing of a rumour, typed word for word ("Is the Torkham border open?"), is
read by the NLU as the everyday question it looks like: the airport's status. The answers to
such questions (``RumourFirst``) give the rumour's verdict first when the message is one of
its claim's texts or phrasings, then their own answer as what the sources say now.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import ClassVar, Final

from actions.chat.claim_alert import cut_to_fit
from actions.chat.written import WRITTEN
from actions.content import format as fmt
from actions.content import queries
from actions.content.answering import ContentAction, Reply, Shows, shows
from actions.content.database_action import Turn
from actions.content.localise import isolate_latin, word
from actions.content.models import Claim, ClaimVerdict, GuidanceTopic
from kernel.lang.advice import is_advice, sentences
from kernel.sms_render import for_basic_phones
from kernel.sms_segments import fits

#: What ``verdict_reply`` sends.
VERDICTS: Final[Mapping[str, Shows]] = {
    "utter_claim_verdict": shows(
        "claim", "explanation", "provenance", "verdict",
        sms=("checked", "claim_brief", "explanation_brief", "verdict"),
    ),
    "utter_claim_closest": shows(
        "claim", "explanation", "provenance", "verdict",
        sms=("checked", "claim_brief", "explanation_brief", "heading", "verdict"),
    ),
}  # fmt: skip
#: A claim is named in at most this many characters: people read it as the name of what
#: they heard, never their own message quoted back.
CLAIM_NAME_CHARS = 80
#: The lengths an SMS tries for the name, longest first, to leave room for whole advice.
SMS_NAME_CHARS: Final = (CLAIM_NAME_CHARS, 60, 40)
#: Verdicts that say the rumour is wrong: shown whatever a newer record says.
MISLEAD: Final = frozenset({ClaimVerdict.FALSE, ClaimVerdict.MISLEADING})


def claim_name(claim: Claim, language: str, chars: int = CLAIM_NAME_CHARS) -> str:
    """The claim's own text in at most ``chars``, cut at a word."""
    name = " ".join(fmt.text(claim, "claim", language).split())
    if len(name) > chars:
        name = name[: chars - 1].rsplit(" ", 1)[0] + "…"
    return name


def brief_explanation(explanation: str, language: str, fitting: Callable[[str], bool]) -> str:
    """What an SMS keeps of an explanation: as many of its sentences as are ``fitting``, what
    it asks the reader to do first, then the fact it opens with, then the rest, in the editor's
    order; the most important one cut at a word when even it alone does not fit."""
    parts = sentences(explanation)
    if not parts:
        return ""
    advice = [index for index, part in enumerate(parts) if is_advice(part, language)]
    ranked = list(dict.fromkeys([*advice[:1], 0, *advice, *range(len(parts))]))
    kept: set[int] = set()
    for index in ranked:
        if fitting(" ".join(parts[i] for i in sorted(kept | {index}))):
            kept.add(index)
    if not kept:
        return cut_to_fit(parts[ranked[0]], fitting)
    return " ".join(parts[i] for i in sorted(kept))


def verdict_reply(
    claim: Claim,
    now: datetime,
    language: str,
    contact: GuidanceTopic | None = None,
    *,
    closest: bool = False,
) -> Reply:
    """The claim named, what editors found, why and what to do, how the real organisation
    reaches people (``contact``: a fake list or letter borrows its name), who checked it when.
    On SMS the verdict comes first in at most three segments: the explanation's sentences
    that fit, what to do first (``brief_explanation``), then the contact's one way (kept
    before the rest: it is what the reader acts on); when a sentence would be cut short,
    the claim's name is shortened first (``SMS_NAME_CHARS``), which still says what it is.
    ``closest``: the message came only loosely close, so the claim is named as the closest
    one checked (``utter_claim_closest``)."""
    name = isolate_latin(claim_name(claim, language), language)
    verdict = fmt.verdict(claim, language)
    explanation = isolate_latin(fmt.text(claim, "explanation", language), language)
    provenance = fmt.verified(claim, now, language)
    heading = word("label", "closest_checked", language) if closest else ""
    reach = fmt.real_contact(contact, language, briefly=True) if contact is not None else ""
    if contact is not None:
        explanation = "\n".join((explanation, fmt.real_contact(contact, language)))
    told = fmt.text(claim, "explanation", language)
    for chars in SMS_NAME_CHARS:
        sms_name = isolate_latin(claim_name(claim, language, chars), language)
        head = f"{heading}: {verdict}: {sms_name}" if heading else f"{verdict}: {sms_name}"
        brief, whole = _sms_brief(told, language, reach, head, provenance)
        if whole:
            break
    return Reply(
        "utter_claim_closest" if closest else "utter_claim_verdict",
        {
            "claim": name,
            "claim_brief": sms_name,
            "verdict": verdict,
            "explanation": explanation,
            "explanation_brief": isolate_latin(brief, language),
            "provenance": provenance,
            "heading": heading,
        },
        current=[claim],
    )


def _sms_brief(
    told: str, language: str, reach: str, head: str, provenance: str
) -> tuple[str, bool]:
    """The explanation an SMS under ``head`` keeps, with the contact's one way (``reach``)
    when it fits, and whether no sentence of it was cut short."""

    def fitting(brief: str) -> bool:
        # The check line sent is shorter than the provenance measured here.
        return fits(for_basic_phones(f"{head}\n{brief}\n{provenance}"))

    if reach and fitting(reach):
        before = brief_explanation(told, language, lambda cut: fitting(f"{cut}\n{reach}"))
        return (f"{before}\n{reach}" if before else reach), not before.endswith("…")
    brief = brief_explanation(told, language, fitting)
    return brief, not brief.endswith("…")


class RumourFirst(ContentAction):
    """An answer that a rumour's word-for-word phrasing reaches gives that rumour's verdict
    first, then "what our sources say now" and its own answer."""

    RESPONSES: ClassVar[Mapping[str, Shows]] = {**VERDICTS, "utter_claim_now": shows()}

    def replies(self, turn: Turn) -> list[Reply]:
        answer = super().replies(turn)
        message = str((turn.tracker.latest_message or {}).get("text") or "")
        slug = WRITTEN.get(turn.session, turn.now).phrased(message)
        claim = queries.claim_by_slug(turn.session, slug, turn.now) if slug else None
        if claim is None:
            return answer
        contact = queries.official_contact(turn.session, claim, turn.now)
        verdict = verdict_reply(claim, turn.now, turn.language, contact)
        return [*self.completed(verdict, turn), Reply("utter_claim_now"), *answer]
