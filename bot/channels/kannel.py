"""Kannel, the open-source SMS gateway of operators and RapidPro deployments
(``/webhooks/kannel/receive`` and ``/webhooks/kannel/delivered``).

Kannel's smsbox calls ``receive`` with a GET for every incoming SMS (the ``sms-service`` group
that ``python -m bot.channels.kannel conf`` prints), or a POST whose body is the text
(``conf --post``: a ``post-url``), through the receive route every connector
shares (``webhook.WebhookInput``). It cannot add a header, so the shared secret is the URL's
``secret`` field, compared in constant time: a request without it gets 403 before anything
else is read. An SMS from an operator's sender name or a short code is acknowledged and not
answered (``sms_base.answerable``). The text arrives as its raw bytes (``%b``): UCS-2, which every
Dari and Pashto SMS is, comes as UTF-16BE, which Kannel's word-splitting ``%a`` would break.
Replies go out through smsbox's ``sendsms`` (a GET, the account's username and password),
each within three segments (``sms_render``), as UCS-2 (``coding=2``, UTF-16BE) when a letter
needs it; Kannel sends a reply longer than one segment as concatenated SMS
(``max-messages = 3`` in the account's group).

Kannel's sendsms answers with no id of the message, so each SMS gets one of ours
(``kannel-<hex>``), in its own ``dlr-url`` and handed back as the other channels hand back
the provider's (``transport.note_sent``): the outbox row of an alert or a caseworker's reply
keeps it, and the report Kannel brings to ``delivered`` with it and the report's type (``%d``)
is written on that row (``bot/channels/statuses.py``), never the number.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import re
import secrets
import sys
from collections.abc import Mapping, Sequence
from typing import Any, Final
from urllib.parse import quote, quote_from_bytes, unquote, unquote_to_bytes, urlsplit

import aiohttp
import yarl
from rasa.core.channels.channel import OutputChannel
from sanic import response
from sanic.request import Request
from sanic.response import HTTPResponse

from bot.channels.addresses import AddressBook
from bot.channels.alerts import AlertOutput
from bot.channels.blueprints import Blueprint
from bot.channels.identity import conversation_id
from bot.channels.kannel_conf import DELIVERED_PATH, RECEIVE_PATH, conf_groups
from bot.channels.settings import KANNEL_CHANNEL, KannelSettings
from bot.channels.sms_base import (
    GatewayInbound,
    GatewayMessage,
    GatewayTurns,
    TextMessageOutput,
    answerable,
    phone_key,
)
from bot.channels.sms_gateway import REPEAT_WINDOW_SECONDS, delivery_id
from bot.channels.statuses import ProviderStatus, StatusLog, provider_status
from bot.channels.transport import (
    API_TIMEOUT,
    MalformedRequest,
    ProviderApi,
    ProviderFailure,
    note_sent,
    retry_after_seconds,
)
from bot.channels.turns import OnNewMessage
from bot.channels.webhook import Inbound, QueuedInput, Received, Refused
from kernel.delivery_statuses import DELIVERED, FAILED, SENT
from kernel.settings_values import SettingsError
from kernel.sms_render import ReplyMemory, ReplyRenderer
from kernel.sms_segments import encoding

logger = logging.getLogger(__name__)

CHANNEL: Final = KANNEL_CHANNEL
_MAX_SENDER_LENGTH: Final = 64
#: Kannel's data codings (``%c``): GSM-7, 8-bit binary, UCS-2.
CODING_UCS2: Final = "2"
#: How each coding's bytes are read when Kannel names no charset (``%C``).
_DEFAULT_CHARSETS: Final = {"0": "utf-8", "1": "utf-8", CODING_UCS2: "utf-16-be"}
#: The charsets Kannel names for incoming messages (``mo-recode`` gives the last two).
_CHARSETS: Final = {
    "utf-16be": "utf-16-be",
    "ucs-2": "utf-16-be",
    "utf-8": "utf-8",
    "windows-1252": "cp1252",
    "iso-8859-1": "latin-1",
}
#: Which delivery reports an SMS asks for: delivered (1), not delivered (2), refused by the
#: operator's SMSC (16). Kannel's "buffered" and "sent to the SMSC" (4, 8) would only double
#: the callbacks.
DLR_MASK: Final = 1 | 2 | 16
#: Each report type (``%d``) in our words: buffered (4) says nothing worth recording; a
#: failure keeps its type as its error code.
DLR_STATUSES: Final[dict[int, str | None]] = {
    1: DELIVERED,
    2: FAILED,
    4: None,
    8: SENT,
    16: FAILED,
}
#: The id each SMS is sent under (``new_message_id``): nothing in it Kannel would read as an
#: escape or the URL would need to encode.
_MESSAGE_ID_RULE: Final = re.compile(r"kannel-[0-9a-f]{32}")


def query_fields(query: str) -> dict[str, bytes]:
    """The query's fields as raw bytes (the last of a repeated name wins): Kannel encodes a
    space as ``+`` and a ``+`` as ``%2B``, and UCS-2 text is UTF-16BE bytes, not UTF-8."""
    fields: dict[str, bytes] = {}
    for pair in query.split("&"):
        if not pair:
            continue
        name, _, value = pair.partition("=")
        fields[unquote(name.replace("+", " "))] = unquote_to_bytes(value.replace("+", " "))
    return fields


def decode_text(raw: bytes, coding: str, charset: str) -> str:
    """The message's text from its bytes, by the charset Kannel names, else by its coding."""
    codec = _CHARSETS.get(charset.strip().lower()) or _DEFAULT_CHARSETS.get(coding.strip())
    if codec is None:
        raise MalformedRequest(f"unknown coding {coding!r} and charset {charset!r}")
    if codec == "utf-16-be" and len(raw) % 2:
        raise MalformedRequest("UCS-2 text must have an even number of bytes")
    return raw.decode(codec, errors="replace")


def parse_incoming(query: str) -> GatewayMessage:
    """One SMS from smsbox's get-url fields (``kannel_conf.INCOMING_FIELDS``);
    ``MalformedRequest`` says which field is wrong."""
    fields = query_fields(query)
    try:
        sender = fields.get("from", b"").decode("utf-8").strip()
        coding = fields.get("coding", b"0").decode("ascii") or "0"
        charset = fields.get("charset", b"").decode("ascii")
        message_id = fields.get("id", b"").decode("ascii").strip()
    except UnicodeDecodeError as error:
        raise MalformedRequest("from, coding, charset and id must be plain text") from error
    if not sender or len(sender) > _MAX_SENDER_LENGTH:
        raise MalformedRequest("from (%p) must be the sender's phone number")
    if "text" not in fields:
        raise MalformedRequest("text (%b) is missing: the message's bytes")
    text = decode_text(fields["text"], coding, charset)
    return GatewayMessage(sender, text, message_id or None)


def parse_posted(query: str, headers: Mapping[str, str], body: bytes) -> GatewayMessage:
    """One SMS from a ``post-url``: the text is the body, in the charset of its
    ``Content-Type`` (``text/plain; charset=UTF-16BE`` for UCS-2), the coding in
    ``X-Kannel-Coding``, the sender in ``X-Kannel-From`` (``send-sender = true``) or the URL's
    ``from``; the URL also carries Kannel's id."""
    fields = query_fields(query)
    content_type = headers.get("content-type", "")
    charset = next(
        (
            value.strip().strip('"')
            for name, _, value in (part.partition("=") for part in content_type.split(";")[1:])
            if name.strip().lower() == "charset"
        ),
        "",
    )
    try:
        sender = headers.get("x-kannel-from") or fields.get("from", b"").decode("utf-8")
        message_id = fields.get("id", b"").decode("ascii").strip()
    except UnicodeDecodeError as error:
        raise MalformedRequest("from and id must be plain text") from error
    sender = sender.strip()
    if not sender or len(sender) > _MAX_SENDER_LENGTH:
        raise MalformedRequest("X-Kannel-From (send-sender = true) or from (%p) must be the sender")
    coding = (headers.get("x-kannel-coding") or "0").strip()
    return GatewayMessage(sender, decode_text(body, coding, charset), message_id or None)


def sendsms_query(settings: KannelSettings, to: str, text: str, dlr_url: str | None = None) -> str:
    """smsbox's sendsms fields for one SMS, percent-encoded: UCS-2 as UTF-16BE bytes
    (``coding=2``) when a letter is not in the GSM alphabet, else UTF-8 that Kannel turns
    into GSM-7; ``dlr_url`` asks for delivery reports."""
    fields = [
        ("username", quote(settings.username, safe="")),
        ("password", quote(settings.password, safe="")),
        ("to", quote(to, safe="")),
    ]
    if settings.sender:
        fields.append(("from", quote(settings.sender, safe="")))
    if encoding(text) == "UCS-2":
        fields += [
            ("coding", CODING_UCS2),
            ("charset", "UTF-16BE"),
            ("text", quote_from_bytes(text.encode("utf-16-be"), safe="")),
        ]
    else:
        fields += [("charset", "UTF-8"), ("text", quote(text, safe=""))]
    if dlr_url:
        fields += [("dlr-mask", str(DLR_MASK)), ("dlr-url", quote(dlr_url, safe=""))]
    return "&".join(f"{name}={value}" for name, value in fields)


def new_message_id() -> str:
    """An id for one SMS: sendsms gives none, and the delivery log needs one to find its row."""
    return f"{CHANNEL}-{secrets.token_hex(16)}"


def delivery_report_url(settings: KannelSettings, message_id: str) -> str:
    """Where Kannel reports on one SMS: the secret, the SMS's id and Kannel's ``%d`` (the
    report's type); never the number."""
    return (
        f"{settings.webhook_base_url}/webhooks/{CHANNEL}/delivered?secret={settings.secret}"
        f"&id={message_id}&type=%d"
    )


def kannel_reason(answer: object) -> str:
    """Kannel answers sendsms with a short fixed sentence ("Authorization failed for sendsms")
    that names no number."""
    return f"Kannel refused: {str(answer)[:80]}" if answer else "Kannel refused"


class SendSms(ProviderApi):
    """smsbox's sendsms interface: one GET per SMS, every field already percent-encoded (UCS-2
    bytes would not survive another encoding), answered with a line of text."""

    def __init__(self, settings: KannelSettings) -> None:
        parts = urlsplit(settings.send_url)
        super().__init__(f"{parts.scheme}://{parts.netloc}", answers_json=False)
        self.path = parts.path or "/cgi-bin/sendsms"

    async def get(self, query: str, *, call: str, message_id: str | None = None) -> str:
        """GET ``path?query``; Kannel's answer, or ``ProviderFailure`` when it refused (HTTP
        300 and above) or could not be reached. The URL holds the password: never logged.
        ``message_id``, the one its delivery reports name, is handed back once Kannel took it."""
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=API_TIMEOUT)
        url = yarl.URL(f"{self.base_url}{self.path}?{query}", encoded=True)
        try:
            async with self._session.get(url) as reply:
                body = (await reply.text(errors="replace")).strip()
                if reply.status >= 300:
                    # Kannel names no retry time; a proxy or rate limiter in front of it may.
                    retry_after = retry_after_seconds(reply.headers.get("Retry-After"))
                    raise ProviderFailure(reply.status, kannel_reason(body), retry_after, call=call)
                note_sent(message_id)
                return body
        except (aiohttp.ClientError, asyncio.TimeoutError) as error:
            failure = ProviderFailure.unreachable(error)
            failure.call = call
            raise failure from error


class KannelOutput(TextMessageOutput):
    """Sends each rendered SMS through sendsms to the one number being answered, each asking
    for its delivery report."""

    @classmethod
    def name(cls) -> str:
        return CHANNEL

    def __init__(
        self,
        api: SendSms,
        settings: KannelSettings,
        renderer: ReplyRenderer,
        conversation: str,
        to: str,
        addresses: AddressBook | None = None,
    ) -> None:
        super().__init__(api, renderer, conversation, to, addresses)
        self.sendsms = api
        self.settings = settings

    async def deliver(self, text: str) -> None:
        message_id = new_message_id()
        report = delivery_report_url(self.settings, message_id)
        query = sendsms_query(self.settings, self.to, text, report)
        await self.sendsms.get(query, call="sendsms", message_id=message_id)


class KannelAlertOutput(AlertOutput):
    """Alerts to a stored number, rendered like replies (three segments, MORE for the rest)."""

    @classmethod
    def name(cls) -> str:
        return CHANNEL

    def __init__(self, channel: KannelInput) -> None:
        super().__init__(channel.addresses)
        self._channel = channel

    async def open(self, conversation: str, address: str) -> OutputChannel:
        channel = self._channel
        # Sent out of turn: MORE then fetches this message's rest, not an earlier reply's.
        await channel.renderer.memory.new_question(conversation)
        return KannelOutput(channel.api, channel.settings, channel.renderer, conversation, address)


def delivery_report(fields: Mapping[str, bytes]) -> ProviderStatus | None:
    """The status a report gives its SMS, or None for one worth no record (buffered);
    ``MalformedRequest`` when it is not a report our ``dlr-url`` asked for."""
    message_id = fields.get("id", b"").decode("ascii", "replace")
    kind = fields.get("type", b"").decode("ascii", "replace")
    if not _MESSAGE_ID_RULE.fullmatch(message_id):
        raise MalformedRequest("id must be the SMS's id from its dlr-url")
    if not kind.isdigit() or int(kind) not in DLR_STATUSES:
        raise MalformedRequest("type must be Kannel's report type (%d): 1, 2, 4, 8 or 16")
    status = DLR_STATUSES[int(kind)]
    return provider_status(message_id, status, kind if status == FAILED else None)


class KannelInput(GatewayTurns, QueuedInput[KannelSettings, GatewayInbound]):
    """Receives SMS from Kannel's smsbox (a GET, the SMS in its query) and its delivery
    reports; the secret is the query's ``secret`` field. smsbox is answered empty: replies go
    out through sendsms."""

    webhook_path = RECEIVE_PATH.removeprefix(f"/webhooks/{CHANNEL}")
    webhook_methods = ("GET", "POST")

    api: SendSms

    @classmethod
    def name(cls) -> str:
        return CHANNEL

    @classmethod
    def load_settings(cls, credentials: dict[str, Any] | None) -> KannelSettings:
        return KannelSettings.load(credentials)

    def set_up(self) -> None:
        # Retries and MORE pages: Redis in production (bot/channels/memory.py).
        self.api = SendSms(self.settings)
        self.renderer = ReplyRenderer(ReplyMemory(self.memory), paged=True)

    def get_output_channel(self) -> OutputChannel:
        """Where Rasa's ``trigger_intent`` sends alerts: conversation ids are one-way hashes,
        so the number comes from the address book (raises ``AlertNotDelivered``)."""
        return KannelAlertOutput(self)

    def authenticate(self, request: Request) -> bool:
        given = query_fields(request.query_string).get("secret", b"")
        return secrets_match_bytes(given, self.settings.secret)

    def parse(self, body: bytes, request: Request) -> list[Inbound[GatewayInbound]]:
        """The one SMS of smsbox's query (a GET, no body) or of its POST (``post-url``: the text
        is the body); none from an operator's sender name or a short code
        (``sms_base.answerable``). A retry has the same Kannel id (``%I``); without one, the
        same text from the same number just now."""
        if request.method == "POST":
            message = parse_posted(request.query_string, request.headers, body)
        else:
            message = parse_incoming(request.query_string)
        if not answerable(CHANNEL, message.sender):
            return []
        conversation = conversation_id(CHANNEL, phone_key(message.sender))
        window = None if message.message_id else REPEAT_WINDOW_SECONDS
        delivery = delivery_id(conversation, message)
        return [Inbound(GatewayInbound(message, conversation), delivery, window)]

    def output_for(self, inbound: GatewayInbound) -> KannelOutput:
        return KannelOutput(
            self.api,
            self.settings,
            self.renderer,
            inbound.conversation,
            inbound.message.sender,
            self.addresses,
        )

    def answer(self, received: Received[GatewayInbound]) -> HTTPResponse:
        """Empty: smsbox has nothing to send itself (``max-messages = 0``), the replies went
        out through sendsms. An answer that failed is the base's 503, which smsbox's
        ``http-request-retry`` brings again with the same ``%I``."""
        return response.text("")

    def routes(self, blueprint: Blueprint, on_new_message: OnNewMessage) -> None:
        @blueprint.route(DELIVERED_PATH.removeprefix(f"/webhooks/{CHANNEL}"), methods=["GET"])
        async def delivered(request: Request) -> HTTPResponse:
            """Kannel's report on one SMS, on the outbox row that keeps its id; a reply's,
            which no row keeps, changes nothing."""
            if not self.authenticate(request):
                return self._forged("without")
            try:
                report = delivery_report(query_fields(request.query_string))
            except MalformedRequest as error:
                return Refused(400, str(error)).answer()
            if report is not None and self.addresses is not None:
                await StatusLog(self.addresses.engine).take(CHANNEL, [report])
            return response.text("")


def secrets_match_bytes(given: bytes, expected: str) -> bool:
    """Constant-time comparison of the URL's secret with the configured one."""
    return bool(given) and hmac.compare_digest(given, expected.encode())


def main(argv: Sequence[str] | None = None) -> int:
    """``conf [--post]``: print the kannel.conf groups for this deployment's settings."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args not in (["conf"], ["conf", "--post"]):
        print("usage: python -m bot.channels.kannel conf [--post]", file=sys.stderr)
        return 2
    try:
        settings = KannelSettings.load(None)
    except SettingsError as error:
        print(error, file=sys.stderr)
        return 2
    sys.stdout.write(conf_groups(settings, post="--post" in args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
