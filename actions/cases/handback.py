"""Handing a closed case's conversation back to the assistant, through Rasa's HTTP API.

A caseworker's "close" triggers ``EXTERNAL_case_closed`` in the person's conversation
(``POST /conversations/<id>/trigger_intent``, authenticated with ``RASA_API_TOKEN``, as the alert
notifier does). Rasa lets that intent through the pause (``bot/paused.py``); its rule runs
``action_case_closed``, which resumes the conversation (``ConversationResumed``) and says, in
the person's language, that the assistant is back. The person's channel is named as the output
channel, so that sentence reaches them now, out of turn, through the sealed address.

When the channel can never deliver it (no address left, the provider refused the person for
good: an HTTP 4xx other than 429), Rasa answers ``bot/contract.py``'s ``NotDelivered`` JSON
(``bot/server.py``) and keeps nothing of that attempt; the
hand-back is then repeated without an output channel, so the conversation is resumed all the
same and the sentence is only recorded — a person who cannot be reached must not stay in a
paused conversation. The caseworker is told which happened. A refusal that may pass (429, a
provider or the web chat's mailbox down) changes nothing: the caseworker closes again later.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from urllib.parse import quote

import aiohttp

from actions.admin.settings import AdminSettings
from bot.contract import CASE_CLOSED_INTENT, NOT_DELIVERED_STATUS, NotDelivered

logger = logging.getLogger(__name__)

TIMEOUT_SECONDS = 10.0


@dataclass(frozen=True)
class HandBack:
    """What became of a hand-back: ``problem`` None when Rasa resumed the conversation;
    ``told`` whether "I am back" reached the person's channel."""

    problem: str | None
    told: bool = False


def never_deliverable(answer: str) -> bool:
    """Whether Rasa's error answer is the channel saying the person cannot be reached at all:
    no stored address, or a provider's refusal that waiting does not change (a 4xx but 429).
    The notifier retries such a refusal of an alert; a hand-back has no later to wait for."""
    refusal = NotDelivered.from_answer(answer)
    if refusal is None:
        return False
    status = refusal.provider_status
    return refusal.permanent or (status is not None and 400 <= status < 500 and status != 429)


async def _trigger(
    session: aiohttp.ClientSession,
    settings: AdminSettings,
    conversation_id: str,
    channel: str | None,
) -> tuple[int, str]:
    url = f"{settings.rasa_url}/conversations/{quote(conversation_id, safe='')}/trigger_intent"
    headers = {"Authorization": f"Bearer {settings.rasa_token}"} if settings.rasa_token else {}
    params = {"include_events": "NONE"}
    if channel:
        params["output_channel"] = channel
    body = {"name": CASE_CLOSED_INTENT, "entities": {}}
    async with session.post(url, json=body, headers=headers, params=params) as response:
        return response.status, await response.text()


async def hand_back(
    settings: AdminSettings, conversation_id: str, channel: str | None = None
) -> HandBack:
    """Resumes the conversation and tells the person on ``channel``; the problem, if Rasa did
    not resume it, is a short reason (never an address)."""
    # One session per close: a caseworker closes a case every few minutes, not per request.
    timeout = aiohttp.ClientTimeout(total=TIMEOUT_SECONDS)
    try:
        async with aiohttp.ClientSession(timeout=timeout) as session:
            status, answer = await _trigger(session, settings, conversation_id, channel)
            if status == 200:
                return HandBack(None, told=bool(channel))
            if status == NOT_DELIVERED_STATUS and channel and never_deliverable(answer):
                # The channel refused for good (our AlertNotDelivered): resume, untold.
                logger.warning("%s: 'I am back' not delivered on %s", conversation_id, channel)
                status, answer = await _trigger(session, settings, conversation_id, None)
                if status == 200:
                    return HandBack(None, told=False)
    except (aiohttp.ClientError, asyncio.TimeoutError) as error:
        logger.warning("%s: Rasa unreachable for a hand-back", conversation_id)
        return HandBack(f"Rasa unreachable ({type(error).__name__})")
    logger.warning("%s: Rasa answered %d to a hand-back", conversation_id, status)
    return HandBack(f"Rasa HTTP {status}")


#: Hand-backs of a bulk close under way at once: quick for a page of cases, gentle on Rasa.
QUIET_AT_ONCE = 8


async def hand_back_quietly(
    settings: AdminSettings, conversations: dict[int, str]
) -> dict[int, str | None]:
    """Resumes each case's conversation without telling the person (a case closed as abuse:
    nobody is sent "I am back"); for each case, the problem if Rasa did not resume it."""
    timeout = aiohttp.ClientTimeout(total=TIMEOUT_SECONDS)
    gate = asyncio.Semaphore(QUIET_AT_ONCE)

    async def one(session: aiohttp.ClientSession, conversation_id: str) -> str | None:
        async with gate:
            try:
                status, _ = await _trigger(session, settings, conversation_id, None)
            except (aiohttp.ClientError, asyncio.TimeoutError) as error:
                return f"Rasa unreachable ({type(error).__name__})"
        return None if status == 200 else f"Rasa HTTP {status}"

    async with aiohttp.ClientSession(timeout=timeout) as session:
        problems = await asyncio.gather(*(one(session, c) for c in conversations.values()))
    failed = sum(problem is not None for problem in problems)
    if failed:
        logger.warning("%d of %d quiet hand-backs failed", failed, len(conversations))
    return dict(zip(conversations, problems, strict=True))
