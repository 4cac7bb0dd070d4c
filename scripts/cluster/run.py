"""`make cluster`: the production profile on six machines, and what people get when one fails.

    make cluster                    # as root; about 4 minutes
    .venv/actions/bin/python -m scripts.cluster --help      # the knobs: --users, --phase ...
    .venv/actions/bin/python -m scripts.cluster --clean     # remove what a killed run left

Why: the chaos test (`make chaos`) kills processes on one machine, where every connection is
loopback and a dead process refuses connections at once. Between machines a host that loses
its network answers nothing at all, and every timeout in the path (the front's, the lock
store's, the tracker store's) decides what the person waiting gets. This builds the machines
of docs/OPERATIONS.md ("Several machines behind a load balancer") as network namespaces on
one bridge (scripts/cluster/network.py), configured only by the environment that section
names, and then, under a web chat load in English, Dari and Pashto through the nginx front:

1. cuts one Rasa host off its network (link down) for ``--cut`` seconds;
2. ``kill -9``s the action server, which the stack starts again as a supervisor would;
3. partitions Redis off the network for ``--partition`` seconds, the moment a Telegram turn
   holds its conversation's lock.

Each message counts for the fault that first held it up (scripts/chaos.py, ``phases``); the
report gives per fault messages, answered, apologised, lost (must be 0), the time to recover
and when the host or process was back, then every conversation read back from the tracker
store. Exit status 1 if a message was lost. Whatever happens (an error, Ctrl-C, SIGTERM),
every process, namespace and the bridge are removed.

People write in the web chat (turns answered in the front's request) and on Telegram (turns
queued in the intake's Redis Streams, ``CHANNEL_INTAKE=queue``, the production profile's
default, and taken by whichever Rasa host's worker holds the line: scripts/cluster/telegram.py);
each gets its own table.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import psycopg
from psycopg import sql

from scripts import chaos
from scripts.cluster import plan
from scripts.cluster.network import Network, NetworkError, refuse_unless_root
from scripts.cluster.services import Nginx, Postgres, Redis, ServiceError, missing_programs
from scripts.cluster.telegram import TelegramPeople, menu_folded
from scripts.loadtest.telegram_people import RecordingTelegram
from scripts.loadtest.verify import check_conversations, events_from_table
from scripts.loadtest.webchat_people import (
    LOST,
    Balancer,
    Message,
    People,
    apologies,
    apology_patterns,
)
from scripts.stack import ACTIONS_BIN, ROOT, Stack, StackError, free_port

#: The run's folder in the temporary directory (data, configuration, logs); `--clean` removes
#: what a killed run left there.
WORK_PREFIX = "evac-cluster-"
#: The connectors under load, as credentials.channels.yml names them.
WEBCHAT = "bot.channels.webchat.WebchatInput"
TELEGRAM = "bot.channels.telegram.TelegramInput"
SETUP = (
    "6 hosts (network namespaces on one bridge, 198.18.0.0/24): nginx front, 2 Rasa hosts "
    "(1 worker each), 1 action server, Redis, PostgreSQL (tracker store and content)."
)


def create_databases(pg: Postgres, keys: plan.Secrets) -> None:
    """The two databases of the multi-machine section, each owned by its own login."""
    admin = pg.url("postgres", keys.postgres, "postgres")
    with psycopg.connect(admin, autocommit=True) as connection:
        for name, password in (("rasa", keys.rasa_db), ("content", keys.content_db)):
            connection.execute(
                sql.SQL("CREATE ROLE {} LOGIN PASSWORD {}").format(
                    sql.Identifier(name), sql.Literal(password)
                )
            )
            connection.execute(
                sql.SQL("CREATE DATABASE {} OWNER {}").format(
                    sql.Identifier(name), sql.Identifier(name)
                )
            )


def prepare_content(net: Network, db_url: str, log: Path) -> None:
    """Migrate and seed the content database from the action-server host, as an operator
    does once from one machine."""
    env = dict(os.environ, CONTENT_DB_URL=db_url, PYTHONPATH=str(ROOT))
    for command in ("migrate", "seed"):
        done = subprocess.run(
            net.hosts["actions"].run(str(ACTIONS_BIN / "python"), "-m", "actions.content", command),
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if done.returncode != 0:
            log.write_text(done.stdout + done.stderr, encoding="utf-8")
            raise ServiceError(f"actions.content {command} failed; see {log}")


def cluster_stack(
    net: Network, model: Path, keys: plan.Secrets, logs: Path, rasa_env: dict[str, str]
) -> Stack:
    """The stack of scripts/stack.py, each server on its host (``Stack.namespaces``)."""
    return Stack(
        model,
        plan.content_db_url(net, keys),
        logs,
        rasa_port=plan.RASA_PORT,
        action_port=plan.ACTION_PORT,
        extra_env={"ACTION_SERVER_SECRET": keys.action_server},
        rasa_env=rasa_env,
        endpoints=ROOT / "endpoints.production.yml",
        credentials=channels_under_load(logs.parent),
        rasa_hosts=tuple(net.hosts[name].address for name in plan.RASA_HOSTS),
        action_host=net.hosts["actions"].address,
        namespaces={
            server: net.hosts[host].namespace for server, host in plan.SERVER_HOSTS.items()
        },
    )


def channels_under_load(folder: Path) -> Path:
    """credentials.channels.yml with only the channels under load: each of the others refuses
    to start without its provider's secrets, which a test machine does not have."""
    path = folder / "credentials.yml"
    path.write_text(f"{WEBCHAT}:\n{TELEGRAM}:\n", encoding="utf-8")
    return path


async def load_with_faults(
    net: Network,
    stack: Stack,
    front: Nginx,
    redis: Redis,
    bot_api: tuple[RecordingTelegram, int],
    args: argparse.Namespace,
) -> tuple[list[Message], TelegramPeople, list[chaos.Fault], float]:
    apology = apology_patterns(apologies())
    balancer = Balancer([front.url])
    api, api_port = bot_api
    await api.start(api_port)
    cut_rasa = stack.rasa_urls[1]
    end = args.baseline + 3 * args.phase
    reconnections: list[asyncio.Task[None]] = []

    async def offline(host: str, seconds: float) -> None:
        """Pull the host's cable now, plug it in again ``seconds`` later."""
        net.cut(host)

        async def plug_in() -> None:
            await asyncio.sleep(seconds)
            net.reconnect(host)
            print(f"[cluster] {host} connected again", file=sys.stderr, flush=True)

        reconnections.append(asyncio.create_task(plug_in()))

    async def kill_actions() -> None:
        chaos.kill_server(stack, "actions")

    async with aiohttp.ClientSession() as health:
        in_flight = lambda: balancer.in_flight[front.url] > 0  # noqa: E731
        faults = [
            chaos.Fault(
                f"Rasa host cut off {args.cut:g} s",
                args.baseline,
                lambda: offline("rasa-2", args.cut),
                lambda: chaos.http_ok(health, f"{cut_rasa}/"),
                aim=in_flight,
            ),
            chaos.Fault(
                "action server killed",
                args.baseline + args.phase,
                kill_actions,
                lambda: chaos.http_ok(health, f"{stack.action_url}/health"),
                aim=in_flight,
            ),
            chaos.Fault(
                f"Redis partitioned {args.partition:g} s",
                args.baseline + 2 * args.phase,
                lambda: offline("redis", args.partition),
                lambda: asyncio.to_thread(redis.answers),
                # The hard case: a queued turn under way, holding its conversation's lock;
                # at once, since such a turn takes a few tens of milliseconds.
                aim=lambda: redis.locks_held(f"{plan.PREFIX}:lock:telegram-*") > 0,
                into_the_turn=0.0,
            ),
        ]
        start = time.monotonic()
        people = People(balancer, args.users, args.think_time, args.give_up, apology, start, end)
        writers = TelegramPeople(
            Balancer([front.url]),
            args.telegram_users,
            args.think_time,
            args.give_up,
            apology,
            start,
            end,
            api=api,
        )
        load = asyncio.create_task(people.run())
        telegram = asyncio.create_task(writers.run())
        await asyncio.gather(
            load,
            telegram,
            chaos.inject(faults, people.clock),
            chaos.watch_recoveries(faults, people.clock, load.done),
            chaos.supervise(stack, lambda: load.done() and telegram.done()),
        )
        await asyncio.gather(*reconnections)
    writers.read_replies()
    await api.stop()
    return people.messages, writers, faults, end


def front_spread(access_log: Path) -> str:
    """Requests per Rasa host as the front's log has them (services.nginx_config's format),
    and how many it passed on to the other host because the first did not accept them."""
    served: Counter[str] = Counter()
    passed_on = 0
    with contextlib.suppress(FileNotFoundError):
        for line in access_log.read_text(encoding="utf-8").splitlines():
            fields = line.split("|")
            if len(fields) != 5 or fields[1] in ("", "-"):
                continue
            tried = [upstream.strip() for upstream in fields[1].split(",")]
            passed_on += len(tried) > 1
            served[tried[-1]] += 1
    spread = ", ".join(f"{host} {count}" for host, count in sorted(served.items())) or "none"
    return (
        f"Through the front (nginx's log), served by: {spread}; passed on to the other host "
        f"(the first did not accept the connection): {passed_on}."
    )


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--users", type=int, default=6, help="people chatting at once")
    parser.add_argument(
        "--telegram-users", type=int, default=4, help="people writing on Telegram at once"
    )
    parser.add_argument("--think-time", type=float, default=1.0, help="mean s between messages")
    parser.add_argument("--baseline", type=float, default=10.0, help="s before the first fault")
    parser.add_argument("--phase", type=float, default=40.0, help="s between faults, and after")
    parser.add_argument("--cut", type=float, default=20.0, help="s the Rasa host is cut off")
    parser.add_argument("--partition", type=float, default=10.0, help="s Redis is cut off")
    parser.add_argument("--give-up", type=float, default=90.0, help="s a message may wait")
    parser.add_argument("--label", default="", help="e.g. before / after, for the report")
    parser.add_argument("--model", type=Path, default=ROOT / "models" / "assistant.tar.gz")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "cluster.md")
    parser.add_argument(
        "--clean", action="store_true", help="only remove what an earlier, killed run left"
    )
    parser.add_argument(
        "--wait", type=float, default=900.0, help="s to wait for another run to end"
    )
    return parser.parse_args()


def main() -> int:
    args = parse_args()
    refusal = refuse_unless_root()
    if refusal:
        print(refusal, file=sys.stderr)
        return 2
    net = plan.network()
    if args.clean:
        with the_only_run(plan.LOCK, wait=0.0) as alone:
            if not alone:
                print(f"a make cluster is running (it holds {plan.LOCK})", file=sys.stderr)
                return 2
            for line in clean(net) or ["nothing to remove"]:
                print(line)
        return 0
    missing = missing_programs()
    if missing:
        print(
            f"make cluster needs these Debian packages: {', '.join(missing)} "
            f"(as root: apt-get install {' '.join(missing)}; make deps has nginx and iproute2)",
            file=sys.stderr,
        )
        return 2
    if not args.model.exists():
        print(f"{args.model} is missing: run make train", file=sys.stderr)
        return 2
    # Ctrl-C and SIGTERM end the run through the clean-up below, also inside the event loop.
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, lambda signum, _: sys.exit(128 + signum))
    with the_only_run(plan.LOCK, args.wait) as alone:
        if not alone:
            print(
                f"another make cluster still holds {plan.LOCK} after {args.wait:.0f} s: "
                "let it end, or stop it (Ctrl-C) and run this again",
                file=sys.stderr,
            )
            return 2
        # No run holds the lock, so whatever of the network (or a run's folder) exists was left
        # by one that was killed (kill -9, a machine that went down, a CI job cut off).
        for line in clean(net):
            print(f"left by a killed run: {line}", file=sys.stderr)
        return whole_run(net, args)


def whole_run(net: Network, args: argparse.Namespace) -> int:
    """The run in a folder of its own; its report printed and written to ``args.out``."""
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=WORK_PREFIX) as tmp:
        work = Path(tmp)
        # PostgreSQL runs as its own user: it may pass through, not read.
        work.chmod(0o711)
        result = run(net, work, args)
    if result is None:
        return 1
    text, lost = result
    text += f"\nWhole run: {time.monotonic() - began:.0f} s.\n"
    args.out.write_text(text, encoding="utf-8")
    print(text)
    return 1 if lost else 0


@contextlib.contextmanager
def the_only_run(lock: Path, wait: float) -> Iterator[bool]:
    """Hold ``lock`` for the run; False if another run still held it after ``wait`` s.

    The kernel lets go of a lock when its process dies, however it dies: a lock that can be
    taken means no run is under way, even if a killed one left its network behind.
    """
    lock.parent.mkdir(parents=True, exist_ok=True)
    with lock.open("a") as file:
        deadline = time.monotonic() + wait
        told = False
        while True:
            try:
                fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    yield False
                    return
                if not told:
                    print(f"another make cluster holds {lock}: waiting for it", file=sys.stderr)
                    told = True
                time.sleep(1.0)
        try:
            yield True
        finally:
            fcntl.flock(file, fcntl.LOCK_UN)


def clean(net: Network) -> list[str]:
    """Remove what a killed run left: its processes, hosts, bridge and folders."""
    done = net.remove()
    for folder in Path(tempfile.gettempdir()).glob(WORK_PREFIX + "*"):
        shutil.rmtree(folder, ignore_errors=True)
        done.append(f"folder {folder} removed")
    return done


def run(net: Network, work: Path, args: argparse.Namespace) -> tuple[str, bool] | None:
    """Build, load, break, report; tear everything down whatever happens."""
    keys = plan.Secrets()
    logs = work / "logs"
    logs.mkdir()
    # The keys the tracker-store check needs to find each conversation by its web chat id.
    api_port = free_port()
    rasa_env = {**plan.rasa_environment(net, keys), **plan.telegram_environment(net, api_port)}
    os.environ["CONVERSATION_ID_KEY"] = rasa_env["CONVERSATION_ID_KEY"]
    api = RecordingTelegram()
    api.host = net.gateway  # where the Rasa hosts reach this machine
    model = work / "assistant.tar.gz"
    shutil.copy2(args.model, model)  # others may retrain models/ meanwhile
    pg = Postgres(net.hosts["postgres"], work / "postgres", net.subnet, keys.postgres)
    redis = Redis(net.hosts["redis"], work / "redis", keys.redis)
    teardown = contextlib.ExitStack()
    stack: Stack | None = None
    front: Nginx | None = None
    try:
        teardown.callback(lambda: print("\n".join(net.remove()), file=sys.stderr))
        say("building the network")
        net.create()
        teardown.callback(pg.stop)
        say("starting PostgreSQL (initdb, pg_ctl) and Redis")
        pg.start()
        teardown.callback(redis.stop)
        redis.start()
        create_databases(pg, keys)
        say("migrating and seeding the content database from the action-server host")
        prepare_content(net, plan.content_db_url(net, keys), logs / "content.log")
        stack = cluster_stack(net, model, keys, logs, rasa_env)
        teardown.callback(stack.stop)
        say("starting the action server and two Rasa hosts (scripts/stack.py)")
        seconds = stack.start(timeout=600)
        say(f"servers up in {seconds:.0f} s; starting the nginx front")
        front = Nginx(
            net.hosts["front"],
            work / "nginx",
            [f"{net.hosts[h].address}:{plan.RASA_PORT}" for h in plan.RASA_HOSTS],
        )
        teardown.callback(front.stop)
        front.start()
        # One message per Rasa host and one through the front: no phase pays a first message.
        asyncio.run(chaos.warm_up([*stack.rasa_urls, front.url], give_up=60.0))
        say("load and faults")
        messages, writers, faults, end = asyncio.run(
            load_with_faults(net, stack, front, redis, (api, api_port), args)
        )
        tracker = pg.url("rasa", keys.rasa_db, "rasa")
        events = events_from_table(tracker, "webchat")
        check = check_conversations(chaos.stored_turns(messages), events)
        all_phases = chaos.phases(messages, faults, end)
        label = f"({args.label})" if args.label else ""
        text = chaos.report(
            label, all_phases, check, args.users, args.think_time, SETUP, "Cluster run"
        )
        text += "\n" + front_spread(work / "nginx" / "access.log") + "\n\n"
        telegram_phases = chaos.phases(writers.messages, faults, end)
        telegram_check = check_conversations(
            writers.stored_turns(), menu_folded(events_from_table(tracker, "telegram"))
        )
        text += chaos.report(
            label,
            telegram_phases,
            telegram_check,
            args.telegram_users,
            args.think_time,
            "the same hosts; the turns queued in Redis Streams, the answers to a fake Bot API "
            "on this machine.",
            "Telegram through the front",
            where="on Telegram",
        )
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.with_suffix(".json").write_text(
            json.dumps(chaos.details(all_phases, events), ensure_ascii=False, indent=1),
            encoding="utf-8",
        )
        args.out.with_name("cluster-telegram.json").write_text(
            json.dumps(writers.details(), ensure_ascii=False, indent=1), encoding="utf-8"
        )
        return text, any(m.outcome == LOST for m in [*messages, *writers.messages])
    except (NetworkError, ServiceError, StackError, psycopg.Error, RuntimeError) as error:
        print(f"make cluster failed: {error}", file=sys.stderr)
        show_logs(work)
        return None
    except BaseException:
        show_logs(work)
        raise
    finally:
        # A second Ctrl-C must not interrupt the clean-up half-way.
        for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(number, signal.SIG_IGN)
        try:
            teardown.close()
        finally:
            keep_logs(work, args.out.parent / "cluster-logs")


def say(text: str) -> None:
    print(f"[cluster] {text} ...", file=sys.stderr, flush=True)


def _logs(work: Path) -> list[Path]:
    """Every log of the run (no configuration: Redis's holds its password)."""
    return sorted(path for path in work.rglob("*.log") if path.is_file())


def show_logs(work: Path) -> None:
    for log in _logs(work):
        print(f"--- {log.relative_to(work)}, last lines:", file=sys.stderr)
        print("\n".join(log.read_text(errors="replace").splitlines()[-15:]), file=sys.stderr)


def keep_logs(work: Path, target: Path) -> None:
    """The run's logs to results/cluster-logs/, flat, named by service."""
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    for log in _logs(work):
        name = "-".join(log.relative_to(work).parts).removeprefix("logs-")
        shutil.copy2(log, target / name)
