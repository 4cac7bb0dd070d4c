"""Machines on one machine: a network namespace per host, all joined by one bridge.

Each host gets an interface ``eth0`` with an address of its own; the other end of its cable
(a veth pair) is a port of the bridge, and this machine (the load generator, the operator)
sits on the bridge's own address, so it reaches every host as a client on the same network
would. Pulling a host's cable is ``ip link set <port> down``: its packets vanish, nothing
refuses a connection, just as when a machine or its switch port dies.

Everything is named after a prefix, so `remove` finds it again, also what an earlier run that
was killed left behind, and never touches another interface or namespace.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import signal
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass

#: Linux limits interface names to 15 characters.
MAX_NAME = 15


class NetworkError(RuntimeError):
    """The network could not be built; the message names the step and what `ip` said."""


def ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """One `ip` (iproute2) command; its complaint in the error when it fails."""
    done = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30)
    if check and done.returncode != 0:
        raise NetworkError(f"ip {' '.join(args)}: {done.stderr.strip() or done.returncode}")
    return done


@dataclass(frozen=True)
class Host:
    """One machine: its name, its address and the namespace it lives in."""

    name: str
    address: str
    #: Its network namespace, and the name of its cable's end on the bridge.
    namespace: str

    def run(self, *command: str) -> list[str]:
        """``command`` as run on this host (``ip netns exec`` execs it: same pid)."""
        return ["ip", "netns", "exec", self.namespace, *command]


@dataclass
class Network:
    """A bridge ``<prefix>-br`` on ``subnet``'s first address and a host per ``hosts`` entry
    (name → its number in the subnet)."""

    prefix: str
    subnet: str
    hosts_by_number: Mapping[str, int]

    def __post_init__(self) -> None:
        network = ipaddress.ip_network(self.subnet)
        self.prefix_length = network.prefixlen
        self.gateway = str(network[1])
        self.hosts = {
            name: Host(name, str(network[number]), f"{self.prefix}-{name}")
            for name, number in self.hosts_by_number.items()
        }
        for name in (self.bridge, *(host.namespace for host in self.hosts.values())):
            if len(name) > MAX_NAME:
                raise NetworkError(f"interface name {name!r} is longer than {MAX_NAME} characters")

    @property
    def bridge(self) -> str:
        return f"{self.prefix}-br"

    def leftovers(self) -> list[str]:
        """What of this network exists already (an earlier run's, or one running now)."""
        found = []
        if ip("link", "show", self.bridge, check=False).returncode == 0:
            found.append(f"bridge {self.bridge}")
        namespaces = set(ip("netns", "list").stdout.split())
        found += [
            f"namespace {h.namespace}" for h in self.hosts.values() if h.namespace in namespaces
        ]
        return found

    def create(self) -> None:
        """The bridge, then each host with its cable plugged in; on failure, nothing stays.

        Refuses when any of it exists already: it may be another run's, in use.
        """
        existing = self.leftovers()
        if existing:
            raise NetworkError(f"{', '.join(existing)} exist already")
        try:
            ip("link", "add", self.bridge, "type", "bridge")
            ip("addr", "add", f"{self.gateway}/{self.prefix_length}", "dev", self.bridge)
            ip("link", "set", self.bridge, "up")
            for host in self.hosts.values():
                ip("netns", "add", host.namespace)
                ip(
                    "link", "add", host.namespace, "type", "veth",
                    "peer", "name", "eth0", "netns", host.namespace,
                )  # fmt: skip
                ip("link", "set", host.namespace, "master", self.bridge, "up")
                inside = ("-n", host.namespace)
                ip(*inside, "addr", "add", f"{host.address}/{self.prefix_length}", "dev", "eth0")
                ip(*inside, "link", "set", "eth0", "up")
                ip(*inside, "link", "set", "lo", "up")
        except BaseException:
            self.remove()
            raise

    def cut(self, name: str) -> None:
        """Pull the host's cable: nothing reaches it, nothing leaves it."""
        ip("link", "set", self.hosts[name].namespace, "down")

    def reconnect(self, name: str) -> None:
        ip("link", "set", self.hosts[name].namespace, "up")

    def remove(self) -> list[str]:
        """Stop every process still in a host, delete the hosts and the bridge; what it did.

        Safe to call twice and on a half-built network: each step is tried on its own.
        """
        done = []
        namespaces = set(ip("netns", "list", check=False).stdout.split())
        for host in self.hosts.values():
            if host.namespace not in namespaces:
                continue
            killed = kill_processes_in(host.namespace)
            if killed:
                done.append(f"{host.name}: ended {killed} process(es) still running there")
            ip("netns", "delete", host.namespace, check=False)
            done.append(f"namespace {host.namespace} removed")
        # A host's cable goes with its namespace; one left by a half-built host goes here.
        for host in self.hosts.values():
            ip("link", "delete", host.namespace, check=False)
        if ip("link", "delete", self.bridge, check=False).returncode == 0:
            done.append(f"bridge {self.bridge} removed")
        return done


def kill_processes_in(namespace: str) -> int:
    """SIGKILL the processes of a namespace this run started (`ip netns pids` lists them)."""
    listed = ip("netns", "pids", namespace, check=False).stdout.split()
    count = 0
    for pid in (int(text) for text in listed if text.isdigit()):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
            count += 1
    return count


def refuse_unless_root() -> str | None:
    """Why this cannot run here (it builds namespaces and a bridge), or None."""
    if os.geteuid() != 0:
        return (
            "make cluster builds network namespaces and a bridge, which needs root: "
            "run it as root (sudo make cluster)"
        )
    return None
