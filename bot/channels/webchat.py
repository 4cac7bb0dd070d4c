"""Web chat: a small chat page served by the Rasa server itself, at ``/webchat/``.

The page (``bot/channels/webchat/``: index.html, widget.js, work.js, widget.css; no CDN, no
web fonts) works on a machine with no internet and on a cheap phone. It posts each message to
this channel's ``/webhook`` and shows the replies the REST channel would have returned.

What comes out of turn (``trigger_intent?output_channel=webchat``: a caseworker's reply, the
"I am back" of a closed case) goes to the conversation's mailbox (``mailbox.py``) through
``get_output_channel``; the page fetches it from ``/mailbox`` with the same sender secret it
posts messages with, so only the person's own page can read it (docs/HANDOFF.md, "The web chat").

The answer to the page's message carries its replies, unless more than ``SYNC_TURNS_WAITING``
turns are under way in this process and its own has not ended after ``QUEUE_NOTICE_SECONDS``:
then it is the notice that the message is in line, and the replies come by the mailbox
(``sync_turns.py``).

Each reply goes to the page with the language it was written in (``bot/nlg.py`` tags it), so the
page lays it out by that, never by its letters; the page itself (``webchat_page.py``) and the
limits per client (``webchat_limits.py``, answered with 429, or 401 with the work a page must
do first) live beside this module. The page's ticket (``webchat_tickets.py``) comes back in the
``X-Webchat-Ticket`` header of an answer, and goes with the page's every message after.

Other sites show the page in a frame of theirs with one tag, ``<script src=".../embed.js">``
(``embed.js``, served to every site and cached); the page's ``frame-ancestors`` lets only those
``WEBCHAT_ORIGINS`` names do so (docs/CHANNELS.md, "The web chat on an organisation's own site").

Rasa mounts every channel under ``/webhooks/<name>/``; the widget is wanted at ``/webchat/``
too. ``blueprint()`` therefore returns a group of two blueprints with the same routes: one
that takes Rasa's prefix, and one that keeps its own (``_OwnPrefixBlueprint``). The page uses
relative URLs, so it works from either address.
"""

import logging
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from rasa.core.channels.channel import CollectingOutputChannel, OutputChannel, UserMessage
from sanic import response
from sanic.blueprint_group import BlueprintGroup
from sanic.request import Request
from sanic.response import HTTPResponse

from bot.channels.addresses import AddressBook
from bot.channels.alerts import AlertOutput, address_book_for
from bot.channels.blueprints import Blueprint
from bot.channels.deliveries import OUTBOXES
from bot.channels.identity import conversation_id
from bot.channels.mailbox import MAILBOX_MESSAGES, MESSAGE_ID, Mailbox, MailboxFull
from bot.channels.memory import channel_memory
from bot.channels.sealing import KEY_ENV
from bot.channels.settings import (
    RedisSettings,
    WebchatSettings,
    for_rasa,
    hotline,
    seals_addresses,
)
from bot.channels.sync_turns import SyncTurns, process_turns
from bot.channels.transport import (
    BODY_LIMITS,
    MAX_TEXT_CHARS,
    MalformedRequest,
    ProviderFailure,
    parse_json,
)
from bot.channels.turns import Assistant, OnNewMessage, Outcome, take_turn, user_message
from bot.channels.webchat_files import PageFile
from bot.channels.webchat_limits import ClientLimits, PageProof, Refusal
from bot.channels.webchat_page import Welcome, render_embed, render_page
from bot.channels.webchat_tickets import Work
from bot.channels.webhook import Inbound, Received, Refused, WebhookInput, read_parsed
from kernel.contract import (
    DELETED_CONFIRMATION,
    LANGUAGE_HINT,
    ORGANISATION,
    SHOWN_PARTS,
    named_language,
    organisation_in,
)
from kernel.lang.codes import DEFAULT_LANGUAGE, LANGUAGES
from kernel.memory import ChannelMemory, MemoryUnavailable, ProcessMemory

logger = logging.getLogger(__name__)

ASSETS = Path(__file__).with_name("webchat")
#: The files the page is made of, with their content types; nothing else is served.
FILES = {
    "index.html": "text/html; charset=utf-8",
    "widget.js": "text/javascript; charset=utf-8",
    "widget.css": "text/css; charset=utf-8",
    "sw.js": "text/javascript; charset=utf-8",
    "work.js": "text/javascript; charset=utf-8",
    "embed.js": "text/javascript; charset=utf-8",
}
#: ``embed.js`` is loaded by other sites' pages, on every page view: cached a day by browsers
#: and proxies (its address has no version, so a change reaches them by the next day), and
#: used while it is checked again for a week after.
EMBED_CACHE: Final = "public, max-age=86400, stale-while-revalidate=604800"
#: Where the page is served besides Rasa's ``/webhooks/webchat/``.
PUBLIC_PREFIX = "/webchat"
#: The widget makes its sender id with crypto.randomUUID() (or a random hex string).
_SENDER_RULE = re.compile(r"[A-Za-z0-9_-]{8,64}")
#: Reply fields the page gets: what a person is shown, and ``waiting``; the rest (recipient_id:
#: our hashed id, custom payloads) stays on the server.
_REPLY_FIELDS = (*SHOWN_PARTS, "waiting")
#: Added to a reply: the language it is written in (when it names one), and, on the
#: confirmation that the person's data was deleted, ``deleted`` (the page forgets the chat).
REPLY_LANGUAGE_FIELD = "language"
DELETED_FIELD = "deleted"
#: Ids one fetch may acknowledge: every message a full mailbox holds, twice over.
MAX_ACKNOWLEDGED = 2 * MAILBOX_MESSAGES
#: The header an answer gives the page its ticket in (``webchat_tickets.py``).
TICKET_HEADER: Final = "X-Webchat-Ticket"
_TICKET_RULE = re.compile(r"[0-9a-f.]{0,64}")


#: Answers that mean "a caseworker will answer this" (bot/paused.py, actions/chat/handoff.py): the
#: page then asks its mailbox as often as when a turn was answered with silence.
WITH_A_CASEWORKER: Final = frozenset({"utter_case_received"})


class WebchatCollector(CollectingOutputChannel):
    """Rasa's collecting output (the replies go back in the HTTP answer); notices the
    confirmation that the person's data was deleted (their mailbox goes too)."""

    deleted_data = False
    #: The ticket the page is given with this answer (its first, or a fresh one).
    ticket: str | None = None

    async def send_response(self, recipient_id: str, message: dict[str, Any]) -> None:
        if message.get("utter_action") == DELETED_CONFIRMATION:
            self.deleted_data = True
        before = len(self.messages)
        await super().send_response(recipient_id, dict(message))
        # Rasa's collector keeps only what it shows; the page also needs these two.
        for collected in self.messages[before:]:
            collected["metadata"] = message.get("metadata")
            collected["utter_action"] = message.get("utter_action")
        if message.get("utter_action") in WITH_A_CASEWORKER and self.messages:
            self.messages[-1]["waiting"] = True


def visible_parts(message: dict[str, Any]) -> dict[str, Any]:
    """What the page shows of a Rasa message; the rest (recipient_id: our hashed id, custom
    payloads) stays on the server. With the language it is written in, so that the page lays
    it out by that and not by its letters (the English menu names «زبان / ژبه»); ``waiting``
    marks a case's "received"."""
    shown = {key: message[key] for key in _REPLY_FIELDS if message.get(key)}
    language = named_language(message)
    if shown and language:
        shown[REPLY_LANGUAGE_FIELD] = language
    if shown and message.get("utter_action") == DELETED_CONFIRMATION:
        shown[DELETED_FIELD] = True
    return shown


class MailboxWriter(OutputChannel):
    """Puts one conversation's messages into its mailbox; raises ``ProviderFailure`` when the
    mailbox cannot take them (memory down, mailbox full), as a provider's refusal would."""

    @classmethod
    def name(cls) -> str:
        return "webchat"

    def __init__(self, mailbox: Mailbox, conversation: str) -> None:
        self._mailbox = mailbox
        self._conversation = conversation

    async def send_response(self, recipient_id: str, message: dict[str, Any]) -> None:
        if recipient_id != self._conversation:
            raise ProviderFailure(None, "a message meant for another conversation")
        if not recipient_id.startswith(f"{self.name()}-"):
            # No page can ever fetch it (identity.py): "delivered" would be a lie.
            raise ProviderFailure(None, "not a web chat conversation")
        shown = visible_parts(message)
        if not shown:
            return  # a custom payload alone is never shown to a person as JSON
        try:
            await self._mailbox.store(recipient_id, shown)
        except MemoryUnavailable as error:
            raise ProviderFailure(None, "mailbox unavailable (channel memory down)") from error
        except MailboxFull as error:
            raise ProviderFailure(None, "mailbox full (the person has not fetched it)") from error


class WebchatMailboxOutput(AlertOutput):
    """Rasa's output for ``output_channel=webchat``: messages out of turn, into the mailbox.

    Everything an alert output decides (delivery ids recorded as delivered once stored, payloads
    a person must not see) is ``AlertOutput``'s; only where a message goes differs: the web chat
    needs no stored address, its mailbox is the conversation's own.
    """

    @classmethod
    def name(cls) -> str:
        return "webchat"

    def __init__(self, mailbox: Mailbox, addresses: AddressBook | None) -> None:
        super().__init__(addresses)
        self.mailbox = mailbox

    async def send_response(self, recipient_id: str, message: dict[str, Any]) -> None:
        custom = message.get("custom")
        tagged = isinstance(custom, dict) and any(tag in custom for tag in OUTBOXES)
        if self.addresses is None and tagged:
            # Stored but never recorded, it would be sent again by every retry.
            self._refuse(recipient_id, f"no database to record the delivery in ({KEY_ENV} unset)")
        await super().send_response(recipient_id, message)

    async def _output_for(self, conversation: str) -> OutputChannel:
        return MailboxWriter(self.mailbox, conversation)


def _sender(data: object) -> str:
    if not isinstance(data, dict):
        raise MalformedRequest("body must be a JSON object")
    sender = data.get("sender")
    if not isinstance(sender, str) or not _SENDER_RULE.fullmatch(sender):
        raise MalformedRequest("sender must be 8-64 letters, digits, '-' or '_'")
    return sender


def parse_message(body: bytes) -> tuple[str, str, dict[str, str], PageProof | None]:
    """``(sender, text, metadata, proof)`` from the widget's JSON body: ``metadata`` keeps the
    page's language and its site's organisation when they are well formed (a page cannot
    refuse its own reader a turn by a bad one); ``proof`` is None from a page too old to send
    a ``ticket``."""
    data = parse_json(body)
    sender = _sender(data)
    text = data.get("message")
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT_CHARS:
        raise MalformedRequest(f"message must be a text of 1-{MAX_TEXT_CHARS} characters")
    proof = None
    if "ticket" in data:
        ticket = data["ticket"]
        if not isinstance(ticket, str) or not _TICKET_RULE.fullmatch(ticket):
            raise MalformedRequest("ticket must be the one the server gave, or empty")
        proof = PageProof(ticket, Work.from_page(data.get("work")))
    return sender, text, _page_metadata(data.get("metadata")), proof


def _page_metadata(sent: object) -> dict[str, str]:
    """What the page says of its reader that the turn may use: the page's language
    (``LANGUAGE_HINT``) and the organisation of the site it is on (``ORGANISATION``)."""
    if not isinstance(sent, dict):
        return {}
    kept: dict[str, str] = {}
    hint, organisation = sent.get(LANGUAGE_HINT), organisation_in(sent)
    if isinstance(hint, str) and hint in LANGUAGES:
        kept[LANGUAGE_HINT] = hint
    if organisation:
        kept[ORGANISATION] = organisation
    return kept


def parse_fetch(body: bytes) -> tuple[str, frozenset[str]]:
    """``(sender, acknowledged ids)`` from the widget's mailbox fetch."""
    data = parse_json(body)
    sender = _sender(data)
    acknowledged = data.get("ack", [])
    if (
        not isinstance(acknowledged, list)
        or len(acknowledged) > MAX_ACKNOWLEDGED
        or not all(isinstance(i, str) and MESSAGE_ID.fullmatch(i) for i in acknowledged)
    ):
        raise MalformedRequest(
            f"ack must be a list of at most {MAX_ACKNOWLEDGED} message ids (16 hex digits)"
        )
    return sender, frozenset(acknowledged)


def _refused(refusal: Refusal) -> Refused:
    """429 with the wait; or 401 with the work to do, as HTTP authentication schemes answer
    (a page too old to know tickets never gets one)."""
    if refusal.work is None:
        return Refused(
            429,
            f"too many {refusal.reason}",
            headers={"Retry-After": str(refusal.retry_after)},
            retry_after=refusal.retry_after,
        )
    challenge, bits = refusal.work.text, refusal.work.bits
    return Refused(
        401,
        f"many {refusal.reason}: work first",
        headers={"WWW-Authenticate": f'Work challenge="{challenge}", bits="{bits}"'},
        work={"challenge": challenge, "bits": bits},
    )


def _load_assets(settings: WebchatSettings, hotline: str | None) -> dict[str, PageFile]:
    assets = {name: (ASSETS / name).read_bytes() for name in FILES}
    assets["index.html"] = render_page(assets["index.html"].decode(), settings, hotline)
    assets["embed.js"] = render_embed(assets["embed.js"].decode())
    return {name: PageFile.of(body, FILES[name]) for name, body in assets.items()}


class _OwnPrefixBlueprint(Blueprint):
    """A blueprint that stays at its own ``url_prefix`` when Rasa registers it under
    ``/webhooks/<name>/`` (``rasa.core.channels.channel.register`` passes that prefix)."""

    def register(self, app: Any, options: dict[str, Any]) -> None:
        super().register(app, {**options, "url_prefix": self.url_prefix})


@dataclass(frozen=True)
class WebchatMessage:
    """A message typed on the page; its replies are collected for the HTTP answer."""

    conversation: str
    text: str
    #: The page's language and its site's organisation, when known (``_page_metadata``).
    metadata: Mapping[str, str]
    #: The page's ticket and work; None from a page too old to know them.
    proof: PageProof | None = None
    replies: WebchatCollector = field(default_factory=WebchatCollector)

    @property
    def language_hint(self) -> str | None:
        return self.metadata.get(LANGUAGE_HINT)


class WebchatInput(WebhookInput[WebchatSettings, WebchatMessage]):
    """The web chat page, its webhook and its mailbox. Needs no credentials.

    Its webhook is the connectors' receive route (``WebhookInput.receive``), with what a page
    differs in: nothing to authenticate (the sender id in the body is the conversation's
    secret), no retries to recognise (the page waits for its answer, and resends only after a
    503, which forgets nothing), the limits per client (429, before the turn), and the
    replies themselves as the answer. Its blueprint is its own: the page, the mailbox and the
    welcome, at two prefixes.
    """

    @classmethod
    def name(cls) -> str:
        return "webchat"

    @classmethod
    def from_credentials(cls, credentials: dict[str, Any] | None) -> "WebchatInput":
        """The mailbox in the channels' memory (Redis when ``REDIS_HOST`` is set); the address
        book only for its database, where delivered caseworker replies are recorded, when the
        deployment has its key (the web chat itself stores no address)."""
        addresses = address_book_for(cls.name()) if seals_addresses() else None
        settings = for_rasa(lambda: cls.load_settings(credentials))
        return cls(channel_memory(RedisSettings.load()), addresses, hotline(), settings)

    @classmethod
    def load_settings(cls, credentials: dict[str, Any] | None) -> WebchatSettings:
        """From the environment only: the page has no credentials."""
        return WebchatSettings.load()

    def __init__(
        self,
        memory: ChannelMemory | None = None,
        addresses: AddressBook | None = None,
        hotline: str | None = None,
        settings: WebchatSettings | None = None,
        turns: SyncTurns | None = None,
    ) -> None:
        super().__init__(
            settings or WebchatSettings(), addresses=addresses, memory=memory, hotline=hotline
        )
        #: The turns this process takes before it answers with the notice of the wait.
        self.turns = turns if turns is not None else process_turns()

    def set_up(self) -> None:
        """The page with its settings, the mailbox and the limits per client."""
        self.assets = _load_assets(self.settings, self.hotline)
        self.mailbox = Mailbox(self.memory)
        # In one process the counts get a memory of their own: counting a flood from many
        # addresses must not push waiting messages out of a bounded memory they share.
        counts = ProcessMemory() if isinstance(self.memory, ProcessMemory) else self.memory
        self.limits = ClientLimits(counts, self.settings)
        self._welcome: tuple[object, Welcome] | None = None

    def get_output_channel(self) -> OutputChannel:
        """Where Rasa's ``trigger_intent`` sends (raises ``AlertNotDelivered`` when the
        mailbox cannot take a message, so that the sender tries again)."""
        return WebchatMailboxOutput(self.mailbox, self.addresses)

    def blueprint(self, on_new_message: OnNewMessage) -> BlueprintGroup:  # type: ignore[override]
        mounted = self._routes(Blueprint("webchat"), on_new_message)
        public = self._routes(
            _OwnPrefixBlueprint("webchat_public", url_prefix=PUBLIC_PREFIX),
            on_new_message,
        )
        return Blueprint.group(mounted, public)

    def _routes(self, blueprint: Blueprint, on_new_message: OnNewMessage) -> Blueprint:
        # The page answers "/" with 200, so it doubles as Rasa's usual health check.
        @blueprint.route("/", methods=["GET"])
        async def page(request: Request) -> HTTPResponse:
            return self._file(request, "index.html")

        @blueprint.route("/widget.js", methods=["GET"])
        async def script(request: Request) -> HTTPResponse:
            return self._file(request, "widget.js")

        @blueprint.route("/widget.css", methods=["GET"])
        async def style(request: Request) -> HTTPResponse:
            return self._file(request, "widget.css")

        @blueprint.route("/sw.js", methods=["GET"])
        async def service_worker(request: Request) -> HTTPResponse:
            # Keeps the page's files for opening it offline (widget.js registers it).
            return self._file(request, "sw.js")

        @blueprint.route("/work.js", methods=["GET"])
        async def work(request: Request) -> HTTPResponse:
            return self._file(request, "work.js")

        @blueprint.route("/embed.js", methods=["GET"])
        async def embed(request: Request) -> HTTPResponse:
            # The one tag other sites put on their pages: served to every site; the page it
            # opens shows only in the frames of those WEBCHAT_ORIGINS names (frame-ancestors).
            return self._file(
                request,
                "embed.js",
                {"Cache-Control": EMBED_CACHE, "Cross-Origin-Resource-Policy": "cross-origin"},
            )

        @blueprint.route("/webhook", methods=["POST"], stream=True)
        async def webhook(request: Request) -> HTTPResponse:
            return await self.receive(request, on_new_message)

        @blueprint.route("/welcome", methods=["GET"])
        async def welcome(request: Request) -> HTTPResponse:
            asked = request.args.get("language")
            language = asked if asked in LANGUAGES else DEFAULT_LANGUAGE
            greeting = self._welcome_for(request.app.ctx.agent)
            if greeting is None:
                return response.json({"error": "the assistant is not ready"}, status=503)
            shown = [visible_parts(message) for message in greeting.messages(language)]
            return response.json(shown, headers={"Cache-Control": "no-cache"})

        @blueprint.route("/mailbox", methods=["POST"], stream=True)
        async def mailbox(request: Request) -> HTTPResponse:
            # POST, not GET: the sender secret must not end up in access logs as a query.
            try:
                sender, acknowledged = await read_parsed(
                    request, BODY_LIMITS[self.name()], parse_fetch
                )
            except Refused as refusal:
                return refusal.answer()
            conversation = conversation_id(self.name(), sender)
            try:
                messages = await self.mailbox.collect(conversation, acknowledged)
            except MemoryUnavailable:
                # The messages wait in Redis; the page asks again later.
                return response.json({"error": "the mailbox is unavailable"}, status=503)
            return response.json({"messages": messages}, headers={"Cache-Control": "no-store"})

        return blueprint

    def authenticate(self, request: Request) -> bool:
        """Anyone may write: the sender id in the body is the conversation's own secret."""
        return True

    def parse(self, body: bytes, request: Request) -> list[Inbound[WebchatMessage]]:
        sender, text, metadata, proof = parse_message(body)
        conversation = conversation_id(self.name(), sender)
        return [Inbound(WebchatMessage(conversation, text, metadata, proof))]

    async def handle(
        self, message: WebchatMessage, on_new_message: OnNewMessage, request: Request
    ) -> Outcome:
        """The turn of one typed message, unless its client is over its limits (429) or must
        work before it opens a conversation (401)."""
        client = self.limits.client_address(request.ip, request.headers)
        admitted = await self.limits.admit(client, message.conversation, message.proof)
        if isinstance(admitted, Refusal):
            logger.debug("webchat: a client is over its limit of %s", admitted.reason)
            raise _refused(admitted)
        message.replies.ticket = admitted.ticket
        agent = request.app.ctx.agent

        def incoming(output: OutputChannel) -> UserMessage:
            return user_message(
                message.text,
                output,
                message.conversation,
                input_channel=self.name(),
                metadata=dict(message.metadata),
                # A page's sender is a random secret: one client makes as many as it likes,
                # so the person is counted by the address the page writes from.
                person=f"ip:{request.remote_addr or request.ip}",
            )

        if self.turns.answers_later(message.text):
            return await self._answer_or_notice(message, incoming, on_new_message, agent)
        async with self.turns.turn():
            outcome = await take_turn(
                incoming(message.replies), on_new_message, agent, self.hotline
            )
        if message.replies.deleted_data:
            await self._forget_mailbox(message.conversation)
        # A 503 says so: the widget then keeps the message and tries again.
        return outcome

    async def _answer_or_notice(
        self,
        message: WebchatMessage,
        incoming: Callable[[OutputChannel], UserMessage],
        on_new_message: OnNewMessage,
        agent: Assistant,
    ) -> Outcome:
        """Many people are writing (``sync_turns.py``): the replies in the answer when the turn
        ends within the notice's wait; else the notice now (or nothing, to a page told
        already: it then asks its mailbox), and the replies by the mailbox when it ends."""
        replies = WebchatCollector()
        writer = MailboxWriter(self.mailbox, message.conversation)

        async def hand_over() -> None:
            if replies.deleted_data:
                await self._forget_mailbox(message.conversation)  # the confirmation stays
            for reply in replies.messages:
                try:
                    await writer.send_response(message.conversation, reply)
                except ProviderFailure:
                    logger.warning("webchat: the mailbox refused a reply to a turn told to wait")

        turn = take_turn(incoming(replies), on_new_message, agent, self.hotline)
        outcome = await self.turns.answer(turn, message.conversation, hand_over)
        if outcome is not None:
            message.replies.messages.extend(replies.messages)
            if replies.deleted_data:
                await self._forget_mailbox(message.conversation)
            return outcome
        notice = await self.turns.notice(
            agent, message.conversation, message.text, message.language_hint, self.memory
        )
        message.replies.messages.extend([notice] if notice else [])
        return Outcome.ANSWERED

    def answer(self, received: Received[WebchatMessage]) -> HTTPResponse:
        tickets = [message.replies.ticket for message, _ in received.taken]
        given = [ticket for ticket in tickets if ticket]
        return response.json(
            [
                visible_parts(reply)
                for message, _ in received.taken
                for reply in message.replies.messages
            ],
            headers={TICKET_HEADER: given[-1]} if given else None,
        )

    def _welcome_for(self, agent: Assistant) -> Welcome | None:
        """The first screen's messages from the loaded model's domain (None before one is)."""
        domain = getattr(agent, "domain", None)
        if domain is None:
            return None
        if self._welcome is None or self._welcome[0] is not domain:
            self._welcome = (domain, Welcome(domain.responses, self.name()))
        return self._welcome[1]

    async def _forget_mailbox(self, conversation: str) -> None:
        try:
            await self.mailbox.forget(conversation)
        except MemoryUnavailable:
            # Its messages expire with the mailbox (MAILBOX_HOURS); the deletion is still done.
            logger.warning("webchat: the mailbox of %s could not be emptied now", conversation)

    def _file(
        self, request: Request, name: str, headers: dict[str, str] | None = None
    ) -> HTTPResponse:
        """One of the page's files (gzipped, or nothing when the browser has it); the page
        shows in a frame only on its own origin and the sites ``WEBCHAT_ORIGINS`` names (a
        site that is not listed gets an empty frame)."""
        return self.assets[name].response(
            request,
            {
                "Cache-Control": "no-cache",
                "X-Content-Type-Options": "nosniff",
                "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                f"base-uri 'none'; frame-ancestors {self.settings.frame_ancestors}",
                **(headers or {}),
            },
        )
