"""Conversation ids that do not reveal who is talking.

Rasa stores every conversation under its sender id. A phone number or chat id there would turn
a seized server into a list of people; a keyed hash (HMAC-SHA256) does not, as long as the key
stays outside the database. The real address is used only to send the reply, in memory.
"""

import hashlib
import hmac
import logging
import re
import secrets
from typing import Final

from kernel.settings import CONVERSATION_ID_KEY, conversation_id_key

logger = logging.getLogger(__name__)

KEY_ENV: Final = CONVERSATION_ID_KEY
_key_in_use: bytes | None = None


def hold_key(configured: bytes | None) -> bytes:
    """Takes the key this process hashes with, once, at start: ``bot/server.py`` calls it
    before Sanic starts its workers, so that they all inherit the same one. Without a
    configured key (local development only: a production start refuses) a random one still
    hides addresses, but conversations do not survive a restart."""
    global _key_in_use
    if configured is None:
        logger.warning("%s is not set: using a random key for this process", KEY_ENV)
        configured = secrets.token_bytes(32)
    _key_in_use = configured
    return configured


def forget_key() -> None:
    """Lets the next hash take the key again (a test that changes it)."""
    global _key_in_use
    _key_in_use = None


def _key() -> bytes:
    # Read once: a process that was not started through bot/server.py (a script, a test)
    # takes it on its first hash.
    return _key_in_use if _key_in_use is not None else hold_key(conversation_id_key())


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
