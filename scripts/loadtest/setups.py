"""The three setups the load benchmark compares, each with what it needs created and removed."""

from __future__ import annotations

import contextlib
import functools
import os
import subprocess
import sys
import time
import urllib.parse
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

from scripts.stack import (
    ACTIONS_BIN,
    BOT_BIN,
    ROOT,
    Stack,
    free_port,
    fresh_keys,
    production_store_env,
)


@dataclass
class Setup:
    name: str
    description: str
    stack: Stack
    #: psycopg connection string of the tracker store's database; None: in-memory store.
    tracker_db: str | None = None
    cleanups: list[Callable[[], None]] = field(default_factory=list)
    #: Seconds `rasa init` took to train the stock model in this run (None: reused).
    training_seconds: float | None = None

    def cleanup(self) -> None:
        """Drop what the setup created (temporary databases); safe to call twice."""
        while self.cleanups:
            step = self.cleanups.pop()
            with contextlib.suppress(Exception):
                step()


def content_cli(db_url: str, *args: str) -> None:
    """Run the content CLI (migrate, seed) on a database, as `make db` does."""
    env = dict(os.environ, CONTENT_DB_URL=db_url, PYTHONPATH=str(ROOT))
    subprocess.run(
        [str(ACTIONS_BIN / "python"), "-m", "actions.content", *args],
        env=env,
        check=True,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
    )


def embedded(model: Path, work: Path) -> Setup:
    """`make run`'s setup, on a fresh seeded SQLite content database."""
    url = f"sqlite:///{work / 'content.db'}"
    content_cli(url, "migrate")
    content_cli(url, "seed")
    stack = Stack(
        model, url, work / "logs-embedded", rasa_port=free_port(), action_port=free_port()
    )
    return Setup(
        "embedded",
        "`make run`: 1 Rasa process, in-memory tracker and lock stores, 1 action server, "
        "SQLite content DB",
        stack,
    )


def production(
    model: Path,
    work: Path,
    pg_admin: str,
    redis_url: str,
    rasa_workers: int,
    action_workers: int,
    rasa_processes: int = 1,
) -> Setup:
    """endpoints.production.yml on fresh PostgreSQL databases (tracker store and content);
    ``rasa_processes`` Rasa servers on their own ports, as behind a load balancer."""
    suffix = uuid.uuid4().hex[:10]
    pg = urllib.parse.urlsplit(pg_admin)
    tracker_db, content_db = f"bench_tracker_{suffix}", f"bench_content_{suffix}"
    cleanups: list[Callable[[], None]] = []
    with psycopg.connect(pg_admin, autocommit=True) as connection:
        for name in (tracker_db, content_db):
            connection.execute(f'CREATE DATABASE "{name}"')
            cleanups.append(functools.partial(drop_database, pg_admin, name))
    content_url = f"postgresql+psycopg://{pg.netloc}/{content_db}"
    try:
        content_cli(content_url, "migrate")
        content_cli(content_url, "seed")
    except BaseException:
        for step in cleanups:
            step()
        raise
    env = production_store_env(
        pg._replace(path=f"/{tracker_db}").geturl(), redis_url, f"benchload{suffix}"
    )
    stack = Stack(
        model,
        content_url,
        work / "logs-production",
        rasa_port=free_port(),
        action_port=free_port(),
        extra_env={**fresh_keys(), **env},
        endpoints=ROOT / "endpoints.production.yml",
        rasa_workers=rasa_workers,
        action_workers=action_workers,
        more_rasa_ports=tuple(free_port() for _ in range(rasa_processes - 1)),
    )
    servers = f"{rasa_processes} Rasa processes × " if rasa_processes > 1 else ""
    return Setup(
        "production",
        "endpoints.production.yml: PostgreSQL tracker store, Redis lock store, "
        f"{servers}{rasa_workers} Rasa workers (`SANIC_WORKERS`), {action_workers} action-server "
        "worker(s) (`ACTION_SERVER_SANIC_WORKERS`), PostgreSQL content DB",
        stack,
        tracker_db=pg._replace(path=f"/{tracker_db}").geturl(),
        cleanups=cleanups,
    )


def drop_database(pg_admin: str, name: str) -> None:
    with psycopg.connect(pg_admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


#: Rasa's whole default config (its NLU pipeline and policies), for the stock setup.
STOCK_CONFIG = ROOT / "scripts" / "configs" / "rasa_stock.yml"
#: What the stock model is trained from, besides its config: our own data and domain.
STOCK_INPUTS = (ROOT / "data", ROOT / "bot" / "domain")
#: The stock Rasa's endpoints: our action server for the answers, Rasa's own in-memory tracker
#: store and response generation (ours tag each reply with its language: not stock).
STOCK_ENDPOINTS = """\
action_endpoint:
  url: ${ACTION_ENDPOINT_URL}
  headers:
    X-Action-Server-Secret: ${ACTION_SERVER_SECRET}
"""


def stock(directory: Path, work: Path) -> Setup:
    """Stock Rasa on this project: ``rasa train`` with Rasa's default config (DIET, TED,
    RulePolicy, ...) on our data and domain, trained when the model is missing or older
    than its inputs and kept in ``directory``; ``rasa run`` with our action server (the
    answers are in the content database), in-memory stores, nothing of bot/server.py."""
    model = directory / "models" / "stock.tar.gz"
    trained: float | None = None
    if not model.exists() or model.stat().st_mtime < _newest(STOCK_CONFIG, *STOCK_INPUTS):
        print(f"Training stock Rasa on this project into {directory} ...", file=sys.stderr)
        started = time.monotonic()
        command = [str(BOT_BIN / "rasa"), "train", "--config", str(STOCK_CONFIG)]
        command += ["--domain", str(ROOT / "bot" / "domain"), "--data", str(ROOT / "data")]
        command += ["--out", str(model.parent), "--fixed-model-name", "stock"]
        subprocess.run(
            command,
            check=True,
            cwd=ROOT,
            env=dict(os.environ, RASA_TELEMETRY_ENABLED="false", TF_CPP_MIN_LOG_LEVEL="2"),
            stdout=subprocess.DEVNULL,
        )
        trained = time.monotonic() - started
    work.mkdir(parents=True, exist_ok=True)
    endpoints = work / "endpoints.stock.yml"
    endpoints.write_text(STOCK_ENDPOINTS, encoding="utf-8")
    credentials = work / "credentials.rest.yml"
    credentials.write_text("rest:\n", encoding="utf-8")
    url = f"sqlite:///{work / 'content-stock.db'}"
    content_cli(url, "migrate")
    content_cli(url, "seed")
    stack = Stack(
        model,
        url,
        work / "logs-stock",
        rasa_port=free_port(),
        action_port=free_port(),
        endpoints=endpoints,
        credentials=credentials,
        stock_rasa=True,
    )
    return Setup(
        "stock",
        "`rasa run` on this project trained with Rasa's default config (DIET, TED, "
        "RulePolicy, ...), 1 Rasa process, in-memory stores, our action server, SQLite content DB",
        stack,
        training_seconds=trained,
    )


def _newest(*paths: Path) -> float:
    """The latest change time of these files and of every file under these folders."""
    return max(
        child.stat().st_mtime
        for path in paths
        for child in ([path] if path.is_file() else path.rglob("*"))
        if child.is_file()
    )


def model_load_seconds(model: Path) -> float:
    """Seconds to load ``model`` in a fresh Rasa process, Rasa already imported."""
    code = (
        "import time, rasa.core.agent as a\n"
        "t = time.perf_counter()\n"
        f"a.Agent.load({str(model)!r})\n"
        "print(time.perf_counter() - t)\n"
    )
    env = dict(
        os.environ, PYTHONPATH=str(ROOT), TF_CPP_MIN_LOG_LEVEL="2", RASA_TELEMETRY_ENABLED="false"
    )
    output = subprocess.run(
        [str(BOT_BIN / "python"), "-c", code],
        check=True,
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    ).stdout
    return float(output.strip().splitlines()[-1])
