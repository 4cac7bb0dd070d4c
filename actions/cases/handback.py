"""Handing a closed case's conversation back to the assistant, through Rasa's HTTP API.

A caseworker's "close" triggers ``EXTERNAL_case_closed`` in the person's conversation
(``POST /conversations/<id>/trigger_intent``, authenticated with ``RASA_API_TOKEN``, as the alert
notifier does). Rasa lets that intent through the pause (``bot/paused.py``); its rule runs
``action_case_closed``, which resumes the conversation (``ConversationResumed``) and says, in
the person's language, that the assistant is back. The person's channel is named as the output
channel, so that sentence reaches them now, out of turn, through the sealed address.

When the channel gave up on the person (no address left, the person blocked the bot:
``NotDelivered.gives_up``, the notifier's reading too), Rasa answers ``kernel/contract.py``'s
``NotDelivered`` JSON (``bot/server.py``) and keeps nothing of that attempt; the hand-back is
then repeated without an output channel, so the conversation is resumed all the same and the
sentence is only recorded — a person who cannot be reached must not stay in a paused
conversation. The caseworker is told which happened. A refusal that may pass (429, a provider
or the web chat's mailbox down) changes nothing: the caseworker is asked to close again later.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from actions.common.rasa_api import RasaApi
from actions.settings import RasaSettings
from kernel.contract import CASE_CLOSED_INTENT

logger = logging.getLogger(__name__)

#: A caseworker waits for the answer: ten seconds, then "Retry".
TIMEOUT_SECONDS = 10.0


@dataclass(frozen=True)
class HandBack:
    """What became of a hand-back: ``problem`` None when Rasa resumed the conversation;
    ``told`` whether "I am back" reached the person's channel."""

    problem: str | None
    told: bool = False


async def hand_back(
    settings: RasaSettings, conversation_id: str, channel: str | None = None
) -> HandBack:
    """Resumes the conversation and tells the person on ``channel``; the problem, if Rasa did
    not resume it, is a short reason (never an address)."""
    # One session per close: a caseworker closes a case every few minutes, not per request.
    async with RasaApi(settings, TIMEOUT_SECONDS) as rasa:
        outcome = await rasa.trigger(conversation_id, CASE_CLOSED_INTENT, channel=channel)
        if outcome.delivered:
            return HandBack(None, told=bool(channel))
        if outcome.permanent and channel:
            # The channel gave up on the person: resume, untold.
            logger.warning("%s: 'I am back' not delivered on %s", conversation_id, channel)
            outcome = await rasa.trigger(conversation_id, CASE_CLOSED_INTENT)
            if outcome.delivered:
                return HandBack(None, told=False)
    logger.warning("%s: hand-back failed: %s", conversation_id, outcome.problem())
    return HandBack(outcome.problem())


#: Hand-backs of a bulk close under way at once: quick for a page of cases, gentle on Rasa.
QUIET_AT_ONCE = 8


async def hand_back_quietly(
    settings: RasaSettings, conversations: dict[int, str]
) -> dict[int, str | None]:
    """Resumes each case's conversation without telling the person (a case closed as abuse:
    nobody is sent "I am back"); for each case, the problem if Rasa did not resume it."""
    gate = asyncio.Semaphore(QUIET_AT_ONCE)

    async def one(rasa: RasaApi, conversation_id: str) -> str | None:
        async with gate:
            outcome = await rasa.trigger(conversation_id, CASE_CLOSED_INTENT)
        return outcome.problem()

    async with RasaApi(settings, TIMEOUT_SECONDS) as rasa:
        problems = await asyncio.gather(*(one(rasa, c) for c in conversations.values()))
    failed = sum(problem is not None for problem in problems)
    if failed:
        logger.warning("%d of %d quiet hand-backs failed", failed, len(conversations))
    return dict(zip(conversations, problems, strict=True))
