"""Handing a closed case's conversation back to the assistant, through Rasa's HTTP API.

A caseworker's "close" triggers ``EXTERNAL_case_closed`` in the person's conversation
(``POST /conversations/<id>/trigger_intent``, authenticated with ``RASA_API_TOKEN``, as the alert
notifier does). Rasa lets that intent through the pause (``bot/paused.py``); its rule runs
``action_case_closed``, which resumes the conversation (``ConversationResumed``) and says, in
the person's language, that the assistant is back. No output channel is named, so Rasa collects
that sentence instead of sending it: it is in the conversation, and the person's next message is
answered by the assistant; sending it out of turn is the reply delivery's job (docs/HANDOFF.md).
"""

from __future__ import annotations

import asyncio
import logging
from urllib.parse import quote

import aiohttp

from actions.admin.settings import AdminSettings

logger = logging.getLogger(__name__)

CLOSED_INTENT = "EXTERNAL_case_closed"
TIMEOUT_SECONDS = 10.0


async def hand_back(settings: AdminSettings, conversation_id: str) -> str | None:
    """Resumes the conversation; None when Rasa did, else a short reason (never an address)."""
    url = f"{settings.rasa_url}/conversations/{quote(conversation_id, safe='')}/trigger_intent"
    headers = {"Authorization": f"Bearer {settings.rasa_token}"} if settings.rasa_token else {}
    body = {"name": CLOSED_INTENT, "entities": {}}
    # One session per close: a caseworker closes a case every few minutes, not per request.
    timeout = aiohttp.ClientTimeout(total=TIMEOUT_SECONDS)
    try:
        async with (
            aiohttp.ClientSession(timeout=timeout) as session,
            session.post(
                url, json=body, headers=headers, params={"include_events": "NONE"}
            ) as response,
        ):
            await response.read()
            if response.status == 200:
                return None
            logger.warning("%s: Rasa answered %d to a hand-back", conversation_id, response.status)
            return f"Rasa HTTP {response.status}"
    except (aiohttp.ClientError, asyncio.TimeoutError) as error:
        logger.warning("%s: Rasa unreachable for a hand-back", conversation_id)
        return f"Rasa unreachable ({type(error).__name__})"
