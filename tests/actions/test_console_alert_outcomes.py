"""What became of a change's alerts, on the console's home page, over real HTTP on SQLite and
PostgreSQL: an editor closes Abbey Gate, the alerts go out the way the notifier and Rasa's
channel send them, WhatsApp and Twilio report back (recorded as the channels record them), and
the page counts them delivered, read and failed, with why, in English and in Dari — and never
shows whom.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy import Engine, select

from actions.alerts.models import Delivery, DeliveryStatus, Topic
from actions.alerts.notifier_settings import NotifierSettings
from actions.alerts.outbox_steps import AlertOutbox
from actions.alerts.subscriptions import Wish
from actions.common.rasa_api import Outcome
from actions.content import db
from bot.channels.deliveries import DeliveryLog
from bot.channels.statuses import ProviderStatus, StatusLog, provider_status
from bot.channels.transport import SENT_MESSAGE_IDS
from tests.actions.alerts_support import add_subscribers
from tests.actions.console_support import Client, form_of, invitation, sign_in, visible
from tests.actions.test_console import GATE, LATER, client_for

pytestmark = pytest.mark.usefixtures("no_alert_subscribers")

CLOSED = {
    "state": "closed",
    "note.en": "Closed: go to North Gate.",
    "note.prs": "بسته است: به دروازهٔ شمالی بروید.",
    "note.ps": "تړلې ده: شمالي دروازې ته ورشئ.",
    "note": "closed by the army",
    "do": "publish",
}


@pytest.fixture
async def editor(content_db: Engine) -> AsyncIterator[Client]:
    async with await client_for(content_db) as client:
        await sign_in(client, invitation(content_db, "amina", LATER))
        yield client


async def close_abbey_gate(editor: Client) -> None:
    form = {**form_of(await (await editor.get(GATE)).text()), **CLOSED}
    response = await editor.post(GATE, data=form)
    assert response.status == 200
    assert "subscribers will be alerted" in visible(await response.text())


async def send_all(engine: Engine, channel: str) -> dict[str, str]:
    """Each queued alert of ``channel`` sent as the notifier and Rasa's channel send it: claimed,
    handed to the provider, which names it (``SENT_MESSAGE_IDS``), settled as sent. Returns the
    provider's message id of each conversation."""
    outbox = AlertOutbox(NotifierSettings(), clock=lambda: LATER)
    log = DeliveryLog(engine, clock=lambda: LATER)
    ids: dict[str, str] = {}
    for claimed in outbox.claim(channel, 10):
        assert outbox.still_to_send(claimed)
        message_id = ("wamid.HBgL" if channel == "whatsapp" else "SM") + f"{claimed.id:030d}"

        async def provider_took_it(message_id: str = message_id) -> None:
            collected = SENT_MESSAGE_IDS.get()
            assert collected is not None
            collected.append(message_id)

        assert await log.send_once(claimed.id, provider_took_it)
        assert outbox.settle(claimed, Outcome(delivered=True)) is DeliveryStatus.SENT
        ids[claimed.conversation_id] = message_id
    return ids


def reported(*statuses: ProviderStatus | None) -> int:
    found = [status for status in statuses if status is not None]
    return StatusLog(db.get_engine()).record(found)


def stored() -> list[tuple[object, ...]]:
    with db.session_scope() as session:
        return [
            tuple(row)
            for row in session.execute(
                select(
                    Delivery.id,
                    Delivery.status,
                    Delivery.provider_status,
                    Delivery.provider_error,
                    Delivery.status_at,
                ).order_by(Delivery.id)
            )
        ]


async def home(editor: Client, language: str = "en") -> str:
    response = await editor.get(f"/console/?lang={language}")
    assert response.status == 200
    return await response.text()


async def test_a_closures_alerts_are_counted_delivered_read_and_failed_with_why(
    content_db: Engine, editor: Client
) -> None:
    on_whatsapp = add_subscribers(3, [Wish(Topic.AIRPORT, "KBL")], channel="whatsapp")
    by_sms = add_subscribers(2, [Wish(Topic.AIRPORT, "KBL")], channel="twilio_sms")
    await close_abbey_gate(editor)
    sent = {**await send_all(content_db, "whatsapp"), **await send_all(content_db, "twilio_sms")}
    assert len(sent) == 5
    delivered, read, not_on_whatsapp = (sent[person] for person in on_whatsapp)
    stopped, unanswered = (sent[person] for person in by_sms)

    assert (
        reported(
            provider_status(delivered, "delivered", None, "1629800000"),
            provider_status(read, "delivered"),
            provider_status(read, "read"),
            provider_status(read, "delivered"),  # late, out of order: read stays read
            provider_status(not_on_whatsapp, "failed", 131026),
            provider_status(stopped, "undelivered", "21610"),
            provider_status(unanswered, "queued"),  # not worth recording
        )
        == 5
    )

    page = visible(await home(editor))
    alert = page[page.index("Alerts that failed") :]
    assert "Alert: Airport KBL" in alert
    assert "Subscribers: 5 1 sent, no report yet · 1 delivered · 1 read · 2 failed" in alert
    assert "failed: not on WhatsApp (1)" in alert
    assert "failed: the person texted STOP: no more SMS reach them (1)" in alert

    dari = visible(await home(editor, "prs"))
    alert = dari[dari.index("پیام‌های خبری که نرسید") :]
    assert "مشترکین: ۵ ۱ فرستاده شد، هنوز خبری نیامده، ۱ رسید، ۱ خوانده شد، ۲ نرسید" in alert
    assert "نرسید: در واتس‌اپ نیست (۱)" in alert
    assert "نرسید: شخص STOP فرستاده: دیگر هیچ پیامکی به او نمی‌رسد (۱)" in alert

    # The notifier acts on both (they end the people's subscriptions): the page says the same.
    assert AlertOutbox(NotifierSettings(), clock=lambda: LATER).reconcile() == 2
    assert visible(await home(editor)) == page

    for language in ("en", "prs", "ps"):
        raw = await home(editor, language)
        for who in [*on_whatsapp, *by_sms, *sent.values()]:
            assert who not in raw
        assert "whatsapp-0" not in raw and "+93" not in raw


async def test_a_status_for_an_unknown_message_changes_nothing(
    content_db: Engine, editor: Client
) -> None:
    add_subscribers(1, [Wish(Topic.AIRPORT, "KBL")], channel="whatsapp")
    await close_abbey_gate(editor)
    await send_all(content_db, "whatsapp")
    before, page = stored(), visible(await home(editor))
    assert "Alerts of the last 24 hours" in page
    assert "Subscribers: 1 1 sent, no report yet" in page and "Alerts that failed" not in page

    assert (
        reported(
            provider_status("wamid.NOT-OURS", "failed", 131026),
            provider_status("", "failed", "21610"),
            provider_status(None, "read"),
            provider_status("wamid.NOT-OURS", "exploded"),
        )
        == 0
    )

    assert stored() == before
    assert visible(await home(editor)) == page
