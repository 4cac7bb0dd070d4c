"""Start the assistant's servers as real processes — the action server, Rasa, and in `make run`
the alert notifier and the editors' console — start again any that dies, and stop them cleanly.

Used by `make run` (fixed ports 5055/5005/5056, until Ctrl-C), by the integration tests and the
journeys (free ports, temporary databases) and by the benchmarks.

The embedded default is one Rasa process with in-memory tracker and lock stores and one action
server. The production setup (docs/OPERATIONS.md) is the same two programs with Rasa's own
scaling mechanisms switched on: an endpoints file with a shared tracker store and a Redis lock
store, several Sanic workers per Rasa process (``SANIC_WORKERS``), several action-server workers
(rasa-sdk's ``ACTION_SERVER_SANIC_WORKERS``), and several Rasa processes on different ports
behind a load balancer.

Standard library and PyYAML, which both venvs have (Rasa needs it, the content runtime reads its
content files with it): `make run` runs this script with the content runtime's Python, the
tests and benchmarks import it from either venv.
"""

import argparse
import base64
import contextlib
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
BOT_BIN = ROOT / ".venv" / "bot" / "bin"
#: A limit no test or load generator reaches (``Stack.client_limits``, ``bounded_sync_turns``).
UNLIMITED = "1000000000"
ACTIONS_BIN = ROOT / ".venv" / "actions" / "bin"
DEFAULT_ENDPOINTS = ROOT / "endpoints.yml"
#: What Rasa logs once per Sanic worker when that worker has loaded the model (rasa/core/run.py).
RASA_WORKER_READY = b"Rasa server is up and running"
#: Where a server's Sanic workers add up their counts for /metrics (kernel/metrics.py): one empty
#: directory per server with several workers, made by the stack.
METRICS_DIR_ENV = "PROMETHEUS_MULTIPROC_DIR"
#: Who may read /metrics; `make run` keeps its own in ``var/metrics-token``.
METRICS_TOKEN_ENV, METRICS_TOKEN_FILE = "METRICS_TOKEN", "metrics-token"


def free_port() -> int:
    """A TCP port nothing listens on right now (for tests running beside `make run`)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def production_store_env(tracker_url: str, redis_url: str, key_prefix: str) -> dict[str, str]:
    """The variables endpoints.production.yml reads, from a PostgreSQL URL naming the tracker
    database (``postgresql://user:password@host:port/rasa``) and a Redis URL
    (``redis://:password@host:port/db``)."""
    pg = urllib.parse.urlsplit(tracker_url)
    redis = urllib.parse.urlsplit(redis_url)
    return {
        "TRACKER_DB_HOST": pg.hostname or "127.0.0.1",
        "TRACKER_DB_PORT": str(pg.port or 5432),
        "TRACKER_DB_NAME": pg.path.strip("/"),
        "TRACKER_DB_USER": urllib.parse.unquote(pg.username or "postgres"),
        "TRACKER_DB_PASSWORD": urllib.parse.unquote(pg.password or ""),
        "REDIS_HOST": redis.hostname or "127.0.0.1",
        "REDIS_PORT": str(redis.port or 6379),
        "REDIS_DB": redis.path.strip("/") or "1",
        "REDIS_PASSWORD": urllib.parse.unquote(redis.password or ""),
        "REDIS_KEY_PREFIX": key_prefix,
    }


class StackError(RuntimeError):
    """A server did not come up, or the setup asked for cannot work; the message says why."""


#: A child that died is started again after 1 s, then 2, 4 ... at most this many seconds apart;
#: one that then stays up this long is healthy again and its next death waits 1 s.
MAX_RESTART_DELAY = 30.0
HEALTHY_AFTER = 60.0


@dataclass
class Child:
    """One server process of the stack and what it takes to start it again."""

    name: str
    command: list[str]
    env: dict[str, str]
    process: "subprocess.Popen[bytes]"
    log: IO[bytes]
    started: float = field(default_factory=time.monotonic)
    restarts: int = 0
    #: When a dead child may be started again (monotonic seconds); None while it runs.
    restart_at: float | None = None

    def restart_delay(self) -> float:
        """Exponential backoff, reset by a long enough healthy run."""
        if time.monotonic() - self.started >= HEALTHY_AFTER:
            self.restarts = 0
        return min(MAX_RESTART_DELAY, 2.0**self.restarts)


def _settings(path: Path) -> dict[str, Any]:
    """A small YAML file (endpoints, credentials) as Rasa reads it; empty when it is empty."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise StackError(f"{path.name} is not a YAML mapping of sections")
    return data


def store_types(endpoints: Path) -> dict[str, str | None]:
    """Each top-level section of an endpoints file and its ``type:`` (None when it has none)."""
    types: dict[str, str | None] = {}
    for section, settings in _settings(endpoints).items():
        kind = settings.get("type") if isinstance(settings, dict) else None
        types[str(section)] = str(kind) if kind not in (None, "") else None
    return types


def _strings(value: Any) -> Iterator[str]:
    """Every string in a parsed YAML document, keys and values, however deep."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def required_variables(endpoints: Path) -> set[str]:
    """The ${VARIABLES} an endpoints file uses; Rasa refuses to start if one is unset."""
    return {
        name for text in _strings(_settings(endpoints)) for name in re.findall(r"\$\{(\w+)\}", text)
    }


def shared_store_problem(endpoints: Path) -> str | None:
    """Why several Rasa workers or processes cannot share conversations with this file, if so.

    Rasa itself only checks the lock store, and with an in-memory one it silently starts one
    worker instead of several (rasa/core/utils.py, ``number_of_sanic_workers``). With an
    in-memory tracker store every worker would keep its own copy of each conversation, and a
    user's next message, landing on another worker, would find its history missing.
    """
    types = store_types(endpoints)
    lock = types.get("lock_store")
    tracker = types.get("tracker_store")
    if lock in (None, "in_memory"):
        return f"{endpoints.name} has no shared lock store (a Redis lock_store)"
    if tracker in (None, "in_memory") or "InMemory" in str(tracker):
        return f"{endpoints.name} has no shared tracker store (an SQL tracker_store)"
    return None


@dataclass
class Stack:
    """The processes of one assistant: an action server and one or more Rasa servers."""

    model: Path
    content_db_url: str
    log_dir: Path
    rasa_port: int = 5005
    action_port: int = 5055
    host: str = "127.0.0.1"
    extra_env: dict[str, str] = field(default_factory=dict)
    #: Set for the Rasa servers only: the keys nothing else may hold (docs/DATA_PROTECTION.md).
    rasa_env: dict[str, str] = field(default_factory=dict)
    #: Rasa's endpoints file: action server, tracker store, lock store.
    endpoints: Path = DEFAULT_ENDPOINTS
    #: Rasa's credentials file (input channels); None: ``$RASA_CREDENTIALS`` or credentials.yml.
    credentials: Path | None = None
    #: Sanic worker processes per Rasa server (``SANIC_WORKERS``); >1 needs shared stores.
    rasa_workers: int = 1
    #: Sanic worker processes of the action server, all on ``action_port``.
    action_workers: int = 1
    #: Ports of further Rasa servers sharing the stores (as on several machines behind a
    #: load balancer); each has ``rasa_workers`` workers.
    more_rasa_ports: tuple[int, ...] = ()
    #: Addresses of Rasa servers on machines of their own, one server each on ``rasa_port``
    #: (`make cluster`); when set, they replace ``host`` and ``more_rasa_ports`` for Rasa.
    rasa_hosts: tuple[str, ...] = ()
    #: The action server's address when it is on a machine of its own; None: ``host``.
    action_host: str | None = None
    #: A server's name (``actions``, ``rasa``, ``rasa-2`` ...) → the network namespace it runs
    #: in (``ip netns exec``, as root): a machine of its own in `make cluster`.
    namespaces: dict[str, str] = field(default_factory=dict)
    #: False for a bot without custom actions (the load benchmark's stock Rasa project).
    with_actions: bool = True
    #: Rasa's own ``rasa run``, untouched by ``bot/server.py`` and its speed-ups (the load
    #: benchmark's stock Rasa): its API then takes no token.
    stock_rasa: bool = False
    #: Also run the alert notifier (``python -m actions.alerts serve``) against the first Rasa
    #: server; it authenticates with ``RASA_API_TOKEN``, as Rasa's HTTP API then requires.
    with_notifier: bool = False
    #: Also run the admin server (``python -m actions.admin serve``: the editors' console at
    #: ``/console/`` and the admin API) on this port, bound to the stack's interface.
    admin_port: int | None = None
    #: The web chat's limits per client address (bot/channels/webchat_limits.py) as `make run`
    #: has them. Off for the load generators and tests, which send every simulated person from
    #: this machine's one address: to the limits they would all be one client.
    client_limits: bool = False
    #: The notifier's /metrics port (``NOTIFIER_METRICS_PORT``); None: its default, 5057.
    notifier_metrics_port: int | None = None
    #: REST and the web chat answering with the notice of the wait past ``SYNC_TURNS_WAITING``
    #: turns (bot/channels/sync_turns.py), as `make run` has them. Off for the load generators
    #: and tests, whose simulated people write all at once to measure the answers themselves.
    bounded_sync_turns: bool = False
    _children: list[Child] = field(default_factory=list, init=False)
    #: The workers' count directories this stack made, removed when it stops.
    _metrics_dirs: list[str] = field(default_factory=list, init=False)
    #: Used when the environment sets no ACTION_SERVER_SECRET: one per stack, never printed.
    _action_secret: str = field(default_factory=lambda: secrets.token_urlsafe(32), init=False)

    @property
    def rasa_url(self) -> str:
        return self.rasa_urls[0]

    def rasa_servers(self) -> list[tuple[str, str, int]]:
        """Every Rasa server as (name, address, port), the first one first."""
        if self.rasa_hosts:
            places = [(host, self.rasa_port) for host in self.rasa_hosts]
        else:
            places = [(self.host, port) for port in (self.rasa_port, *self.more_rasa_ports)]
        return [
            ("rasa" if index == 0 else f"rasa-{index + 1}", host, port)
            for index, (host, port) in enumerate(places)
        ]

    @property
    def rasa_urls(self) -> list[str]:
        """Every Rasa server, the first one first."""
        return [f"http://{host}:{port}" for _, host, port in self.rasa_servers()]

    @property
    def action_url(self) -> str:
        return f"http://{self.action_host or self.host}:{self.action_port}"

    @property
    def admin_url(self) -> str:
        return f"http://{self.host}:{self.admin_port}"

    def processes(self) -> dict[str, "subprocess.Popen[bytes]"]:
        """Each server by name; its Sanic workers are the other members of its process group."""
        return {child.name: child.process for child in self._children}

    def _env(self, **overrides: str) -> dict[str, str]:
        env = dict(os.environ)
        # One server's directory would be emptied by the next that starts: each gets its own.
        env.pop(METRICS_DIR_ENV, None)
        env.update(
            PYTHONPATH=str(ROOT),
            CONTENT_DB_URL=self.content_db_url,
            ACTION_ENDPOINT_URL=f"{self.action_url}/webhook",
            # TensorFlow and its BLAS would otherwise each grab every core of a small machine.
            TF_CPP_MIN_LOG_LEVEL="2",
            # Rasa would otherwise report telemetry and crashes to an outside server.
            RASA_TELEMETRY_ENABLED="false",
        )
        if not self.client_limits:
            env.update(
                WEBCHAT_MESSAGES_PER_MINUTE=UNLIMITED,
                WEBCHAT_CONVERSATIONS_PER_HOUR=UNLIMITED,
                WEBCHAT_NETWORK_MESSAGES_PER_MINUTE=UNLIMITED,
            )
        if not self.bounded_sync_turns:
            env.update(SYNC_TURNS_WAITING=UNLIMITED)
        env.update(self.extra_env)
        env.update(overrides)
        # Rasa sends it with every action call (endpoints.yml); the action server checks it.
        env.setdefault("ACTION_SERVER_SECRET", self._action_secret)
        return env

    def _metrics_dir(self, name: str, workers: int) -> dict[str, str]:
        """``PROMETHEUS_MULTIPROC_DIR`` for a server with several workers: a directory of its
        own, so that its /metrics adds up every worker's counts."""
        if workers <= 1:
            return {}
        made = tempfile.mkdtemp(prefix=f"eia-{name}-metrics-")
        self._metrics_dirs.append(made)
        return {METRICS_DIR_ENV: made}

    def _spawn(self, name: str, command: list[str], env: Mapping[str, str] | None = None) -> int:
        """Start ``command`` in its own process group, logging to ``<log_dir>/<name>.log``.

        ``env`` adds to the stack's environment for this process only. Returns the log's size
        before the start, so a caller can read what this run wrote.
        """
        self.log_dir.mkdir(parents=True, exist_ok=True)
        log = open(self.log_dir / f"{name}.log", "ab")  # noqa: SIM115 - closed in stop()
        offset = log.tell()
        child_env = self._env(**(env or {}))
        if name in self.namespaces:
            # `ip netns exec` execs the server itself: its pid and process group stay the server's.
            command = ["ip", "netns", "exec", self.namespaces[name], *command]
        self._children.append(
            Child(name, command, child_env, self._popen(command, child_env, log), log)
        )
        return offset

    @staticmethod
    def _popen(
        command: list[str], env: dict[str, str], log: IO[bytes]
    ) -> "subprocess.Popen[bytes]":
        return subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # its own process group: stop() ends its children too
        )

    def restart_dead(self) -> list[str]:
        """Start again every child that died, each after its backoff delay; what happened, as
        lines for the operator's console (`make run`: a crash must not end the service)."""
        said: list[str] = []
        now = time.monotonic()
        for child in self._children:
            code = child.process.poll()
            if code is None:
                continue
            if child.restart_at is None:
                with contextlib.suppress(ProcessLookupError):  # Sanic workers it left behind
                    os.killpg(child.process.pid, signal.SIGKILL)
                child.restart_at = now + child.restart_delay()
                said.append(
                    f"{child.name} stopped with code {code}; starting it again in "
                    f"{child.restart_at - now:.0f} s (see {self.log_dir}/{child.name}.log)"
                )
            elif now >= child.restart_at:
                child.process = self._popen(child.command, child.env, child.log)
                child.started, child.restart_at = now, None
                child.restarts += 1
                said.append(f"{child.name} started again (restart {child.restarts})")
        return said

    def credentials_file(self) -> Path:
        """The input channels Rasa serves: ``credentials``, else ``$RASA_CREDENTIALS``."""
        return self.credentials or Path(self._env().get("RASA_CREDENTIALS", "credentials.yml"))

    def serves(self, channel: str) -> bool:
        """Whether the credentials name the input channel ``channel`` (its class's module)."""
        return any(
            name.split(".")[-2:-1] == [channel] for name in _settings(self.credentials_file())
        )

    def _rasa_command(self, host: str, port: int) -> list[str]:
        credentials = self.credentials_file()
        # `rasa run` with a request-size limit, the API token from the environment, also
        # accepted as a Bearer header, and Rasa's per-message overheads removed (bot/server.py).
        ours = [str(BOT_BIN / "python"), "-m", "bot.server", "run"]
        command = [
            *([str(BOT_BIN / "rasa"), "run"] if self.stock_rasa else ours),
            "--enable-api",
            "--interface",
            host,
            "--port",
            str(port),
            "--model",
            str(self.model),
            "--endpoints",
            str(self.endpoints),
            "--credentials",
            str(credentials),
        ]
        return command

    def check_setup(self) -> None:
        """Refuse what cannot work before starting anything, naming what to fix.

        Rasa would only fail (on an unset ${VARIABLE}) after seconds of loading, or not at all
        (several workers without shared stores).
        """
        env = self._env(**self.rasa_env)
        missing = sorted(name for name in required_variables(self.endpoints) if name not in env)
        if missing:
            raise StackError(
                f"{self.endpoints.name} needs these environment variables (empty is allowed): "
                + ", ".join(missing)
            )
        if not self.stock_rasa and shared_store_problem(self.endpoints) is None:
            calls_api = self.with_notifier or self.admin_port is not None
            lacking = [
                key
                for key in KEYS
                if not env.get(key.variable, "").strip() and (calls_api or not key.for_api_callers)
            ]
            if lacking:
                raise StackError(
                    f"{self.endpoints.name} is a production deployment, which must be given "
                    "its keys (the same on every machine; docs/OPERATIONS.md): "
                    + "; ".join(f"{key.variable}: {key.needed_for}" for key in lacking)
                )
        if self.rasa_workers < 1 or self.action_workers < 1:
            raise StackError("the numbers of Rasa and action-server workers must be at least 1")
        if self.rasa_workers > 1 or len(self.rasa_servers()) > 1:
            problem = shared_store_problem(self.endpoints)
            if problem:
                raise StackError(
                    f"several Rasa workers or servers need shared stores, but {problem}; "
                    "use endpoints.production.yml (docs/OPERATIONS.md)"
                )

    def start(self, timeout: float = 180.0) -> float:
        """Start every server; return seconds until all of them answered their health checks."""
        self.check_setup()
        started = time.monotonic()
        if self.with_actions:
            self._spawn(
                "actions",
                action_server_command(self.action_port),
                # rasa-sdk's own names (rasa_sdk/constants.py); Rasa's is SANIC_WORKERS.
                env={
                    "ACTION_SERVER_SANIC_WORKERS": str(self.action_workers),
                    "SANIC_HOST": self.action_host or self.host,
                    **self._metrics_dir("actions", self.action_workers),
                },
            )
        rasa_logs: dict[str, int] = {}
        for name, host, port in self.rasa_servers():
            rasa_logs[name] = self._spawn(
                name,
                self._rasa_command(host, port),
                env={
                    **self.rasa_env,
                    "SANIC_WORKERS": str(self.rasa_workers),
                    **self._metrics_dir(name, self.rasa_workers),
                },
            )
        try:
            deadline = started + timeout
            if self.with_actions:
                self._wait_until_up("actions", f"{self.action_url}/health", deadline)
            for (name, offset), url in zip(rasa_logs.items(), self.rasa_urls, strict=True):
                # Rasa's hello route answers once the model is loaded, whatever the credentials.
                self._wait_until_up(name, f"{url}/", deadline)
                self._wait_for_workers(name, offset, deadline)
            if self.with_notifier:
                self._spawn(
                    "notifier",
                    [str(ACTIONS_BIN / "python"), "-m", "actions.alerts", "serve"],
                    env={
                        "RASA_URL": self.rasa_url,
                        "NOTIFIER_METRICS_HOST": self.host,
                        **(
                            {"NOTIFIER_METRICS_PORT": str(self.notifier_metrics_port)}
                            if self.notifier_metrics_port
                            else {}
                        ),
                    },
                )
            if self.admin_port is not None:
                self._spawn(
                    "admin",
                    [
                        *(str(ACTIONS_BIN / "python"), "-m", "actions.admin", "serve"),
                        *("--host", self.host, "--port", str(self.admin_port)),
                    ],
                    # RASA_URL: closing a case hands the conversation back through Rasa's API.
                    env={"CONSOLE_PUBLIC_URL": self.admin_url, "RASA_URL": self.rasa_url},
                )
                self._wait_until_up("admin", f"{self.admin_url}/health", deadline)
        except BaseException:
            self.stop()
            raise
        return time.monotonic() - started

    def _wait_until_up(self, name: str, url: str, deadline: float) -> None:
        process = self.processes()[name]
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise StackError(
                    f"{name} exited with code {process.returncode}; see {self.log_dir}/{name}.log"
                )
            try:
                with urllib.request.urlopen(url, timeout=2) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.25)
        raise StackError(f"{name} did not answer {url} in time; see {self.log_dir}/{name}.log")

    def _wait_for_workers(self, name: str, offset: int, deadline: float) -> None:
        """Wait until every Sanic worker of a Rasa server has loaded the model.

        The health check is answered by whichever worker is ready first; the others would
        still be loading and the first requests would queue behind them. Each worker logs
        RASA_WORKER_READY at INFO level; with Rasa's LOG_LEVEL set higher there is no telling.
        """
        quiet = self._env().get("LOG_LEVEL", "INFO").upper() in ("WARNING", "ERROR", "CRITICAL")
        if self.rasa_workers == 1 or quiet:
            return
        path = self.log_dir / f"{name}.log"
        while time.monotonic() < deadline:
            with path.open("rb") as log:
                log.seek(offset)
                if log.read().count(RASA_WORKER_READY) >= self.rasa_workers:
                    return
            self.check_alive()
            time.sleep(0.25)
        raise StackError(f"not all {self.rasa_workers} workers of {name} started; see {path}")

    def stop(self, grace: float = 10.0) -> None:
        """SIGTERM each process group, SIGKILL what is still alive after ``grace`` seconds."""
        for child in self._children:
            _signal_group(child.process, signal.SIGTERM)
        deadline = time.monotonic() + grace
        for child in self._children:
            try:
                child.process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                _signal_group(child.process, signal.SIGKILL)
                child.process.wait()
            child.log.close()
        self._children.clear()
        for made in self._metrics_dirs:
            shutil.rmtree(made, ignore_errors=True)
        self._metrics_dirs.clear()

    def check_alive(self) -> None:
        for child in self._children:
            if child.process.poll() is not None:
                raise StackError(
                    f"{child.name} stopped with code {child.process.returncode}; "
                    f"see {self.log_dir}/{child.name}.log"
                )


def print_log_tails(log_dir: Path, lines: int = 15) -> None:
    """The last lines of each server's log, on stderr: what a run that failed shows first."""
    for log in sorted(log_dir.glob("*.log")):
        print(f"--- {log}, last lines:", file=sys.stderr)
        print("\n".join(log.read_text(errors="replace").splitlines()[-lines:]), file=sys.stderr)


def action_server_command(port: int) -> list[str]:
    """rasa-sdk's server with the chat's actions on ``port``, running nothing for a caller
    without ACTION_SERVER_SECRET (actions/server.py)."""
    return [
        str(ACTIONS_BIN / "python"),
        "-m",
        "actions.server",
        "--actions",
        "actions.chat",
        "--port",
        str(port),
    ]


def _signal_group(process: "subprocess.Popen[bytes]", sig: int) -> None:
    """Signal the server and its Sanic workers (its group) while the server is still there."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, sig)


def _address_key() -> str:
    """32 random bytes in URL-safe base64: what ``python -m bot.channels.addresses new-key``
    prints (bot/channels/sealing.py ``new_key``; this script imports nothing of the bot)."""
    return base64.urlsafe_b64encode(secrets.token_bytes(32)).decode()


@dataclass(frozen=True)
class Key:
    """A secret every server of a deployment must share, and how `make run` makes one."""

    variable: str
    #: Its file in ``var/`` when `make run` keeps it.
    file: str
    make: Callable[[], str]
    #: What fails without it, for the refusal.
    needed_for: str
    #: Needed only where something calls Rasa's HTTP API (the notifier, the console).
    for_api_callers: bool = False


#: The keys of a deployment. The embedded default (`make run`) makes each one once and keeps it
#: in ``var/``; a production deployment (shared stores) must be given them, the same on every
#: machine, and refuses to start without one (``check_setup``; ``bot/deployment.py`` in Rasa).
KEYS: tuple[Key, ...] = (
    Key(
        "RASA_API_TOKEN",
        "rasa-api-token",
        lambda: secrets.token_urlsafe(24),
        "the notifier and the console reach people through Rasa's HTTP API, which then "
        "takes this token",
        for_api_callers=True,
    ),
    Key(
        "CONVERSATION_ID_KEY",
        "conversation-id-key",
        lambda: secrets.token_urlsafe(32),
        "conversation ids (keyed hashes of addresses) must stay the same across restarts and "
        "workers",
    ),
    Key(
        "ADDRESS_ENCRYPTION_KEY",
        "address-encryption-key",
        _address_key,
        "alerts and caseworkers' replies, the web chat's included, record their deliveries "
        "in the address book it opens",
    ),
)


def fresh_keys(
    *, api_token: bool = False, environ: Mapping[str, str] = os.environ
) -> dict[str, str]:
    """New values of the keys Rasa needs that ``environ`` does not set (and of the API token
    if asked): for a production deployment of its own, a test's or a benchmark's."""
    return {
        key.variable: key.make()
        for key in KEYS
        if (api_token or not key.for_api_callers) and not environ.get(key.variable, "").strip()
    }


def stored_secret(path: Path, make: Callable[[], str]) -> str:
    """The secret kept in ``path``, or a new one from ``make()`` written there first: made
    once, then kept in a file only its owner can read (never printed, never in ``ps``)."""
    with contextlib.suppress(FileNotFoundError):
        secret = path.read_text(encoding="utf-8").strip()
        if secret:
            path.chmod(0o600)
            return secret
    secret = make()
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(secret + "\n")
    return secret


def stored_token(path: Path) -> str:
    """`make run`'s HTTP API token when RASA_API_TOKEN is unset (``stored_secret``)."""
    return stored_secret(path, KEYS[0].make)


def stored_keys(var_dir: Path, environ: Mapping[str, str] = os.environ) -> dict[str, str]:
    """Every key the environment does not set, made once and kept in ``var_dir``; a key the
    environment sets wins (and nothing is written for it)."""
    return {
        key.variable: stored_secret(var_dir / key.file, key.make)
        for key in KEYS
        if not environ.get(key.variable, "").strip()
    }


def metrics_token(var_dir: Path, environ: Mapping[str, str] = os.environ) -> dict[str, str]:
    """``METRICS_TOKEN`` for every server of `make run`, made once and kept in
    ``var_dir/metrics-token`` (what Prometheus's ``credentials_file`` names), unless the
    environment sets one."""
    if environ.get(METRICS_TOKEN_ENV, "").strip():
        return {}
    made = stored_secret(var_dir / METRICS_TOKEN_FILE, lambda: secrets.token_urlsafe(24))
    return {METRICS_TOKEN_ENV: made}


#: The sites whose pages may show the web chat in a frame (bot/channels/settings.py).
WEBCHAT_ORIGINS_ENV = "WEBCHAT_ORIGINS"


def own_origins(port: int, environ: Mapping[str, str] = os.environ) -> dict[str, str]:
    """``WEBCHAT_ORIGINS`` for `make run` when the environment names none: the Rasa server's
    own origin by both its names (a page on localhost framing the chat of 127.0.0.1 is another
    origin to a browser), so that ``/webchat/embed.js`` works on a page served beside it."""
    if environ.get(WEBCHAT_ORIGINS_ENV, "").strip():
        return {}
    names = ("127.0.0.1", "localhost")
    return {WEBCHAT_ORIGINS_ENV: ",".join(f"http://{name}:{port}" for name in names)}


#: The demo content `make run` seeds (``make db``), and its line that answers day and night.
DEMO_CONTENT = ROOT / "actions" / "content" / "seed" / "demo.yml"
DEMO_HOTLINE_CONTACT, DEMO_HOTLINE_NAME = "icrc-family-links", "ICRC"
HOTLINE_ENV = "EMERGENCY_HOTLINE"
#: Where `make run` keeps the line of providers' messages waiting for their turn (in ``var/``).
INTAKE_JOURNAL_ENV = "INTAKE_JOURNAL"
INTAKE_JOURNAL_FILE = "intake.db"
#: What a web chat page can name to a browser without JavaScript (bot/channels/settings.py):
#: the SMS number (or the Twilio channel's own), the Telegram bot, the help line.
WAYS_IN_ENV = ("WEBCHAT_SMS_NUMBER", "TWILIO_FROM_NUMBER", "WEBCHAT_TELEGRAM", HOTLINE_ENV)


def demo_hotline(content: Path = DEMO_CONTENT) -> str:
    """The demo content's ICRC line, "+93 700 000 121 (ICRC)": it answers day and night, for
    missing family and the wounded, so it is the number a demo may give anyone who needs help
    now. Read from the content file, so that the two never disagree."""
    seeded = yaml.safe_load(content.read_text(encoding="utf-8"))
    for contact in seeded["contacts"]:
        if contact["slug"] == DEMO_HOTLINE_CONTACT:
            return f"{contact['phone']} ({DEMO_HOTLINE_NAME})"
    raise LookupError(f"{content} has no contact {DEMO_HOTLINE_CONTACT}")


def demo_ways_in(environ: Mapping[str, str] = os.environ) -> dict[str, str]:
    """``EMERGENCY_HOTLINE`` for `make run` when the environment names no way in at all (no
    SMS number, Telegram bot or help line): the demo's line, so that the web chat's notice
    without JavaScript, and the assistant when it cannot answer, name a number to call. A
    deployment names its own (docs/CHANNELS.md, "The web chat page")."""
    if any(environ.get(name, "").strip() for name in WAYS_IN_ENV):
        return {}
    return {HOTLINE_ENV: demo_hotline()}


def embedded_stack(
    model: Path,
    content_db_url: str,
    *,
    log_dir: Path,
    var_dir: Path,
    rasa_port: int = 5005,
    action_port: int = 5055,
    admin_port: int = 5056,
    extra_env: Mapping[str, str] | None = None,
    endpoints: Path = DEFAULT_ENDPOINTS,
    rasa_workers: int = 1,
    action_workers: int = 1,
    notifier_metrics_port: int = 5057,
) -> tuple["Stack", str]:
    """The stack exactly as `make run` starts it (the journeys start this very one): every
    server, the notifier and the console, with what it keeps in ``var_dir`` (the embedded
    default's ``METRICS_TOKEN`` too, in ``metrics-token``).

    Returns the stack and how to name its API token in a command (never the token itself).
    """
    token_file = var_dir / KEYS[0].file
    given = {**os.environ, **(extra_env or {})}  # what the operator set, and the caller
    # Only the embedded default makes its own keys: a production deployment's are shared by
    # every machine, so they must come from its environment (``check_setup`` names a missing one).
    production = shared_store_problem(endpoints) is None
    made = {} if production else stored_keys(var_dir, given)
    # Only Rasa unseals addresses and hashes them; the API token is for those who call Rasa.
    token = {name: value for name, value in made.items() if name == KEYS[0].variable}
    rasa_only = {name: value for name, value in made.items() if name not in token}
    if not production and not given.get(INTAKE_JOURNAL_ENV):
        # The providers' messages wait for their turn in a line that outlives a restart.
        rasa_only[INTAKE_JOURNAL_ENV] = str(var_dir / INTAKE_JOURNAL_FILE)
    where = token_file.relative_to(ROOT) if token_file.is_relative_to(ROOT) else token_file
    where_token = f"$(cat {where})" if KEYS[0].variable in made else "$RASA_API_TOKEN"
    if not production:
        token.update(metrics_token(var_dir, given))
    sites = own_origins(rasa_port, given)
    # A real deployment's ways in are its own: only the demo gets the demo's line.
    demo = {} if production else demo_ways_in(given)
    stack = Stack(
        model,
        content_db_url,
        log_dir,
        rasa_port,
        action_port,
        extra_env={**token, **sites, **demo, **(extra_env or {})},
        rasa_env=rasa_only,
        endpoints=endpoints,
        rasa_workers=rasa_workers,
        action_workers=action_workers,
        with_notifier=True,
        admin_port=admin_port,
        client_limits=True,
        notifier_metrics_port=notifier_metrics_port,
        bounded_sync_turns=True,
    )
    return stack, where_token


def seeded_embedded_stack(
    base: Path,
    model: Path,
    extra_env: Mapping[str, str] | None = None,
    credentials: Path | None = None,
) -> "Stack":
    """`make run`'s stack on free ports over a freshly migrated and seeded SQLite database in
    ``base/var`` (its keys kept there too), not started: what the journeys and the memory
    benchmark walk, each in a folder of its own."""
    var_dir = base / "var"
    var_dir.mkdir(parents=True, exist_ok=True)
    db_url = f"sqlite:///{var_dir / 'content.db'}"
    env = {**os.environ, "CONTENT_DB_URL": db_url, "PYTHONPATH": str(ROOT)}
    for command in ("migrate", "seed"):
        subprocess.run(
            [str(ACTIONS_BIN / "python"), "-m", "actions.content", command],
            env=env,
            cwd=ROOT,
            check=True,
            capture_output=True,
            timeout=120,
        )
    stack, _ = embedded_stack(
        model,
        db_url,
        log_dir=var_dir / "log",
        var_dir=var_dir,
        rasa_port=free_port(),
        action_port=free_port(),
        admin_port=free_port(),
        extra_env=extra_env,
        notifier_metrics_port=free_port(),
    )
    stack.credentials = credentials
    return stack


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


def _assignment(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    return name, value


def main() -> int:
    """`make run`: serve until Ctrl-C, then leave no process behind."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--content-db-url", required=True)
    parser.add_argument("--rasa-port", type=int, default=5005)
    parser.add_argument("--action-port", type=int, default=5055)
    parser.add_argument("--admin-port", type=int, default=5056, help="editors' console, admin API")
    parser.add_argument("--log-dir", type=Path, default=ROOT / "var" / "log")
    parser.add_argument("--since", type=float, help="time.time() when `make run` began")
    parser.add_argument(
        "--endpoints",
        type=Path,
        default=Path(os.environ.get("RASA_ENDPOINTS") or DEFAULT_ENDPOINTS),
        help="Rasa endpoints file (default: $RASA_ENDPOINTS or endpoints.yml; production: "
        "endpoints.production.yml)",
    )
    parser.add_argument(
        "--rasa-workers",
        type=int,
        default=_env_int("SANIC_WORKERS", 1),
        help="Sanic workers of the Rasa server (default: $SANIC_WORKERS or 1; >1 needs the "
        "production endpoints)",
    )
    parser.add_argument(
        "--action-workers",
        type=int,
        default=_env_int("ACTION_SERVER_SANIC_WORKERS", 1),
        help="Sanic workers of the action server (default: $ACTION_SERVER_SANIC_WORKERS or 1)",
    )
    parser.add_argument(
        "--env",
        type=_assignment,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set an environment variable for every server (repeatable); the servers also "
        "inherit this script's environment",
    )
    args = parser.parse_args()
    stack, where_token = embedded_stack(
        args.model,
        args.content_db_url,
        log_dir=args.log_dir,
        var_dir=ROOT / "var",
        rasa_port=args.rasa_port,
        action_port=args.action_port,
        admin_port=args.admin_port,
        extra_env=dict(args.env),
        endpoints=args.endpoints.resolve(),
        rasa_workers=args.rasa_workers,
        action_workers=args.action_workers,
    )

    configured = os.environ.get(METRICS_TOKEN_ENV, "").strip() or dict(args.env).get(
        METRICS_TOKEN_ENV
    )
    # Set by embedded_stack, not by the operator: the demo's line (``demo_ways_in``).
    demo_line = None if HOTLINE_ENV in dict(args.env) else stack.extra_env.get(HOTLINE_ENV)
    where_metrics = f"${METRICS_TOKEN_ENV}" if configured else f"$(cat var/{METRICS_TOKEN_FILE})"
    stopping = False

    def request_stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)
    print(
        f"Starting the action server on :{args.action_port} ({args.action_workers} worker(s)) "
        f"and Rasa on :{args.rasa_port} ({args.rasa_workers} worker(s), "
        f"{stack.endpoints.name}) ..."
    )
    try:
        servers_up = stack.start()
    except StackError as error:
        print(f"Start-up failed: {error}", file=sys.stderr)
        return 1
    total = f", {time.time() - args.since:.0f} s since `make run`" if args.since else ""
    talk = (
        f"  Talk to it:  curl -s {stack.rasa_url}/webhooks/rest/webhook "
        '-H \'Content-Type: application/json\' -d \'{"sender": "me", "message": "salam"}\'\n'
        if stack.serves("rest")
        else ""
    )
    help_line = (
        f"  Help line:   {demo_line}, the demo content's, named to people who need help now "
        "(set EMERGENCY_HOTLINE, WEBCHAT_SMS_NUMBER or WEBCHAT_TELEGRAM for your own)\n"
        if demo_line
        else ""
    )
    print(
        f"\nReady in {servers_up:.1f} s{total}.\n{talk}"
        f"  Web chat:    {stack.rasa_url}/webchat/ (on a site of WEBCHAT_ORIGINS: "
        f'<script src="{stack.rasa_url}/webchat/embed.js" async></script>)\n'
        f"  HTTP API:    {stack.rasa_url}/model/parse with the header "
        f'"Authorization: Bearer {where_token}"\n'
        f"  Actions:     {stack.action_url}/health (all else needs ACTION_SERVER_SECRET)\n"
        f"  Metrics:     {stack.rasa_url}/metrics, {stack.action_url}/metrics, "
        f"{stack.admin_url}/metrics, notifier :{stack.notifier_metrics_port or 5057}/metrics, "
        f'with "Authorization: Bearer {where_metrics}"\n'
        f"  Editors:     {stack.admin_url}/console/ (sign-in link: "
        ".venv/actions/bin/python -m actions.admin invite YOUR-NAME)\n"
        f"  Logs:        {args.log_dir}/rasa.log, actions.log, notifier.log (alerts), admin.log\n"
        f"{help_line}A server that stops is started again. Press Ctrl-C to stop.",
        flush=True,
    )
    while not stopping:
        for line in stack.restart_dead():
            print(line, file=sys.stderr, flush=True)
        time.sleep(0.5)
    print("\nStopping ...", flush=True)
    stack.stop()
    print("Stopped; no process left running.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
