"""One receive route for every provider's webhook: what a connector writes is only what its
provider does differently.

``WebhookInput.receive`` takes each request through the same steps, in this order:

1. ``authenticate(request)``: the provider's secret or signature header, checked before a
   byte of the body is read, so a stranger's 30 MB costs nothing. A gateway that cannot add
   headers (Kannel) carries its secret in the query (``request.args``) or in the path
   (``webhook_path = "/webhook/<secret:str>"``, then ``request.match_info``): the same hook;
2. the body, read bounded (``BODY_LIMITS``), answered 413 above the limit;
3. ``parse(body, request)``, in a worker thread when the body is large: the messages the
   request carries (none for a delivery-status callback). ``MalformedRequest`` and other
   unreadable input are 400, never 500; ``Forged`` is 403, for a signature that covers the
   body (WhatsApp's HMAC of it, Twilio's of the parsed fields);
4. each message's ``delivery`` taken once (``SeenMessages``): a retry is answered, not turned;
   and one sent too long ago (``sent_at``, ``MESSAGE_MAX_AGE``) is acknowledged, not answered;
5. ``handle(message, ...)`` takes the turn (``turns.take_turn``). A turn whose answer and
   apology both failed is forgotten, so that the provider's retry is answered when things are
   back, and the request is 503: the only 503 there is. A connector whose replies go out by
   the provider's API (a ``QueuedInput``) and has an ``intake`` (``CHANNEL_INTAKE=queue``,
   bot/channels/intake/) instead puts the message in line and answers at once: its
   workers take the turn (``take``) without the request;
6. ``answer(received)``: what the provider expects back when all went well (TwiML, ``ok``,
   the web chat's replies).

Every refusal has one form on every channel, JSON ``{"error": "..."}`` (``Refused``);
providers read only the status of it, people's pages the text.

What a connector must write is abstract, so a connector that lacks a hook cannot be made
(``TypeError`` naming it) and Rasa stops at start-up, in ``make run`` as in production:
``WebhookInput``'s ``load_settings``, ``set_up``, ``authenticate``, ``parse``, ``handle`` and
``answer``; a ``QueuedInput`` writes ``take`` instead of ``handle``, and what the intake's
workers need: ``to_queue``, ``from_queue``, ``say`` and ``reply``.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, ClassVar, Final, Generic, TypeVar

from rasa.core.channels.channel import InputChannel
from sanic import response
from sanic.request import Request
from sanic.response import HTTPResponse

from bot.channels.addresses import AddressBook
from bot.channels.alerts import address_book_for
from bot.channels.blueprints import Blueprint
from bot.channels.dedup import SeenMessages, sent_too_long_ago
from bot.channels.intake.line import Queued, job_key
from bot.channels.intake.worker import Intake, intake_for
from bot.channels.memory import channel_memory
from bot.channels.settings import IntakeSettings, RedisSettings, for_rasa, hotline, message_max_age
from bot.channels.transport import (
    BODY_LIMITS,
    BodyTooLarge,
    MalformedRequest,
    ProviderApi,
    parse_off_loop,
    read_body,
    webhook_blueprint,
)
from bot.channels.turns import IN_THE_WEBHOOK, Assistant, OnNewMessage, Outcome, ReplyHooks
from kernel.memory import ChannelMemory, ProcessMemory

logger = logging.getLogger(__name__)

M = TypeVar("M")
S = TypeVar("S")
T = TypeVar("T")

#: The body of the one 503: the provider retries, the web chat keeps the message and resends.
NOT_ANSWERED: Final = "the assistant could not answer; try again later"


class Forged(Exception):
    """A request whose signature over its content is wrong: refused 403 like a missing one."""


class Refused(Exception):
    """A request answered with an error instead of a turn: ``status`` and the body
    ``{"error": error, **extra}`` (the web chat's 429 adds ``retry_after``)."""

    def __init__(
        self,
        status: int,
        error: str,
        *,
        headers: Mapping[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(error)
        self.status = status
        self.error = error
        self.headers = dict(headers or {})
        self.extra = extra

    def answer(self) -> HTTPResponse:
        return response.json(
            {"error": self.error, **self.extra}, status=self.status, headers=self.headers
        )


@dataclass(frozen=True)
class Inbound(Generic[M]):
    """One message a provider's request carries, as ``parse`` found it."""

    message: M
    #: What identifies a delivery of this message, so that a retry is answered once; None for
    #: a channel whose sender waits for the answer and never retries on its own (the web chat).
    delivery: str | None = None
    #: How long ``delivery`` is remembered; None for as long as providers retry.
    remember_seconds: float | None = None
    #: When the person sent it, as the provider says (Unix seconds), where it says so: one sent
    #: longer ago than ``MESSAGE_MAX_AGE`` is acknowledged, not answered. Telegram keeps an
    #: update it could not deliver for a day, and Meta signs no time, so an old signed request
    #: may be a replay (docs/OPERATIONS.md, "Retries and replays").
    sent_at: object = None


@dataclass
class Received(Generic[M]):
    """What became of a request's messages: what ``answer`` answers."""

    #: The messages taken on (answered, apologised for, or too old to answer), with how.
    taken: list[tuple[M, Outcome]] = field(default_factory=list)
    #: Messages answered before (a provider's retry).
    repeated: int = 0
    #: Messages put in line, answered by the intake's workers.
    queued: int = 0

    @property
    def only_repeats(self) -> bool:
        """Every message was answered before: the whole request is a retry."""
        return self.repeated > 0 and not self.taken and not self.queued


async def read_parsed(request: Request, limit: int, parse: Callable[[bytes], T]) -> T:
    """``parse`` of the body, read no further than ``limit`` bytes; ``Refused`` 413 above it,
    400 for what cannot be read (``Forged`` is left to the caller, who names the secret)."""
    try:
        body = await read_body(request, limit)
        return await parse_off_loop(parse, body)
    except BodyTooLarge:
        raise Refused(413, "request too large") from None
    except MalformedRequest as error:
        raise Refused(400, str(error)) from None
    except (ValueError, KeyError, TypeError) as error:
        # A shape the parser did not expect: named by its type only, its text may quote the body.
        raise Refused(400, f"malformed request ({type(error).__name__})") from None


class WebhookInput(InputChannel, Generic[S, M], ABC):
    """A connector whose provider posts messages to ``/webhooks/<name>/webhook``.

    A connector gives ``load_settings`` (its frozen settings from the environment and
    credentials), ``set_up`` (its ``api``: the provider's API, closed with the server),
    ``authenticate``, ``parse``, ``handle`` and ``answer``; the receive route is this class's.
    One whose replies go out by the provider's API derives from ``QueuedInput`` instead.
    """

    #: What a refused request lacked (a header's name, "secret"), named in the 403 body.
    credential: ClassVar[str] = "secret"
    #: The route under ``/webhooks/<name>``; a path parameter reaches ``request.match_info``.
    webhook_path: ClassVar[str] = "/webhook"
    #: The methods it answers (a gateway may deliver with GET and query parameters).
    webhook_methods: ClassVar[tuple[str, ...]] = ("POST",)
    #: Whether replies go out through the provider's API (not in the HTTP answer), so that the
    #: webhook can be answered before the turn (``intake``): True for a ``QueuedInput``, and
    #: only for one (checked when the connector is made).
    replies_by_api: ClassVar[bool] = False

    api: ProviderApi

    def __init__(
        self,
        settings: S,
        *,
        addresses: AddressBook | None = None,
        memory: ChannelMemory | None = None,
        hotline: str | None = None,
        max_age: timedelta | None = None,
        intake: Intake | None = None,
    ) -> None:
        queueable = isinstance(self, QueuedInput)
        if self.replies_by_api != queueable or (intake is not None and not queueable):
            raise TypeError(
                f"{type(self).__name__} has replies_by_api={self.replies_by_api}"
                f"{' and an intake' if intake is not None else ''}, but is "
                f"{'' if queueable else 'not '}a QueuedInput: a connector whose replies go out "
                "by the provider's API, and only such a one, derives from QueuedInput, which asks "
                "for what the intake's workers need (take, to_queue, from_queue, say, reply)"
            )
        self.settings = settings
        self.addresses = addresses
        # Retries (and a connector's own state): Redis in production (bot/channels/memory.py).
        self.memory = memory if memory is not None else ProcessMemory()
        self.seen = SeenMessages(self.memory)
        self.hotline = hotline
        self.max_age = max_age or message_max_age()
        #: Where messages wait for their turn (a ``QueuedInput``'s only); None: each is
        #: turned before the webhook answers.
        self.intake = intake
        self.set_up()

    @abstractmethod
    def set_up(self) -> None:
        """Makes the connector's own parts from ``settings`` and ``memory``: its provider's
        ``api`` at least."""

    @classmethod
    @abstractmethod
    def load_settings(cls, credentials: dict[str, Any] | None) -> S:
        """The connector's settings; secrets come from the environment."""

    @classmethod
    def from_credentials(cls, credentials: dict[str, Any] | None) -> InputChannel:
        settings = for_rasa(lambda: cls.load_settings(credentials))
        redis = RedisSettings.load()
        memory = channel_memory(redis)
        intake: Intake | None = None
        if issubclass(cls, QueuedInput):
            intake = intake_for(cls.name(), for_rasa(IntakeSettings.load), memory, redis)
        return cls(
            settings,
            addresses=address_book_for(cls.name()),
            memory=memory,
            hotline=hotline(),
            intake=intake,
        )

    @abstractmethod
    def authenticate(self, request: Request) -> bool:
        """Whether the request carries the provider's secret (or a signature to check in
        ``parse``); read from headers, query or path only, never from the body."""

    @abstractmethod
    def parse(self, body: bytes, request: Request) -> list[Inbound[M]]:
        """The messages ``body`` carries; raises ``MalformedRequest`` (400) or ``Forged``
        (403). May run in a worker thread: it reads ``request`` but never changes it."""

    @abstractmethod
    async def handle(self, message: M, on_new_message: OnNewMessage, request: Request) -> Outcome:
        """Takes the turn of one message (``turns.take_turn``); may raise ``Refused`` before
        it (the web chat's limits)."""

    @abstractmethod
    def answer(self, received: Received[M]) -> HTTPResponse:
        """What the provider expects when every message was taken."""

    def body_limit(self) -> int:
        """The most a request of this provider may carry (``transport.BODY_LIMITS``, which
        also sets the server's own limit: a new connector adds itself there)."""
        return BODY_LIMITS[self.name()]

    def routes(self, blueprint: Blueprint, on_new_message: OnNewMessage) -> None:
        """The connector's routes besides the webhook (WhatsApp's verification handshake)."""

    def blueprint(self, on_new_message: OnNewMessage) -> Blueprint:
        blueprint = webhook_blueprint(f"{self.name()}_webhook", self.api, self.memory)

        @blueprint.route(self.webhook_path, methods=self.webhook_methods, stream=True)
        async def receive(request: Request, **_: Any) -> HTTPResponse:
            return await self.receive(request, on_new_message)

        self.routes(blueprint, on_new_message)
        return blueprint

    async def receive(self, request: Request, on_new_message: OnNewMessage) -> HTTPResponse:
        """One provider request, through the steps of this module's docstring."""
        name = self.name()
        if not self.authenticate(request):
            return self._forged("without")
        try:
            inbound = await read_parsed(
                request, self.body_limit(), lambda body: self.parse(body, request)
            )
        except Forged:
            return self._forged("with a wrong")
        except Refused as refusal:
            if refusal.status == 400:
                logger.warning("%s: malformed request refused (%s)", name, refusal.error)
            return refusal.answer()
        received: Received[M] = Received()
        queued = self if isinstance(self, QueuedInput) else None
        for each in inbound:
            if each.delivery is not None and not await self.seen.first_time(
                each.delivery, each.remember_seconds
            ):
                logger.info("%s: a message delivered again, answered already", name)
                received.repeated += 1
                continue
            if sent_too_long_ago(each.sent_at, self.max_age):
                logger.info(
                    "%s: message older than %s acknowledged, not answered", name, self.max_age
                )
                received.taken.append((each.message, Outcome.ANSWERED))
                continue
            # The webhook takes the turn itself when the line cannot be reached; a put that
            # timed out may have reached it all the same: ``at_once`` keeps that copy quiet.
            at_once: str | None = None
            if queued is not None and self.intake is not None and queued.queues(each.message):
                key = job_key(each.delivery)
                if await queued.put_in_line(each, key):
                    received.queued += 1
                    continue
                at_once = key
                await self.intake.answering_at_once(key)
            try:
                outcome = await self.handle(each.message, on_new_message, request)
            except Refused as refusal:
                await self._answered_at_once(at_once, Outcome.UNANSWERED)
                return refusal.answer()
            await self._answered_at_once(at_once, outcome)
            if outcome is Outcome.UNANSWERED and each.delivery is not None:
                await self.seen.forget(each.delivery)
            received.taken.append((each.message, outcome))
        if any(outcome is Outcome.UNANSWERED for _, outcome in received.taken):
            # A provider retries the whole request: the messages answered are known by then.
            return Refused(503, NOT_ANSWERED).answer()
        return self.answer(received)

    async def _answered_at_once(self, key: str | None, outcome: Outcome) -> None:
        if self.intake is not None and key is not None:
            await self.intake.answered_at_once(key, outcome)

    def _forged(self, how: str) -> HTTPResponse:
        logger.warning("%s: refused a request %s %s", self.name(), how, self.credential)
        return Refused(403, f"missing or wrong {self.credential}").answer()


class QueuedInput(WebhookInput[S, M]):
    """A connector whose replies go out by the provider's API, not in the HTTP answer, so that
    its webhook can be answered before the turn: with ``CHANNEL_INTAKE=queue`` its messages
    wait in the intake's line (``intake.Queueable``) and the intake's workers take their turns
    without the request. What they need is abstract here, so a connector that lacks one of
    them does not start in ``make run`` either, where the intake is off."""

    replies_by_api: ClassVar[bool] = True

    async def handle(self, message: M, on_new_message: OnNewMessage, request: Request) -> Outcome:
        """``take`` with Rasa's agent: the turn is the same with or without a line."""
        return await self.take(message, on_new_message, request.app.ctx.agent)

    @abstractmethod
    async def take(
        self,
        message: M,
        on_new_message: OnNewMessage,
        agent: Assistant,
        hooks: ReplyHooks = IN_THE_WEBHOOK,
    ) -> Outcome:
        """The turn of one message without its request: what the intake's workers call, with
        the ``hooks`` its replies need there."""

    def queues(self, message: M) -> bool:
        """Whether ``message`` waits in line when there is one: a person's message does; what
        is no one's turn (a provider's delivery statuses) is handled at once."""
        return True

    @abstractmethod
    def to_queue(self, message: M) -> Queued:
        """The message as it waits in line (JSON), with its conversation and text."""

    @abstractmethod
    def from_queue(self, data: dict[str, Any]) -> M:
        """The message back from ``to_queue``'s ``data``."""

    @abstractmethod
    async def say(self, message: M, text: str) -> None:
        """Sends ``text`` by itself to the person who wrote ``message`` (the notice of the
        wait); raises ``ProviderFailure`` when the provider refuses it."""

    @abstractmethod
    async def reply(self, message: M, response: dict[str, Any]) -> None:
        """Sends one of the assistant's replies (as Rasa gives it) to the person who wrote
        ``message``, later than its turn (``held_replies``); raises ``ProviderFailure``."""

    def blueprint(self, on_new_message: OnNewMessage) -> Blueprint:
        """The webhook's blueprint, which starts the intake's workers with the server and
        stops them with it."""
        blueprint = super().blueprint(on_new_message)
        intake = self.intake
        if intake is not None:

            @blueprint.listener("after_server_start")
            async def start_intake(app: Any, _: Any) -> None:
                await intake.start(self, app.ctx.agent, on_new_message)

            @blueprint.listener("before_server_stop")
            async def stop_intake(*_: Any) -> None:
                await intake.stop()

        return blueprint

    async def put_in_line(self, inbound: Inbound[M], key: str) -> bool:
        """Puts the message in the intake's line under ``key``; False when the line cannot be
        reached (the turn is then taken at once, as without a line: late is better than lost;
        ``Intake.answering_at_once`` keeps a put that reached the line after all from being
        answered again)."""
        assert self.intake is not None
        queued = self.to_queue(inbound.message)
        try:
            await self.intake.put(
                queued.conversation,
                queued.data,
                key=key,
                text=queued.text,
                hint=queued.hint,
            )
        except Exception as error:
            logger.warning(
                "%s: the intake's line is unreachable (%s); answering at once",
                self.name(),
                type(error).__name__,
            )
            return False
        return True
