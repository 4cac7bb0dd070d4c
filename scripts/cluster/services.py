"""The cluster's infrastructure, each on its host and from Debian's own binaries: a private
PostgreSQL cluster (initdb, pg_ctl), a Redis server and the nginx front.

None of them is the machine's own service: each keeps its data, configuration and log in the
run's temporary folder and listens only on its host's address, with a password (PostgreSQL
and Redis) as a deployment would.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from scripts.cluster.network import Host

PG_BIN = Path("/usr/lib/postgresql/15/bin")
#: PostgreSQL refuses to run as root; Debian's package creates this user.
PG_USER = "postgres"
#: nginx's master stays root (it binds port 80), its worker this user.
NGINX_USER, NGINX_GROUP = "nobody", "nogroup"


class ServiceError(RuntimeError):
    """A service did not start; the message says which and where its log is."""


def missing_programs() -> list[str]:
    """What this machine lacks to build the cluster, as Debian packages to install."""
    wanted = {
        "nginx": shutil.which("nginx"),
        "redis-server": shutil.which("redis-server"),
        "postgresql-15": (PG_BIN / "initdb").exists() and (PG_BIN / "pg_ctl").exists(),
        "iproute2": shutil.which("ip"),
        "util-linux": shutil.which("runuser"),
    }
    return [package for package, found in wanted.items() if not found]


def _private_file(path: Path, text: str, owner: str | None = None) -> None:
    """A file only its owner may read (passwords, configuration holding them)."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(text)
    if owner is not None:
        shutil.chown(path, owner, owner)


def _run(command: list[str], what: str, log: Path, timeout: float = 120) -> None:
    done = subprocess.run(
        command, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout
    )
    if done.returncode != 0:
        log.write_text(done.stdout + done.stderr, encoding="utf-8")
        raise ServiceError(f"{what} failed (code {done.returncode}); see {log}")


def tcp_open(address: str, port: int, timeout: float = 1.0) -> bool:
    try:
        with socket.create_connection((address, port), timeout=timeout):
            return True
    except OSError:
        return False


def _wait_for(
    ready: Callable[[], bool], process: subprocess.Popen[bytes], timeout: float, what: str
) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        if process.poll() is not None or time.monotonic() > deadline:
            raise ServiceError(f"did not start: {what}")
        time.sleep(0.1)


def _stop(process: subprocess.Popen[bytes] | None, log: IO[bytes] | None) -> None:
    """SIGTERM, SIGKILL after 10 s; then close its log. Quiet when it already ended."""
    if process is not None and process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    if log is not None:
        with contextlib.suppress(OSError):
            log.close()


@dataclass
class Postgres:
    """A PostgreSQL cluster of its own on ``host``: data in ``folder``, password auth from the
    cluster's network only."""

    host: Host
    folder: Path
    network: str
    password: str
    port: int = 5432

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def _as_postgres(self, program: str, *args: str) -> list[str]:
        return self.host.run("runuser", "-u", PG_USER, "--", str(PG_BIN / program), *args)

    def start(self) -> None:
        """initdb, open it to the cluster's network, pg_ctl start (waits until it accepts)."""
        self.folder.mkdir(mode=0o700, parents=True)
        shutil.chown(self.folder, PG_USER, PG_USER)
        password_file = self.folder / "superuser-password"
        _private_file(password_file, self.password + "\n", owner=PG_USER)
        _run(
            self._as_postgres(
                "initdb", "-D", str(self.data), "-U", "postgres", "--auth-local=peer",
                "--auth-host=scram-sha-256", f"--pwfile={password_file}", "--encoding=UTF8",
                "--locale=C.UTF-8",
            ),
            "initdb",
            self.folder.parent / "initdb.log",
        )  # fmt: skip
        password_file.unlink()
        with (self.data / "pg_hba.conf").open("a", encoding="utf-8") as hba:
            hba.write(f"host all all {self.network} scram-sha-256\n")
        options = (
            f"-c listen_addresses={self.host.address} -c port={self.port} "
            f"-c unix_socket_directories={self.folder} -c max_connections=100 -c fsync=off"
        )
        _run(
            self._as_postgres(
                "pg_ctl", "-D", str(self.data), "-l", str(self.folder / "postgres.log"),
                "-o", options, "-w", "-t", "60", "start",
            ),
            "pg_ctl start",
            self.folder.parent / "pg_ctl.log",
        )  # fmt: skip

    def url(self, user: str, password: str, database: str) -> str:
        return f"postgresql://{user}:{password}@{self.host.address}:{self.port}/{database}"

    def stop(self) -> None:
        """pg_ctl stop (fast: sessions end, nothing waits); quiet when it is not running."""
        if (self.data / "postmaster.pid").exists():
            subprocess.run(
                self._as_postgres("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop"),
                capture_output=True,
                timeout=60,
            )


def redis_config(folder: Path, address: str, port: int, password: str) -> str:
    """Its host's address only, a password, nothing on disk (locks and the channels' memory
    expire anyway; docs/OPERATIONS.md says when to keep them)."""
    return (
        f"bind {address}\nport {port}\nrequirepass {password}\n"
        f'dir {folder}\nsave ""\nappendonly no\nprotected-mode yes\ndaemonize no\n'
    )


@dataclass
class Redis:
    """A redis-server on ``host``: a password, nothing on disk, its log in ``folder``."""

    host: Host
    folder: Path
    password: str
    port: int = 6379
    _process: subprocess.Popen[bytes] | None = field(default=None, init=False)
    _log: IO[bytes] | None = field(default=None, init=False)

    @property
    def url(self) -> str:
        return f"redis://:{self.password}@{self.host.address}:{self.port}/1"

    def start(self, timeout: float = 15.0) -> None:
        self.folder.mkdir(mode=0o700, parents=True)
        config = self.folder / "redis.conf"
        # The password in a file, not on the command line (`ps` shows that to everyone).
        _private_file(
            config, redis_config(self.folder, self.host.address, self.port, self.password)
        )
        self._log = open(self.folder / "redis.log", "ab")  # noqa: SIM115 - closed in stop()
        self._process = subprocess.Popen(
            self.host.run(str(shutil.which("redis-server")), str(config)),
            stdout=self._log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        _wait_for(
            self.answers, self._process, timeout, f"redis-server, see {self.folder}/redis.log"
        )

    def answers(self, timeout: float = 1.0) -> bool:
        """Whether it answers PING once authenticated."""
        return self._replies("PING", 2, timeout) == [b"+OK", b"+PONG"]

    def count(self, command: str, db: int = 1, timeout: float = 0.2) -> int:
        """The number Redis answers ``command`` with in database ``db`` (an integer, or how
        many items an array has: ``KEYS``); 0 when it does not answer."""
        replies = self._replies(f"SELECT {db}\r\n{command}", 3, timeout)
        if replies is None or replies[:2] != [b"+OK", b"+OK"] or replies[2][:1] not in (b"*", b":"):
            return 0
        return int(replies[2][1:])

    def _replies(self, commands: str, lines: int, timeout: float) -> list[bytes] | None:
        """The first ``lines`` lines Redis answers to AUTH and then ``commands`` (its inline
        protocol, one command a line); None when it does not answer them all."""
        try:
            with socket.create_connection((self.host.address, self.port), timeout) as conn:
                conn.sendall(f"AUTH {self.password}\r\n{commands}\r\n".encode())
                reply = b""
                while reply.count(b"\r\n") < lines:
                    chunk = conn.recv(4096)
                    if not chunk:
                        return None
                    reply += chunk
        except OSError:
            return None
        return reply.split(b"\r\n")[:lines]

    def locks_held(self, pattern: str) -> int:
        """How many conversations' locks (Rasa's lock store) whose keys match ``pattern`` are
        held now: the turns under way."""
        return self.count(f"KEYS {pattern}")

    def stop(self) -> None:
        _stop(self._process, self._log)
        self._log = None


def nginx_config(folder: Path, address: str, upstreams: list[str], port: int = 80) -> str:
    """The front: round robin over the Rasa servers, no sticky sessions (any Rasa serves any
    conversation). A server that does not accept a connection within a second is skipped for
    5 s and the request goes to the next (it was not sent yet, so a POST may go too); a request
    already sent is never sent twice (nginx's rule for POST): its server's answer is awaited.
    The access log has the time, the Rasa servers tried, their statuses, the status and the
    seconds taken, ``|`` between them: no client address, no path, no message."""
    servers = "\n".join(f"        server {up} max_fails=1 fail_timeout=5s;" for up in upstreams)
    return f"""worker_processes 1;
user {NGINX_USER} {NGINX_GROUP};
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    log_format balanced '$msec|$upstream_addr|$upstream_status|$status|$request_time';
    access_log {folder}/access.log balanced;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    client_max_body_size 1m;
    upstream rasa {{
{servers}
    }}
    server {{
        listen {address}:{port};
        location / {{
            proxy_pass http://rasa;
            proxy_http_version 1.1;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_connect_timeout 1s;
            proxy_read_timeout 60s;
            proxy_next_upstream error timeout http_502 http_503;
        }}
    }}
}}
"""


@dataclass
class Nginx:
    """Debian's nginx on ``host``, its configuration generated into ``folder``."""

    host: Host
    folder: Path
    upstreams: list[str]
    port: int = 80
    _process: subprocess.Popen[bytes] | None = field(default=None, init=False)
    _log: IO[bytes] | None = field(default=None, init=False)

    @property
    def url(self) -> str:
        return f"http://{self.host.address}:{self.port}"

    def start(self, timeout: float = 15.0) -> None:
        self.folder.mkdir(parents=True)
        shutil.chown(self.folder, NGINX_USER, NGINX_GROUP)  # its worker writes the temp files
        config = self.folder / "nginx.conf"
        config.write_text(
            nginx_config(self.folder, self.host.address, self.upstreams, self.port),
            encoding="utf-8",
        )
        binary = str(shutil.which("nginx"))
        log = self.folder.parent / "nginx-check.log"
        _run(self.host.run(binary, "-t", "-q", "-e", "stderr", "-c", str(config)), "nginx -t", log)
        self._log = open(self.folder / "stderr.log", "ab")  # noqa: SIM115 - closed in stop()
        self._process = subprocess.Popen(
            self.host.run(binary, "-e", "stderr", "-c", str(config), "-g", "daemon off;"),
            stdout=subprocess.DEVNULL,
            stderr=self._log,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        _wait_for(
            lambda: tcp_open(self.host.address, self.port),
            self._process,
            timeout,
            f"nginx, see {self.folder}/error.log",
        )

    def answers(self) -> bool:
        """Whether a Rasa server answers through the front (Rasa's hello route)."""
        try:
            with urllib.request.urlopen(self.url + "/", timeout=2) as response:
                return bool(response.status == 200)
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return False

    def stop(self) -> None:
        _stop(self._process, self._log)  # SIGTERM: nginx's fast shutdown
        self._log = None
