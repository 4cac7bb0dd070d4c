"""The receive route every connector shares, through a tiny provider made on it.

"Pigeon" is a gateway of the kind Kannel is: it cannot add headers, so its secret comes in the
query (or, for ``PathPigeon``, in the path, delivered with GET); it posts one message as JSON,
or a delivery status that is no message. What the route promises a provider and a person:
a forged request is refused before its body is read, a big one is 413, an unreadable one 400
(never 500), a retry is answered once, and 503 only when nothing reached the person.

What a connector must write is abstract: one without a hook does not start, and one whose
replies go by the provider's API starts only as a ``QueuedInput``, with the intake's hooks, in
``make run`` as in production; every shipped connector starts as Rasa loads it.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import aiohttp
import pytest
import yaml
from rasa.core.channels.channel import OutputChannel
from rasa.core.run import create_http_input_channels
from sanic import response
from sanic.request import Request
from sanic.response import HTTPResponse

from bot.channels.intake.line import ProcessLine, Queued
from bot.channels.intake.worker import Intake
from bot.channels.settings import IntakeSettings
from bot.channels.transport import MalformedRequest, ProviderApi, ProviderFailure, parse_json
from bot.channels.turns import (
    IN_THE_WEBHOOK,
    Assistant,
    OnNewMessage,
    Outcome,
    ReplyHooks,
    TurnReplies,
    take_turn,
    user_message,
)
from bot.channels.webchat import WebchatInput
from bot.channels.webhook import NOT_ANSWERED, Inbound, QueuedInput, Received, WebhookInput
from tests.channels.channel_support import EVERY_CONNECTOR_ENV, FakeBot, replying, serve_channel

KEY = "pigeon-key-0123456789"
LIMIT = 1024
CREDENTIALS = Path(__file__).resolve().parents[2] / "credentials.channels.yml"


@dataclass(frozen=True)
class PigeonSettings:
    key: str


@dataclass
class Loft:
    """Where Pigeon's replies land, or, when it is ``down``, do not."""

    sent: list[str] = field(default_factory=list)
    down: bool = False


class PigeonOutput(OutputChannel):
    def __init__(self, loft: Loft) -> None:
        self.loft = loft

    @classmethod
    def name(cls) -> str:
        return "pigeon"

    async def send_text_message(self, recipient_id: str, text: str, **kwargs: Any) -> None:
        if self.loft.down:
            raise ProviderFailure(503, "loft closed")
        self.loft.sent.append(text)


class Pigeon(WebhookInput[PigeonSettings, dict[str, Any]]):
    """``POST /webhooks/pigeon/webhook?key=…`` ``{"id": …, "from": …, "text": …}``."""

    credential = "key"

    def __init__(self, loft: Loft) -> None:
        self.loft = loft
        super().__init__(PigeonSettings(KEY))

    def set_up(self) -> None:
        self.api = ProviderApi("http://127.0.0.1:9")  # never called: replies go to the loft

    @classmethod
    def load_settings(cls, credentials: dict[str, Any] | None) -> PigeonSettings:
        return PigeonSettings(KEY)

    @classmethod
    def name(cls) -> str:
        return "pigeon"

    def body_limit(self) -> int:
        return LIMIT

    def authenticate(self, request: Request) -> bool:
        return request.args.get("key") == self.settings.key

    def parse(self, body: bytes, request: Request) -> list[Inbound[dict[str, Any]]]:
        data = parse_json(body)
        if not isinstance(data, dict):
            raise MalformedRequest("body must be a JSON object")
        if "status" in data:  # a delivery report: nobody to answer
            return []
        # A body without "from" raises KeyError here: the route must still say 400.
        message = {"from": data["from"], "text": data["text"]}
        return [Inbound(message, f"pigeon:{data['id']}", sent_at=data.get("sent"))]

    async def handle(
        self, message: dict[str, Any], on_new_message: OnNewMessage, request: Request
    ) -> Outcome:
        return await self.take(message, on_new_message, request.app.ctx.agent)

    async def take(
        self,
        message: dict[str, Any],
        on_new_message: OnNewMessage,
        agent: Assistant,
        hooks: ReplyHooks = IN_THE_WEBHOOK,
    ) -> Outcome:
        replies = TurnReplies(PigeonOutput(self.loft), "pigeon", hooks)
        incoming = user_message(message["text"], replies, message["from"], input_channel="pigeon")
        return await take_turn(incoming, on_new_message, agent)

    def answer(self, received: Received[dict[str, Any]]) -> HTTPResponse:
        return response.json({"status": "again" if received.only_repeats else "ok"})


class PathPigeon(Pigeon):
    """The same bird with its key in the path, delivering with GET and query parameters, as
    Kannel's ``get-url`` does."""

    webhook_path: ClassVar[str] = "/webhook/<key:str>"
    webhook_methods: ClassVar[tuple[str, ...]] = ("GET",)

    def authenticate(self, request: Request) -> bool:
        return request.match_info.get("key") == self.settings.key

    def parse(self, body: bytes, request: Request) -> list[Inbound[dict[str, Any]]]:
        sender, text, number = (request.args.get(name) for name in ("from", "text", "id"))
        if not sender or text is None or not number:
            raise MalformedRequest("from, text and id are required")
        return [Inbound({"from": sender, "text": text}, f"pigeon:{number}")]


class HomingPigeon(Pigeon, QueuedInput[PigeonSettings, dict[str, Any]]):
    """Pigeon whose replies fly on their own (``replies_by_api``): it can wait in line."""

    def to_queue(self, message: dict[str, Any]) -> Queued:
        return Queued(message["from"], message, message["text"])

    def from_queue(self, data: dict[str, Any]) -> dict[str, Any]:
        return data

    async def say(self, message: dict[str, Any], text: str) -> None:
        self.loft.sent.append(text)

    async def reply(self, message: dict[str, Any], response: dict[str, Any]) -> None:
        self.loft.sent.append(response["text"])


class BoastingPigeon(Pigeon):
    """Says its replies go by the provider's API, without the hooks the intake needs."""

    replies_by_api = True


def written_without(
    connector: type[WebhookInput[Any, Any]], base: type[WebhookInput[Any, Any]], hook: str | None
) -> type[WebhookInput[Any, Any]]:
    """``connector`` as its author would have written it on ``base`` without ``hook``: its
    methods and those of the classes between them, made again without that one."""
    written: dict[str, Any] = {}
    for cls in reversed(connector.__mro__[: connector.__mro__.index(base)]):
        written.update({name: value for name, value in vars(cls).items() if name[:2] != "__"})
    if hook is not None:
        del written[hook]
    return type(f"{connector.__name__}Without_{hook}", (base,), written)


@dataclass
class Coop:
    url: str
    bot: FakeBot
    loft: Loft

    async def post(self, body: bytes, key: str | None = KEY) -> tuple[int, Any]:
        query = {} if key is None else {"key": key}
        async with (
            aiohttp.ClientSession() as session,
            session.post(self.url, params=query, data=body) as reply,
        ):
            return reply.status, await reply.json(content_type=None)

    async def send(self, number: str, text: str) -> tuple[int, Any]:
        body = {"id": number, "from": "+93700000077", "text": text}
        return await self.post(json.dumps(body).encode())


@pytest.fixture
async def coop() -> AsyncIterator[Coop]:
    loft = Loft()
    bot = replying([{"text": "The airport is closed today."}])
    async with serve_channel(Pigeon(loft), bot) as base_url:
        yield Coop(f"{base_url}/webhooks/pigeon/webhook", bot, loft)


async def test_a_message_with_the_key_is_answered(coop: Coop) -> None:
    assert await coop.send("1", "is the airport open") == (200, {"status": "ok"})
    assert [m.text for m in coop.bot.messages] == ["is the airport open"]
    assert coop.loft.sent == ["The airport is closed today."]


@pytest.mark.parametrize("key", [None, "guessed-key"])
async def test_a_forged_request_is_refused_before_its_body_is_read(
    coop: Coop, key: str | None
) -> None:
    too_big = json.dumps({"id": "1", "from": "+93700000077", "text": "x" * (2 * LIMIT)})
    # Refused for its key, not for its size: the body was never read.
    assert await coop.post(too_big.encode(), key) == (403, {"error": "missing or wrong key"})
    assert coop.bot.messages == [] and coop.loft.sent == []


async def test_a_body_over_the_limit_is_413(coop: Coop) -> None:
    status, answer = await coop.send("1", "x" * LIMIT)
    assert (status, answer) == (413, {"error": "request too large"})
    assert coop.bot.messages == []


async def test_a_retry_is_answered_once(coop: Coop) -> None:
    assert await coop.send("7", "flights to doha") == (200, {"status": "ok"})
    assert await coop.send("7", "flights to doha") == (200, {"status": "again"})
    assert len(coop.bot.messages) == 1
    assert coop.loft.sent == ["The airport is closed today."]


@pytest.mark.parametrize(
    ("body", "error"),
    [
        (b"{not json", "body is not valid JSON"),
        (b"[1, 2]", "body must be a JSON object"),
        (b'{"id": "1", "text": "no sender"}', "malformed request (KeyError)"),
    ],
)
async def test_an_unreadable_request_is_400_never_500(coop: Coop, body: bytes, error: str) -> None:
    assert await coop.post(body) == (400, {"error": error})
    assert coop.bot.messages == []


async def test_a_message_sent_hours_ago_is_acknowledged_not_answered(coop: Coop) -> None:
    body = {"id": "3", "from": "+93700000077", "text": "salam", "sent": time.time() - 7 * 3600}
    assert await coop.post(json.dumps(body).encode()) == (200, {"status": "ok"})
    assert coop.bot.messages == [] and coop.loft.sent == []


async def test_a_delivery_report_is_acknowledged_without_a_turn(coop: Coop) -> None:
    assert await coop.post(b'{"status": "delivered"}') == (200, {"status": "ok"})
    assert coop.bot.messages == []


async def test_503_only_when_nothing_reached_the_person_and_the_retry_is_answered(
    coop: Coop,
) -> None:
    coop.loft.down, coop.bot.fail = True, True  # neither the answer nor the apology arrives
    assert await coop.send("9", "salam") == (503, {"error": NOT_ANSWERED})
    coop.loft.down, coop.bot.fail = False, False
    assert await coop.send("9", "salam") == (200, {"status": "ok"})
    assert coop.loft.sent == ["The airport is closed today."]
    assert len(coop.bot.messages) == 2


async def test_a_failed_turn_whose_apology_arrived_is_not_503(coop: Coop) -> None:
    coop.bot.fail = True
    assert await coop.send("10", "salam") == (200, {"status": "ok"})
    assert len(coop.loft.sent) == 1  # the apology: a retry must not answer twice


async def test_a_key_in_the_path_of_a_get_is_enough() -> None:
    loft = Loft()
    bot = replying([{"text": "Yes."}])
    async with serve_channel(PathPigeon(loft), bot) as base_url, aiohttp.ClientSession() as s:
        message = {"from": "+93700000078", "text": "open?", "id": "k-1"}
        webhook = f"{base_url}/webhooks/pigeon/webhook"
        async with s.get(f"{webhook}/{KEY}", params=message) as reply:
            assert (reply.status, await reply.json()) == (200, {"status": "ok"})
        async with s.get(f"{webhook}/wrong-key", params=message) as reply:
            assert reply.status == 403
        async with s.get(f"{webhook}/{KEY}", params={"from": "+93700000078"}) as reply:
            assert (reply.status, await reply.json()) == (
                400,
                {"error": "from, text and id are required"},
            )
    assert [m.text for m in bot.messages] == ["open?"]
    assert loft.sent == ["Yes."]


def test_the_test_connectors_are_whole() -> None:
    """What the tests below take a hook from is whole: only that hook can be what is missing."""
    assert written_without(Pigeon, WebhookInput, None)(PigeonSettings(KEY)).name() == "pigeon"
    homing = written_without(HomingPigeon, QueuedInput, None)(PigeonSettings(KEY))
    assert homing.replies_by_api and homing.intake is None


@pytest.mark.parametrize(
    "hook", ["load_settings", "set_up", "authenticate", "parse", "handle", "answer"]
)
def test_a_connector_without_a_hook_cannot_be_made(hook: str) -> None:
    connector = written_without(Pigeon, WebhookInput, hook)
    with pytest.raises(TypeError, match=f"abstract method.* {hook}"):
        connector(PigeonSettings(KEY))


@pytest.mark.parametrize("hook", ["take", "to_queue", "from_queue", "say", "reply"])
def test_a_queued_connector_without_an_intake_hook_cannot_be_made_even_without_a_line(
    hook: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CHANNEL_INTAKE", "direct")  # no line that would call it
    connector = written_without(HomingPigeon, QueuedInput, hook)
    with pytest.raises(TypeError, match=f"abstract method.* {hook}"):
        connector(PigeonSettings(KEY))


def test_a_connector_that_claims_its_replies_go_by_api_must_be_queueable() -> None:
    with pytest.raises(TypeError, match="BoastingPigeon has replies_by_api=True, but is not a Qu"):
        BoastingPigeon(Loft())


def test_only_a_queueable_connector_is_given_a_line() -> None:
    line = Intake(ProcessLine(1), IntakeSettings(mode="queue"))
    connector = written_without(Pigeon, WebhookInput, None)
    with pytest.raises(TypeError, match="replies_by_api=False and an intake, but is not a Q"):
        connector(PigeonSettings(KEY), intake=line)


def test_a_queued_start_with_a_connector_that_lacks_the_intake_hooks_stops(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As Rasa starts a connector (``from_credentials``), in the production profile's mode."""

    class BoastingWebchat(WebchatInput):
        replies_by_api = True

    monkeypatch.setenv("CHANNEL_INTAKE", "queue")
    with pytest.raises(TypeError, match=r"derives from QueuedInput, which asks for .*to_queue"):
        BoastingWebchat.from_credentials(None)


@pytest.mark.parametrize("mode", ["direct", "queue"])
def test_every_shipped_connector_starts_as_rasa_loads_it(
    mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in EVERY_CONNECTOR_ENV.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("CHANNEL_INTAKE", mode)
    monkeypatch.delenv("REDIS_HOST", raising=False)  # the line in this process
    channels = create_http_input_channels(None, str(CREDENTIALS))
    named = yaml.safe_load(CREDENTIALS.read_text())
    assert [f"{type(c).__module__}.{type(c).__name__}" for c in channels] == list(named)
    queued = {c.name() for c in channels if isinstance(c, QueuedInput)}
    assert queued == {"telegram", "whatsapp", "twilio_sms", "sms_gateway", "kannel"}
    for channel in channels:
        assert isinstance(channel, WebhookInput)
        assert channel.replies_by_api == (channel.name() in queued)
        assert (channel.intake is not None) == (mode == "queue" and channel.name() in queued)
