"""Two real Rasa servers in the production profile, as a deployment behind a load balancer:
their tracker store a fresh PostgreSQL database, their lock store and channels' memory a Redis
of the test's own, the providers the fake ones (``scripts/fake_providers.py``).

Rasa builds the channels from the profile's variables (``REDIS_HOST``…) as in a deployment,
so the providers' webhooks are answered at once and the turns taken from the intake's line
in that Redis (the profile's default): ``all_answered`` waits until the line is empty.
"""

from __future__ import annotations

import urllib.parse
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest

from scripts.fake_providers import CHANNEL_SECRETS, CREDENTIALS, FakeProviders, ProvidersInThread
from scripts.loadtest.redis_server import line_depth
from scripts.stack import ROOT, Stack, free_port, production_store_env
from tests.channels.redis_support import RedisServer
from tests.integration.conftest import MODEL
from tests.integration.intake_support import until
from tests.integration.test_shared_stores import PG_ADMIN, _content_cli

#: The deployment's ``REDIS_KEY_PREFIX``.
PREFIX = "evac"
KEYS = {
    "CONVERSATION_ID_KEY": "integration-test-conversation-key",
    "ADDRESS_ENCRYPTION_KEY": "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY",
}


@dataclass
class Servers:
    stack: Stack
    providers: FakeProviders
    #: The tracker store's database (a PostgreSQL URL).
    database: str
    redis_port: int

    @property
    def urls(self) -> list[str]:
        return self.stack.rasa_urls

    def depth(self, channel: str) -> int:
        """Messages of ``channel`` in line or being answered."""
        return line_depth(self.redis_port, PREFIX, channel)

    async def all_answered(self, channel: str, timeout: float = 30) -> None:
        """Waits until no message of ``channel`` is in line or being answered."""
        await until(
            lambda: self.depth(channel) == 0, timeout, f"the {channel} messages in line answered"
        )


@contextmanager
def production_servers(
    base: Path,
    providers: FakeProviders,
    *,
    channels: str = "",
    env: dict[str, str] | None = None,
    rasa_env: dict[str, str] | None = None,
    action_port: int | None = None,
) -> Iterator[Servers]:
    """The two servers with the alert channels of ``CREDENTIALS`` and ``channels`` (more lines
    of a credentials file); ``env`` for every process, ``rasa_env`` for Rasa's only."""
    if not MODEL.exists():
        pytest.fail(f"{MODEL} is missing: run `make train` (make test does it first)")
    redis = RedisServer(base)
    redis.start()
    name = f"test_servers_{uuid.uuid4().hex[:12]}"
    pg = urllib.parse.urlsplit(PG_ADMIN)
    with psycopg.connect(PG_ADMIN, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    database = pg._replace(path=f"/{name}").geturl()
    serving = ProvidersInThread(providers)
    stack: Stack | None = None
    try:
        content_url = f"postgresql+psycopg://{pg.netloc}/{name}"
        _content_cli(content_url, "migrate")
        _content_cli(content_url, "seed")
        credentials = base / "credentials.yml"
        credentials.write_text(CREDENTIALS + channels)
        redis_url = f"redis://127.0.0.1:{redis.port}/0"
        stack = Stack(
            model=MODEL,
            content_db_url=content_url,
            log_dir=base / "logs",
            rasa_port=free_port(),
            more_rasa_ports=(free_port(),),
            action_port=action_port or free_port(),
            endpoints=ROOT / "endpoints.production.yml",
            credentials=credentials,
            extra_env={
                **production_store_env(database, redis_url, PREFIX),
                **KEYS,
                **CHANNEL_SECRETS,
                **FakeProviders.environment(serving.start(free_port())),
                **(env or {}),
            },
            rasa_env=dict(rasa_env or {}),
        )
        stack.start()
        yield Servers(stack, providers, database, redis.port)
    finally:
        if stack is not None:
            stack.stop()
        serving.stop()
        redis.stop()
        with psycopg.connect(PG_ADMIN, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(autouse=True)
def same_conversation_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    """This process computes the conversation ids Rasa does, to read them in the store."""
    # Not at the top: the fixture's module is imported by tests that compute no ids.
    from bot.channels import identity

    monkeypatch.setenv("CONVERSATION_ID_KEY", KEYS["CONVERSATION_ID_KEY"])
    identity.forget_key()  # read once per process: take this one
