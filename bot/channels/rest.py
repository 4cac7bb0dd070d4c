"""Rasa's REST channel (``/webhooks/rest/webhook``, the README's ``curl`` examples), answering
as every other channel does.

Rasa's own ``RestInput`` hands the message to Rasa directly, so when the action server is down
the person got whatever Rasa's rules said without an action, and no apology. The web chat, on
the same turn, apologised. This is Rasa's channel, with the same request and answer (a JSON
list of the replies) and the same ``sender`` as the conversation id. Its turn goes through
``take_turn``, as in the other connectors, which gives the same apology in the conversation's
language (``notices.try_again``). Rasa's ``?stream=true`` is not offered: nothing here uses it.

Past ``SYNC_TURNS_WAITING`` turns in this process (``sync_turns.py``) a turn that has not
ended after ``QUEUE_NOTICE_SECONDS`` is answered with a list of one reply, the notice of the
wait marked ``"waiting": true`` (an empty list for a sender told in the last ten minutes); the
turn goes on and its replies wait in the sender's mailbox: ``POST /webhooks/rest/mailbox
{"sender": …}`` returns ``{"messages": [{"id": …, "text": …}, …]}``, and a later fetch with
``"ack": [ids]`` forgets those (as the web chat's mailbox, ``mailbox.py``).

For development and tests only (``credentials.yml``): the sender it is given is the
conversation id, so a deployment never exposes it (``credentials.channels.yml`` leaves it out).
"""

from __future__ import annotations

import logging
from typing import Any, Final

from rasa.core.channels.channel import CollectingOutputChannel, UserMessage
from rasa.core.channels.rest import RestInput as RasaRestInput
from sanic import response
from sanic.request import Request
from sanic.response import HTTPResponse

from bot.channels.blueprints import Blueprint
from bot.channels.mailbox import MESSAGE_ID, Mailbox, MailboxFull
from bot.channels.memory import channel_memory
from bot.channels.settings import RedisSettings, hotline
from bot.channels.sync_turns import SyncTurns, process_turns
from bot.channels.turns import OnNewMessage, Outcome, TurnReplies, take_turn
from kernel.memory import ChannelMemory, MemoryUnavailable, ProcessMemory

logger = logging.getLogger(__name__)

#: A REST sender's mailbox is kept apart from the web chat's conversations of the same id.
MAILBOX_PREFIX: Final = "rest:"


class RestInput(RasaRestInput):
    """``POST /webhooks/rest/webhook`` ``{"sender": …, "message": …}`` → the replies."""

    @classmethod
    def from_credentials(cls, credentials: dict[str, Any] | None) -> RestInput:
        return cls(hotline(), channel_memory(RedisSettings.load()), process_turns())

    def __init__(
        self,
        hotline: str | None = None,
        memory: ChannelMemory | None = None,
        turns: SyncTurns | None = None,
    ) -> None:
        self.hotline = hotline
        self.memory = memory if memory is not None else ProcessMemory()
        self.mailbox = Mailbox(self.memory)
        self.turns = turns if turns is not None else process_turns()

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
            agent = request.app.ctx.agent

            def message(collector: CollectingOutputChannel) -> UserMessage:
                return UserMessage(
                    text,
                    TurnReplies(collector, self.name()),
                    sender,
                    input_channel=self._extract_input_channel(request),
                    metadata=self.get_metadata(request),
                )

            collector = CollectingOutputChannel()
            turn = take_turn(message(collector), on_new_message, agent, self.hotline)
            if self.turns.answers_later(text):

                async def hand_over() -> None:
                    await self._to_mailbox(sender, collector.messages)

                taken = await self.turns.answer(turn, sender, hand_over)
                if taken is None:
                    notice = await self.turns.notice(agent, sender, text, None, self.memory)
                    return response.json([{"recipient_id": sender, **notice}] if notice else [])
                outcome = taken
            else:
                async with self.turns.turn():
                    outcome = await turn
            if outcome is Outcome.UNANSWERED:
                return response.json({"error": "the assistant failed"}, status=503)
            return response.json(collector.messages)

        @blueprint.route("/mailbox", methods=["POST"])
        async def mailbox(request: Request) -> HTTPResponse:
            body = request.json
            sender = body.get("sender") if isinstance(body, dict) else None
            if not isinstance(sender, str) or not sender:
                return response.json({"error": 'send {"sender": …}'}, status=400)
            acknowledged = body.get("ack") if isinstance(body, dict) else None
            ids = frozenset(
                each
                for each in (acknowledged if isinstance(acknowledged, list) else [])
                if isinstance(each, str) and MESSAGE_ID.fullmatch(each)
            )
            try:
                messages = await self.mailbox.collect(MAILBOX_PREFIX + sender, ids)
            except MemoryUnavailable:
                return response.json({"error": "the mailbox is unavailable"}, status=503)
            return response.json({"messages": messages})

        return blueprint

    async def _to_mailbox(self, sender: str, replies: list[dict[str, Any]]) -> None:
        """The replies of a turn answered by the notice, in the form the REST answer would
        have had them; one the mailbox refuses is logged, the next ones are still tried."""
        for reply in replies:
            try:
                await self.mailbox.store(MAILBOX_PREFIX + sender, reply)
            except (MemoryUnavailable, MailboxFull):
                logger.warning("rest: the mailbox refused a reply to a turn told to wait")
