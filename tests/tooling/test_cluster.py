"""`make cluster`'s parts on real namespaces, a real bridge, nginx and Redis: a host whose
cable is pulled is unreachable and the front sends its requests to the other one; nothing of
the network outlives it. The whole run (minutes, root) is `make cluster` (docs/OPERATIONS.md).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from scripts.cluster import plan, run
from scripts.cluster.network import Network, NetworkError, ip
from scripts.cluster.services import Nginx, Redis, nginx_config, redis_config, tcp_open

ROOT = Path(__file__).resolve().parents[2]
OPERATIONS = (ROOT / "docs" / "OPERATIONS.md").read_text(encoding="utf-8")
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="namespaces and bridges need root")

#: A web server answering every GET with its host's name: which upstream served a request.
NAMED_SERVER = """
import http.server, sys
class Named(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = sys.argv[2].encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
http.server.HTTPServer((sys.argv[1], 8080), Named).serve_forever()
"""


def multi_machine_section() -> str:
    start = OPERATIONS.index("## Several machines behind a load balancer")
    return OPERATIONS[start : OPERATIONS.index("\n## ", start + 1)]


def test_every_variable_a_host_is_given_is_the_multi_machine_sections_and_none_is_loopback() -> (
    None
):
    net = plan.network()
    keys = plan.Secrets()
    given = {**plan.rasa_environment(net, keys), **plan.action_environment(net, keys)}
    section = multi_machine_section()
    assert [name for name in given if name not in section] == []
    for value in (*given.values(), plan.content_db_url(net, keys)):
        assert not re.search(r"127\.0\.0\.1|localhost", value)
    assert given["TRACKER_DB_HOST"] == "198.18.0.40" and given["REDIS_HOST"] == "198.18.0.30"
    # Every Rasa server must share the keys, and each run has its own.
    assert plan.rasa_environment(net, keys)["CONVERSATION_ID_KEY"] != given["CONVERSATION_ID_KEY"]


def fenced(section: str, language: str) -> list[str]:
    """The lines of the section's first block in ``language``, comments and blanks dropped."""
    block = re.search(rf"^```{language}\n(.*?)^```$", section, re.S | re.M)
    assert block, f"no {language} block"
    lines = (line.split("#")[0].strip() for line in block.group(1).splitlines())
    return [line for line in lines if line]


def test_the_sections_nginx_and_redis_configuration_are_what_the_cluster_runs(
    tmp_path: Path,
) -> None:
    net = plan.network()
    upstreams = [f"{net.hosts[h].address}:{plan.RASA_PORT}" for h in plan.RASA_HOSTS]
    nginx = nginx_config(tmp_path, net.hosts["front"].address, upstreams).splitlines()
    redis = redis_config(tmp_path, net.hosts["redis"].address, 6379, "…").splitlines()
    section = multi_machine_section()
    generated = {line.strip() for line in nginx}
    assert [line for line in fenced(section, "nginx") if line not in generated] == []
    assert [line for line in fenced(section, "conf") if line not in redis] == []


def test_it_refuses_to_run_when_not_root(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    commands: list[list[str]] = []
    monkeypatch.setattr(subprocess, "run", lambda command, **_: commands.append(command))
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    monkeypatch.setattr(sys, "argv", ["cluster"])
    assert run.main() == 2
    assert "needs root" in capsys.readouterr().err
    assert commands == []  # nothing built, nothing looked at


HOLD_THE_LOCK = """
import fcntl, sys, time
file = open(sys.argv[1], "a")
fcntl.flock(file, fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(60)
"""


def test_a_run_waits_for_the_one_under_way_and_not_for_one_that_was_killed(
    tmp_path: Path,
) -> None:
    lock = tmp_path / "cluster.lock"
    other = subprocess.Popen(
        [sys.executable, "-c", HOLD_THE_LOCK, str(lock)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert other.stdout is not None and other.stdout.readline() == "held\n"
        began = time.monotonic()
        with run.the_only_run(lock, wait=0.5) as alone:
            assert not alone
        assert time.monotonic() - began >= 0.5
    finally:
        other.kill()  # as kill -9 would: the kernel lets its lock go
        other.wait()
    with run.the_only_run(lock, wait=0.0) as alone:
        assert alone
        # ...and holds it: no second run gets in meanwhile.
        with run.the_only_run(lock, wait=0.0) as second:
            assert not second


@as_root
def test_a_network_a_killed_run_left_is_removed_before_the_next_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, network: Network
) -> None:
    """The killed run's hosts, bridge and a process still in one are gone; the run goes on."""
    host = network.hosts["up-1"]
    orphan = subprocess.Popen(host.run(sys.executable, "-c", "import time; time.sleep(60)"))
    found_at_start: list[list[str]] = []

    def whole_run(net: Network, args: object) -> int:
        found_at_start.append(net.leftovers())
        return 0

    model = tmp_path / "assistant.tar.gz"
    model.write_bytes(b"")
    monkeypatch.setattr(plan, "LOCK", tmp_path / "cluster.lock")
    monkeypatch.setattr(plan, "network", lambda: network)
    monkeypatch.setattr(run, "missing_programs", lambda: [])
    monkeypatch.setattr(run, "whole_run", whole_run)
    monkeypatch.setattr(signal, "signal", lambda *_: None)  # pytest keeps its own Ctrl-C
    monkeypatch.setattr(sys, "argv", ["cluster", "--model", str(model)])
    assert run.main() == 0
    assert found_at_start == [[]]
    assert orphan.wait(timeout=5) is not None


def test_the_fronts_log_tells_which_host_served_and_how_many_were_passed_on(
    tmp_path: Path,
) -> None:
    log = tmp_path / "access.log"
    log.write_text(
        "1.0|198.18.0.11:5005|200|200|0.2\n"
        "2.0|198.18.0.12:5005, 198.18.0.11:5005|504, 200|200|1.3\n"
        "3.0|198.18.0.12:5005|200|200|0.3\n"
        "4.0|-|-|400|0.0\n"
        "not a line of ours\n",
        encoding="utf-8",
    )
    assert run.front_spread(log) == (
        "Through the front (nginx's log), served by: 198.18.0.11:5005 2, 198.18.0.12:5005 1; "
        "passed on to the other host (the first did not accept the connection): 1."
    )
    assert "served by: none" in run.front_spread(tmp_path / "missing.log")


@pytest.fixture
def network() -> Iterator[Network]:
    """A small network of the test's own: its own prefix and subnet, never make cluster's."""
    net = Network("evt", "198.19.250.0/24", {"front": 10, "up-1": 11, "up-2": 12})
    if net.leftovers():
        net.remove()
    net.create()
    try:
        yield net
    finally:
        net.remove()


def served_by(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:
        return str(response.read().decode())


@as_root
def test_a_host_whose_cable_is_pulled_is_unreachable_until_plugged_in(network: Network) -> None:
    host = network.hosts["up-1"]
    server = subprocess.Popen(
        host.run(sys.executable, "-c", NAMED_SERVER, host.address, "up-1"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while not tcp_open(host.address, 8080) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert served_by(f"http://{host.address}:8080/") == "up-1"
    # Another host reaches it over the bridge as well.
    other = network.hosts["up-2"]
    probe = f"import socket; socket.create_connection(({host.address!r}, 8080), timeout=2)"
    assert subprocess.run(other.run(sys.executable, "-c", probe), timeout=20).returncode == 0

    network.cut("up-1")
    assert not tcp_open(host.address, 8080, timeout=1.0)  # silence, not a refusal
    network.reconnect("up-1")
    deadline = time.monotonic() + 10
    while not tcp_open(host.address, 8080) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert served_by(f"http://{host.address}:8080/") == "up-1"

    done = network.remove()
    assert "up-1: ended 1 process(es) still running there" in done
    assert server.wait(timeout=5) is not None
    assert network.leftovers() == []
    assert ip("link", "show", "evt-up-1", check=False).returncode != 0


@as_root
def test_a_network_that_exists_is_not_built_again_nor_torn_down(network: Network) -> None:
    again = Network("evt", "198.19.250.0/24", {"front": 10, "up-1": 11, "up-2": 12})
    with pytest.raises(NetworkError, match="exist already"):
        again.create()
    assert "bridge evt-br" in network.leftovers()  # the first one is untouched


def test_a_name_linux_cannot_take_is_refused_before_anything_is_built() -> None:
    with pytest.raises(NetworkError, match="longer than 15"):
        Network("evt", "198.19.250.0/24", {"a-very-long-host": 10})


@as_root
@pytest.mark.skipif(shutil.which("nginx") is None, reason="nginx is missing: make deps")
def test_the_front_sends_to_the_other_host_when_one_is_cut_off(
    network: Network, tmp_path: Path
) -> None:
    upstreams = []
    for name in ("up-1", "up-2"):
        host = network.hosts[name]
        subprocess.Popen(
            host.run(sys.executable, "-c", NAMED_SERVER, host.address, name),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        upstreams.append(f"{host.address}:8080")
    for upstream in upstreams:
        address, port = upstream.split(":")
        deadline = time.monotonic() + 10
        while not tcp_open(address, int(port)) and time.monotonic() < deadline:
            time.sleep(0.05)
    front = Nginx(network.hosts["front"], tmp_path / "nginx", upstreams)
    front.start()
    try:
        assert sorted(served_by(front.url + "/") for _ in range(4)) == ["up-1"] * 2 + ["up-2"] * 2
        network.cut("up-1")
        started = time.monotonic()
        answers = [served_by(front.url + "/") for _ in range(6)]
        assert answers == ["up-2"] * 6
        # One connect timeout (1 s), then up-1 is skipped: nobody waits for the dead host.
        assert time.monotonic() - started < 5
    finally:
        front.stop()
    assert "passed on to the other host (the first did not accept the connection): 1" in (
        run.front_spread(tmp_path / "nginx" / "access.log")
    )


@as_root
@pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server is missing")
def test_redis_on_its_host_wants_its_password(network: Network, tmp_path: Path) -> None:
    redis = Redis(network.hosts["up-1"], tmp_path / "redis", "right-password")
    redis.start()
    try:
        assert redis.answers()
        wrong = Redis(network.hosts["up-1"], tmp_path / "other", "wrong-password")
        assert not wrong.answers()
        network.cut("up-1")
        assert not redis.answers(timeout=0.5)
    finally:
        redis.stop()


@as_root
@pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server is missing")
def test_the_turns_holding_a_lock_are_counted_by_their_channel(
    network: Network, tmp_path: Path
) -> None:
    """What the Redis partition waits for: a Telegram turn under way (its lock's key)."""
    redis = Redis(network.hosts["up-1"], tmp_path / "redis", "right-password")
    redis.start()
    try:
        assert redis.locks_held("evac:lock:telegram-*") == 0
        for key in ("webchat-1", "telegram-1", "telegram-2"):
            assert redis.count(f"APPEND evac:lock:{key} {{}}") == 2
        assert redis.locks_held("evac:lock:telegram-*") == 2
        assert redis.locks_held("evac:lock:*") == 3
        assert Redis(redis.host, tmp_path / "x", "wrong").locks_held("evac:lock:*") == 0
        network.cut("up-1")
        assert redis.locks_held("evac:lock:*") == 0
    finally:
        redis.stop()


#: A Rasa process's intake putting one message in line while the test pulls Redis's cable:
#: ``python - HOST PORT PASSWORD CONNECTION``, into the line of a channel named after the
#: connection; it says "ready", waits for a line on stdin, puts, says how the put ended, and
#: waits for another line before it ends.
PUT_DURING_A_PARTITION = """
import asyncio, sys
from redis import asyncio as aioredis
from bot.channels.intake.line import Job
from bot.channels.intake.redis_line import LetGoConnection, RedisLine
from bot.channels.redis_memory import redis_client
from bot.channels.settings import RedisSettings

host, port, password, kind = sys.argv[1:5]
connection = LetGoConnection if kind == "letgo" else aioredis.Connection

async def main():
    settings = RedisSettings(host, int(port), 1, password, "evt")
    line = RedisLine(redis_client(settings, 1.0, connection), kind, 1, "evt:")
    await line.open()
    print("ready", flush=True)
    sys.stdin.readline()
    try:
        await line.put(Job("telegram:1", "telegram-c", {}))
        print("put", flush=True)
    except Exception as error:
        print(type(error).__name__, flush=True)
    await line.close()
    sys.stdin.readline()

asyncio.run(main())
"""


@as_root
@pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server is missing")
@pytest.mark.skipif(not (ROOT / ".venv/bot/bin/python").exists(), reason="make setup first")
def test_a_put_that_timed_out_in_a_partition_does_not_reach_the_line_afterwards(
    network: Network, tmp_path: Path
) -> None:
    """The webhook whose put timed out answered the message at once; had the put reached the
    line when the network came back, a worker would have answered it a second time. Two
    processes put during one partition: with an ordinary connection the kernel sends the
    request again until it lands; with the line's own (``LetGoConnection``) it does not."""
    redis = Redis(network.hosts["up-1"], tmp_path / "redis", "right-password")
    redis.start()
    clients = {
        kind: subprocess.Popen(
            [
                str(ROOT / ".venv/bot/bin/python"),
                "-c",
                PUT_DURING_A_PARTITION,
                redis.host.address,
                str(redis.port),
                "right-password",
                kind,
            ],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for kind in ("ordinary", "letgo")
    }
    try:
        for client in clients.values():
            assert client.stdout is not None and client.stdout.readline().strip() == "ready"
        network.cut("up-1")
        for client in clients.values():
            assert client.stdin is not None
            client.stdin.write("put\n")
            client.stdin.flush()
        for client in clients.values():
            assert client.stdout is not None
            assert client.stdout.readline().strip() == "TimeoutError"
        # Longer than the kernel keeps packets waiting for the host's address to resolve
        # (three probes a second apart), as in a partition longer than a few seconds.
        time.sleep(4)
        network.reconnect("up-1")
        # The kernel sends a request again 0.2, 0.6, 1.4, 3, 6.2, 12.6 s after the first try.
        deadline = time.monotonic() + 10
        while not redis.count("XLEN evt:intake:ordinary:0") and time.monotonic() < deadline:
            time.sleep(0.1)
        assert redis.count("XLEN evt:intake:ordinary:0") == 1
        time.sleep(1)  # the other put was sent a moment later: its next try too
        assert redis.count("XLEN evt:intake:letgo:0") == 0
    finally:
        for client in clients.values():
            client.communicate("end\n", timeout=10)
        redis.stop()
