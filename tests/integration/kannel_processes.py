"""A real Kannel for the tests: bearerbox and smsbox from Debian's ``kannel`` package, with
``fakesmsc`` (``kannel-extras``) as the operator's SMSC, on free ports in a temporary folder.

A test types an SMS into fakesmsc as a phone would send it, and reads the SMS that Kannel
handed to the "network" from fakesmsc's output, concatenated parts put back together.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from scripts.stack import BOT_BIN, ROOT, free_port

BEARERBOX = Path("/usr/sbin/bearerbox")
SMSBOX = Path("/usr/sbin/smsbox")
FAKESMSC = Path("/usr/lib/kannel/test/fakesmsc")
#: The number people write to: Kannel's sender of every reply (KANNEL_FROM).
SHORT_CODE = "1234"

_GOT = re.compile(r"Got message \d+: <(.*)>$")
_HEAD = re.compile(r"(\S+) (\S+) (text|ucs-2|data|udh) (.*)$", re.S)


def missing_binaries() -> list[str]:
    return [str(path) for path in (BEARERBOX, SMSBOX, FAKESMSC) if not path.exists()]


def kannel_conf(core: dict[str, int], assistant_groups: str, log_dir: Path) -> str:
    """A kannel.conf with a fake SMSC and the assistant's groups as `conf` printed them."""
    return f"""\
group = core
admin-port = {core["admin"]}
admin-password = {os.urandom(8).hex()}
admin-interface = 127.0.0.1
smsbox-port = {core["smsbox"]}
box-allow-ip = 127.0.0.1
log-file = "{log_dir / "bearerbox.log"}"
log-level = 1
dlr-storage = internal

group = smsc
smsc = fake
smsc-id = fakesmsc
port = {core["smsc"]}
connect-allow-ip = 127.0.0.1

group = smsbox
bearerbox-host = 127.0.0.1
bearerbox-port = {core["smsbox"]}
sendsms-port = {core["sendsms"]}
sendsms-interface = 127.0.0.1
log-file = "{log_dir / "smsbox.log"}"
log-level = 1

{assistant_groups}"""


def assistant_groups(env: dict[str, str], post: bool = False) -> str:
    """``python -m bot.channels.kannel conf [--post]``, run as an operator runs it."""
    printed = subprocess.run(
        [
            str(BOT_BIN / "python"),
            "-m",
            "bot.channels.kannel",
            "conf",
            *(["--post"] if post else []),
        ],
        env={**os.environ, **env, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    return printed.stdout


def _wait_for_port(port: int, process: subprocess.Popen[bytes], timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args} exited with {process.returncode}")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listens on {port} after {timeout} s")


def _bytes(payload: str) -> bytes:
    """fakesmsc's URL encoding: a space as ``+``, a ``+`` as ``%2B``."""
    return urllib.parse.unquote_to_bytes(payload.replace("+", " "))


def _decode(kind: str, payload: str) -> str:
    if kind == "text":
        return payload
    data = _bytes(payload)
    if kind == "ucs-2" or _looks_like_ucs2(data):
        return data.decode("utf-16-be")
    return data.decode("utf-8")


def _looks_like_ucs2(data: bytes) -> bool:
    """A concatenated part does not say its coding: UTF-16BE of Latin and Arabic letters has
    0x00 or 0x06 in every high byte, which no GSM text has."""
    return len(data) % 2 == 0 and all(byte < 0x30 for byte in data[0::2])


@dataclass
class Received:
    """One SMS as fakesmsc got it from Kannel (several parts already joined)."""

    to: str
    text: str
    parts: int
    coding: str


@dataclass
class Kannel:
    """bearerbox, smsbox and fakesmsc, started in this order, stopped in the reverse one."""

    base: Path
    assistant_env: dict[str, str]
    #: The sms-service's post-url (the text as the request's body) instead of its get-url.
    post: bool = False
    ports: dict[str, int] = field(
        default_factory=lambda: {
            name: free_port() for name in ("admin", "smsbox", "smsc", "sendsms")
        }
    )
    _processes: list[subprocess.Popen[bytes]] = field(default_factory=list, init=False)
    _fakesmsc: subprocess.Popen[bytes] | None = field(default=None, init=False)
    _logs: list[IO[bytes]] = field(default_factory=list, init=False)

    @property
    def send_url(self) -> str:
        return f"http://127.0.0.1:{self.ports['sendsms']}/cgi-bin/sendsms"

    @property
    def fakesmsc_log(self) -> Path:
        return self.base / "fakesmsc.log"

    def _spawn(self, name: str, command: list[str]) -> subprocess.Popen[bytes]:
        log = open(self.base / f"{name}.out", "wb")  # noqa: SIM115 - closed in stop()
        self._logs.append(log)
        process = subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        self._processes.append(process)
        return process

    def start(self) -> None:
        conf = self.base / "kannel.conf"
        groups = assistant_groups(self.assistant_env, self.post)
        conf.write_text(kannel_conf(self.ports, groups, self.base))
        bearerbox = self._spawn("bearerbox", [str(BEARERBOX), str(conf)])
        _wait_for_port(self.ports["smsbox"], bearerbox)
        smsbox = self._spawn("smsbox", [str(SMSBOX), str(conf)])
        _wait_for_port(self.ports["sendsms"], smsbox)
        _wait_for_port(self.ports["smsc"], bearerbox)
        self._connect_phones()

    def _connect_phones(self, *messages: str) -> None:
        """(Re)start fakesmsc, sending ``messages`` as phones would: it reads no SMS from a
        pipe, so each incoming SMS is a new fakesmsc, which then stays connected to receive
        what Kannel sends (bearerbox keeps the SMS meant for the network while none is)."""
        if self._fakesmsc is not None:
            self._end(self._fakesmsc)
        log = open(self.fakesmsc_log, "ab")  # noqa: SIM115 - closed in stop()
        self._logs.append(log)
        command = [str(FAKESMSC), "-H", "127.0.0.1", "-r", str(self.ports["smsc"])]
        # -m 0 without a message: interactive, idle until stopped; -m N: send N, then idle.
        self._fakesmsc = subprocess.Popen(
            [*command, "-i", "0.1", "-m", str(len(messages)), *messages],
            stdin=subprocess.PIPE,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self._processes.append(self._fakesmsc)

    def phone_sends(self, number: str, text: str) -> None:
        """An SMS from ``number`` to the short code: GSM-7 as text, anything else as UCS-2."""
        from kernel.sms_segments import encoding

        if encoding(text) == "GSM-7" and "\n" not in text:
            line = f"{number} {SHORT_CODE} text {text}"
        else:
            payload = urllib.parse.quote_from_bytes(text.encode("utf-16-be"), safe="")
            line = f"{number} {SHORT_CODE} ucs2 {payload}"
        self._connect_phones(line)

    def received(self) -> list[Received]:
        """Every SMS fakesmsc got so far, in order; concatenated ones once all parts are in."""
        messages: list[Received] = []
        parts: dict[tuple[str, int], dict[int, tuple[str, int, str]]] = {}
        last_text: Received | None = None
        for raw in self.fakesmsc_log.read_bytes().decode("utf-8", "replace").splitlines():
            found = _GOT.search(raw)
            if not found:
                continue
            head = _HEAD.match(found.group(1))
            if head is None or head.group(1) != SHORT_CODE:
                # fakesmsc logs each line of a GSM text as a message of its own.
                if last_text is not None:
                    last_text.text += "\n" + found.group(1)
                continue
            _, to, kind, rest = head.groups()
            last_text = None
            if kind != "udh":
                messages.append(Received(to, _decode(kind, rest), 1, kind))
                if kind == "text":
                    last_text = messages[-1]
                continue
            udh, _, payload = rest.partition(" data ")
            header = _bytes(udh)
            reference, total, number = header[3], header[4], header[5]
            data = _bytes(payload)
            coding = "ucs-2" if _looks_like_ucs2(data) else "text"
            message = parts.setdefault((to, reference), {})
            text = data.decode("utf-16-be" if coding == "ucs-2" else "utf-8")
            message[number] = (text, total, coding)
            if len(message) == total:
                text = "".join(message[i][0] for i in sorted(message))
                messages.append(Received(to, text, total, coding))
                del parts[(to, reference)]
        return messages

    def to(self, number: str) -> list[Received]:
        return [message for message in self.received() if message.to == number]

    def replies(
        self, number: str, before: int, quiet: float = 3.0, limit: float = 90.0
    ) -> list[Received]:
        """The SMS to ``number`` after the first ``before``, once none came for ``quiet`` s."""
        deadline = time.monotonic() + limit
        seen, since = -1, time.monotonic()
        while time.monotonic() < deadline:
            now = len(self.to(number))
            if now != seen:
                seen, since = now, time.monotonic()
            elif now > before and time.monotonic() - since >= quiet:
                break
            time.sleep(0.2)
        return self.to(number)[before:]

    @staticmethod
    def _end(process: subprocess.Popen[bytes]) -> None:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()

    def stop(self) -> None:
        for process in reversed(self._processes):
            self._end(process)
        for log in self._logs:
            log.close()
