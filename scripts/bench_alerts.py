"""`make bench-alerts`: one broadcast to many subscribers, end to end, against fake providers.

Everything real except the providers: PostgreSQL content database, Rasa with the Telegram,
WhatsApp and SMS-gateway channels, the action server, the notifier. N subscribers (default
10 000: 40 % Telegram, 40 % WhatsApp, 20 % SMS, in Dari, Pashto and English) with sealed
addresses; an editor closes the airport; we time until the last alert reaches its provider and
check that every subscriber got exactly one, and that no provider's rate was exceeded (the fake
providers answer 429 like the real ones).

    make bench-alerts                       # 10 000 subscribers
    .venv/actions/bin/python scripts/bench_alerts.py --subscribers 2000

Runs with the actions venv; the sealing of addresses runs in the bot venv (it has the crypto).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import secrets
import signal
import statistics
import subprocess
import sys
import time
import uuid
from collections import Counter, defaultdict
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.fake_providers import CHANNEL_SECRETS, CREDENTIALS, FakeProviders  # noqa: E402
from scripts.stack import Stack, free_port  # noqa: E402

BOT_PYTHON = ROOT / ".venv" / "bot" / "bin" / "python"
ACTIONS_PYTHON = ROOT / ".venv" / "actions" / "bin" / "python"
PG_ADMIN = os.environ.get("BENCH_PG_ADMIN", "postgresql://postgres@127.0.0.1:5432/test")
SHARE = {"telegram": 0.4, "whatsapp": 0.4, "sms_gateway": 0.2}
#: The providers' limits (the fakes refuse more with 429) and what the notifier is told to send:
#: its defaults' headroom (kernel/alert_rates.py, DEFAULT_RATES).
RATES = {"telegram": 30.0, "whatsapp": 80.0, "sms_gateway": 20.0}
SENDING = {"telegram": 25.0, "whatsapp": 70.0, "sms_gateway": 17.0}
LANGUAGES = ("prs", "ps", "en")


def address_of(channel: str, number: int) -> str:
    if channel == "telegram":
        return str(700_000_000 + number)
    if channel == "whatsapp":
        return f"9370{number:07d}"
    return f"+9379{number:07d}"


def plan(count: int) -> list[tuple[str, str, str]]:
    """(channel, address, language) for each subscriber."""
    people = []
    for number in range(count):
        cut = number / count
        channel = (
            "telegram" if cut < SHARE["telegram"] else "whatsapp" if cut < 0.8 else "sms_gateway"
        )
        people.append((channel, address_of(channel, number), LANGUAGES[number % 3]))
    return people


def seed(db_url: str, count: int) -> None:
    """(bot venv) Subscriptions and sealed addresses for ``count`` people, in bulk."""
    from datetime import datetime, timedelta, timezone

    import sqlalchemy as sa

    from bot.channels.identity import conversation_id
    from bot.channels.sealing import AddressCipher
    from bot.channels.settings import AddressKeys
    from kernel.contentdb.engines import database_url, engine_for

    keys = AddressKeys.load()
    cipher = AddressCipher.from_keys(keys.current, keys.old)
    now = datetime.now(timezone.utc)
    until = now + timedelta(days=30)
    addresses, subscriptions = [], []
    for channel, address, language in plan(count):
        conversation = conversation_id(channel, address)
        key, sealed = cipher.seal(conversation, channel, address)
        addresses.append(
            {"c": conversation, "ch": channel, "k": key, "s": sealed, "t0": now, "t1": until}
        )
        subscriptions.append(
            {"c": conversation, "ch": channel, "l": language, "t0": now, "t1": until}
        )
    engine = engine_for(database_url(db_url))
    with engine.begin() as connection:
        connection.execute(
            sa.text(
                "INSERT INTO alert_addresses (conversation_id, channel, key_id, sealed, "
                "created_at, expires_at) VALUES (:c, :ch, :k, :s, :t0, :t1)"
            ),
            addresses,
        )
        connection.execute(
            sa.text(
                "INSERT INTO alert_subscriptions (conversation_id, channel, topic, topic_key, "
                "language, created_at, expires_at) VALUES (:c, :ch, 'airport', 'KBL', :l, :t0, :t1)"
            ),
            subscriptions,
        )


def run(command: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{' '.join(command[:4])} … failed:\n{done.stdout}\n{done.stderr}")


def rss_mb(pid: int) -> float:
    """Resident memory of a process and its children, from /proc."""
    total = 0
    pids = [str(pid)]
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if children.exists():
        pids += children.read_text().split()
    for each in pids:
        try:
            for line in Path(f"/proc/{each}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def busiest_second(times: list[float]) -> int:
    times = sorted(times)
    best, start = 0, 0
    for end, moment in enumerate(times):
        while times[start] <= moment - 1.0:
            start += 1
        best = max(best, end - start + 1)
    return best


async def bench(count: int, timeout: float) -> str:
    import psycopg  # the actions venv's driver (the seeding above runs in the bot venv)

    name = f"bench_alerts_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    db_url = f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    work = ROOT / "results" / "bench-alerts"
    work.mkdir(parents=True, exist_ok=True)
    keys = {
        "CONVERSATION_ID_KEY": secrets.token_urlsafe(32),
        "ADDRESS_ENCRYPTION_KEY": secrets.token_urlsafe(32),
    }
    providers = FakeProviders(
        telegram_rate=RATES["telegram"],
        whatsapp_rate=RATES["whatsapp"],
        sms_rate=RATES["sms_gateway"],
    )
    provider_url = await providers.start(free_port())
    env = dict(os.environ, PYTHONPATH=str(ROOT), CONTENT_DB_URL=db_url, **keys)
    stack: Stack | None = None
    notifier: subprocess.Popen[bytes] | None = None
    try:
        run([str(ACTIONS_PYTHON), "-m", "actions.content", "migrate"], env)
        run([str(ACTIONS_PYTHON), "-m", "actions.content", "seed"], env)
        started = time.monotonic()
        run(
            [
                str(BOT_PYTHON),
                str(Path(__file__)),
                "seed",
                "--db-url",
                db_url,
                "--subscribers",
                str(count),
            ],
            env,
        )
        seeding = time.monotonic() - started
        (work / "credentials.yml").write_text(CREDENTIALS)
        token = secrets.token_urlsafe(16)
        # The notifier and Rasa's alert channels pace each channel at the same rate.
        rates = {f"ALERT_RATE_{c.upper()}": str(rate) for c, rate in SENDING.items()}
        stack = Stack(
            model=ROOT / "models" / "assistant.tar.gz",
            content_db_url=db_url,
            log_dir=work / "logs",
            rasa_port=free_port(),
            action_port=free_port(),
            extra_env={
                **keys,
                **CHANNEL_SECRETS,
                **FakeProviders.environment(provider_url),
                "RASA_CREDENTIALS": str(work / "credentials.yml"),
                "RASA_API_TOKEN": token,
                **rates,
            },
        )
        await asyncio.to_thread(stack.start)
        notifier_env = dict(
            env,
            RASA_URL=stack.rasa_url,
            RASA_API_TOKEN=token,
            **rates,
            ALERT_CONCURRENCY="32",
        )
        log = open(work / "logs" / "notifier.log", "ab")  # noqa: SIM115 - closed below
        notifier = subprocess.Popen(
            [str(ACTIONS_PYTHON), "-m", "actions.alerts", "serve"],
            cwd=ROOT,
            env=notifier_env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

        published = time.monotonic()
        run(
            [str(ACTIONS_PYTHON), "-m", "actions.content", "publish", "airport", "KBL",
             "--state", "closed", "--advice-en", "Do not come to the airport.",
             "--advice-prs", "به میدان هوایی نیایید.", "--advice-ps", "هوايي ډګر ته مه راځئ.",
             "--source", "us-embassy-kabul", "--close-gates", "--editor", "bench",
             "--note", "bench"],
            env,
        )  # fmt: skip
        queued_in = time.monotonic() - published
        peak_rss: dict[str, float] = {"notifier": 0.0}
        statuses: dict[str, int] = {}
        with psycopg.connect(db_url.replace("+psycopg", ""), autocommit=True) as connection:
            while time.monotonic() - published < timeout:
                await asyncio.sleep(1)
                statuses = dict(
                    connection.execute(
                        "SELECT status, count(*) FROM alert_deliveries GROUP BY status"
                    ).fetchall()
                )
                for label, process in stack.processes().items():
                    peak_rss[label] = max(peak_rss.get(label, 0.0), rss_mb(process.pid))
                peak_rss["notifier"] = max(peak_rss["notifier"], rss_mb(notifier.pid))
                if statuses and not statuses.get("queued") and not statuses.get("sending"):
                    break
        finished = time.monotonic() - published
    finally:
        if notifier is not None:
            os.killpg(notifier.pid, signal.SIGTERM)
            notifier.wait(timeout=30)
        if stack is not None:
            await asyncio.to_thread(stack.stop)
        await providers.stop()
        with psycopg.connect(PG_ADMIN, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    return report(count, providers, statuses, published, seeding, queued_in, finished, peak_rss)


def report(
    count: int,
    providers: FakeProviders,
    statuses: dict[str, int],
    published: float,
    seeding: float,
    queued_in: float,
    finished: float,
    peak_rss: dict[str, float],
) -> str:
    per_channel: dict[str, list[float]] = defaultdict(list)
    per_person: Counter[tuple[str, str]] = Counter()
    for received in providers.received:
        per_channel[received.channel].append(received.at)
        per_person[(received.channel, received.to)] += 1
    expected = {(channel, address) for channel, address, _ in plan(count)}
    duplicates = sum(1 for n in per_person.values() if n > 1)
    missing = len(expected - set(per_person))
    latencies = sorted(t - published for ts in per_channel.values() for t in ts)
    lines = [
        f"# make bench-alerts — {date.today().isoformat()}, {platform.node()} "
        f"({os.cpu_count()} cores), {count} subscribers",
        "",
        f"Seeding {count} sealed addresses + subscriptions: {seeding:.1f} s. "
        f"Publishing the change (CLI; queues every delivery in its transaction): "
        f"{queued_in:.1f} s.",
        f"Publish → last delivery settled: **{finished:.1f} s**; statuses: {statuses}.",
        f"Delivered to providers: {len(providers.received)}; **duplicates {duplicates}; "
        f"missing {missing}; refused by a provider (429): {len(providers.refused)}**.",
        "",
        "| channel | alerts | provider limit /s | notifier rate /s | busiest second at the "
        "provider | achieved /s | first → last |",
        "|---|---|---|---|---|---|---|",
    ]
    for channel, times in sorted(per_channel.items()):
        span = max(times) - min(times) if len(times) > 1 else 0.0
        rate = (len(times) - 1) / span if span else float(len(times))
        lines.append(
            f"| {channel} | {len(times)} | {RATES[channel]:g} | {SENDING[channel]:g} | "
            f"{busiest_second(times)} | "
            f"{rate:.1f} | {min(times) - published:.1f} → {max(times) - published:.1f} s |"
        )
    if latencies:
        quantiles = statistics.quantiles(latencies, n=100)
        lines += [
            "",
            f"Publish → provider, per alert: p50 {quantiles[49]:.1f} s, p95 {quantiles[94]:.1f} s, "
            f"max {latencies[-1]:.1f} s (bounded by the channel rates: "
            f"{count * SHARE['telegram']:.0f} Telegram alerts at {SENDING['telegram']:g}/s take "
            f"{count * SHARE['telegram'] / SENDING['telegram']:.0f} s at least).",
        ]
    lines += [
        "",
        "Peak memory (RSS): " + ", ".join(f"{label} {mb:.0f} MB" for label, mb in peak_rss.items()),
    ]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("command", nargs="?", default="bench", choices=["bench", "seed"])
    parser.add_argument("--subscribers", type=int, default=10_000)
    parser.add_argument("--timeout", type=float, default=1200.0)
    parser.add_argument("--db-url", help="(seed) the content database")
    args = parser.parse_args()
    if args.command == "seed":
        seed(args.db_url, args.subscribers)
        return 0
    print(asyncio.run(bench(args.subscribers, args.timeout)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
