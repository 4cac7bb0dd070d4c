"""Rasa's HTTP API as the notifier uses it: ``trigger_intent`` only, one session per process.

For each row it calls ``POST /conversations/<id>/trigger_intent?output_channel=<channel>``
with the outbox's intent (``EXTERNAL_alert``, ``EXTERNAL_case_reply``); Rasa runs the action
and sends the message through the person's own channel connector, so no channel code is
duplicated here. When that channel could not hand it to the provider, Rasa answers
``bot/contract.py``'s ``NotDelivered`` JSON (``bot/server.py``), read by key here.
"""

from __future__ import annotations

import asyncio
from urllib.parse import quote

import aiohttp

from actions.alerts.notifier_settings import NotifierSettings
from actions.common.outbox import Claimed, Outcome
from bot.contract import ALERT_DELIVERY, ALERT_INTENT, NotDelivered

#: How much of an answer that is not ours (an older Rasa, a proxy's page) is kept as the error.
UNKNOWN_ANSWER_CHARACTERS = 200


class RasaApi:
    """Rasa's HTTP API, for ``trigger_intent`` only."""

    def __init__(self, settings_: NotifierSettings) -> None:
        self.settings = settings_
        self._session: aiohttp.ClientSession | None = None

    async def trigger(
        self, claimed: Claimed, intent: str = ALERT_INTENT, entity: str = ALERT_DELIVERY
    ) -> Outcome:
        if self._session is None:
            timeout = aiohttp.ClientTimeout(total=self.settings.request_timeout_seconds)
            self._session = aiohttp.ClientSession(timeout=timeout)
        params = {"output_channel": claimed.channel, "include_events": "NONE"}
        # In a header, not ?token=: proxies and access logs keep query strings (bot/server.py).
        headers = (
            {"Authorization": f"Bearer {self.settings.rasa_token}"}
            if self.settings.rasa_token
            else {}
        )
        url = (
            f"{self.settings.rasa_url}/conversations/"
            f"{quote(claimed.conversation_id, safe='')}/trigger_intent"
        )
        body = {"name": intent, "entities": {entity: str(claimed.id)}}
        try:
            async with self._session.post(
                url, params=params, json=body, headers=headers
            ) as response:
                if response.status == 200:
                    await response.read()
                    return Outcome(delivered=True)
                answer = await response.text()
        except (aiohttp.ClientError, asyncio.TimeoutError) as error:
            return Outcome(False, f"Rasa unreachable ({type(error).__name__})", reached_rasa=False)
        return refusal(response.status, answer)

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None


def refusal(status: int, answer: str) -> Outcome:
    """Rasa's error answer as an Outcome: the channel's reason, permanence and retry time when
    it is our ``NotDelivered`` JSON; otherwise a failure worth retrying, with the start of the
    answer as its reason."""
    reason = f"Rasa HTTP {status}"
    if status in (401, 403):
        reason += " (RASA_API_TOKEN does not match Rasa's --auth-token)"
    not_delivered = NotDelivered.from_answer(answer)
    if not_delivered is None:
        start = " ".join(answer[:UNKNOWN_ANSWER_CHARACTERS].split())
        return Outcome(False, f"{reason}: {start}" if start else reason)
    return Outcome(
        False,
        f"{reason}: {not_delivered.reason}",
        retry_after=not_delivered.retry_after,
        permanent=not_delivered.permanent,
    )
