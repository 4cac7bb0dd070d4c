"""Web chat: a small chat page served by the Rasa server itself, at ``/webchat/``.

The page (``bot/channels/webchat/``: index.html, widget.js, widget.css; no CDN, no web fonts)
works on a machine with no internet and on a cheap phone. It posts each message to this
channel's ``/webhook`` and shows the replies the REST channel would have returned.

Rasa mounts every channel under ``/webhooks/<name>/``; the widget is wanted at ``/webchat/``
too. ``blueprint()`` therefore returns a group of two blueprints with the same routes: one
that takes Rasa's prefix, and one that keeps its own (``_OwnPrefixBlueprint``). The page uses
relative URLs, so it works from either address.
"""

import logging
import re
from pathlib import Path
from typing import Any

from rasa.core.channels.channel import CollectingOutputChannel, InputChannel
from sanic import response
from sanic.blueprint_group import BlueprintGroup
from sanic.request import Request
from sanic.response import HTTPResponse

from bot.channels.blueprints import Blueprint
from bot.channels.identity import conversation_id
from bot.channels.transport import (
    BODY_LIMITS,
    MAX_TEXT_CHARS,
    BodyTooLarge,
    MalformedRequest,
    parse_json,
    read_body,
)
from bot.channels.turns import CountedOutput, OnNewMessage, Outcome, take_turn, user_message
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
#: The widget makes its sender id with crypto.randomUUID() (or a random hex string).
_SENDER_RULE = re.compile(r"[A-Za-z0-9_-]{8,64}")
#: Reply fields the page uses; the rest (recipient_id: our hashed id) stays on the server.
_REPLY_FIELDS = ("text", "buttons", "image")


class WebchatCollector(CountedOutput, CollectingOutputChannel):
    """Rasa's collecting output (the replies go back in the HTTP answer), counted per turn."""


def parse_message(body: bytes) -> tuple[str, str, str | None]:
    """``(sender, text, language_hint)`` from the widget's JSON body."""
    data = parse_json(body)
    if not isinstance(data, dict):
        raise MalformedRequest("body must be a JSON object")
    sender, text = data.get("sender"), data.get("message")
    if not isinstance(sender, str) or not _SENDER_RULE.fullmatch(sender):
        raise MalformedRequest("sender must be 8-64 letters, digits, '-' or '_'")
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT_CHARS:
        raise MalformedRequest(f"message must be a text of 1-{MAX_TEXT_CHARS} characters")
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
                body = await read_body(request, BODY_LIMITS[self.name()])
                sender, text, hint = parse_message(body)
            except BodyTooLarge:
                return response.json({"error": "message too large"}, status=413)
            except MalformedRequest as error:
                return response.json({"error": str(error)}, status=400)
            collector = WebchatCollector()
            message = user_message(
                text,
                collector,
                conversation_id(self.name(), sender),
                input_channel=self.name(),
                metadata={"language_hint": hint} if hint else {},
            )
            outcome = await take_turn(message, on_new_message, request.app.ctx.agent)
            if outcome is Outcome.UNANSWERED:
                # Say so: the widget then keeps the message and tries again.
                return response.json({"error": "the assistant failed"}, status=503)
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
