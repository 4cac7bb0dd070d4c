"""Alerts, channel side: remembering where a subscriber is, and sending alerts there.

The content runtime (``actions/alerts/``) decides who gets which alert; the channels only know
how to reach a person. Two contracts with it:

* **Remember.** When a user subscribes (``action_subscribe_alerts``) or a case is opened for
  them (``action_request_caseworker``), the action sends, in the same turn, a bot message with
  the custom payload ``{"remember_address": {"expires_at": "<ISO-8601 UTC>"}}``. The reply
  output of that turn holds the address in memory; it stores it sealed in the ``AddressBook``
  (``addresses.py``), keeping the later expiry of both, and never forwards the payload.
* **Send.** The notifier calls Rasa's ``POST /conversations/<id>/trigger_intent?output_channel=
  <channel>``; Rasa asks that input channel's ``get_output_channel()`` for an ``AlertOutput``,
  which looks the address up and sends through the channel's own reply code (a caseworker's
  reply and "I am back" take the same way: ``EXTERNAL_case_reply``, ``EXTERNAL_case_closed``).
  A message that does not reach the provider raises ``AlertNotDelivered``: Rasa answers HTTP
  500 with a JSON body saying why (``kernel/contract.py``, never an address, token or message
  text), and the notifier retries or gives up by its keys.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime, timezone
from functools import partial
from typing import Any, ClassVar, NoReturn

from rasa.core.channels.channel import OutputChannel
from rasa.shared.exceptions import RasaException

from bot.channels.addresses import AddressBook
from bot.channels.counts import count_refusal
from bot.channels.deliveries import OUTBOXES, DeliveryLog
from bot.channels.sealing import KEY_ENV, AddressBookError
from bot.channels.settings import AddressKeys, for_rasa
from bot.channels.transport import ProviderFailure
from kernel.alert_rates import DEFAULT_RATES
from kernel.contract import MESSAGE_PARTS, REMEMBER_ADDRESS, WHATSAPP_TEMPLATE, NotDelivered
from kernel.pacing import Pacer
from kernel.settings import alert_rate, content_db_url, sanic_workers

logger = logging.getLogger(__name__)


class AlertNotDelivered(Exception):
    """A message that did not reach the provider; Rasa answers it to the notifier as the JSON
    of ``kernel/contract.py``'s ``NotDelivered`` (``bot/server.py``).

    The text is part of that answer, so it holds only a short reason, the provider's HTTP
    status and, when the provider said so, ``retry after <N> s``. ``permanent``: trying again
    cannot help (no stored address, the provider refused the person for good).
    """

    def __init__(
        self,
        reason: str,
        status: int | None = None,
        retry_after: int | None = None,
        *,
        permanent: bool = False,
    ) -> None:
        text = reason if status is None else f"{reason}: HTTP {status}"
        if retry_after is not None:
            text += f", retry after {retry_after} s"
        super().__init__(text)
        self.reason = reason
        self.status = status
        self.retry_after = retry_after
        self.permanent = permanent

    @classmethod
    def from_failure(cls, channel: str, failure: ProviderFailure) -> AlertNotDelivered:
        """Only the status and retry time of a provider's refusal, not its wording: providers
        quote the recipient's number in their error messages."""
        if failure.status is None:
            return cls(f"{channel}: {failure.reason}")
        return cls(
            f"{channel}: provider refused the alert",
            failure.status,
            failure.retry_after,
            permanent=failure.permanent,
        )

    def answer(self) -> NotDelivered:
        """What Rasa answers the caller of ``trigger_intent`` about it."""
        return NotDelivered(
            reason=str(self),
            permanent=self.permanent,
            retry_after=None if self.retry_after is None else float(self.retry_after),
            provider_status=self.status,
        )


def address_book_for(channel: str) -> AddressBook:
    """The address book a channel's ``from_credentials`` needs, from the keys and database read
    now, at the start; stops Rasa with a message naming the variable when the key is missing
    or malformed. Every alert channel starts here, so this is also where the alerts' pace is
    read (``take_pace``)."""
    take_pace()
    keys = AddressKeys.load()
    if not keys.configured:
        raise RasaException(
            f"The {channel} channel needs {KEY_ENV} in the environment: the key that seals "
            "subscribers' addresses for alerts (make one with "
            "`python -m bot.channels.addresses new-key`)."
        )
    try:
        return AddressBook.from_settings(keys, content_db_url())
    except AddressBookError as error:
        raise RasaException(f"The {channel} channel cannot start: {error}") from None


def requested_expiry(request: object) -> datetime | None:
    """The ``expires_at`` of a remember request (UTC when no offset is given), or None."""
    value = request.get("expires_at") if isinstance(request, dict) else None
    if not isinstance(value, str):
        return None
    try:
        expires_at = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    if expires_at.tzinfo is None:
        expires_at = expires_at.replace(tzinfo=timezone.utc)
    return expires_at.astimezone(timezone.utc)


async def custom_payload_in_reply(
    json_message: Mapping[str, Any],
    *,
    channel: str,
    conversation: str,
    address: str,
    addresses: AddressBook | None,
) -> None:
    """What a reply output does with a custom payload: store the address it holds when the
    payload asks for it; never send JSON to a person (Rasa's default would text it)."""
    if REMEMBER_ADDRESS not in json_message:
        logger.debug("%s: custom payload for %s not sent", channel, conversation)
        return
    if addresses is None:
        logger.warning(
            "%s: %s subscribed, but no address book is configured: alerts cannot reach it",
            channel,
            conversation,
        )
        return
    expires_at = requested_expiry(json_message[REMEMBER_ADDRESS])
    if expires_at is None or expires_at <= datetime.now(timezone.utc):
        logger.warning(
            "%s: remember request for %s without a valid future expires_at: not stored",
            channel,
            conversation,
        )
        return
    try:
        await addresses.remember(conversation, channel, address, expires_at)
    except Exception as error:
        # The reply goes on: the user still gets the confirmation, the operator this line.
        logger.error(
            "%s: could not store the address of %s for alerts (%s)",
            channel,
            conversation,
            type(error).__name__,
        )
        return
    logger.info("%s: address of %s stored for alerts until %s", channel, conversation, expires_at)


_pacers: dict[str, Pacer] = {}
#: Channels that send out of turn without a rate of their own (``kernel/alert_rates.py``).
CHANNELS_WITHOUT_RATE = ("webchat",)


#: This worker's share of each channel's alert rate, per second.
_shares: dict[str, float] = {}


def take_pace() -> None:
    """This worker's share of each channel's alert rate (the rate divided by
    ``SANIC_WORKERS``, ``kernel/settings.py``), read when the channels are built, never at the
    first alert; a wrong value stops Rasa's start with its name."""
    workers = for_rasa(sanic_workers)
    for channel in (*DEFAULT_RATES, *CHANNELS_WITHOUT_RATE):
        rate = for_rasa(partial(alert_rate, channel))
        _shares[channel] = rate / workers


async def pace(channel: str) -> None:
    """Wait for this worker's turn to send an alert on ``channel``: its share of the
    channel's rate (``take_pace``)."""
    if channel not in _pacers:
        if channel not in _shares:
            take_pace()  # a channel built without from_credentials (a test, a script)
        _pacers[channel] = Pacer(_shares.get(channel) or min(_shares.values()))
    await _pacers[channel].wait()


class AlertOutput(OutputChannel):
    """Sends the messages of one ``trigger_intent`` to a subscriber's stored address.

    Made per request by the input channel's ``get_output_channel()``. Subclasses name the
    channel and ``open`` the channel's own reply output for an address (it raises
    ``ProviderFailure`` when the provider refuses, which becomes ``AlertNotDelivered`` here);
    everything else (lookup, refusals, payloads) is decided here.
    """

    #: Whether ``{"whatsapp_template": ...}`` payloads can be sent (WhatsApp Cloud API only).
    sends_templates: ClassVar[bool] = False

    def __init__(self, addresses: AddressBook | None) -> None:
        self.addresses = addresses
        self._outputs: dict[str, OutputChannel] = {}

    async def open(self, conversation: str, address: str) -> OutputChannel:
        """The channel's reply output for ``address``, raising ``ProviderFailure``."""
        raise NotImplementedError

    async def send_response(self, recipient_id: str, message: dict[str, Any]) -> None:
        message = dict(message)
        custom = dict(message["custom"]) if isinstance(message.get("custom"), dict) else None
        # Which outbox row this message is (an alert, a caseworker's reply), if any.
        tag = next((key for key in OUTBOXES if custom is not None and key in custom), None)
        delivery = custom.pop(tag) if custom is not None and tag is not None else None
        if custom is not None:
            message["custom"] = custom
        if custom is not None and REMEMBER_ADDRESS in custom:
            del message["custom"]  # an alert never stores an address
            if not any(message.get(part) for part in MESSAGE_PARTS):
                return
        elif custom is not None and not custom:
            del message["custom"]  # it only carried the delivery id
        elif custom is not None and WHATSAPP_TEMPLATE in custom and not self.sends_templates:
            self._refuse(recipient_id, "template messages are for the whatsapp channel only")
        output = await self._output_for(recipient_id)

        async def send() -> None:
            try:
                await output.send_response(recipient_id, message)
            except ProviderFailure as failure:
                count_refusal(self.name(), failure)
                error = AlertNotDelivered.from_failure(self.name(), failure)
                logger.warning(
                    "%s: alert to %s not delivered: %s", self.name(), recipient_id, error
                )
                raise error from failure

        await pace(self.name())  # right before the provider: Rasa's delays bunch the requests
        if isinstance(delivery, int) and tag is not None and self.addresses is not None:
            log = DeliveryLog(self.addresses.engine, table=OUTBOXES[tag])
            await log.send_once(delivery, send)
        else:
            await send()

    async def send_text_message(self, recipient_id: str, text: str, **kwargs: Any) -> None:
        await self.send_response(recipient_id, {"text": text})

    async def send_text_with_buttons(
        self, recipient_id: str, text: str, buttons: list[dict[str, Any]], **kwargs: Any
    ) -> None:
        await self.send_response(recipient_id, {"text": text, "buttons": buttons})

    async def send_custom_json(
        self, recipient_id: str, json_message: dict[str, Any], **kwargs: Any
    ) -> None:
        await self.send_response(recipient_id, {"custom": json_message})

    def _refuse(self, conversation: str, reason: str, *, permanent: bool = False) -> NoReturn:
        logger.warning("%s: alert to %s not delivered: %s", self.name(), conversation, reason)
        raise AlertNotDelivered(f"{self.name()}: {reason}", permanent=permanent)

    async def _output_for(self, conversation: str) -> OutputChannel:
        if conversation in self._outputs:
            return self._outputs[conversation]
        if self.addresses is None:
            self._refuse(conversation, f"no address book configured ({KEY_ENV})")
        try:
            address = await self.addresses.lookup(conversation, self.name())
        except Exception as error:
            self._refuse(conversation, f"address book unavailable ({type(error).__name__})")
        if address is None:
            self._refuse(conversation, "no stored address", permanent=True)
        output = await self.open(conversation, address)
        self._outputs[conversation] = output
        return output
