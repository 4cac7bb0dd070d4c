"""Web chat: a small chat page served by the Rasa server itself, at ``/webchat/``.

The page (``bot/channels/webchat/``: index.html, widget.js, widget.css; no CDN, no web fonts)
works on a machine with no internet and on a cheap phone. It posts each message to this
channel's ``/webhook`` and shows the replies the REST channel would have returned.

Rasa mounts every channel under ``/webhooks/<name>/``; the widget is wanted at ``/webchat/``
too. ``blueprint()`` therefore returns a group of two blueprints with the same routes: one
that takes Rasa's prefix, and one that keeps its own (``_OwnPrefixBlueprint``). The page uses
relative URLs, so it works from either address.
"""

import json
import logging
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from rasa.core.channels.channel import CollectingOutputChannel, InputChannel, UserMessage
from sanic import Blueprint, response
from sanic.blueprint_group import BlueprintGroup
from sanic.request import Request
from sanic.response import HTTPResponse

from bot.channels.identity import conversation_id
from bot.channels.transport import BodyTooLarge, read_body
from bot.lang.codes import LANGUAGES

logger = logging.getLogger(__name__)

ASSETS = Path(__file__).with_name("webchat")
#: The files the page is made of, with their content types; nothing else is served.
FILES = {
    "index.html": "text/html; charset=utf-8",
    "widget.js": "text/javascript; charset=utf-8",
    "widget.css": "text/css; charset=utf-8",
}
#: Where the page is served besides Rasa's ``/webhooks/webchat/``.
PUBLIC_PREFIX = "/webchat"
#: A typed question is a few hundred bytes; 16 KB leaves room for any real message.
MAX_BODY_BYTES = 16 * 1024
MAX_TEXT = 2000
#: The widget makes its sender id with crypto.randomUUID() (or a random hex string).
_SENDER_RULE = re.compile(r"[A-Za-z0-9_-]{8,64}")
#: Reply fields the page uses; the rest (recipient_id: our hashed id) stays on the server.
_REPLY_FIELDS = ("text", "buttons", "image")
OnNewMessage = Callable[[UserMessage], Awaitable[Any]]


class BadMessage(ValueError):
    """The body is not what the widget sends; the message says what is wrong."""


def parse_message(body: bytes) -> tuple[str, str, str | None]:
    """``(sender, text, language_hint)`` from the widget's JSON body."""
    try:
        data = json.loads(body)
    except (UnicodeDecodeError, ValueError) as error:
        raise BadMessage("body must be JSON") from error
    if not isinstance(data, dict):
        raise BadMessage("body must be a JSON object")
    sender, text = data.get("sender"), data.get("message")
    if not isinstance(sender, str) or not _SENDER_RULE.fullmatch(sender):
        raise BadMessage("sender must be 8-64 letters, digits, '-' or '_'")
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT:
        raise BadMessage(f"message must be a text of 1-{MAX_TEXT} characters")
    metadata = data.get("metadata")
    hint = metadata.get("language_hint") if isinstance(metadata, dict) else None
    return sender, text, hint if hint in LANGUAGES else None


def _load_assets() -> dict[str, bytes]:
    return {name: (ASSETS / name).read_bytes() for name in FILES}


class _OwnPrefixBlueprint(Blueprint):
    """A blueprint that stays at its own ``url_prefix`` when Rasa registers it under
    ``/webhooks/<name>/`` (``rasa.core.channels.channel.register`` passes that prefix)."""

    def register(self, app: Any, options: dict[str, Any]) -> None:
        super().register(app, {**options, "url_prefix": self.url_prefix})


class WebchatInput(InputChannel):
    """The web chat page and its webhook. Needs no credentials."""

    @classmethod
    def name(cls) -> str:
        return "webchat"

    @classmethod
    def from_credentials(cls, credentials: dict[str, Any] | None) -> "WebchatInput":
        return cls()

    def __init__(self) -> None:
        self.assets = _load_assets()

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
        async def page(_: Request) -> HTTPResponse:
            return self._file("index.html")

        @blueprint.route("/widget.js", methods=["GET"])
        async def script(_: Request) -> HTTPResponse:
            return self._file("widget.js")

        @blueprint.route("/widget.css", methods=["GET"])
        async def style(_: Request) -> HTTPResponse:
            return self._file("widget.css")

        @blueprint.route("/webhook", methods=["POST"], stream=True)
        async def webhook(request: Request) -> HTTPResponse:
            try:
                sender, text, hint = parse_message(await read_body(request, MAX_BODY_BYTES))
            except BodyTooLarge:
                return response.json({"error": "message too large"}, status=413)
            except BadMessage as error:
                return response.json({"error": str(error)}, status=400)
            collector = CollectingOutputChannel()
            message = UserMessage(
                text,
                collector,
                conversation_id(self.name(), sender),
                input_channel=self.name(),
                metadata={"language_hint": hint} if hint else {},
            )
            try:
                await on_new_message(message)
            except Exception:
                # Say so: the widget then keeps the message and tries again.
                logger.exception("web chat message could not be handled")
                return response.json({"error": "the assistant failed"}, status=500)
            replies = [
                {key: reply[key] for key in _REPLY_FIELDS if reply.get(key)}
                for reply in collector.messages
            ]
            return response.json(replies)

        return blueprint

    def _file(self, name: str) -> HTTPResponse:
        return HTTPResponse(
            self.assets[name],
            content_type=FILES[name],
            headers={
                "Cache-Control": "no-cache",
                "X-Content-Type-Options": "nosniff",
                "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                "base-uri 'none'; frame-ancestors 'none'",
            },
        )
