"""The admin API's configuration, from environment variables, with defaults that work locally.

Binds to 127.0.0.1 unless told otherwise: exposing the API is a deliberate step, behind a
reverse proxy that terminates TLS (bearer tokens must never cross a network in clear text).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

HOST_ENV, PORT_ENV, MAX_BODY_ENV = "ADMIN_HOST", "ADMIN_PORT", "ADMIN_MAX_BODY_BYTES"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 5056
#: The whole demo data set is about 50 KiB of YAML; a MiB leaves room and stops abuse.
DEFAULT_MAX_BODY_BYTES = 1024 * 1024


class SettingsError(ValueError):
    """An environment variable the API cannot use; the message names it."""


@dataclass(frozen=True)
class AdminSettings:
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES

    @classmethod
    def from_env(cls) -> AdminSettings:
        """Settings from ``ADMIN_HOST``, ``ADMIN_PORT`` and ``ADMIN_MAX_BODY_BYTES``."""
        return cls(
            host=os.environ.get(HOST_ENV, "").strip() or DEFAULT_HOST,
            port=_whole(PORT_ENV, DEFAULT_PORT),
            max_body_bytes=_whole(MAX_BODY_ENV, DEFAULT_MAX_BODY_BYTES),
        )


def _whole(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SettingsError(f"{name} is {raw!r}; give a whole number like {default}") from None
    if value <= 0:
        raise SettingsError(f"{name} is {value}; it must be positive")
    return value
