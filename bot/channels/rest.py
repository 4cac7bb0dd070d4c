"""Rasa's REST channel (``/webhooks/rest/webhook``, the README's ``curl`` examples), answering
as every other channel does.

Rasa's own ``RestInput`` hands the message to Rasa directly, so when the action server is down
the person got whatever Rasa's rules said without an action, and no apology. The web chat, on
the same turn, apologised. This is Rasa's channel, with the same request and answer (a JSON
list of the replies) and the same ``sender`` as the conversation id. Its turn goes through
``take_turn``, as in the other connectors, which gives the same apology in the conversation's
language (``notices.try_again``). Rasa's ``?stream=true`` is not offered: nothing here uses it.

For development and tests only (``credentials.yml``): the sender it is given is the
conversation id, so a deployment never exposes it (``credentials.channels.yml`` leaves it out).
"""

from __future__ import annotations

from typing import Any

from rasa.core.channels.channel import CollectingOutputChannel, UserMessage
from rasa.core.channels.rest import RestInput as RasaRestInput
from sanic import response
from sanic.request import Request
from sanic.response import HTTPResponse

from bot.channels.blueprints import Blueprint
from bot.channels.settings import hotline
from bot.channels.turns import OnNewMessage, Outcome, TurnReplies, take_turn


class RestInput(RasaRestInput):
    """``POST /webhooks/rest/webhook`` ``{"sender": …, "message": …}`` → the replies."""

    @classmethod
    def from_credentials(cls, credentials: dict[str, Any] | None) -> RestInput:
        return cls(hotline())

    def __init__(self, hotline: str | None = None) -> None:
        self.hotline = hotline

    def blueprint(self, on_new_message: OnNewMessage) -> Blueprint:
        blueprint = Blueprint("rest_turns", __name__)

        @blueprint.route("/", methods=["GET"])
        async def health(_: Request) -> HTTPResponse:
            return response.json({"status": "ok"})

        @blueprint.route("/webhook", methods=["POST"])
        async def receive(request: Request) -> HTTPResponse:
            body = request.json
            if not isinstance(body, dict):
                return response.json({"error": 'send {"sender": …, "message": …}'}, status=400)
            sender, text = body.get("sender"), body.get("message")
            if not isinstance(sender, str) or not sender or not isinstance(text, str):
                return response.json({"error": "'sender' and 'message' must be texts"}, status=400)
            collector = CollectingOutputChannel()
            message = UserMessage(
                text,
                TurnReplies(collector, self.name()),
                sender,
                input_channel=self._extract_input_channel(request),
                metadata=self.get_metadata(request),
            )
            outcome = await take_turn(message, on_new_message, request.app.ctx.agent, self.hotline)
            if outcome is Outcome.UNANSWERED:
                return response.json({"error": "the assistant failed"}, status=503)
            return response.json(collector.messages)

        return blueprint
