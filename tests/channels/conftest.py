"""Fixtures of the connector tests: databases, Redis, a fake provider API and real servers
(``channel_support.py``)."""

from tests.runtimes import require_runtime

require_runtime(__file__)  # before the imports below fail in the other runtime's venv

import shutil
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack
from pathlib import Path

import pytest
from rasa.core.channels.channel import InputChannel
from sanic import Sanic

from bot.channels import identity
from bot.channels.addresses import KEY_ENV, OLD_KEYS_ENV, AddressBook
from bot.channels.memory import channel_memory
from bot.channels.redis_memory import RedisMemory
from bot.channels.settings import AddressKeys, RedisSettings
from kernel import settings as bot_settings
from kernel.contentdb.engines import dispose_engines
from kernel.memory import ChannelMemory, ProcessMemory
from tests.channels.address_support import (
    TEST_KEY,
    clear_addresses,
    fresh_postgres_database,
    migrate,
    require_postgres,
)
from tests.channels.channel_support import (
    FakeBot,
    FakeProvider,
    Serve,
    fake_provider,
    serve_channel,
)
from tests.channels.redis_support import RedisServer
from tests.databases import backend_params

# Many apps in one process, as sanic-testing does it: on startup Sanic rewrites its request
# handling code in place and keeps the original only in test mode, so test mode must be on
# before the first app of the test run starts, and stay on.
Sanic.test_mode = True


@pytest.fixture(autouse=True)
def conversation_key(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("CONVERSATION_ID_KEY", "tests-channels-key")
    identity.forget_key()  # read once per process: taken again from the line above
    # Channels that send alerts need the address key (from_credentials refuses to start).
    monkeypatch.setenv(KEY_ENV, TEST_KEY)
    monkeypatch.delenv(OLD_KEYS_ENV, raising=False)
    yield
    identity.forget_key()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated content database, copied for each test (migrating is the slow part)."""
    path = tmp_path_factory.mktemp("content") / "content.db"
    migrate(f"sqlite:///{path}")
    return path


@pytest.fixture(scope="session")
def postgres_database() -> Iterator[str]:
    """One migrated PostgreSQL database of its own for the session, dropped at its end."""
    require_postgres()
    with fresh_postgres_database() as url:
        yield url


@pytest.fixture(params=backend_params())
def content_db_url(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """An empty, migrated content database that CONTENT_DB_URL points at; each test using it
    runs on SQLite and on PostgreSQL (``TEST_DATABASES``)."""
    if request.param == "sqlite":
        url = request.getfixturevalue("sqlite_db_url")
    else:
        url = request.getfixturevalue("postgres_database")
        clear_addresses(url)
        monkeypatch.setenv("CONTENT_DB_URL", url)
    yield url
    dispose_engines()


@pytest.fixture
def sqlite_db_url(
    tmp_path: Path, sqlite_template: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """Like ``content_db_url``, SQLite only: for tests where the database is not the point."""
    path = tmp_path / "content.db"
    shutil.copy(sqlite_template, path)
    url = f"sqlite:///{path}"
    monkeypatch.setenv("CONTENT_DB_URL", url)
    yield url
    dispose_engines()


@pytest.fixture
def address_book(content_db_url: str) -> AddressBook:
    """The address book as a channel gets it: key and database from the environment."""
    return AddressBook.from_settings(AddressKeys.load(), bot_settings.content_db_url())


@pytest.fixture
def sqlite_address_book(sqlite_db_url: str) -> AddressBook:
    return AddressBook.from_settings(AddressKeys.load(), bot_settings.content_db_url())


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A Redis of the tests' own for the session (never the shared one on 6379)."""
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    yield server
    server.stop()


@pytest.fixture
def redis_env(redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The production profile's Redis variables, with a key prefix of this test's own."""
    env = redis_server.env(f"test{uuid.uuid4().hex[:12]}")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return env


@pytest.fixture(params=["process", "redis"])
async def memory(request: pytest.FixtureRequest) -> AsyncIterator[ChannelMemory]:
    """Each kind of channel memory: this process's (``make run``), Redis (production)."""
    if request.param == "process":
        yield ProcessMemory()
        return
    request.getfixturevalue("redis_env")
    shared = channel_memory(RedisSettings.load())
    assert isinstance(shared, RedisMemory)
    yield shared
    await shared.close()


@pytest.fixture
async def provider() -> AsyncIterator[FakeProvider]:
    """A fake provider API answering as the Bot API does (WhatsApp tests set Meta's answer)."""
    async with fake_provider() as fake:
        fake.status, fake.reply = 200, {"ok": True, "result": True}
        yield fake


@pytest.fixture
async def serve() -> AsyncIterator[Serve]:
    """Starts a Sanic app with the channel registered as ``rasa run`` does; gives its
    ``/webhooks/<name>`` URL. The servers stop (closing the connectors' sessions) at the end."""
    async with AsyncExitStack() as servers:

        async def start(channel: InputChannel, bot: FakeBot) -> str:
            base_url = await servers.enter_async_context(serve_channel(channel, bot))
            return f"{base_url}/webhooks/{channel.name()}"

        yield start
