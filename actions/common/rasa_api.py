"""Rasa's HTTP API as the content runtime calls it: ``trigger_intent`` only.

The notifier (alerts, caseworkers' replies) and the console's hand-back both call
``POST /conversations/<id>/trigger_intent?output_channel=<channel>``: Rasa runs the intent's
action and sends its messages through the person's own channel connector, so no channel code
is repeated here. When that channel could not hand a message to the provider, Rasa answers
``kernel/contract.py``'s ``NotDelivered`` JSON (``bot/server.py``); it is read here, once, into an
``Outcome`` whose ``permanent`` is the channel's own verdict (``NotDelivered.gives_up``): the
notifier stops retrying on it, the console hands the conversation back without telling.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from types import TracebackType
from urllib.parse import quote

import aiohttp

from actions.settings import RasaSettings
from kernel.contract import NotDelivered

#: How much of an answer that is not ours (an older Rasa, a proxy's page) is kept as the error.
UNKNOWN_ANSWER_CHARACTERS = 200
#: Rasa's answer to a trigger waits for the provider; a minute-long silence is Rasa gone.
DEFAULT_TIMEOUT_SECONDS = 30.0


@dataclass(frozen=True)
class Outcome:
    """What Rasa said about one trigger."""

    delivered: bool  # Rasa answered 200
    error: str | None = None  # short reason, never an address
    retry_after: float | None = None
    permanent: bool = False  # retrying cannot help: the channel gave up on the person
    reached_rasa: bool = True  # False: connection failed or timed out, the outcome is unknown
    status: int | None = None  # Rasa's HTTP status when it refused
    #: The person's provider refused them for good (``NotDelivered.person_refused``).
    person_refused: bool = False

    def problem(self) -> str | None:
        """What a caseworker is told when Rasa did not do it: short, never a provider's prose."""
        if self.delivered:
            return None
        return self.error if not self.reached_rasa else f"Rasa HTTP {self.status}"


class RasaApi:
    """Rasa's HTTP API, for ``trigger_intent`` only: one connection pool until ``close``."""

    def __init__(
        self, settings: RasaSettings, timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS
    ) -> None:
        self.settings = settings
        self._timeout = aiohttp.ClientTimeout(total=timeout_seconds)
        self._session: aiohttp.ClientSession | None = None

    async def trigger(
        self,
        conversation_id: str,
        intent: str,
        entities: Mapping[str, str] | None = None,
        channel: str | None = None,
    ) -> Outcome:
        """Triggers ``intent`` in the conversation; its messages go out on ``channel`` (None:
        Rasa runs the action and only records what it says)."""
        if self._session is None:
            self._session = aiohttp.ClientSession(timeout=self._timeout)
        params = {"include_events": "NONE"}
        if channel:
            params["output_channel"] = channel
        # In a header, not ?token=: proxies and access logs keep query strings (bot/server.py).
        token = self.settings.token
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        url = f"{self.settings.url}/conversations/{quote(conversation_id, safe='')}/trigger_intent"
        body = {"name": intent, "entities": dict(entities or {})}
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

    async def __aenter__(self) -> RasaApi:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()


def refusal(status: int, answer: str) -> Outcome:
    """Rasa's error answer as an Outcome: the channel's reason, verdict and retry time when it
    is our ``NotDelivered`` JSON; otherwise a failure worth retrying, with the start of the
    answer as its reason."""
    reason = f"Rasa HTTP {status}"
    if status in (401, 403):
        reason += " (RASA_API_TOKEN does not match Rasa's --auth-token)"
    not_delivered = NotDelivered.from_answer(answer)
    if not_delivered is None:
        start = " ".join(answer[:UNKNOWN_ANSWER_CHARACTERS].split())
        return Outcome(False, f"{reason}: {start}" if start else reason, status=status)
    return Outcome(
        False,
        f"{reason}: {not_delivered.reason}",
        retry_after=not_delivered.retry_after,
        permanent=not_delivered.gives_up(),
        status=status,
        person_refused=not_delivered.person_refused(),
    )
