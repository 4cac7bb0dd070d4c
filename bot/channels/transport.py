"""What every connector shares: authenticate first, then read a bounded body and parse it
without stalling the server; message splitting; one HTTP session per process for the API.

Rasa's own connectors read whatever Sanic buffered (up to 100 MB) and open a new client per
message; ours check the signature or secret from the headers before reading anything, refuse
large bodies while reading them, and reuse one connection pool.
"""

import asyncio
import hmac
import json
import logging
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Any, Final, TypeVar
from urllib.parse import parse_qsl

import aiohttp
from sanic import response
from sanic.request import Request
from sanic.response import HTTPResponse

from bot.channels.blueprints import Blueprint
from kernel.contract import CHANNELS
from kernel.memory import ChannelMemory

logger = logging.getLogger(__name__)

#: Provider payloads are a few kilobytes; anything above this is not a provider talking.
MAX_BODY_BYTES = 1024 * 1024
#: Every webhook's body limit, from the channel table (``kernel/contract.py`` ``CHANNELS``).
BODY_LIMITS: Final[dict[str, int]] = {
    name: channel.body_limit for name, channel in CHANNELS.items()
}
#: The most text of one message that reaches the assistant. Nobody types more at a checkpoint;
#: a 10 MB "message" would only make the language identifier and the classifier work for it.
MAX_TEXT_CHARS: Final = 2000
#: Bodies up to this size are parsed on the event loop (well under a millisecond); larger ones in
#: a worker thread, so one big request never holds up the other people being answered.
INLINE_PARSE_BYTES: Final = 64 * 1024
#: A provider that has not answered by then is down; the user is better served by a log line
#: than by a request that hangs until the provider gives up on our webhook.
API_TIMEOUT = aiohttp.ClientTimeout(total=15, connect=5)

T = TypeVar("T")

#: The ids the provider gave the messages sent in this task, when someone collects them (an
#: alert's or a reply's delivery: ``bot/channels/deliveries.py``), so that the provider's later
#: delivery statuses find their row.
SENT_MESSAGE_IDS: ContextVar[list[str] | None] = ContextVar("sent_message_ids", default=None)


def note_sent(message_id: object) -> None:
    """Hands the id of a message just sent to whoever collects them (``SENT_MESSAGE_IDS``):
    the provider's, or one the channel made itself when the provider gives none (Kannel)."""
    collected = SENT_MESSAGE_IDS.get()
    if collected is not None and isinstance(message_id, str) and message_id:
        collected.append(message_id[:128])


class BodyTooLarge(Exception):
    """The request body is larger than a provider would ever send."""


class MalformedRequest(ValueError):
    """A request we cannot read; the message says what the sender must fix."""


def secrets_match(given: str | None, expected: str) -> bool:
    """Constant-time comparison, so response timing does not leak the secret.

    A header with bytes that are not ASCII arrives with surrogate escapes; it is compared as
    the bytes it was (and does not match) instead of failing to encode.
    """
    if not given:
        return False
    return hmac.compare_digest(
        given.encode("utf-8", "surrogatepass"), expected.encode("utf-8", "surrogatepass")
    )


def capped_text(text: str) -> str:
    """The part of a person's message the assistant reads (``MAX_TEXT_CHARS``)."""
    return text[:MAX_TEXT_CHARS]


def parse_json(body: bytes) -> Any:
    """JSON from a request body; ``MalformedRequest`` for anything unreadable, including a
    nesting deep enough to exhaust the parser's recursion (``RecursionError``)."""
    try:
        return json.loads(body)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise MalformedRequest("body is not valid JSON") from error


def parse_form(body: bytes) -> dict[str, list[str]]:
    """Form fields with empty values kept: sanic drops them, which loses an empty ``Body``."""
    try:
        pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True, strict_parsing=bool(body))
    except (UnicodeDecodeError, ValueError) as error:
        raise MalformedRequest(
            "body must be UTF-8 application/x-www-form-urlencoded fields"
        ) from error
    fields: dict[str, list[str]] = {}
    for name, value in pairs:
        fields.setdefault(name, []).append(value)
    return fields


async def parse_off_loop(parse: Callable[[bytes], T], body: bytes) -> T:
    """``parse(body)``, in a worker thread when the body is large enough to be felt by others."""
    if len(body) <= INLINE_PARSE_BYTES:
        return parse(body)
    return await asyncio.to_thread(parse, body)


class ProviderFailure(Exception):
    """A provider refused a message (``status``) or could not be reached (``status`` None).

    Carries nothing from the request: in a person's turn it is logged and the turn goes on
    (``turns.TurnReplies``), alerts turn it into ``AlertNotDelivered`` so that the notifier
    retries (``retry_after`` seconds when given) unless it is ``permanent``. ``call`` names
    the API call for the log (``sendMessage``), never its URL: that may hold a token.
    """

    def __init__(
        self,
        status: int | None,
        reason: str,
        retry_after: int | None = None,
        call: str = "",
        *,
        permanent: bool = False,
    ) -> None:
        super().__init__(f"HTTP {status} {reason}".strip() if status else reason)
        self.status = status
        self.reason = reason
        self.retry_after = retry_after
        self.call = call
        #: The provider refused this recipient for good (they blocked the bot): never retried.
        self.permanent = permanent

    @property
    def passing(self) -> bool:
        """Whether the same message may go through later: the provider could not be reached,
        failed itself (5xx) or asked to slow down (429, 408). Not a refusal of this message or
        of this person (other 4xx: a blocked bot, a wrong address), which stays one."""
        if self.permanent:
            return False
        return self.status is None or self.status >= 500 or self.status in (408, 429)

    @classmethod
    def unreachable(cls, error: BaseException) -> "ProviderFailure":
        """No answer at all: a timeout or a connection error (named by its type only)."""
        return cls(None, f"provider unreachable ({type(error).__name__})")


def retry_after_seconds(header: str | None, now: datetime | None = None) -> int | None:
    """A ``Retry-After`` header (seconds, or an HTTP date) in whole seconds; None if absent."""
    value = (header or "").strip()
    if value.isdigit():
        return int(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    seconds = (when - (now or datetime.now(timezone.utc))).total_seconds()
    return max(0, int(seconds + 0.999))


def _retry_after(answer: object, headers: Mapping[str, str]) -> int | None:
    """Telegram says when to retry in ``parameters.retry_after``; others in ``Retry-After``."""
    parameters = answer.get("parameters") if isinstance(answer, dict) else None
    seconds = parameters.get("retry_after") if isinstance(parameters, dict) else None
    if isinstance(seconds, int) and not isinstance(seconds, bool) and seconds >= 0:
        return seconds
    return retry_after_seconds(headers.get("Retry-After"))


async def read_body(request: Request, limit: int = MAX_BODY_BYTES) -> bytes:
    """The raw request body, never holding more than ``limit`` bytes of it.

    Our webhook routes are registered with ``stream=True``, so Sanic leaves the body unread and
    it is read here chunk by chunk; on other routes Sanic has read it already.
    """
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise BodyTooLarge
    if request.stream is None:  # not a streaming route: Sanic has already read the body
        if len(request.body) > limit:
            raise BodyTooLarge
        return bytes(request.body)
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = await request.stream.read()
        if chunk is None:
            return b"".join(chunks)
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge
        chunks.append(chunk)


def provider_reason(answer: object) -> str:
    """The provider's reason for an error, without anything from the request (addresses)."""
    if isinstance(answer, dict) and isinstance(answer.get("description"), str):
        return str(answer["description"])  # Telegram: "Forbidden: bot was blocked by the user"
    error = answer.get("error") if isinstance(answer, dict) else None
    return f"(error code {error.get('code')})" if isinstance(error, dict) else ""  # Graph API


class ProviderApi:
    """A provider's HTTP API behind one ``ClientSession``, opened on first use inside the
    server's event loop and closed when the server stops.

    Every connector talks to its provider through one of these; what differs between providers
    is given here: JSON or form fields, basic authentication, how an error names its reason
    (``reason``: never the recipient's number), which refusals are about the recipient for
    good (``refused_for_good``: the person blocked the bot), whether a successful answer
    is JSON at all (an SMS gateway may answer ``OK``), and where an answer names the message's
    id (``message_id``: what the provider's delivery statuses refer to).
    """

    def __init__(
        self,
        base_url: str,
        headers: dict[str, str] | None = None,
        *,
        auth: aiohttp.BasicAuth | None = None,
        reason: Callable[[object], str] = provider_reason,
        answers_json: bool = True,
        refused_for_good: Callable[[int, object], bool] = lambda status, answer: False,
        message_id: Callable[[dict[str, Any]], str | None] = lambda answer: None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._headers = headers or {}
        self._auth = auth
        self._reason = reason
        self._answers_json = answers_json
        self._refused_for_good = refused_for_good
        self._message_id = message_id
        self._session: aiohttp.ClientSession | None = None

    async def send(
        self, path: str, payload: Mapping[str, Any], *, call: str, form: bool = False
    ) -> dict[str, Any]:
        """POST ``payload`` as JSON (or as form fields); the provider's JSON answer, or
        ``ProviderFailure`` when it refused (HTTP 300 and above) or could not be reached.
        ``call`` names the request in logs: the URL may contain a token, the payload an
        address."""
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                headers=self._headers, timeout=API_TIMEOUT, auth=self._auth
            )
        body_argument = {"data": dict(payload)} if form else {"json": dict(payload)}
        try:
            async with self._session.post(f"{self.base_url}{path}", **body_argument) as response:
                try:
                    body = await response.json(content_type=None)
                except ValueError:
                    body = None  # a proxy's HTML error page: the status says enough
                if response.status >= 300:
                    retry_after = _retry_after(body, response.headers)
                    reason = self._reason(body)
                    permanent = self._refused_for_good(response.status, body)
                    raise ProviderFailure(
                        response.status, reason, retry_after, call, permanent=permanent
                    )
                if body is None and self._answers_json:
                    unreadable = "provider answer unreadable (not JSON)"
                    raise ProviderFailure(None, unreadable, call=call)
                answer = body if isinstance(body, dict) else {}
                self._note_sent(answer)
                return answer
        except (aiohttp.ClientError, asyncio.TimeoutError) as error:
            failure = ProviderFailure.unreachable(error)
            failure.call = call
            raise failure from error

    def _note_sent(self, answer: dict[str, Any]) -> None:
        if SENT_MESSAGE_IDS.get() is None:
            return
        try:
            found = self._message_id(answer)
        except (KeyError, IndexError, TypeError, AttributeError):
            found = None
        note_sent(found)

    async def close(self) -> None:
        """Closes the connection pool (called on server stop and by tests)."""
        if self._session is not None:
            await self._session.close()
            self._session = None


def webhook_blueprint(name: str, api: ProviderApi, memory: ChannelMemory) -> Blueprint:
    """A connector's blueprint with Rasa's health check at ``/``, and the API session and the
    channel memory closed when the server stops; the connector adds its ``/webhook`` routes."""
    blueprint = Blueprint(name, __name__)

    @blueprint.route("/", methods=["GET"])
    async def health(_: Request) -> HTTPResponse:
        return response.json({"status": "ok"})

    @blueprint.listener("after_server_stop")
    async def close_connections(*_: Any) -> None:
        await api.close()
        await memory.close()

    return blueprint
