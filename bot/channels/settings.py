"""What the connectors read from the environment, in one place, read once.

Rasa builds each channel with ``from_credentials`` when it starts; that is when these are read,
never while a person's message is being answered. A value that cannot be used is a
``SettingsError`` (``kernel/settings_values.py``) naming the variable; ``for_rasa`` turns it into
the ``RasaException`` with which Rasa stops and prints the message, without a traceback.

Secrets (tokens, app secrets) come from the environment only; the SMS channels also take their
values from ``credentials.yml``, which then win over the environment.
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Final, TypeVar

from rasa.shared.exceptions import RasaException

from bot.channels.dedup import DEFAULT_MAX_AGE, MAX_AGE_ENV, REMEMBER_IDS_SECONDS
from bot.channels.sealing import KEY_ENV, OLD_KEYS_ENV
from kernel.settings_values import SettingsError, duration_setting, positive_number, whole_number

T = TypeVar("T")

#: The operator's number for people the assistant cannot help right now (also read by the
#: action server, actions/settings.py).
HOTLINE_ENV: Final = "EMERGENCY_HOTLINE"

TELEGRAM_TOKEN_ENV: Final = "TELEGRAM_BOT_TOKEN"
TELEGRAM_SECRET_ENV: Final = "TELEGRAM_SECRET_TOKEN"
TELEGRAM_BASE_URL_ENV: Final = "TELEGRAM_API_BASE_URL"
#: The bot's @username, for the https://t.me/<username> link a group is given; optional: the
#: connector asks Telegram (getMe) when it is not set.
TELEGRAM_USERNAME_ENV: Final = "TELEGRAM_BOT_USERNAME"
_TELEGRAM_USERNAME_RULE: Final = re.compile(r"[A-Za-z0-9_]{5,32}")  # what @BotFather allows
TELEGRAM_DEFAULT_BASE_URL: Final = "https://api.telegram.org"
_TELEGRAM_SECRET_RULE: Final = re.compile(r"[A-Za-z0-9_-]{1,256}")  # what setWebhook accepts

WHATSAPP_APP_SECRET_ENV: Final = "WHATSAPP_APP_SECRET"
WHATSAPP_VERIFY_TOKEN_ENV: Final = "WHATSAPP_VERIFY_TOKEN"
WHATSAPP_ACCESS_TOKEN_ENV: Final = "WHATSAPP_ACCESS_TOKEN"
WHATSAPP_PHONE_NUMBER_ID_ENV: Final = "WHATSAPP_PHONE_NUMBER_ID"
WHATSAPP_BASE_URL_ENV: Final = "WHATSAPP_API_BASE_URL"
WHATSAPP_DEFAULT_BASE_URL: Final = "https://graph.facebook.com/v19.0"

#: Where the web chat page sends a person whose browser runs no JavaScript, or who is told to
#: wait (shown only if set).
WEBCHAT_SMS_NUMBER_ENV: Final = "WEBCHAT_SMS_NUMBER"
WEBCHAT_TELEGRAM_ENV: Final = "WEBCHAT_TELEGRAM"
#: The web chat's limits per client: its page's ticket, or its address (webchat_limits.py).
WEBCHAT_MESSAGES_PER_MINUTE_ENV: Final = "WEBCHAT_MESSAGES_PER_MINUTE"
WEBCHAT_CONVERSATIONS_PER_HOUR_ENV: Final = "WEBCHAT_CONVERSATIONS_PER_HOUR"
WEBCHAT_CONVERSATIONS_PER_HOUR_WITH_WORK_ENV: Final = "WEBCHAT_CONVERSATIONS_PER_HOUR_WITH_WORK"
WEBCHAT_NETWORK_MESSAGES_PER_MINUTE_ENV: Final = "WEBCHAT_NETWORK_MESSAGES_PER_MINUTE"
#: Peers whose client-address header is believed: addresses or networks, comma-separated.
WEBCHAT_TRUSTED_PROXIES_ENV: Final = "WEBCHAT_TRUSTED_PROXIES"
WEBCHAT_CLIENT_HEADER_ENV: Final = "WEBCHAT_CLIENT_HEADER"
DEFAULT_WEBCHAT_MESSAGES_PER_MINUTE: Final = 60
DEFAULT_WEBCHAT_CONVERSATIONS_PER_HOUR: Final = 30
#: 300 people an hour behind one address (a carrier's NAT, a hotel's Wi-Fi), with room to spare.
DEFAULT_WEBCHAT_CONVERSATIONS_PER_HOUR_WITH_WORK: Final = 400
#: Ten busy people's worth: what the many pages behind one address send together at a peak.
DEFAULT_WEBCHAT_NETWORK_MESSAGES_PER_MINUTE: Final = 600
DEFAULT_WEBCHAT_CLIENT_HEADER: Final = "X-Forwarded-For"
#: The sites that may show the web chat inside their own pages (``/webchat/embed.js``): the
#: page's ``frame-ancestors`` names them beside its own origin.
WEBCHAT_ORIGINS_ENV: Final = "WEBCHAT_ORIGINS"
_ORIGIN_RULE: Final = re.compile(
    r"(?P<scheme>https?)://(?P<host>[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?|\[[0-9a-f:.]+\])"
    r"(?::(?P<port>[0-9]{1,5}))?"
)

TWILIO_CHANNEL: Final = "twilio_sms"
TWILIO_DEFAULT_BASE_URL: Final = "https://api.twilio.com"
GATEWAY_CHANNEL: Final = "sms_gateway"


def for_rasa(load: Callable[[], T]) -> T:
    """``load()``; its ``SettingsError`` as the ``RasaException`` that stops Rasa cleanly."""
    try:
        return load()
    except SettingsError as error:
        raise RasaException(str(error)) from None


def hotline(environ: Mapping[str, str] = os.environ) -> str | None:
    """``EMERGENCY_HOTLINE`` on one line, or None when the operator set none."""
    number = " ".join(environ.get(HOTLINE_ENV, "").split())
    return number or None


def seals_addresses(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether the deployment has the key that seals subscribers' addresses."""
    return AddressKeys.load(environ).configured


@dataclass(frozen=True)
class AddressKeys:
    """``ADDRESS_ENCRYPTION_KEY`` and, during a rotation, ``ADDRESS_ENCRYPTION_OLD_KEYS``, as
    the operator wrote them; ``sealing.AddressCipher.from_keys`` checks and decodes them."""

    current: str = ""
    old: tuple[str, ...] = ()

    @property
    def configured(self) -> bool:
        return bool(self.current.strip())

    @classmethod
    def load(cls, environ: Mapping[str, str] = os.environ) -> AddressKeys:
        old = environ.get(OLD_KEYS_ENV, "").split(",")
        return cls(environ.get(KEY_ENV, ""), tuple(part for part in old if part.strip()))


def message_max_age(environ: Mapping[str, str] = os.environ) -> timedelta:
    """``MESSAGE_MAX_AGE`` (``6h``, ``90m``, ``1d``); ``DEFAULT_MAX_AGE`` when unset. At most
    as long as answered ids are remembered (``bot/channels/dedup.py``): an older replay would
    be caught by neither."""
    age = duration_setting(environ, MAX_AGE_ENV, DEFAULT_MAX_AGE)
    if age.total_seconds() > REMEMBER_IDS_SECONDS:
        raise ValueError(
            f"{MAX_AGE_ENV} is {environ.get(MAX_AGE_ENV)!r}; at most 7d (answered message ids "
            "are remembered for 7 days)"
        )
    return age


@dataclass(frozen=True)
class RedisSettings:
    """The production profile's Redis, the lock store's, where the channels' memory is shared
    by every Rasa process (``bot/channels/redis_memory.py``)."""

    host: str
    port: int
    db: int = 0
    password: str | None = None
    #: The deployment's ``REDIS_KEY_PREFIX`` when it is letters and digits (as Rasa's lock
    #: store takes it), else empty.
    key_prefix: str = ""

    @classmethod
    def load(cls, environ: Mapping[str, str] = os.environ) -> RedisSettings | None:
        """``REDIS_HOST``, ``REDIS_PORT``, ``REDIS_DB``, ``REDIS_PASSWORD`` and
        ``REDIS_KEY_PREFIX``; None without ``REDIS_HOST`` (then each process remembers alone)."""
        host = environ.get("REDIS_HOST", "").strip()
        if not host:
            return None
        port, db = environ.get("REDIS_PORT", "").strip(), environ.get("REDIS_DB", "").strip()
        if not port.isdigit() or not (db or "0").isdigit():
            raise ValueError("REDIS_PORT and REDIS_DB must be numbers (docs/OPERATIONS.md)")
        deployment = environ.get("REDIS_KEY_PREFIX", "").strip()
        return cls(
            host=host,
            port=int(port),
            db=int(db or 0),
            password=environ.get("REDIS_PASSWORD") or None,
            key_prefix=deployment if deployment.isalnum() else "",
        )


@dataclass(frozen=True)
class TelegramSettings:
    """The bot's token, the secret given to ``setWebhook``, the Bot API's address, and the
    bot's username when the operator gives it."""

    token: str
    secret: str
    api_base_url: str = TELEGRAM_DEFAULT_BASE_URL
    username: str | None = None

    @classmethod
    def load(cls, environ: Mapping[str, str] = os.environ) -> TelegramSettings:
        token, secret = environ.get(TELEGRAM_TOKEN_ENV, ""), environ.get(TELEGRAM_SECRET_ENV, "")
        required = ((TELEGRAM_TOKEN_ENV, token), (TELEGRAM_SECRET_ENV, secret))
        missing = [name for name, value in required if not value]
        if missing:
            raise SettingsError(
                f"The telegram channel needs {' and '.join(missing)} in the environment: "
                "the token from @BotFather and the secret given to setWebhook."
            )
        if not _TELEGRAM_SECRET_RULE.fullmatch(secret):
            raise SettingsError(
                f"{TELEGRAM_SECRET_ENV} must be 1-256 characters of A-Z, a-z, 0-9, _ and - "
                "(Telegram refuses any other secret_token)."
            )
        base_url = environ.get(TELEGRAM_BASE_URL_ENV) or TELEGRAM_DEFAULT_BASE_URL
        username = environ.get(TELEGRAM_USERNAME_ENV, "").strip().removeprefix("@")
        if username and not _TELEGRAM_USERNAME_RULE.fullmatch(username):
            raise SettingsError(
                f"{TELEGRAM_USERNAME_ENV} must be the bot's username from @BotFather "
                "(5-32 characters of A-Z, a-z, 0-9 and _), or unset."
            )
        return cls(token, secret, base_url, username or None)


@dataclass(frozen=True)
class WhatsAppSettings:
    """From the Meta App Dashboard, plus a verify token of the operator's choosing."""

    app_secret: str
    verify_token: str
    access_token: str
    phone_number_id: str
    api_base_url: str = WHATSAPP_DEFAULT_BASE_URL

    @classmethod
    def load(cls, environ: Mapping[str, str] = os.environ) -> WhatsAppSettings:
        names = (
            WHATSAPP_APP_SECRET_ENV,
            WHATSAPP_VERIFY_TOKEN_ENV,
            WHATSAPP_ACCESS_TOKEN_ENV,
            WHATSAPP_PHONE_NUMBER_ID_ENV,
        )
        values = {name: environ.get(name, "") for name in names}
        missing = [name for name, value in values.items() if not value]
        if missing:
            raise SettingsError(
                f"The whatsapp channel needs {', '.join(missing)} in the environment: "
                "from the Meta App Dashboard, plus a verify token of your choosing."
            )
        base_url = environ.get(WHATSAPP_BASE_URL_ENV) or WHATSAPP_DEFAULT_BASE_URL
        secret, verify_token, access_token, number = (values[name] for name in names)
        return cls(secret, verify_token, access_token, number, base_url)


@dataclass(frozen=True)
class TwilioSettings:
    """Credentials and addresses; ``credentials.yml`` values win over environment variables."""

    account_sid: str
    auth_token: str
    webhook_base_url: str
    sms_from: str
    whatsapp_from: str | None = None
    api_base_url: str = TWILIO_DEFAULT_BASE_URL

    @classmethod
    def load(
        cls, credentials: Mapping[str, Any] | None, environ: Mapping[str, str] = os.environ
    ) -> TwilioSettings:
        def value(key: str, variable: str) -> str:
            return str((credentials or {}).get(key) or environ.get(variable) or "").strip()

        required = {
            "account_sid": "TWILIO_ACCOUNT_SID",
            "auth_token": "TWILIO_AUTH_TOKEN",
            "webhook_base_url": "TWILIO_WEBHOOK_BASE_URL",
            "from_number": "TWILIO_FROM_NUMBER",
        }
        missing = [variable for key, variable in required.items() if not value(key, variable)]
        if missing:
            raise SettingsError(
                f"The {TWILIO_CHANNEL} channel needs {', '.join(missing)} (environment "
                f"variables, or {', '.join(k for k, v in required.items() if v in missing)} "
                "in credentials.yml)."
            )
        base_url = value("webhook_base_url", "TWILIO_WEBHOOK_BASE_URL")
        if not base_url.startswith(("https://", "http://")):
            # Every signature would fail against a URL Twilio cannot have called.
            raise SettingsError(
                "TWILIO_WEBHOOK_BASE_URL must be the public address Twilio calls, "
                "e.g. https://bot.example.org (without /webhooks/...)"
            )
        return cls(
            account_sid=value("account_sid", "TWILIO_ACCOUNT_SID"),
            auth_token=value("auth_token", "TWILIO_AUTH_TOKEN"),
            webhook_base_url=base_url.rstrip("/"),
            sms_from=value("from_number", "TWILIO_FROM_NUMBER"),
            whatsapp_from=value("whatsapp_from", "TWILIO_WHATSAPP_FROM") or None,
            api_base_url=(
                value("api_base_url", "TWILIO_API_BASE_URL") or TWILIO_DEFAULT_BASE_URL
            ).rstrip("/"),
        )


@dataclass(frozen=True)
class GatewaySettings:
    """Shared secret and send URL; ``credentials.yml`` values win over environment variables."""

    secret: str
    send_url: str

    @classmethod
    def load(
        cls, credentials: Mapping[str, Any] | None, environ: Mapping[str, str] = os.environ
    ) -> GatewaySettings:
        secret = str((credentials or {}).get("secret") or environ.get("SMS_GATEWAY_SECRET") or "")
        send_url = str(
            (credentials or {}).get("send_url") or environ.get("SMS_GATEWAY_SEND_URL") or ""
        )
        missing = [
            name
            for name, value in (("SMS_GATEWAY_SECRET", secret), ("SMS_GATEWAY_SEND_URL", send_url))
            if not value.strip()
        ]
        if missing:
            raise SettingsError(
                f"The {GATEWAY_CHANNEL} channel needs {', '.join(missing)} (environment "
                "variables, or secret / send_url in credentials.yml)."
            )
        return cls(secret=secret.strip(), send_url=send_url.strip())


KANNEL_CHANNEL: Final = "kannel"
#: Where Kannel's smsbox reaches the bot when none is given: Kannel runs beside it.
KANNEL_DEFAULT_WEBHOOK_BASE_URL: Final = "http://127.0.0.1:5005"
#: The secret travels in URLs Kannel fills in (``%`` starts its placeholders there): letters,
#: digits, ``-`` and ``_`` only, and long enough not to be guessed.
_KANNEL_SECRET_RULE: Final = re.compile(r"[A-Za-z0-9_-]{16,256}")


@dataclass(frozen=True)
class KannelSettings:
    """Kannel's sendsms account, its URL, the secret in our URLs, and where Kannel reaches us;
    ``credentials.yml`` values win over environment variables."""

    secret: str
    username: str
    password: str
    send_url: str
    sender: str | None = None
    webhook_base_url: str = KANNEL_DEFAULT_WEBHOOK_BASE_URL

    @classmethod
    def load(
        cls, credentials: Mapping[str, Any] | None, environ: Mapping[str, str] = os.environ
    ) -> KannelSettings:
        def value(key: str, variable: str) -> str:
            return str((credentials or {}).get(key) or environ.get(variable) or "").strip()

        required = {
            "secret": "KANNEL_SECRET",
            "username": "KANNEL_USERNAME",
            "password": "KANNEL_PASSWORD",
            "send_url": "KANNEL_SEND_URL",
        }
        missing = [variable for key, variable in required.items() if not value(key, variable)]
        if missing:
            raise SettingsError(
                f"The {KANNEL_CHANNEL} channel needs {', '.join(missing)} (environment "
                f"variables, or {', '.join(k for k, v in required.items() if v in missing)} "
                "in credentials.yml)."
            )
        secret = value("secret", "KANNEL_SECRET")
        if not _KANNEL_SECRET_RULE.fullmatch(secret):
            raise SettingsError(
                "KANNEL_SECRET must be 16-256 characters of A-Z, a-z, 0-9, _ and - (it goes "
                "into Kannel's URLs), e.g. from: python -c 'import secrets; "
                "print(secrets.token_urlsafe(32))'"
            )
        send_url = value("send_url", "KANNEL_SEND_URL")
        base_url = value("webhook_base_url", "KANNEL_WEBHOOK_BASE_URL")
        for name, url in (("KANNEL_SEND_URL", send_url), ("KANNEL_WEBHOOK_BASE_URL", base_url)):
            if url and not url.startswith(("http://", "https://")):
                raise SettingsError(
                    f"{name} must be an http:// or https:// URL, e.g. "
                    "http://127.0.0.1:13013/cgi-bin/sendsms (smsbox) or http://127.0.0.1:5005"
                )
        return cls(
            secret=secret,
            username=value("username", "KANNEL_USERNAME"),
            password=value("password", "KANNEL_PASSWORD"),
            send_url=send_url,
            sender=value("from_number", "KANNEL_FROM") or None,
            webhook_base_url=(base_url or KANNEL_DEFAULT_WEBHOOK_BASE_URL).rstrip("/"),
        )


IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


def _networks(environ: Mapping[str, str], name: str) -> tuple[IPNetwork, ...]:
    found = []
    for part in environ.get(name, "").replace(" ", ",").split(","):
        if not part:
            continue
        try:
            found.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            raise SettingsError(
                f"{name} has {part!r}; give IP addresses or networks, comma-separated, "
                "such as 127.0.0.1,10.0.0.0/8"
            ) from None
    return tuple(found)


def _origin(part: str) -> str:
    """One origin as a browser writes it (``https://ngo.example.org``, ``http://10.0.0.5:8080``):
    ``frame-ancestors`` matches a page by scheme, host and port alone, and a path, a wildcard or
    a stray ``;`` would either match nothing or break the header it goes into."""
    written = part.strip()
    lowered = written.lower().removesuffix("/")
    found = _ORIGIN_RULE.fullmatch(lowered)
    port = found.group("port") if found else None
    if found is None or (port is not None and not 0 < int(port) < 65536):
        raise SettingsError(
            f"{WEBCHAT_ORIGINS_ENV} has {written!r}; each origin must be scheme://host[:port] "
            "(http or https, no path, no wildcard), comma-separated, such as "
            "https://ngo.example.org,https://help.example.net:8443"
        )
    host = found.group("host")
    if host.startswith("["):
        try:
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            raise SettingsError(
                f"{WEBCHAT_ORIGINS_ENV} has {written!r}; {host} is not an IPv6 address"
            ) from None
    return lowered


def _origins(environ: Mapping[str, str]) -> tuple[str, ...]:
    """``WEBCHAT_ORIGINS``, each checked (``_origin``), in the order given, once each."""
    parts = [part for part in environ.get(WEBCHAT_ORIGINS_ENV, "").split(",") if part.strip()]
    return tuple(dict.fromkeys(_origin(part) for part in parts))


@dataclass(frozen=True)
class WebchatSettings:
    """The other ways in (shown without JavaScript, and to a person told to wait), and the
    limits per client (``bot/channels/webchat_limits.py``).

    ``conversations_per_hour`` new conversations an address opens without more ado (and all
    that a page too old to carry a ticket may open); past them, up to
    ``conversations_per_hour_with_work``, each after a proof of work. ``messages_per_minute``
    per page that has a ticket, else per address; ``network_messages_per_minute`` from one
    address, whatever its pages. The two ceilings are never below the numbers they cap.

    A person behind a proxy is known by the proxy's header only when the peer is one of
    ``trusted_proxies``: anyone else could write any address there and escape the limits.

    ``origins``: the sites whose pages may show the chat in a frame (``embed.js``); every
    other site's frame stays empty, refused by the browser (``frame_ancestors``).
    """

    sms_number: str | None = None
    telegram: str | None = None
    messages_per_minute: int = DEFAULT_WEBCHAT_MESSAGES_PER_MINUTE
    conversations_per_hour: int = DEFAULT_WEBCHAT_CONVERSATIONS_PER_HOUR
    trusted_proxies: tuple[IPNetwork, ...] = ()
    client_header: str = DEFAULT_WEBCHAT_CLIENT_HEADER
    conversations_per_hour_with_work: int = DEFAULT_WEBCHAT_CONVERSATIONS_PER_HOUR_WITH_WORK
    network_messages_per_minute: int = DEFAULT_WEBCHAT_NETWORK_MESSAGES_PER_MINUTE
    origins: tuple[str, ...] = ()

    @property
    def frame_ancestors(self) -> str:
        """The page's ``frame-ancestors`` sources: its own origin and ``origins``."""
        return " ".join(("'self'", *self.origins))

    @property
    def conversations_ceiling(self) -> int:
        """New conversations an address may open an hour at all (with work past the first)."""
        return max(self.conversations_per_hour, self.conversations_per_hour_with_work)

    @property
    def network_ceiling(self) -> int:
        """Messages an address may send a minute, from all its pages together."""
        return max(self.messages_per_minute, self.network_messages_per_minute)

    @classmethod
    def load(cls, environ: Mapping[str, str] = os.environ) -> WebchatSettings:
        """``WEBCHAT_SMS_NUMBER`` (else the Twilio channel's own number), ``WEBCHAT_TELEGRAM``,
        the limits, the trusted proxies with their header, and ``WEBCHAT_ORIGINS``."""
        sms = " ".join(
            (environ.get(WEBCHAT_SMS_NUMBER_ENV) or environ.get("TWILIO_FROM_NUMBER", "")).split()
        )
        telegram = " ".join(environ.get(WEBCHAT_TELEGRAM_ENV, "").split())
        header = environ.get(WEBCHAT_CLIENT_HEADER_ENV, "").strip() or DEFAULT_WEBCHAT_CLIENT_HEADER
        if not re.fullmatch(r"[A-Za-z0-9-]{1,64}", header):
            raise SettingsError(
                f"{WEBCHAT_CLIENT_HEADER_ENV} is {header!r}; give a header name like "
                f"{DEFAULT_WEBCHAT_CLIENT_HEADER}"
            )
        return cls(
            sms_number=sms or None,
            telegram=telegram or None,
            messages_per_minute=whole_number(
                environ, WEBCHAT_MESSAGES_PER_MINUTE_ENV, DEFAULT_WEBCHAT_MESSAGES_PER_MINUTE
            ),
            conversations_per_hour=whole_number(
                environ, WEBCHAT_CONVERSATIONS_PER_HOUR_ENV, DEFAULT_WEBCHAT_CONVERSATIONS_PER_HOUR
            ),
            trusted_proxies=_networks(environ, WEBCHAT_TRUSTED_PROXIES_ENV),
            client_header=header,
            conversations_per_hour_with_work=whole_number(
                environ,
                WEBCHAT_CONVERSATIONS_PER_HOUR_WITH_WORK_ENV,
                DEFAULT_WEBCHAT_CONVERSATIONS_PER_HOUR_WITH_WORK,
            ),
            network_messages_per_minute=whole_number(
                environ,
                WEBCHAT_NETWORK_MESSAGES_PER_MINUTE_ENV,
                DEFAULT_WEBCHAT_NETWORK_MESSAGES_PER_MINUTE,
            ),
            origins=_origins(environ),
        )


#: How the providers' webhooks are taken (bot/channels/intake/): ``queue`` answers the
#: provider at once and turns the message later, ``direct`` turns it before answering.
INTAKE_ENV: Final = "CHANNEL_INTAKE"
INTAKE_WORKERS_ENV: Final = "INTAKE_WORKERS"
INTAKE_PARTITIONS_ENV: Final = "INTAKE_PARTITIONS"
QUEUE_NOTICE_SECONDS_ENV: Final = "QUEUE_NOTICE_SECONDS"
INTAKE_CLAIM_IDLE_ENV: Final = "INTAKE_CLAIM_IDLE_SECONDS"
INTAKE_REPLY_HOLD_ENV: Final = "INTAKE_REPLY_HOLD_SECONDS"
INTAKE_IN_LINE_PER_PERSON_ENV: Final = "INTAKE_IN_LINE_PER_PERSON"
INTAKE_JUMPS_PER_PERSON_ENV: Final = "INTAKE_JUMPS_PER_PERSON"
#: The SQLite file the embedded profile's line is kept in (bot/channels/intake/kept_line.py).
INTAKE_JOURNAL_ENV: Final = "INTAKE_JOURNAL"
INTAKE_MODES: Final = ("queue", "direct")


#: REST and the web chat answer in the HTTP response, but past this many turns in progress
#: in the Rasa process a turn still under way after ``QUEUE_NOTICE_SECONDS`` is answered with
#: the notice that the message is in line (bot/channels/sync_turns.py).
SYNC_TURNS_WAITING_ENV: Final = "SYNC_TURNS_WAITING"
#: About three seconds of turns on two cores (a turn is ~0.1 s of CPU): a longer wait in a
#: page or a client is better said than spent silent.
DEFAULT_SYNC_TURNS_WAITING: Final = 32


def sync_turns_waiting(environ: Mapping[str, str] = os.environ) -> int:
    """``SYNC_TURNS_WAITING``: the turns REST and the web chat take at once in this process
    before the next message may be answered with the notice of the wait."""
    return whole_number(environ, SYNC_TURNS_WAITING_ENV, DEFAULT_SYNC_TURNS_WAITING)


@dataclass(frozen=True)
class LineShare:
    """Each person's share of their line, so that one sender cannot hold up the others.

    ``in_line``: how many of a person's messages are in line at once; the later ones are
    parked and join the end of the line one by one as the earlier ones are answered, so a
    person's second message waits behind everyone else's first (0: no limit, each message
    joins the line as it comes). ``jumps``: how many of a person's urgent messages go before
    the others of the line in ``jump_window_seconds``; the later ones wait their turn like any
    other, so that urgent words, which are public, cannot put a flood in front of everyone
    (0: every urgent message jumps). STOP, a withdrawal and "delete my data" always jump."""

    in_line: int = 1
    jumps: int = 3
    jump_window_seconds: float = 600.0

    @classmethod
    def load(cls, environ: Mapping[str, str] = os.environ) -> LineShare:
        """``INTAKE_IN_LINE_PER_PERSON`` (1) and ``INTAKE_JUMPS_PER_PERSON`` (3, per ten
        minutes); 0 lifts either limit."""
        return cls(
            in_line=whole_number(
                environ, INTAKE_IN_LINE_PER_PERSON_ENV, cls.in_line, zero_allowed=True
            ),
            jumps=whole_number(environ, INTAKE_JUMPS_PER_PERSON_ENV, cls.jumps, zero_allowed=True),
        )


@dataclass(frozen=True)
class IntakeSettings:
    """The webhook intake: how many turns at once, in how many lines, when the wait is said.

    ``partitions`` is the number of lines people are spread over by conversation (one worker
    serves a line at a time, so each person is answered in order); more lines than workers
    let an idle worker take the next line while one is slow. ``claim_idle_seconds``: how long
    a message taken by a worker that stopped answering stays with it before another worker
    takes it back; longer than a turn ever takes.
    """

    mode: str = "direct"
    #: Two per process: the webhooks share the process's event loop with the turns, and each
    #: further turn at once makes a webhook wait behind more of their CPU slices (at three times
    #: capacity, p99 280 ms with 4, 80 ms with 2, for 9 % less drain; docs/BENCHMARKS.md).
    workers: int = 2
    partitions: int = 16
    notice_seconds: float = 10.0
    claim_idle_seconds: float = 120.0
    #: Pauses before a turn that reached nobody is tried again (the provider had its 200).
    retry_seconds: tuple[float, ...] = (2.0, 10.0)
    #: Pauses before a reply the provider could not take (down, overloaded) is handed to it
    #: again, the last repeated; for at most ``reply_hold_seconds``, while its line waits.
    reply_retry_seconds: tuple[float, ...] = (2.0, 5.0, 15.0, 30.0, 60.0)
    reply_hold_seconds: float = 900.0
    share: LineShare = LineShare()
    #: Without Redis, the SQLite file the line is kept in across restarts ("": this process's
    #: memory only, which a restart loses).
    journal: str = ""

    @classmethod
    def load(cls, environ: Mapping[str, str] = os.environ) -> IntakeSettings:
        """``CHANNEL_INTAKE`` (``queue`` or ``direct``), the workers, the lines,
        ``QUEUE_NOTICE_SECONDS`` (10), ``INTAKE_CLAIM_IDLE_SECONDS`` (120),
        ``INTAKE_REPLY_HOLD_SECONDS`` (900), each person's share (``LineShare``) and
        ``INTAKE_JOURNAL``.

        ``queue`` by default wherever the line outlives a restart: in the production profile
        (``REDIS_HOST`` set: the line is in Redis Streams, Redis 6.2 or newer for XAUTOCLAIM),
        and in `make run`, which keeps the one Rasa process's line in ``INTAKE_JOURNAL``
        (``var/intake.db``). ``direct`` otherwise: a line only in a process's memory would
        lose, at a restart, messages the provider was already told were taken, where a webhook
        that waits for its turn is simply sent again (docs/OPERATIONS.md, "Intake")."""
        journal = environ.get(INTAKE_JOURNAL_ENV, "").strip()
        kept = journal or environ.get("REDIS_HOST", "").strip()
        default = "queue" if kept else "direct"
        mode = environ.get(INTAKE_ENV, "").strip().lower() or default
        if mode not in INTAKE_MODES:
            raise SettingsError(f"{INTAKE_ENV} is {mode!r}; give queue or direct")
        workers = whole_number(environ, INTAKE_WORKERS_ENV, cls.workers)
        partitions = whole_number(environ, INTAKE_PARTITIONS_ENV, cls.partitions)
        return cls(
            mode=mode,
            workers=workers,
            partitions=partitions,
            notice_seconds=positive_number(environ, QUEUE_NOTICE_SECONDS_ENV, cls.notice_seconds),
            claim_idle_seconds=positive_number(
                environ, INTAKE_CLAIM_IDLE_ENV, cls.claim_idle_seconds
            ),
            reply_hold_seconds=positive_number(
                environ, INTAKE_REPLY_HOLD_ENV, cls.reply_hold_seconds
            ),
            share=LineShare.load(environ),
            journal=journal,
        )
