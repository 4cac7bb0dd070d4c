"""Limits per client on the web chat: one client's flood is answered 429 while another client
is answered; a client is known by a proxy's header only when the proxy is trusted."""

from __future__ import annotations

import ipaddress
import json
import uuid

import aiohttp
import pytest

from bot.channels.memory import ProcessMemory
from bot.channels.settings import WebchatSettings
from bot.channels.webchat import WebchatInput
from bot.channels.webchat_limits import ClientLimits
from tests.channels.channel_support import Serve, replying

LOCAL = (ipaddress.ip_network("127.0.0.1/32"),)


async def say(url: str, sender: str, forwarded: str | None = None) -> tuple[int, dict[str, str]]:
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    body = json.dumps({"sender": sender, "message": "when is the next flight"})
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{url}/webhook", data=body, headers=headers) as answer,
    ):
        await answer.read()
        return answer.status, dict(answer.headers)


def new_sender() -> str:
    return uuid.uuid4().hex


def limited(settings: WebchatSettings) -> WebchatInput:
    """The channel with its limits counted at a fixed time: no window turns during a test."""
    channel = WebchatInput(settings=settings)
    channel.limits = ClientLimits(ProcessMemory(), settings, clock=lambda: 1_000_020.0)
    return channel


async def test_a_flood_of_messages_from_one_client_gets_429_and_another_is_answered(
    serve: Serve,
) -> None:
    settings = WebchatSettings(messages_per_minute=5, trusted_proxies=LOCAL)
    bot = replying([{"text": "RCH871 today"}])
    url = await serve(limited(settings), bot)
    flooder = new_sender()
    statuses = [(await say(url, flooder, "203.0.113.7"))[0] for _ in range(8)]
    assert statuses == [200] * 5 + [429] * 3
    status, headers = await say(url, flooder, "203.0.113.7")
    assert status == 429 and 1 <= int(headers["Retry-After"]) <= 60
    assert (await say(url, new_sender(), "198.51.100.2"))[0] == 200  # someone else
    assert len(bot.messages) == 6  # the refused ones never reached the assistant


async def test_new_conversations_from_one_client_are_limited_an_hour(serve: Serve) -> None:
    settings = WebchatSettings(conversations_per_hour=3, trusted_proxies=LOCAL)
    url = await serve(limited(settings), replying([{"text": "ok"}]))
    senders = [new_sender() for _ in range(3)]
    assert [(await say(url, s, "203.0.113.7"))[0] for s in senders] == [200] * 3
    status, headers = await say(url, new_sender(), "203.0.113.7")
    assert status == 429 and int(headers["Retry-After"]) > 60
    assert (await say(url, senders[0], "203.0.113.7"))[0] == 200  # a known one goes on
    assert (await say(url, new_sender(), "198.51.100.2"))[0] == 200


async def test_a_header_from_a_peer_that_is_not_a_trusted_proxy_does_not_escape_the_limit(
    serve: Serve,
) -> None:
    settings = WebchatSettings(messages_per_minute=3)  # no trusted proxy: the header is ignored
    url = await serve(limited(settings), replying([{"text": "ok"}]))
    spoofed = [(await say(url, new_sender(), f"198.51.100.{n}"))[0] for n in range(5)]
    assert spoofed == [200] * 3 + [429] * 2


@pytest.mark.parametrize(
    ("peer", "header", "client"),
    [
        ("203.0.113.9", "198.51.100.1", "203.0.113.9"),  # not a proxy: its peer address
        ("127.0.0.1", "198.51.100.1", "198.51.100.1"),
        ("127.0.0.1", "6.6.6.6, 198.51.100.1", "198.51.100.1"),  # the last hop's word
        ("127.0.0.1", "198.51.100.1, 10.0.0.5", "198.51.100.1"),  # through two proxies
        ("127.0.0.1", "not-an-address", "127.0.0.1"),
        ("127.0.0.1", "", "127.0.0.1"),
    ],
)
def test_the_client_address(peer: str, header: str, client: str) -> None:
    trusted = (*LOCAL, ipaddress.ip_network("10.0.0.0/8"))
    limits = ClientLimits(ProcessMemory(), WebchatSettings(trusted_proxies=trusted))
    assert limits.client_address(peer, {"X-Forwarded-For": header}) == client


async def test_limits_are_counted_in_the_shared_memory_and_addresses_kept_hashed() -> None:
    memory = ProcessMemory()
    limits = ClientLimits(memory, WebchatSettings(messages_per_minute=1), clock=lambda: 120.0)
    assert await limits.admit("203.0.113.7", "webchat-a") is None
    refusal = await limits.admit("203.0.113.7", "webchat-a")
    assert refusal is not None and refusal.retry_after == 60
    assert not any("203.0.113.7" in key for key in memory._entries)


async def test_an_ipv6_client_is_its_64_block_and_a_flood_leaves_the_mailboxes_alone() -> None:
    limits = ClientLimits(ProcessMemory(), WebchatSettings(messages_per_minute=2))
    for host in ("1", "2"):
        assert await limits.admit(f"2001:db8:1:2::{host}", "webchat-a") is None
    assert await limits.admit("2001:db8:1:2:ffff::9", "webchat-a") is not None  # same /64
    assert await limits.admit("2001:db8:1:3::1", "webchat-a") is None  # the next household
    channel = WebchatInput(memory=ProcessMemory(capacity=10))
    await channel.mailbox.store("webchat-b", {"text": "From your caseworker: come at 9"})
    for n in range(50):  # a flood from fifty addresses, counted
        await channel.limits.admit(f"198.51.100.{n}", f"webchat-{n}")
    [waiting] = await channel.mailbox.collect("webchat-b")
    assert waiting["text"] == "From your caseworker: come at 9"
