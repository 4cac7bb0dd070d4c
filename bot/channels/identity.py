"""Conversation ids that do not reveal who is talking.

Rasa stores every conversation under its sender id. A phone number or chat id there would turn
a seized server into a list of people; a keyed hash (HMAC-SHA256) does not, as long as the key
stays outside the database. The real address is used only to send the reply, in memory.
"""

import hashlib
import hmac
import logging
import os
import re
import secrets
from typing import Final

logger = logging.getLogger(__name__)

KEY_ENV = "CONVERSATION_ID_KEY"
_generated_key: bytes | None = None


def _key() -> bytes:
    configured = os.environ.get(KEY_ENV, "")
    if configured:
        return configured.encode()
    global _generated_key
    if _generated_key is None:
        # Local development: a per-process key still hides addresses, but conversations do not
        # survive a restart. Production sets CONVERSATION_ID_KEY (README, docs/).
        logger.warning("%s is not set: using a random key for this process", KEY_ENV)
        _generated_key = secrets.token_bytes(32)
    return _generated_key


def conversation_id(channel: str, address: str) -> str:
    """The sender id Rasa sees for ``address`` (a phone number, chat id...) on ``channel``."""
    digest = hmac.new(_key(), f"{channel}:{address}".encode(), hashlib.sha256).hexdigest()
    return f"{channel}-{digest[:40]}"


_PHONE: Final = re.compile(r"^(whatsapp:)?\+?[\d\s().-]{7,}$")


def person_tag(address: str) -> str:
    """A keyed hash of who is writing, the same on every channel that knows them by it: a phone
    number however it is spelled (SMS, WhatsApp, Twilio's ``whatsapp:+…``), else the address as
    given (a Telegram chat id, a web chat client's network address)."""
    value = address.strip()
    if _PHONE.match(value):
        value = "phone:" + re.sub(r"\D", "", value)
    return keyed_tag("person", value)


def keyed_tag(purpose: str, value: str) -> str:
    """A keyed hash of ``value`` for ``purpose`` (e.g. a conversation id in the question log):
    linkable to ``value`` only by someone who holds ``CONVERSATION_ID_KEY``."""
    message = f"{purpose}:{value}".encode()
    return hmac.new(_key(), message, hashlib.sha256).hexdigest()[:32]
