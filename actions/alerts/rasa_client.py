"""Rasa's HTTP API as the notifier uses it: ``trigger_intent`` only, one session per process.

For each row it calls ``POST /conversations/<id>/trigger_intent?output_channel=<channel>``
with the outbox's intent (``EXTERNAL_alert``, ``EXTERNAL_case_reply``); Rasa runs the action
and sends the message through the person's own channel connector, so no channel code is
duplicated here.
"""

from __future__ import annotations

import asyncio
import re
from urllib.parse import quote

import aiohttp

from actions.alerts.notifier_settings import NotifierSettings
from actions.alerts.outbox_steps import NO_ADDRESS, Claimed, Outcome
from bot.contract import ALERT_DELIVERY, ALERT_INTENT

_RETRY_AFTER = re.compile(r"retry after (\d+(?:\.\d+)?) s")


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
        return rasa_error(response.status, answer)

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None


def rasa_error(status: int, answer: str) -> Outcome:
    """Rasa's error answer as an Outcome. Only our channel's own short reasons are kept from
    it (bot/channels/alerts.py: "no stored address", "HTTP 429", "retry after 3 s")."""
    retry = _RETRY_AFTER.search(answer)
    provider = re.search(r"HTTP \d{3}", answer)
    reason = f"Rasa HTTP {status}" + (f", provider {provider.group(0)}" if provider else "")
    if status in (401, 403):
        reason += " (RASA_API_TOKEN does not match Rasa's --auth-token)"
    return Outcome(
        False,
        reason + (" (no stored address)" if NO_ADDRESS in answer else ""),
        retry_after=float(retry.group(1)) if retry else None,
        permanent=NO_ADDRESS in answer,
    )
