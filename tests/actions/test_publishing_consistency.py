"""What editors publish is consistent: a closed airport lists no open gate, and a changed state
keeps no note that may say the opposite — through the service, the command line and the API."""

from __future__ import annotations

import copy
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import Engine

from actions import consistency, publishing
from actions.admin.app import create_app
from actions.admin.settings import AdminSettings
from actions.chat.airport import ActionAnswerAirportStatus
from actions.content import db, editing
from actions.content.models import Revision
from actions.content.seed.entries import SeedError
from tests.actions.admin_support import (
    ADVICE,
    LATER,
    bearer,
    fresh_tokens,
    revision_count,
    stored,
)
from tests.actions.content_support import LANGUAGES, only_message, run, tracker
from tests.actions.test_content_cli import content, seeded_template  # noqa: F401 - fixture

Client = TestClient[web.Request, web.Application]
CLOSED_WORD = {"en": "closed", "prs": "بسته", "ps": "بند"}  # the airport; a gate is «بنده»
OPEN_WORD = {"en": ": open", "prs": ": باز", "ps": ": خلاصه"}
JUST_NOW = {"en": "verified just now", "prs": "همین حالا تایید شده", "ps": "همدا اوس تایید شوي"}
GATE_NOTE = {
    "en": "Closed after the blast.",
    "prs": "بعد از انفجار بسته است.",
    "ps": "له چاودنې وروسته بنده ده.",
}


def close_kbl(**options: Any) -> Any:
    with db.session_scope() as session:
        revision = publishing.publish(
            session, "amina", "airport", "KBL", {"state": "closed", "advice": ADVICE},
            "blast at Abbey Gate", now=LATER, **options,
        )  # fmt: skip
        return revision.id if revision else None


def publish_gate(changes: dict[str, Any], **options: Any) -> None:
    with db.session_scope() as session:
        publishing.publish(
            session, "amina", "gate", "KBL/east-gate", changes, "n", now=LATER, **options
        )


async def answer(language: str, entities: dict[str, str] | None = None) -> dict[str, Any]:
    action = ActionAnswerAirportStatus(clock=lambda: LATER)
    messages, _ = await run(action, tracker("ask_airport_status", language, entities))
    return only_message(messages)


# -- closing the airport ------------------------------------------------------------------------


def test_closing_an_airport_with_open_gates_is_refused_naming_them(content_db: Engine) -> None:
    before = revision_count()
    with pytest.raises(consistency.GatesStillOpen) as refused:
        close_kbl()
    message = str(refused.value)
    assert message.startswith("Closing Hamid Karzai International Airport would leave gates ")
    assert "East Gate, North Gate, Baron Hotel side" in message and "--close-gates" in message
    assert "Abbey Gate" not in message  # already closed
    assert refused.value.gates == ["KBL/east-gate", "KBL/north-gate", "KBL/baron-hotel"]
    assert revision_count() == before and stored("airport", "KBL")["state"] == "restricted"
    # The console and the API say it in their own words, each language its own.
    assert "دروازهٔ شرقی" in refused.value.say("prs", "x") and "ختیځه دروازه" in (
        refused.value.say("ps", "x")
    )


@pytest.mark.parametrize("language", LANGUAGES)
async def test_closing_with_the_gates_leaves_no_answer_listing_a_gate_open(
    content_db: Engine, language: str
) -> None:
    close_kbl(close_gates=True)

    airport = await answer(language)
    assert airport["response"] == "utter_airport_status"
    assert CLOSED_WORD[language] in airport["status"]
    assert OPEN_WORD[language] not in airport["gates"]
    assert JUST_NOW[language] in airport["provenance"]
    assert "ago" not in airport["provenance"] and "پیش" not in airport["provenance"]
    gate = await answer(language, {"gate": "KBL/east-gate"})
    assert gate["response"] == "utter_gate_status"
    assert CLOSED_WORD[language] in gate["gate"] and OPEN_WORD[language] not in gate["gate"]


def test_the_gates_closed_with_the_airport_are_revisions_of_their_own(content_db: Engine) -> None:
    airport = close_kbl(close_gates=True)
    east = stored("gate", "KBL/east-gate")
    assert east["state"] == "closed" and east["source"] == "us-embassy-kabul"
    assert east["note"] == {
        "en": "The airport is closed.",
        "prs": "میدان هوایی بسته است.",
        "ps": "هوايي ډګر بند دی.",
    }
    with db.session_scope() as session:
        revision = session.get(Revision, airport)
        assert revision is not None
        closed = publishing.closed_with(session, revision)
        assert [(r.record_key, r.editor, r.note) for r in closed] == [
            ("KBL/abbey-gate", "amina", "blast at Abbey Gate"),
            ("KBL/civilian-terminal", "amina", "blast at Abbey Gate"),
            ("KBL/east-gate", "amina", "blast at Abbey Gate"),
            ("KBL/north-gate", "amina", "blast at Abbey Gate"),
            ("KBL/baron-hotel", "amina", "blast at Abbey Gate"),
        ]


def test_a_gate_cannot_open_at_a_closed_airport(content_db: Engine) -> None:
    close_kbl(close_gates=True)
    before = revision_count()
    with pytest.raises(consistency.GateAtClosedAirport, match="reopen the airport first"):
        publish_gate({"state": "open", "note": GATE_NOTE})
    assert revision_count() == before and stored("gate", "KBL/east-gate")["state"] == "closed"


def test_rolling_back_a_gate_closure_at_a_closed_airport_is_refused(content_db: Engine) -> None:
    publish_gate({"state": "closed", "note": GATE_NOTE})
    with db.session_scope() as session:
        closure = editing.history(session, "gate", "KBL/east-gate")[0].id
    close_kbl(close_gates=True)
    with pytest.raises(consistency.GateAtClosedAirport), db.session_scope() as session:
        publishing.rollback(session, "bilal", closure, "undo", now=LATER)
    assert stored("gate", "KBL/east-gate")["state"] == "closed"


# -- a changed state and its note ---------------------------------------------------------------


def test_a_state_change_with_the_note_unchanged_is_refused_naming_the_languages(
    content_db: Engine,
) -> None:
    note = stored("gate", "KBL/east-gate")["note"]
    with pytest.raises(consistency.UnchangedText) as refused:
        publish_gate({"state": "closed", "note": {**note, "prs": GATE_NOTE["prs"]}})
    assert refused.value.languages == ["en", "ps"]
    assert str(refused.value) == (
        "The state changed from open to closed, but the note in English, Pashto did not: it may "
        "still say the opposite. Write it for the new state, or confirm that it still holds "
        "(--confirm-unchanged)."
    )
    assert "پښتو" in refused.value.say("ps", "x") and "یادښت" in refused.value.say("ps", "x")
    assert stored("gate", "KBL/east-gate")["state"] == "open"


def test_confirming_the_unchanged_note_publishes_it(content_db: Engine) -> None:
    note = stored("gate", "KBL/east-gate")["note"]
    publish_gate(
        {"state": "closed", "note": {**note, "prs": GATE_NOTE["prs"]}}, confirm_unchanged=True
    )
    assert stored("gate", "KBL/east-gate")["state"] == "closed"


def test_a_state_change_with_every_note_rewritten_needs_no_confirmation(content_db: Engine) -> None:
    publish_gate({"state": "closed", "note": GATE_NOTE})
    assert stored("gate", "KBL/east-gate")["note"] == GATE_NOTE


def test_a_note_changed_without_a_state_change_needs_no_confirmation(content_db: Engine) -> None:
    publish_gate({"note": GATE_NOTE})
    assert stored("gate", "KBL/east-gate")["note"] == GATE_NOTE


# -- the command line --------------------------------------------------------------------------


@pytest.fixture
def database(seeded_template: Path, tmp_path: Path) -> Path:  # noqa: F811
    path = tmp_path / "content.db"
    shutil.copyfile(seeded_template, path)
    return path


README_CLOSE = (
    *("publish", "airport", "KBL", "--state", "closed"),
    *(f"--advice-{lang}={text}" for lang, text in ADVICE.items()),
    *("--source", "us-embassy-kabul", "--editor", "amina", "--note", "gates shut after blast"),
)


def test_the_command_line_refuses_to_close_an_airport_with_open_gates(database: Path) -> None:
    refused = content(database, *README_CLOSE)
    assert refused.returncode == 1 and refused.stdout == ""
    assert refused.stderr == (
        "error: Closing Hamid Karzai International Airport would leave gates that still say "
        "open: East Gate, North Gate, Baron Hotel side (UK processing centre). Close them too "
        "(--close-gates), or publish them closed first.\n"
    )
    listed = content(database, "list", "gate").stdout
    assert "KBL/east-gate  open" in listed

    closed = content(database, *README_CLOSE, "--close-gates")
    assert closed.returncode == 0, closed.stderr
    assert "Closed with it: gate KBL/east-gate" in closed.stdout
    assert "  open  " not in content(database, "list", "gate").stdout


def test_the_command_line_asks_to_confirm_an_unchanged_note(database: Path) -> None:
    change = ("publish", "gate", "KBL", "east-gate", "--state", "closed", "--editor", "amina")
    refused = content(database, *change)
    assert refused.returncode == 1
    assert (
        refused.stderr.startswith(
            "error: The state changed from open to closed, but the note in English, Dari, Pashto "
            "did not"
        )
        and "(--confirm-unchanged)" in refused.stderr
    )
    confirmed = content(database, *change, "--confirm-unchanged")
    assert confirmed.returncode == 0, confirmed.stderr
    assert "KBL/east-gate  closed" in content(database, "list", "gate").stdout


# -- the admin API -----------------------------------------------------------------------------


@pytest.fixture
async def api(content_db: Engine) -> AsyncIterator[tuple[Client, dict[str, str]]]:
    amina = bearer(fresh_tokens(content_db).amina)
    app = create_app(content_db, AdminSettings(), clock=lambda: LATER)
    async with TestClient(TestServer(app)) as client:
        yield client, amina


async def test_the_api_refuses_to_close_an_airport_with_open_gates(
    api: tuple[Client, dict[str, str]],
) -> None:
    client, amina = api
    body = {"changes": {"state": "closed", "advice": ADVICE}, "note": "blast"}
    refused = await client.put("/records/airport/KBL", json=body, headers=amina)
    assert refused.status == 422
    error = (await refused.json())["error"]
    assert (error["code"], error["field"]) == ("inconsistent", "changes.state")
    assert error["gates"] == ["KBL/east-gate", "KBL/north-gate", "KBL/baron-hotel"]
    assert 'Close them too ("close_gates": true)' in error["message"]
    assert stored("airport", "KBL")["state"] == "restricted"

    closed = await client.put(
        "/records/airport/KBL", json={**body, "close_gates": True}, headers=amina
    )
    assert closed.status == 200, await closed.text()
    assert stored("gate", "KBL/north-gate")["state"] == "closed"


async def test_the_api_asks_to_confirm_an_unchanged_note(
    api: tuple[Client, dict[str, str]],
) -> None:
    client, amina = api
    note = stored("gate", "KBL/east-gate")["note"]
    body = {"changes": {"state": "closed", "note": {**note, "en": GATE_NOTE["en"]}}}
    refused = await client.put("/records/gate/KBL/east-gate", json=body, headers=amina)
    assert refused.status == 422
    error = (await refused.json())["error"]
    assert (error["code"], error["field"], error["unchanged"]) == (
        "inconsistent",
        "changes.note",
        ["prs", "ps"],
    )
    assert '"confirm_unchanged": true' in error["message"]
    confirmed = await client.put(
        "/records/gate/KBL/east-gate", json={**body, "confirm_unchanged": True}, headers=amina
    )
    assert confirmed.status == 200, await confirmed.text()
    assert stored("gate", "KBL/east-gate")["state"] == "closed"


async def test_the_api_refuses_to_open_a_gate_at_a_closed_airport(
    api: tuple[Client, dict[str, str]],
) -> None:
    client, amina = api
    close_kbl(close_gates=True)
    body = {"changes": {"state": "open", "note": GATE_NOTE}}
    refused = await client.put("/records/gate/KBL/east-gate", json=body, headers=amina)
    assert refused.status == 422
    error = (await refused.json())["error"]
    assert error["code"] == "inconsistent" and "reopen the airport first" in error["message"]


# -- content files -----------------------------------------------------------------------------


def test_an_import_closing_an_airport_whose_gates_say_open_changes_nothing(
    content_db: Engine, demo_document: Any
) -> None:
    document = copy.deepcopy(demo_document)
    (kabul,) = [entry for entry in document["airport_statuses"] if entry["airport"] == "KBL"]
    kabul["state"] = "closed"
    before = revision_count()
    with pytest.raises(SeedError) as refused, db.session_scope() as session:
        publishing.load(session, document, LATER, editor="amina")
    assert str(refused.value).startswith(
        "airport KBL: Closing Hamid Karzai International Airport would leave gates that still "
        "say open: East Gate, North Gate, Baron Hotel side"
    )
    assert "(state: closed in the file)" in str(refused.value)
    assert revision_count() == before and stored("airport", "KBL")["state"] == "restricted"

    for gate in kabul["gates"]:
        gate["state"] = "closed"
    with db.session_scope() as session:
        publishing.load(session, document, LATER, editor="amina")
    assert stored("airport", "KBL")["state"] == "closed"
