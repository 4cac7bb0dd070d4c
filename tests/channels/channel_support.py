"""Helpers for the connector tests: recorded payloads, a fake agent, a fake provider API."""

import json
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web
from rasa.core.actions.action import create_bot_utterance
from rasa.core.channels.channel import InputChannel, UserMessage

FIXTURES = Path(__file__).parent / "fixtures"


def fixture(name: str) -> dict[str, Any]:
    """A recorded provider payload (a fresh copy: tests may change it), sent just now."""
    return sent_now(json.loads((FIXTURES / name).read_text(encoding="utf-8")))


def sent_now(payload: Any) -> Any:
    """``payload`` with its send times (Telegram ``date``, WhatsApp ``timestamp``) set to now:
    the connectors acknowledge but do not answer a message sent hours ago."""
    if isinstance(payload, list):
        return [sent_now(item) for item in payload]
    if not isinstance(payload, dict):
        return payload
    now = int(time.time())
    fresh = {key: sent_now(value) for key, value in payload.items()}
    if isinstance(fresh.get("date"), int):
        fresh["date"] = now
    if isinstance(fresh.get("timestamp"), str) and fresh["timestamp"].isdigit():
        fresh["timestamp"] = str(now)
    return fresh


def as_rasa_sends(response: Mapping[str, Any]) -> dict[str, Any]:
    """A rendered response as Rasa hands it to an output channel: through its ``BotUttered``
    event, with every key the event adds (``buttons: None``, ``metadata``, …)."""
    return create_bot_utterance(dict(response)).message()


@dataclass
class Sent:
    """One request the connector made to the provider's API."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]


@dataclass
class FakeProviderApi:
    """Records every call; answers like the provider (``status`` lets a test make it fail)."""

    sent: list[Sent] = field(default_factory=list)
    status: int = 200
    answer: dict[str, Any] = field(default_factory=lambda: {"ok": True, "result": True})
    url: str = ""

    async def _record(self, request: web.Request) -> web.Response:
        self.sent.append(Sent(request.path, dict(request.headers), await request.json()))
        return web.json_response(self.answer, status=self.status)

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/{tail:.*}", self._record)
        return app


class FakeAgent:
    """Stands in for ``app.ctx.agent``: keeps what reached the bot and answers with ``replies``
    (Rasa response dicts) through the message's output channel, as the real agent does."""

    def __init__(self, replies: list[dict[str, Any]] | None = None) -> None:
        self.messages: list[UserMessage] = []
        self.replies = replies or []

    async def handle_message(self, message: UserMessage) -> None:
        self.messages.append(message)
        for reply in self.replies:
            await message.output_channel.send_response(message.sender_id, as_rasa_sends(reply))


Serve = Callable[[InputChannel, FakeAgent], Awaitable[str]]
