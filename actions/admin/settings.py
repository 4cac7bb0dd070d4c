"""The admin API's configuration, from environment variables, with defaults that work locally.

Binds to 127.0.0.1 unless told otherwise: exposing the API is a deliberate step, behind a
reverse proxy that terminates TLS (bearer tokens must never cross a network in clear text).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from actions.admin.clients import Network, networks
from actions.settings import RasaSettings, SettingsError
from kernel.settings import metrics_token
from kernel.settings_values import whole_number

HOST_ENV, PORT_ENV, MAX_BODY_ENV = "ADMIN_HOST", "ADMIN_PORT", "ADMIN_MAX_BODY_BYTES"
#: The console's cookies carry ``Secure`` (sent over HTTPS only): set it behind a TLS proxy.
SECURE_COOKIES_ENV = "CONSOLE_SECURE_COOKIES"
#: How long a console sign-in lasts, in hours (a phone kept open through a night shift).
SESSION_HOURS_ENV = "CONSOLE_SESSION_HOURS"
#: Where editors reach the console, for the links ``invite`` prints.
PUBLIC_URL_ENV = "CONSOLE_PUBLIC_URL"
#: How often the caseworkers' queue fetches itself again, in seconds (new cases appear).
CASES_POLL_ENV = "CONSOLE_CASES_POLL_SECONDS"
DEFAULT_CASES_POLL_SECONDS = 10
#: The reverse proxies (addresses or networks, comma-separated) whose ``X-Forwarded-For`` names
#: the client: failed sign-ins are then counted per client, not per proxy (``clients.py``).
TRUSTED_PROXIES_ENV = "CONSOLE_TRUSTED_PROXIES"
DEFAULT_SESSION_HOURS = 12
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 5056
#: The whole demo data set is about 50 KiB of YAML; a MiB leaves room and stops abuse.
DEFAULT_MAX_BODY_BYTES = 1024 * 1024


@dataclass(frozen=True)
class AdminSettings:
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    secure_cookies: bool = False
    session_hours: int = DEFAULT_SESSION_HOURS
    public_url: str = ""
    #: Rasa's HTTP API, through which closing a case hands the conversation back to the
    #: assistant (the notifier's: the same server and token).
    rasa: RasaSettings = field(default_factory=RasaSettings)
    cases_poll_seconds: int = DEFAULT_CASES_POLL_SECONDS
    trusted_proxies: tuple[Network, ...] = ()
    #: ``METRICS_TOKEN`` (``kernel/settings.py``); None: ``/metrics`` answers nobody.
    metrics_token: str | None = None

    @classmethod
    def from_env(cls) -> AdminSettings:
        """Settings from ``ADMIN_*`` and ``CONSOLE_*`` (see the constants above)."""
        host = os.environ.get(HOST_ENV, "").strip() or DEFAULT_HOST
        port = whole_number(os.environ, PORT_ENV, DEFAULT_PORT)
        return cls(
            host=host,
            port=port,
            max_body_bytes=whole_number(os.environ, MAX_BODY_ENV, DEFAULT_MAX_BODY_BYTES),
            secure_cookies=_flag(SECURE_COOKIES_ENV),
            session_hours=whole_number(os.environ, SESSION_HOURS_ENV, DEFAULT_SESSION_HOURS),
            public_url=(
                os.environ.get(PUBLIC_URL_ENV, "").strip() or f"http://{host}:{port}"
            ).rstrip("/"),
            rasa=RasaSettings.from_env(),
            cases_poll_seconds=whole_number(os.environ, CASES_POLL_ENV, DEFAULT_CASES_POLL_SECONDS),
            trusted_proxies=_proxies(),
            metrics_token=metrics_token(),
        )


def _proxies() -> tuple[Network, ...]:
    raw = os.environ.get(TRUSTED_PROXIES_ENV, "")
    try:
        return networks(raw)
    except ValueError as error:
        raise SettingsError(f"{TRUSTED_PROXIES_ENV}: {error}") from None


def _flag(name: str) -> bool:
    raw = os.environ.get(name, "").strip().lower()
    if raw in ("", "0", "false", "no"):
        return False
    if raw in ("1", "true", "yes"):
        return True
    raise SettingsError(f"{name} is {raw!r}; write true or false")
