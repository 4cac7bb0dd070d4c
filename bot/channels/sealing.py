"""Sealing addresses: AES-256-GCM under a key that lives only in the bot runtime's environment
(read by ``bot/channels/settings.py``).

A sealed value is URL-safe base64 of nonce (12 random bytes) + ciphertext + tag. The plaintext
is padded to a multiple of 32 bytes, so a chat id and a phone number look alike. The associated
data ``"<conversation_id>|<channel>"`` binds each value to its row: copied onto another
conversation it no longer opens. Old keys stay readable during a rotation.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import secrets
from collections.abc import Sequence

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

KEY_ENV = "ADDRESS_ENCRYPTION_KEY"
OLD_KEYS_ENV = "ADDRESS_ENCRYPTION_OLD_KEYS"
NONCE_BYTES = 12
TAG_BYTES = 16
#: Plaintexts are padded to a multiple of this, so a sealed value does not tell a short
#: Telegram chat id from a foreign phone number by its length.
PAD_TO = 32
_KEY_TEXT = re.compile(r"[A-Za-z0-9_-]{43}=?")


class AddressBookError(ValueError):
    """The key or database configuration is missing or wrong; the message says what to fix."""


class AddressUnreadable(Exception):
    """A sealed address that no configured key opens (wrong key, tampered, moved)."""


def new_key() -> str:
    """A fresh key in the form ``ADDRESS_ENCRYPTION_KEY`` expects."""
    return base64.urlsafe_b64encode(secrets.token_bytes(32)).decode()


def key_id(key: bytes) -> str:
    """Names a key in the database without revealing it (rotation finds rows by it)."""
    return hashlib.sha256(b"address-key-id:" + key).hexdigest()[:16]


def parse_key(text: str, variable: str) -> bytes:
    """The 32 key bytes of ``text``; never echoes the value in the error."""
    value = text.strip()
    if not _KEY_TEXT.fullmatch(value):
        raise AddressBookError(
            f"{variable} must be 32 random bytes in URL-safe base64 (44 characters); "
            "make one with `python -m bot.channels.addresses new-key`."
        )
    return base64.urlsafe_b64decode(value.rstrip("=") + "=")  # 43 characters: 32 bytes


class AddressCipher:
    """Seals addresses under the current key; opens them under the current or an old key."""

    def __init__(self, key: bytes, old_keys: Sequence[bytes] = ()) -> None:
        self.current_key_id = key_id(key)
        self._ciphers = {key_id(k): AESGCM(k) for k in (*old_keys, key)}

    @classmethod
    def from_keys(cls, current: str, old: Sequence[str] = ()) -> AddressCipher:
        """The cipher of the keys as the operator wrote them (``bot/channels/settings.py``'s
        ``AddressKeys``); ``AddressBookError`` naming the variable that is missing or wrong."""
        if not current.strip():
            raise AddressBookError(
                f"{KEY_ENV} is not set: alerts need it to seal subscribers' addresses "
                "(make one with `python -m bot.channels.addresses new-key`)."
            )
        return cls(parse_key(current, KEY_ENV), [parse_key(part, OLD_KEYS_ENV) for part in old])

    def knows(self, sealed_key_id: str) -> bool:
        return sealed_key_id in self._ciphers

    def seal(self, conversation_id: str, channel: str, address: str) -> tuple[str, str]:
        """(key id, sealed) for ``address`` in the row of ``conversation_id`` on ``channel``."""
        plain = address.encode()
        plain += b"\0" * (-len(plain) % PAD_TO)
        nonce = secrets.token_bytes(NONCE_BYTES)
        sealed = self._ciphers[self.current_key_id].encrypt(
            nonce, plain, _associated(conversation_id, channel)
        )
        return self.current_key_id, base64.urlsafe_b64encode(nonce + sealed).decode()

    def open(self, conversation_id: str, channel: str, sealed_key_id: str, sealed: str) -> str:
        """The address sealed in this row, or ``AddressUnreadable``."""
        cipher = self._ciphers.get(sealed_key_id)
        if cipher is None:
            raise AddressUnreadable(f"sealed with key {sealed_key_id}, which is not configured")
        try:
            raw = base64.urlsafe_b64decode(sealed.encode())
        except (binascii.Error, ValueError) as error:
            raise AddressUnreadable("not base64") from error
        if len(raw) < NONCE_BYTES + TAG_BYTES:
            raise AddressUnreadable("too short")
        try:
            plain = cipher.decrypt(
                raw[:NONCE_BYTES], raw[NONCE_BYTES:], _associated(conversation_id, channel)
            )
        except InvalidTag as error:
            raise AddressUnreadable("does not open with its key (tampered or moved)") from error
        return str(plain.rstrip(b"\0").decode())


def _associated(conversation_id: str, channel: str) -> bytes:
    return f"{conversation_id}|{channel}".encode()
