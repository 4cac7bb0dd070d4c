"""Telegram connector: Bot API webhook in, Bot API ``sendMessage`` out.

Only private chats are answered. In a group, a supergroup or a channel everyone sees who asks
what: the bot says once a day, in every language, that it answers in private, with the link to
its private chat (``https://t.me/<username>``, from ``TELEGRAM_BOT_USERNAME`` or else asked of
Telegram with ``getMe``), and nothing from a group becomes a conversation, a subscription or a
case. A caption is read as the question it asks; the photo, document or video itself is never
downloaded. A forwarded message is marked (``contract.FORWARDED``), a shared location or venue
carries its coordinates (``contract.LOCATION``), ``/start <parameter>`` opens the
conversation the poster's link stands for (``deep_links.py``), and a number typed right after
a reply with numbered buttons picks that button (``typed_numbers.py``).

Unlike Rasa's built-in connector (which "verifies" a request by asking Telegram for the bot's
username), every request must carry the secret given to ``setWebhook``; anything else gets 403
before its body is read. Register the webhook once per deployment:

    curl "https://api.telegram.org/bot$TELEGRAM_BOT_TOKEN/setWebhook" \\
      -d url=https://<host>/webhooks/telegram/webhook \\
      -d secret_token="$TELEGRAM_SECRET_TOKEN" -d 'allowed_updates=["message","callback_query"]'
"""

import dataclasses
import json
import logging
import re
from dataclasses import dataclass
from typing import Any

from rasa.core.channels.channel import OutputChannel
from sanic import response
from sanic.request import Request
from sanic.response import HTTPResponse

from bot.channels.addresses import AddressBook
from bot.channels.alerts import AlertOutput, custom_payload_in_reply
from bot.channels.deep_links import telegram_start
from bot.channels.identity import conversation_id
from bot.channels.intake.line import Queued
from bot.channels.places import PLACE_QUESTION, place_metadata
from bot.channels.settings import TelegramSettings
from bot.channels.transport import (
    MalformedRequest,
    ProviderApi,
    ProviderFailure,
    parse_json,
    secrets_match,
)
from bot.channels.turns import (
    IN_THE_WEBHOOK,
    Assistant,
    OnNewMessage,
    Outcome,
    ReplyHooks,
    TurnReplies,
    conversation_language,
    take_turn,
    user_message,
)
from bot.channels.typed_numbers import TypedNumbers
from bot.channels.webhook import Inbound, QueuedInput, Received
from kernel.contract import FORWARDED, LANGUAGE_HINT
from kernel.lang.tags import from_locale
from kernel.memory import ChannelMemory, MemoryUnavailable, ProcessMemory
from kernel.notices import text_only, write_privately
from kernel.sms_segments import split_message

logger = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_TEXT = 4096  # sendMessage: 1-4096 characters
#: Message fields that carry something a person sent which is not text. Service messages
#: (someone joined, a title changed) carry none of them and are ignored, never answered.
MEDIA_FIELDS = frozenset(
    {"animation", "audio", "contact", "dice", "document", "location", "photo", "poll"}
    | {"sticker", "venue", "video", "video_note", "voice"}
)
#: A group is told where to write at most once in this time (``group_notice``).
GROUP_NOTICE_SECONDS = 24 * 3600.0
_CHAT_ID = re.compile(r"-?[0-9]{1,20}")


def language_hint(language_code: object) -> str | None:
    """Our language for the user's Telegram interface language (``fa-AF`` -> ``prs``; the
    locales of each language: kernel/lang/tags.py ``LOCALES``)."""
    return from_locale(language_code)


@dataclass(frozen=True)
class Incoming:
    """What a user sent: ``text`` is None for a voice note, a sticker, a photo without a
    caption..."""

    chat_id: int
    text: str | None
    language_hint: str | None
    callback_query_id: str | None = None
    #: ``message.date``; a pressed inline button has none of its own (its message may be old).
    sent_at: object = None
    #: A private chat with the bot; a group, supergroup or channel is never answered.
    private: bool = True
    #: Forwarded from someone else (``forward_origin``, or ``forward_date`` before Bot API 7.0).
    forwarded: bool = False
    #: The metadata of a shared location or venue (``places.place_metadata``).
    place: dict[str, Any] | None = None


def _object(value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError("expected an object")
    return value


def _chat_id(message: dict[str, Any]) -> int:
    chat_id = _object(message.get("chat")).get("id")
    if not isinstance(chat_id, int) or isinstance(chat_id, bool):
        raise ValueError("message.chat.id missing")
    return chat_id


def _private(message: dict[str, Any]) -> bool:
    return _object(message.get("chat")).get("type") == "private"


def _shared_place(message: dict[str, Any]) -> dict[str, Any] | None:
    """A location pin, or a venue (whose message also carries its ``location``)."""
    venue = message.get("venue")
    pin = message.get("location") or (venue.get("location") if isinstance(venue, dict) else None)
    if not isinstance(pin, dict):
        return None
    return place_metadata(pin.get("latitude"), pin.get("longitude"))


def read_update(update: dict[str, Any]) -> Incoming | None:
    """What the user sent, or None for updates the assistant has no business with (edits,
    channel posts, service messages...), which are acknowledged and dropped."""
    if "callback_query" in update:  # a button of an inline keyboard was pressed
        query = _object(update["callback_query"])
        data, message = query.get("data"), query.get("message")
        if not isinstance(data, str) or not isinstance(message, dict):
            return None
        user = _object(query.get("from") or {})
        return Incoming(
            _chat_id(message),
            data,
            language_hint(user.get("language_code")),
            str(query["id"]),
            private=_private(message),
        )
    if "message" not in update:
        return None
    message = _object(update["message"])
    chat_id = _chat_id(message)
    hint = language_hint(_object(message.get("from") or {}).get("language_code"))
    text, caption = message.get("text"), message.get("caption")
    place = _shared_place(message)
    if isinstance(text, str):
        said: str | None = text
    elif MEDIA_FIELDS & message.keys() and isinstance(caption, str) and caption.strip():
        said = caption  # the question the picture was sent with; the picture is not fetched
    elif place is not None:
        said = PLACE_QUESTION
    elif MEDIA_FIELDS & message.keys():
        said = None
    else:
        return None
    return Incoming(
        chat_id,
        said,
        hint,
        sent_at=message.get("date"),
        private=_private(message),
        forwarded="forward_origin" in message or "forward_date" in message,
        place=place,
    )


class ReplyKeyboards:
    """What the buttons of each conversation's last reply keyboard stand for.

    A reply-keyboard button sends its title as an ordinary message; this turns the title back
    into the button's payload (``/ask_flights``), so a press is understood exactly. Kept in the
    channels' memory (Redis in production: the press may reach another Rasa process) for
    ``ttl_seconds``; when it is forgotten or unreachable the title goes to the NLU, which knows
    menu titles.
    """

    def __init__(
        self, memory: ChannelMemory | None = None, ttl_seconds: float = 24 * 3600.0
    ) -> None:
        self._memory = memory if memory is not None else ProcessMemory()
        self._ttl = ttl_seconds

    async def remember(self, conversation: str, payloads: dict[str, str]) -> None:
        try:
            await self._memory.put({f"keyboard:{conversation}": json.dumps(payloads)}, self._ttl)
        except MemoryUnavailable:
            return

    async def forget(self, conversation: str) -> None:
        """The person asked to be forgotten: their last keyboard goes now."""
        try:
            await self._memory.delete(f"keyboard:{conversation}")
        except MemoryUnavailable:
            return

    async def payload_for(self, conversation: str, text: str) -> str | None:
        try:
            stored = await self._memory.get(f"keyboard:{conversation}")
        except MemoryUnavailable:
            return None
        try:
            payload = json.loads(stored or "{}").get(text.strip())
        except (ValueError, AttributeError):
            return None
        return payload if isinstance(payload, str) else None


def refused_for_good(status: int, answer: object) -> bool:
    """Whether the Bot API refused the chat itself, so that no later try can pass: a 403
    ("Forbidden: bot was blocked by the user", "user is deactivated", "bot can't initiate
    conversation with a user") or a chat that is gone ("Bad Request: chat not found"). A
    wrong token is 401 and a flood 429: those are ours or pass."""
    description = answer.get("description") if isinstance(answer, dict) else None
    gone = isinstance(description, str) and "chat not found" in description.lower()
    return status == 403 or (status == 400 and gone)


class TelegramOutput(OutputChannel):
    """Replies to the one chat a message came from; raises ``ProviderFailure`` when Telegram
    refuses a message (in a turn, ``TurnReplies`` logs it and goes on).

    Made per incoming message, so the chat id lives only as long as the reply; only when the
    user subscribes to alerts is it stored, sealed (``addresses``).
    """

    @classmethod
    def name(cls) -> str:
        return "telegram"

    def __init__(
        self,
        api: ProviderApi,
        token: str,
        chat_id: int | str,
        conversation: str,
        keyboards: ReplyKeyboards,
        addresses: AddressBook | None = None,
        numbers: TypedNumbers | None = None,
    ) -> None:
        self._api = api
        self._method_path = f"/bot{token}/"
        self._chat_id = chat_id
        self.conversation = conversation
        self._keyboards = keyboards
        self._addresses = addresses
        self._numbers = numbers

    async def send_text_message(self, recipient_id: str, text: str, **kwargs: Any) -> None:
        await self._send(recipient_id, text, None)

    async def send_text_with_buttons(
        self, recipient_id: str, text: str, buttons: list[dict[str, Any]], **kwargs: Any
    ) -> None:
        """Buttons become a reply keyboard, one button a row: long Dari titles stay readable."""
        payloads = {
            str(button["title"]): str(button.get("payload") or button["title"])
            for button in buttons
            if button.get("title")
        }
        if not payloads:
            await self._send(recipient_id, text, None)
            return
        await self._keyboards.remember(self.conversation, payloads)
        if self._numbers is not None:
            await self._numbers.offered(self.conversation, buttons)
        keyboard = {
            "keyboard": [[{"text": title}] for title in payloads],
            "resize_keyboard": True,
            "one_time_keyboard": True,
        }
        await self._send(recipient_id, text, keyboard)

    async def send_custom_json(
        self, recipient_id: str, json_message: dict[str, Any], **kwargs: Any
    ) -> None:
        await custom_payload_in_reply(
            json_message,
            channel=self.name(),
            conversation=self.conversation,
            address=str(self._chat_id),
            addresses=self._addresses,
        )

    async def answer_callback_query(self, callback_query_id: str) -> None:
        """Stops the spinner Telegram shows on a pressed inline button."""
        await self._call("answerCallbackQuery", {"callback_query_id": callback_query_id})

    async def _send(self, recipient_id: str, text: str, markup: dict[str, Any] | None) -> None:
        if recipient_id != self.conversation:
            logger.error("telegram: refusing to send a reply meant for another conversation")
            return
        pieces = split_message(text or "", MAX_TEXT)
        for number, piece in enumerate(pieces, start=1):
            payload: dict[str, Any] = {"chat_id": self._chat_id, "text": piece}
            if markup and number == len(pieces):
                payload["reply_markup"] = markup
            await self._call("sendMessage", payload)

    async def _call(self, method: str, payload: dict[str, Any]) -> None:
        await self._api.send(self._method_path + method, payload, call=method)


class TelegramAlertOutput(AlertOutput):
    """Alerts to a stored chat id, rendered and split as replies are."""

    @classmethod
    def name(cls) -> str:
        return "telegram"

    def __init__(
        self, api: ProviderApi, token: str, keyboards: ReplyKeyboards, addresses: AddressBook | None
    ) -> None:
        super().__init__(addresses)
        self._api = api
        self._token = token
        self._keyboards = keyboards

    async def open(self, conversation: str, address: str) -> OutputChannel:
        chat_id: int | str = int(address) if _CHAT_ID.fullmatch(address) else address
        return TelegramOutput(self._api, self._token, chat_id, conversation, self._keyboards)


class TelegramInput(QueuedInput[TelegramSettings, Incoming]):
    """Webhook for Telegram updates at ``/webhooks/telegram/webhook``; alerts through
    ``get_output_channel`` (a conversation id is a one-way hash: alerts need the address book).
    """

    credential = SECRET_HEADER

    @classmethod
    def name(cls) -> str:
        return "telegram"

    @classmethod
    def load_settings(cls, credentials: dict[str, Any] | None) -> TelegramSettings:
        """Secrets come from the environment only, never from credentials.yml."""
        return TelegramSettings.load()

    def set_up(self) -> None:
        self.api = ProviderApi(self.settings.api_base_url, refused_for_good=refused_for_good)
        self._keyboards = ReplyKeyboards(self.memory)
        self._numbers = TypedNumbers(self.memory)
        self._username = self.settings.username

    def get_output_channel(self) -> OutputChannel:
        """Where Rasa's ``trigger_intent`` sends alerts (raises ``AlertNotDelivered``)."""
        return TelegramAlertOutput(self.api, self.settings.token, self._keyboards, self.addresses)

    def authenticate(self, request: Request) -> bool:
        return secrets_match(request.headers.get(SECRET_HEADER), self.settings.secret)

    def parse(self, body: bytes, request: Request) -> list[Inbound[Incoming]]:
        """The one message of an update; none for updates the assistant has no business
        with. Telegram retries an update with the same ``update_id``."""
        update = parse_json(body)
        if not isinstance(update, dict) or type(update.get("update_id")) is not int:
            raise MalformedRequest("update_id missing")
        incoming = read_update(update)
        if incoming is None:
            return []
        delivery = f"telegram:{update['update_id']}"
        return [Inbound(incoming, delivery, sent_at=incoming.sent_at)]

    def answer(self, received: Received[Incoming]) -> HTTPResponse:
        return response.text("ok")

    def to_queue(self, incoming: Incoming) -> Queued:
        conversation = conversation_id("telegram", str(incoming.chat_id))
        data = dataclasses.asdict(incoming)
        return Queued(conversation, data, incoming.text, incoming.language_hint)

    def from_queue(self, data: dict[str, Any]) -> Incoming:
        return Incoming(**data)

    def _output(self, incoming: Incoming) -> TelegramOutput:
        conversation = conversation_id("telegram", str(incoming.chat_id))
        return TelegramOutput(
            self.api,
            self.settings.token,
            incoming.chat_id,
            conversation,
            self._keyboards,
            self.addresses,
            self._numbers,
        )

    async def say(self, incoming: Incoming, text: str) -> None:
        output = self._output(incoming)
        await output.send_text_message(output.conversation, text)

    async def reply(self, incoming: Incoming, response: dict[str, Any]) -> None:
        output = self._output(incoming)
        await output.send_response(output.conversation, response)

    async def take(
        self,
        incoming: Incoming,
        on_new_message: OnNewMessage,
        agent: Assistant,
        hooks: ReplyHooks = IN_THE_WEBHOOK,
    ) -> Outcome:
        output = self._output(incoming)
        conversation = output.conversation
        replies = TurnReplies(output, self.name(), hooks)
        if incoming.callback_query_id:
            await replies.attempt(
                conversation, output.answer_callback_query(incoming.callback_query_id)
            )
        if not incoming.private:
            await self.group_notice(output, conversation)
            return Outcome.ANSWERED
        if incoming.text is None:
            logger.info("telegram: non-text message, asked the user to write instead")
            language = await conversation_language(agent, conversation)
            notice = text_only(language or incoming.language_hint)
            await replies.attempt(conversation, output.send_text_message(conversation, notice))
            return Outcome.ANSWERED
        typed = await self._numbers.payload_for(conversation, incoming.text)
        pressed = typed or await self._keyboards.payload_for(conversation, incoming.text)
        link = None if pressed else telegram_start(incoming.text)
        text = pressed or (link.text if link else incoming.text)
        hint = (link.language if link else None) or incoming.language_hint
        metadata: dict[str, Any] = {LANGUAGE_HINT: hint} if hint else {}
        if incoming.forwarded:
            metadata[FORWARDED] = True
        metadata.update(incoming.place or {})
        message = user_message(
            text,
            replies,
            conversation,
            input_channel=self.name(),
            metadata=metadata,
            person=f"telegram:{incoming.chat_id}",
        )
        outcome = await take_turn(message, on_new_message, agent, self.hotline)
        if replies.forgotten:
            await self._keyboards.forget(conversation)
            await self._numbers.forget(conversation)
        return outcome

    async def group_notice(self, output: "TelegramOutput", group: str) -> None:
        """Tells a group, at most once a day, to write to the bot privately. When the channels'
        memory cannot be reached the group is told nothing: silence in a group harms no one,
        repeating the notice at every message would."""
        try:
            first_today = await self.memory.add(f"group-notice:{group}", GROUP_NOTICE_SECONDS)
        except MemoryUnavailable:
            first_today = False
        if not first_today:
            logger.info("telegram: a group message ignored (only private chats are answered)")
            return
        username = await self.bot_username()
        link = f"https://t.me/{username}" if username else None
        logger.info("telegram: a group was told to write privately")
        try:
            await output.send_text_message(group, write_privately(link))
        except ProviderFailure as failure:
            logger.warning("telegram: the group notice failed: %s", failure)

    async def bot_username(self) -> str | None:
        """``TELEGRAM_BOT_USERNAME``, else what ``getMe`` answers (asked once it is needed,
        and again after a failure); None when Telegram cannot tell."""
        if self._username:
            return self._username
        try:
            answer = await self.api.send(f"/bot{self.settings.token}/getMe", {}, call="getMe")
        except ProviderFailure as failure:
            logger.warning("telegram getMe failed: %s", failure)
            return None
        result = answer.get("result")
        username = result.get("username") if isinstance(result, dict) else None
        if isinstance(username, str) and username:
            self._username = username
        return self._username
