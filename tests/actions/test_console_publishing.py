"""The console keeps what editors publish consistent, and its preview shows what each channel
sends: the answer to the question the change is about, the SMS as sent, what changed."""

from __future__ import annotations

import html
import re
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from actions.content.models import ConsoleSession, SignInCode
from tests.actions.admin_support import ADVICE, fresh_tokens, stored
from tests.actions.console_support import form_of, invitation, sign_in, visible
from tests.actions.content_support import NOW
from tests.actions.test_console import Client, client_for

AIRPORT = "/console/edit/airport/KBL"
EAST = "/console/edit/gate/KBL/east-gate"
DARI_NOTE = "بعد از انفجار بسته است."
SAME = "The languages I did not change still say the same"


@pytest.fixture
async def browser(content_db: Engine) -> AsyncIterator[Client]:
    fresh_tokens(content_db)
    with Session(content_db) as session, session.begin():
        for table in (ConsoleSession, SignInCode):
            session.query(table).delete()
    code = invitation(content_db, "amina", NOW)
    async with await client_for(content_db) as client:
        await sign_in(client, code)
        yield client


def block(page: str, language: str, channel: str) -> str:
    """What one language's preview shows on one channel, as a reader sees it."""
    start = page.index(f'data-language="{language}"')
    part = page[start:]
    found = re.search(rf'data-channel="{channel}">(.*?)</div>', part, re.S)
    assert found is not None, part[:3000]
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1))).strip()


def answer_block(page: str, language: str) -> str:
    start = page.index(f'data-language="{language}"')
    end = page.find('<div class="answer"', start + 1)
    return page[start : end if end > 0 else page.index("</section>", start)]


async def test_closing_the_airport_offers_to_close_its_gates_and_refuses_without(
    browser: Client,
) -> None:
    page = await (await browser.get(AIRPORT)).text()
    offered = "Close the gates too: East Gate, North Gate, Baron Hotel side (UK processing centre)"
    assert offered in visible(page) and 'name="close_gates"' in page
    form = form_of(page)
    form.update({f"advice.{lang}": text for lang, text in ADVICE.items()})
    form.update({"state": "closed", "do": "preview"})

    refused = await browser.post(AIRPORT, data=form)
    assert refused.status == 422
    shown = visible(await refused.text())
    assert (
        "Closing Hamid Karzai International Airport would leave gates that still say open: East "
        "Gate, North Gate, Baron Hotel side (UK processing centre). Close them too (“Close the "
        "gates too: …”)"
    ) in shown

    previewed = await browser.post(AIRPORT, data={**form, "close_gates": "yes"})
    assert previewed.status == 200
    page = await previewed.text()
    assert 'name="close_gates" value="yes" checked' in page  # the choice survives the preview
    assert f"{offered} ✓" in visible(page)
    for language, opened in (("en", ": open"), ("prs", ": باز"), ("ps", ": خلاصه")):
        assert opened not in block(page, language, "chat")
    assert stored("gate", "KBL/east-gate")["state"] == "open"  # a preview changes nothing

    published = await browser.post(
        AIRPORT, data={**form_of(page), "close_gates": "yes", "do": "publish"}
    )
    assert published.status == 200
    assert stored("airport", "KBL")["state"] == "closed"
    assert {stored("gate", f"KBL/{g}")["state"] for g in ("east-gate", "north-gate")} == {"closed"}


async def test_an_unchanged_note_is_not_called_missing_and_the_refusal_names_the_tick(
    browser: Client,
) -> None:
    form = form_of(await (await browser.get(EAST)).text())
    form.update({"state": "closed", "note.prs": DARI_NOTE, "do": "preview"})
    refused = await browser.post(EAST, data=form)
    assert refused.status == 422
    page = await refused.text()
    shown = visible(page)
    assert f"English: not changed. Change it too, or tick “{SAME}”." in shown
    assert f"Pashto: not changed. Change it too, or tick “{SAME}”." in shown
    assert "Dari: not changed" not in shown and "missing text" not in shown
    assert 'id="note.prs-error"' not in page


async def test_a_state_change_with_an_unchanged_note_needs_a_second_explicit_yes(
    browser: Client,
) -> None:
    form = form_of(await (await browser.get(EAST)).text())
    form.update({"state": "closed", "note.prs": DARI_NOTE, "same.note": "yes", "do": "preview"})

    refused = await browser.post(EAST, data=form)
    assert refused.status == 422
    page = await refused.text()
    shown = visible(page)
    assert 'name="same.note" value="yes" checked' in page  # the tick survives
    assert "The state changed, the note in English did not." in shown
    assert "The state changed, the note in Pashto did not." in shown
    confirm = "I checked: the note I did not change still holds for the new state"
    assert confirm in shown and 'name="confirm_unchanged"' in page
    assert stored("gate", "KBL/east-gate")["state"] == "open"

    previewed = await browser.post(EAST, data={**form, "confirm_unchanged": "yes"})
    assert previewed.status == 200
    page = await previewed.text()
    assert 'name="same.note" value="yes" checked' in page
    assert 'name="confirm_unchanged" value="yes" checked' in page
    for language, name in (("en", "English"), ("ps", "Pashto")):
        flagged = visible(answer_block(page, language))
        assert f"⚠ The state changed, the note in {name} did not." in flagged
    assert 'data-flag="unchanged"' not in answer_block(page, "prs")

    published = await browser.post(EAST, data={**form, "confirm_unchanged": "yes", "do": "publish"})
    assert published.status == 200
    assert stored("gate", "KBL/east-gate")["state"] == "closed"


async def test_a_gate_preview_answers_is_the_gate_open_with_the_sms_as_sent(
    browser: Client,
) -> None:
    form = form_of(await (await browser.get(EAST)).text())
    notes = {
        "note.en": "Closed after the blast.",
        "note.prs": DARI_NOTE,
        "note.ps": "له چاودنې وروسته بنده ده.",
    }
    form.update({"state": "closed", **notes, "do": "preview"})
    page = await (await browser.post(EAST, data=form)).text()
    shown = visible(page)
    assert "The answer to the question: is East Gate open?" in shown
    assert "جواب این سوال: آیا دروازهٔ شرقی باز است؟" not in shown  # interface stays English
    assert "آیا دروازهٔ شرقی باز است؟" in shown and "ختیځه دروازه خلاصه ده؟" in shown

    chat = block(page, "en", "chat")
    assert chat.startswith("• East Gate: closed — Closed after the blast.")
    assert "North Gate" not in chat  # the one gate asked about, not the whole airport
    changed = re.findall(r"<mark>(.*?)</mark>", answer_block(page, "en"))
    assert "• East Gate: closed — Closed after the blast." in changed

    sms = block(page, "en", "sms")
    assert "East Gate" in sms and "closed" in sms and "North Gate" not in sms
    assert "2 All gates" in sms  # the SMS variation's button, numbered by the SMS renderer
    assert "—" not in sms and "•" not in sms  # GSM-7 dashes and bullets, as basic phones get
    assert re.search(r"SMS, as sent: 1 segments", shown)
    assert "۲ همه دروازه‌ها" in block(page, "prs", "sms")
    assert "SMS: 17 segments" not in shown

    english = answer_block(page, "en")
    folded = english[english.index("<details>") : english.index("</details>")]
    assert "The whole answer about the airport, every gate" in visible(folded)
    assert "North Gate" in visible(folded) and "Abbey Gate" in visible(folded)


async def test_the_preview_says_when_a_language_reads_as_before(browser: Client) -> None:
    form = form_of(await (await browser.get(EAST)).text())
    form.update({"note.en": "Only for people called by their embassy.", "do": "preview"})
    form["same.note"] = "yes"
    page = await (await browser.post(EAST, data=form)).text()
    assert "This answer reads as before" in visible(answer_block(page, "prs"))
    assert "This answer reads as before" not in visible(answer_block(page, "en"))
