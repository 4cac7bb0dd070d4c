"""Those who asked about a rumour nobody had checked are told its verdict once, end to end: real
Rasa, action-server, notifier and console processes, the fake Bot API on loopback.

Five Dari readers, four on Telegram and one on WhatsApp, forward the same chain message, which
nobody has checked: each is told "not checked yet" with the offer, and two of them type «۱» to
be told. Five people on two channels: the rumour is then on the editors' "Rumours people ask
about"; an editor, signed in over HTTP with a real session, writes the verdict from it and
publishes. The notifier sends it: each of the two gets it exactly once, in Dari, and the readers
who did not ask to be told get nothing; the next reader who forwards the message is told at
once. Publishing the claim again with a longer
explanation, and marking it checked, tells nobody again.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator

import aiohttp
import pytest

from tests.actions.console_support import csrf_in, form_of, version_in, visible
from tests.integration.console_forms import ConsoleForms
from tests.integration.test_alerts import AlertStack, alert_stack, settled, wait_for
from tests.integration.test_claims_channels import (
    NOT_CHECKED,
    REPLY_ONE,
    UNKNOWN_RUMOUR,
    WILL_TELL,
    TelegramChat,
    WhatsAppChat,
)
from tests.integration.test_console_browser import Console, serving_console

pytestmark = pytest.mark.integration

SLUG = "uzbekistan-hairatan-every-family"
VERDICT = {
    "verdict": "false",
    "claim.en": "Uzbekistan opens the Hairatan border for every family",
    "claim.prs": "ازبکستان سرحد حیرتان را برای همه خانواده‌ها باز می‌کند",
    "claim.ps": "ازبکستان د حیرتان پوله د ټولو کورنیو لپاره پرانیزي",
    "explanation.en": "The Hairatan crossing is open only to people with a visa for Uzbekistan."
    " Do not travel to the border because of this message.",
    "explanation.prs": "گذرگاه حیرتان تنها برای کسانی باز است که ویزهٔ ازبکستان دارند. به خاطر"
    " این پیام به سرحد سفر نکنید.",
    "explanation.ps": "د حیرتان لاره یوازې د هغو کسانو لپاره خلاصه ده چې د ازبکستان ویزه لري."
    " د دې پیغام له امله پولې ته سفر مه کوئ.",
    "source": "unhcr",
}
#: What the explanation says when the editor publishes the claim a second time.
MORE = {
    "explanation.en": " Ask UNHCR before you travel.",
    "explanation.prs": " پیش از سفر از UNHCR بپرسید.",
    "explanation.ps": " له سفر مخکې له UNHCR نه وپوښتئ.",
}
#: The Dari verdict's first line: it says nothing of what it is about (docs/DATA_PROTECTION.md).
TOLD = "جوابی که خواسته بودید:"
FALSE_PRS = "نادرست"


@pytest.fixture(scope="module")
def channels(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AlertStack]:
    """Rasa with the Telegram channel, the action server, the notifier and the fake providers
    (tests/integration/test_alerts.py), for this module's readers (``TelegramChat``: faster
    than Telegram's one message a second in a chat)."""
    yield from alert_stack(tmp_path_factory, telegram_per_chat=None)


@pytest.fixture(scope="module")
def console(channels: AlertStack, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Console]:
    """The editors' console (``python -m actions.admin serve``) on the same database."""
    with serving_console(tmp_path_factory.mktemp("console"), channels.db_url) as serving:
        yield serving


class Editor(ConsoleForms):
    """An editor in a browser without JavaScript, on the console's forms."""

    def __init__(self, console: Console, session: aiohttp.ClientSession) -> None:
        super().__init__(console.url, session)
        self.console = console

    async def sign_in_as(self, name: str) -> None:
        """With the one-time code of the link ``invite`` prints for ``name``."""
        found = re.search(r"code=([\w-]+)", self.console.invite(name))
        assert found is not None
        await self.sign_in(found[1])

    async def post(self, path: str, form: dict[str, str]) -> str:
        """Posts ``form`` as its button does; the page it lands on."""
        async with self.session.post(f"{self.url}{path}", data=form) as response:
            page = await response.text()
            assert response.status == 200, visible(page)[:2000]
            return page

    async def publish(self, path: str, form: dict[str, str]) -> str:
        """Preview, then publish, as the record's page asks; what the page says after it."""
        await self.post(path, {**form, "do": "preview"})
        return visible(await self.post(path, {**form, "do": "publish"}))

    async def write_the_verdict(self, rumour_words: str) -> str:
        """From "Rumours people ask about": "Write a verdict" for the rumour, published."""
        asked = await self.page("/console/claims?lang=en")
        shown = visible(asked)
        assert rumour_words in shown and "5 people asked, 5 times" in shown, shown
        [start] = re.findall(r'href="(/console/new/claim\?group=[^"]+)"', asked)
        form = form_of(await self.page(f"{start}&lang=en"))
        assert rumour_words in form["phrasings"]  # what people wrote, to find it next time
        return await self.publish("/console/new/claim", {**form, "key": SLUG, **VERDICT})

    async def publish_again(self) -> str:
        """The claim's own page: the explanation made longer, published."""
        form = form_of(await self.page(f"/console/edit/claim/{SLUG}?lang=en"))
        longer = {name: form[name] + text for name, text in MORE.items()}
        return await self.publish(f"/console/edit/claim/{SLUG}", {**form, **longer})

    async def mark_checked(self) -> None:
        """ "Checked, still true" for the claim."""
        page = await self.page(f"/console/edit/claim/{SLUG}?lang=en")
        await self.post(
            f"/console/checked/claim/{SLUG}",
            {"csrf": csrf_in(page), "version": version_in(page)},
        )


def verdicts(reader: TelegramChat | WhatsAppChat) -> list[str]:
    """The messages the reader got that bring the verdict they asked for."""
    return [received.text for received in reader.sent() if received.text.startswith(TOLD)]


async def test_those_who_asked_about_an_unchecked_rumour_are_told_its_verdict_once_in_dari(
    channels: AlertStack, console: Console
) -> None:
    waiting = [TelegramChat(channels, "fa"), TelegramChat(channels, "fa")]
    curious = [TelegramChat(channels, "fa"), TelegramChat(channels, "fa"), WhatsAppChat(channels)]
    for reader in (*waiting, *curious):
        offer = await reader.send(UNKNOWN_RUMOUR["prs"], forwarded=True)
        assert NOT_CHECKED["prs"] in offer and REPLY_ONE["prs"] in offer, offer
    for reader in waiting:
        accepted = await reader.send("۱")
        assert WILL_TELL["prs"] in accepted, accepted

    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        amina = Editor(console, session)
        await amina.sign_in_as("amina")
        published = await amina.write_the_verdict("حیرتان")
        assert f"Published: claim {SLUG}. 2 subscribers will be alerted." in published

        await wait_for(lambda: all(verdicts(reader) for reader in waiting), 60)
        await settled(channels)
        for reader in waiting:
            [told] = verdicts(reader)
            assert VERDICT["claim.prs"] in told and FALSE_PRS in told, told
            assert VERDICT["explanation.prs"] in told, told
        assert all(verdicts(reader) == [] for reader in curious)
        # What people wrote is the claim's phrasing now: the next reader is told at once.
        answered = await TelegramChat(channels, "fa").send(UNKNOWN_RUMOUR["prs"], forwarded=True)
        assert VERDICT["claim.prs"] in answered and FALSE_PRS in answered, answered

        again = await amina.publish_again()
        assert f"Published: claim {SLUG}. 0 subscribers will be alerted." in again
        await asyncio.sleep(1.1)  # a check renews verified_at, kept to the second
        await amina.mark_checked()
    await settled(channels)
    for reader in waiting:
        assert len(verdicts(reader)) == 1, verdicts(reader)
    assert all(verdicts(reader) == [] for reader in curious)
