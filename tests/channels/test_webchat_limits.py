"""Limits per client on the web chat: one client's flood is answered 429 while another client
is answered; a client is known by a proxy's header only when the proxy is trusted; the many
people behind one address are each answered, their pages known by their tickets, while one
script from that address is still capped."""

from __future__ import annotations

import ipaddress
import json
import uuid
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest

from bot.channels.settings import WebchatSettings
from bot.channels.webchat import WebchatInput
from bot.channels.webchat_limits import Admitted, ClientLimits, Refusal
from bot.channels.webchat_tickets import (
    CHALLENGE_SECONDS,
    FIRST_BITS,
    LAST_BITS,
    Challenge,
    bits_for,
    solve,
)
from kernel.memory import MemoryUnavailable, ProcessMemory
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
    assert isinstance(await limits.admit("203.0.113.7", "webchat-a"), Admitted)
    refusal = await limits.admit("203.0.113.7", "webchat-a")
    assert isinstance(refusal, Refusal) and refusal.retry_after == 60
    assert not any("203.0.113.7" in key for key in memory._entries)


async def test_an_ipv6_client_is_its_64_block_and_a_flood_leaves_the_mailboxes_alone() -> None:
    limits = ClientLimits(ProcessMemory(), WebchatSettings(messages_per_minute=2))
    for host in ("1", "2"):
        assert isinstance(await limits.admit(f"2001:db8:1:2::{host}", "webchat-a"), Admitted)
    assert isinstance(await limits.admit("2001:db8:1:2:ffff::9", "webchat-a"), Refusal)  # same /64
    assert isinstance(await limits.admit("2001:db8:1:3::1", "webchat-a"), Admitted)  # next one
    channel = WebchatInput(memory=ProcessMemory(capacity=10))
    await channel.mailbox.store("webchat-b", {"text": "From your caseworker: come at 9"})
    for n in range(50):  # a flood from fifty addresses, counted
        await channel.limits.admit(f"198.51.100.{n}", f"webchat-{n}")
    [waiting] = await channel.mailbox.collect("webchat-b")
    assert waiting["text"] == "From your caseworker: come at 9"


# Pages that know tickets: each a client of its own, work past the free conversations.

QUESTION = "پرواز بعدی چه وقت است؟"
#: An hour's start (fixed windows): the whole test falls within one hour.
HOUR_START = 3600.0 * 278


@dataclass
class Clock:
    """The limits' wall clock, moved on by the test."""

    now: float = HOUR_START

    def __call__(self) -> float:
        return self.now


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    body: Any


async def page_says(
    session: aiohttp.ClientSession,
    url: str,
    sender: str,
    ticket: str | None = "",
    work: dict[str, str] | None = None,
    network: str | None = None,
) -> Answer:
    """What widget.js posts: its ticket ("" before it has one; None: a page too old to send
    one), and the work it did when asked; from ``network`` through a trusted proxy."""
    body: dict[str, Any] = {"sender": sender, "message": QUESTION}
    if ticket is not None:
        body["ticket"] = ticket
    if work is not None:
        body["work"] = work
    headers = {"X-Forwarded-For": network} if network else {}
    async with session.post(f"{url}/webhook", json=body, headers=headers) as answer:
        return Answer(answer.status, dict(answer.headers), await answer.json(content_type=None))


async def opened_as_a_page(
    session: aiohttp.ClientSession, url: str, sender: str, network: str | None = None
) -> tuple[Answer, int]:
    """What widget.js does with a new page's message: send it, do the work when asked, send
    it again. The last answer, and how many times work was asked."""
    answer = await page_says(session, url, sender, network=network)
    rounds = 0
    while answer.status == 401 and rounds < 5:
        asked = answer.body["work"]
        nonce = solve(Challenge(asked["challenge"], asked["bits"]))
        rounds += 1
        work = {"challenge": asked["challenge"], "nonce": nonce}
        answer = await page_says(session, url, sender, "", work, network)
    return answer, rounds


def channel_at(
    settings: WebchatSettings, clock: Clock, memory: ProcessMemory | None = None
) -> WebchatInput:
    """The channel with its limits on the test's clock."""
    channel = WebchatInput(settings=settings)
    channel.limits = ClientLimits(
        memory if memory is not None else ProcessMemory(), settings, clock=clock
    )
    return channel


async def test_three_hundred_people_behind_one_address_are_all_answered_within_an_hour(
    serve: Serve,
) -> None:
    """The user test: 40 people at once behind one carrier address, then 260 more over the
    hour, each a new page asking once. The old rule answered 30 and told 10 to wait 33 min."""
    clock = Clock()
    bot = replying([{"text": "RCH871 today"}])
    url = await serve(channel_at(WebchatSettings(), clock), bot)
    statuses, worked, tickets = [], 0, set()
    async with aiohttp.ClientSession() as session:
        for person in range(300):
            clock.now = HOUR_START + (0 if person < 40 else (person - 39) * 13.0)
            answer, rounds = await opened_as_a_page(session, url, new_sender())
            statuses.append(answer.status)
            worked += rounds > 0
            tickets.add(answer.headers.get("X-Webchat-Ticket"))
    assert statuses == [200] * 300
    assert len(bot.messages) == 300 and clock.now < HOUR_START + 3600
    assert worked == 270  # all but the first 30 did a little work first
    assert None not in tickets and len(tickets) == 300  # a ticket each, for their own page


async def test_one_script_flooding_new_conversations_is_still_capped(serve: Serve) -> None:
    """A loop of requests from one address stays at the free conversations however it
    presents itself; doing the work takes it to the ceiling, not past it; each is then told
    the true wait, to the end of the hour."""
    clock = Clock(HOUR_START + 1600)
    settings = WebchatSettings(conversations_per_hour=3, conversations_per_hour_with_work=12)
    bot = replying([{"text": "ok"}])
    url = await serve(channel_at(settings, clock), bot)
    async with aiohttp.ClientSession() as session:
        as_old_pages = [await page_says(session, url, new_sender(), None) for _ in range(5)]
        as_new_pages = [await page_says(session, url, new_sender()) for _ in range(20)]
        working = [(await opened_as_a_page(session, url, new_sender()))[0] for _ in range(12)]
    assert [a.status for a in as_old_pages] == [200] * 3 + [429] * 2
    assert {a.status for a in as_new_pages} == {401}  # none opened without the work
    assert [a.status for a in working] == [200] * 9 + [429] * 3
    assert len(bot.messages) == 12  # the ceiling, all ways together
    for refused in (as_old_pages[-1], working[-1]):
        assert refused.headers["Retry-After"] == "2000" and refused.body["retry_after"] == 2000
    assert "work" not in as_old_pages[-1].body  # a page too old to work is never asked to


def test_the_work_doubles_step_by_step_towards_the_ceiling() -> None:
    """Nothing among the free 30; 2**14 hashes for the 300th (a tenth of a second on a cheap
    phone); the ceiling's 2**16 at most; past the ceiling, none is offered."""
    asked = [bits_for(opened, 30, 400) for opened in (0, 29, 30, 71, 72, 299, 399, 400)]
    assert asked == [0, 0, FIRST_BITS, FIRST_BITS, FIRST_BITS + 1, 14, LAST_BITS, None]
    assert WebchatSettings().conversations_ceiling == 400


async def test_a_page_with_its_ticket_is_a_client_of_its_own(serve: Serve) -> None:
    clock = Clock()
    settings = WebchatSettings(
        messages_per_minute=5, conversations_per_hour=2, trusted_proxies=LOCAL
    )
    url = await serve(channel_at(settings, clock), replying([{"text": "ok"}]))
    hotel, mobile = "203.0.113.7", "198.51.100.2"
    async with aiohttp.ClientSession() as session:
        first, _ = await opened_as_a_page(session, url, sender := new_sender(), hotel)
        ticket = first.headers["X-Webchat-Ticket"]
        busy = [await page_says(session, url, sender, ticket, network=hotel) for _ in range(6)]
        # Another page on the same address is not held back by the busy one.
        neighbour, _ = await opened_as_a_page(session, url, new_sender(), hotel)
        # Hours of silence later, on mobile data where others used the free conversations:
        # the same page, no work.
        clock.now += 3 * 3600
        for _ in range(2):
            await opened_as_a_page(session, url, new_sender(), mobile)
        stranger = await page_says(session, url, new_sender(), network=mobile)
        back = await page_says(session, url, sender, ticket, network=mobile)
    assert [a.status for a in busy] == [200] * 4 + [429] * 2  # 5 a minute, the first included
    assert 1 <= busy[-1].body["retry_after"] <= 60
    assert neighbour.status == 200
    assert stranger.status == 401 and back.status == 200


async def test_a_ticket_opens_only_its_own_conversation(serve: Serve) -> None:
    clock = Clock()
    settings = WebchatSettings(conversations_per_hour=1)
    url = await serve(channel_at(settings, clock), replying([{"text": "ok"}]))
    async with aiohttp.ClientSession() as session:
        first = await page_says(session, url, new_sender())
        ticket = first.headers["X-Webchat-Ticket"]
        copied = await page_says(session, url, new_sender(), ticket)
        forged = await page_says(session, url, new_sender(), f"{int(clock.now)}.{'0' * 32}")
    assert first.status == 200
    assert copied.status == 401 and forged.status == 401  # new conversations: work first


async def test_work_opens_only_its_own_conversation_and_only_for_a_while(serve: Serve) -> None:
    clock = Clock()
    settings = WebchatSettings(conversations_per_hour=1)
    url = await serve(channel_at(settings, clock), replying([{"text": "ok"}]))
    async with aiohttp.ClientSession() as session:
        await page_says(session, url, new_sender())  # the free one
        asked = (await page_says(session, url, sender := new_sender())).body["work"]
        work = {
            "challenge": asked["challenge"],
            "nonce": solve(Challenge(asked["challenge"], asked["bits"])),
        }
        elsewhere = await page_says(session, url, new_sender(), work=work)
        clock.now += CHALLENGE_SECONDS + 1
        too_late = await page_says(session, url, sender, work=work)
    assert elsewhere.status == 401 and too_late.status == 401
    assert too_late.headers["WWW-Authenticate"].startswith('Work challenge="')


async def test_every_message_of_an_address_counts_towards_its_network_ceiling(
    serve: Serve,
) -> None:
    clock = Clock()
    settings = WebchatSettings(
        messages_per_minute=5, network_messages_per_minute=10, conversations_per_hour=20
    )
    url = await serve(channel_at(settings, clock), replying([{"text": "ok"}]))
    async with aiohttp.ClientSession() as session:
        answers = [await page_says(session, url, new_sender()) for _ in range(12)]
    assert [a.status for a in answers] == [200] * 10 + [429] * 2
    assert answers[-1].body["error"] == "too many messages per minute from this network"


class DownMemory(ProcessMemory):
    """A Redis that does not answer."""

    async def push(self, key: str, item: str, limit: int, ttl: float) -> bool:
        raise MemoryUnavailable("down")


async def test_with_the_memory_down_messages_are_admitted_without_tickets(serve: Serve) -> None:
    clock = Clock()
    settings = WebchatSettings(conversations_per_hour=1, messages_per_minute=1)
    bot = replying([{"text": "ok"}])
    url = await serve(channel_at(settings, clock, DownMemory()), bot)
    async with aiohttp.ClientSession() as session:
        answers = [await page_says(session, url, new_sender()) for _ in range(3)]
        answers += [await page_says(session, url, new_sender(), None) for _ in range(3)]
    assert [a.status for a in answers] == [200] * 6 and len(bot.messages) == 6
    assert not any("X-Webchat-Ticket" in a.headers for a in answers)


def test_the_settings_take_the_ceilings_and_never_let_them_cap_below_the_limits() -> None:
    loaded = WebchatSettings.load(
        {
            "WEBCHAT_CONVERSATIONS_PER_HOUR_WITH_WORK": "1000",
            "WEBCHAT_NETWORK_MESSAGES_PER_MINUTE": "900",
        }
    )
    assert (loaded.conversations_ceiling, loaded.network_ceiling) == (1000, 900)
    unlimited = WebchatSettings.load(
        {
            "WEBCHAT_CONVERSATIONS_PER_HOUR": "1000000000",
            "WEBCHAT_MESSAGES_PER_MINUTE": "1000000000",
        }
    )
    assert unlimited.conversations_ceiling == unlimited.network_ceiling == 1_000_000_000
    with pytest.raises(ValueError, match="WEBCHAT_NETWORK_MESSAGES_PER_MINUTE"):
        WebchatSettings.load({"WEBCHAT_NETWORK_MESSAGES_PER_MINUTE": "none"})
