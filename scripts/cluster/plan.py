"""Who runs where in `make cluster`, and the environment each host is given.

The hosts are those of docs/OPERATIONS.md, "Several machines behind a load balancer", on
addresses of the benchmarking range (198.18.0.0/15, RFC 2544: never routed, never anyone's):
the operator's machine on the bridge, an nginx front, two Rasa hosts, an action server,
Redis and PostgreSQL. Each variable is the one that section names; none defaults to a
loopback address, so a forgotten one fails instead of quietly reaching this machine.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from pathlib import Path

from scripts.cluster.network import Network
from scripts.fake_providers import CHANNEL_SECRETS
from scripts.stack import fresh_keys

SUBNET = "198.18.0.0/24"
PREFIX = "evac"
#: Held by the run under way, whichever checkout it runs from: one network, one run at a time.
LOCK = Path("/run/lock") / f"{PREFIX}-cluster.lock"
#: Each host's number in the subnet (.1 is this machine, on the bridge).
HOSTS = {"front": 10, "rasa-1": 11, "rasa-2": 12, "actions": 20, "redis": 30, "postgres": 40}
RASA_HOSTS = ("rasa-1", "rasa-2")
RASA_PORT, ACTION_PORT = 5005, 5055
#: The servers of the stack (scripts/stack.py names them) and the hosts they run on.
SERVER_HOSTS = {"rasa": "rasa-1", "rasa-2": "rasa-2", "actions": "actions"}


def network(prefix: str = PREFIX, subnet: str = SUBNET) -> Network:
    return Network(prefix, subnet, HOSTS)


@dataclass(frozen=True)
class Secrets:
    """Made fresh for each run; never printed, never written outside the run's folder."""

    postgres: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    rasa_db: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    content_db: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    redis: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    action_server: str = field(default_factory=lambda: secrets.token_urlsafe(32))


def content_db_url(net: Network, keys: Secrets) -> str:
    """CONTENT_DB_URL of the action server (and of whoever migrates the database)."""
    pg = net.hosts["postgres"].address
    return f"postgresql+psycopg://content:{keys.content_db}@{pg}:5432/content"


def rasa_environment(net: Network, keys: Secrets) -> dict[str, str]:
    """What every Rasa host is given beyond the repository's defaults: the stores, the action
    server, the front it trusts, and the keys every Rasa server must share."""
    return {
        "SANIC_WORKERS": "1",
        "TRACKER_DB_HOST": net.hosts["postgres"].address,
        "TRACKER_DB_PORT": "5432",
        "TRACKER_DB_NAME": "rasa",
        "TRACKER_DB_USER": "rasa",
        "TRACKER_DB_PASSWORD": keys.rasa_db,
        "REDIS_HOST": net.hosts["redis"].address,
        "REDIS_PORT": "6379",
        "REDIS_DB": "1",
        "REDIS_PASSWORD": keys.redis,
        "REDIS_KEY_PREFIX": PREFIX,
        # Rasa's defaults (50 / 100 per worker) would pass PostgreSQL's max_connections.
        "SQL_POOL_SIZE": "2",
        "SQL_MAX_OVERFLOW": "2",
        "ACTION_ENDPOINT_URL": f"http://{net.hosts['actions'].address}:{ACTION_PORT}/webhook",
        "WEBCHAT_TRUSTED_PROXIES": net.hosts["front"].address,
        **fresh_keys(api_token=True, environ={}),
    }


def telegram_environment(net: Network, api_port: int) -> dict[str, str]:
    """What every Rasa host needs for Telegram: the bot's token and webhook secret (a fake
    Bot API's), and that API on this machine's address on the bridge."""
    return {
        "TELEGRAM_BOT_TOKEN": CHANNEL_SECRETS["TELEGRAM_BOT_TOKEN"],
        "TELEGRAM_SECRET_TOKEN": CHANNEL_SECRETS["TELEGRAM_SECRET_TOKEN"],
        "TELEGRAM_API_BASE_URL": f"http://{net.gateway}:{api_port}/telegram",
    }


def action_environment(net: Network, keys: Secrets) -> dict[str, str]:
    """What the action-server host is given: its database, its interface, the secret."""
    return {
        "CONTENT_DB_URL": content_db_url(net, keys),
        "ACTION_SERVER_SANIC_WORKERS": "1",
        "SANIC_HOST": net.hosts["actions"].address,
    }
