"""One undo for one joint change: undoing an airport's closure puts back the gates closed with
it, through the service, the command line, the admin API and the console, and says which; a gate
closed with the airport keeps its own source; and "What needs me now" lists a gate that still
says the airport is closed while the airport is open."""

from __future__ import annotations

import re
import shutil
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import Engine

from actions import consistency, publishing
from actions.admin.app import create_app
from actions.admin.settings import AdminSettings
from actions.chat.airport import ActionAnswerAirportStatus
from actions.content import db
from tests.actions.admin_support import ADVICE, LATER, bearer, fresh_tokens, stored
from tests.actions.console_support import Client, csrf_in, visible
from tests.actions.content_support import LANGUAGES, only_message, run, tracker
from tests.actions.test_console_publishing import browser  # noqa: F401 - fixture
from tests.actions.test_content_cli import content, seeded_template  # noqa: F401 - fixture

CLOSED_GATES = ["KBL/east-gate", "KBL/north-gate", "KBL/baron-hotel"]
RECHECKED = ["KBL/abbey-gate", "KBL/civilian-terminal"]
#: What a gate closed with the airport says, per language, as a person reads it.
CLOSED_WITH_AIRPORT = {
    "en": "closed — The airport is closed.",
    "prs": "بسته — میدان هوایی بسته است.",
    "ps": "بنده — هوايي ډګر بند دی.",
}
UNDO_AT = LATER + timedelta(minutes=10)
GATE_NOTE = {
    "en": "Closed: a crater in the road.",
    "prs": "بسته است: در سرک چقری است.",
    "ps": "بنده ده: په سړک کې کنده ده.",
}
REOPEN_ADVICE = {
    "en": "Open again, only for people called by their embassy.",
    "prs": "دوباره باز است، فقط برای کسانی که سفارت‌شان تماس گرفته.",
    "ps": "بیا خلاص دی، یوازې د هغو کسانو لپاره چې سفارت ورته زنګ وهلی.",
}


def close_kbl() -> int:
    """Amina closes the airport with its gates, as the README's example does."""
    with db.session_scope() as session:
        revision = publishing.publish(
            session, "amina", "airport", "KBL", {"state": "closed", "advice": ADVICE},
            "gates shut after blast", now=LATER, close_gates=True,
        )  # fmt: skip
        assert revision is not None
        return revision.id


def undo(revision_id: int, editor: str = "bilal") -> publishing.Undone:
    with db.session_scope() as session:
        return publishing.rollback(session, editor, revision_id, "undo", now=UNDO_AT)


def gates() -> dict[str, dict[str, Any]]:
    return {key: stored("gate", key) for key in [*RECHECKED, *CLOSED_GATES]}


async def airport_answer(language: str) -> str:
    action = ActionAnswerAirportStatus(clock=lambda: UNDO_AT)
    messages, _ = await run(action, tracker("ask_airport_status", language))
    message = only_message(messages)
    assert message["response"] == "utter_airport_status"
    return f"{message['status']}\n{message['gates']}"


# -- the service --------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
async def test_undoing_a_closure_puts_back_the_gates_closed_with_it(
    content_db: Engine, language: str
) -> None:
    airport, before = stored("airport", "KBL"), gates()
    closure = close_kbl()
    assert {stored("gate", key)["state"] for key in CLOSED_GATES} == {"closed"}

    undone = undo(closure)
    assert stored("airport", "KBL") == airport
    assert gates() == before  # open again with their own notes, and the checks as they were
    assert [gate.record_key for gate in undone.changed_state] == CLOSED_GATES
    assert sorted(gate.record_key for gate in undone.with_it) == sorted([*RECHECKED, *CLOSED_GATES])
    assert undone.left == []
    assert {(gate.editor, gate.note) for gate in undone.with_it} == {("bilal", "undo")}
    answer = await airport_answer(language)
    assert CLOSED_WITH_AIRPORT[language] not in answer, answer


def test_undoing_the_undo_closes_the_gates_again(content_db: Engine) -> None:
    closure = close_kbl()
    closed = gates()
    undone = undo(closure)
    again = undo(undone.revision.id, editor="amina")
    assert stored("airport", "KBL")["state"] == "closed"
    assert [gate.record_key for gate in again.changed_state] == CLOSED_GATES
    assert {key: {**gate, "verified_at": None} for key, gate in gates().items()} == {
        key: {**gate, "verified_at": None} for key, gate in closed.items()
    }


def test_undoing_a_change_before_the_closure_puts_the_gates_back_too(content_db: Engine) -> None:
    before = gates()
    with db.session_scope() as session:
        earlier = publishing.publish(
            session, "amina", "airport", "KBL", {"advice": REOPEN_ADVICE}, "advice", now=LATER
        )
        assert earlier is not None
        earlier_id = earlier.id
    close_kbl()
    undone = undo(earlier_id)
    assert stored("airport", "KBL")["state"] == "restricted"
    assert gates() == before
    assert [gate.record_key for gate in undone.changed_state] == CLOSED_GATES


def test_a_gate_changed_since_is_left_as_it_is_and_named(content_db: Engine) -> None:
    closure = close_kbl()
    with db.session_scope() as session:
        crater = publishing.publish(
            session, "rahim", "gate", "KBL/east-gate", {"note": GATE_NOTE}, "crater", now=LATER
        )
        assert crater is not None
        crater_id = crater.id
    undone = undo(closure)
    assert stored("gate", "KBL/north-gate")["state"] == "open"
    east = stored("gate", "KBL/east-gate")
    assert (east["state"], east["note"]) == ("closed", GATE_NOTE)  # rahim's closure stands
    assert [(gate.id, gate.editor) for gate in undone.left] == [(crater_id, "rahim")]
    assert [gate.record_key for gate in undone.changed_state] == [
        "KBL/north-gate",
        "KBL/baron-hotel",
    ]


def test_a_gate_only_rechecked_since_is_put_back(content_db: Engine) -> None:
    before = gates()
    closure = close_kbl()
    with db.session_scope() as session:
        publishing.reverify(
            session, "rahim", "gate", "KBL/east-gate", "checked", now=LATER + timedelta(minutes=1)
        )
    undone = undo(closure)
    assert gates() == before and undone.left == []


def test_a_gate_closed_with_the_airport_keeps_its_own_source(content_db: Engine) -> None:
    baron = stored("gate", "KBL/baron-hotel")
    assert baron["source"] == "uk-fcdo" and stored("airport", "KBL")["source"] != "uk-fcdo"
    close_kbl()
    closed = stored("gate", "KBL/baron-hotel")
    assert (closed["state"], closed["source"]) == ("closed", "uk-fcdo")
    assert closed["note"] == consistency.closed_with_airport_note()


# -- the command line, as the README says it ----------------------------------------------------


@pytest.fixture
def database(seeded_template: Path, tmp_path: Path) -> Path:  # noqa: F811
    path = tmp_path / "content.db"
    shutil.copyfile(seeded_template, path)
    return path


README_CLOSE = (
    *("publish", "airport", "KBL", "--state", "closed"),
    *(f"--advice-{lang}={text}" for lang, text in ADVICE.items()),
    *("--source", "us-embassy-kabul", "--close-gates", "--editor", "amina"),
    *("--note", "gates shut after blast"),
)


def test_the_command_lines_rollback_puts_the_gates_back_and_names_them(database: Path) -> None:
    closed = content(database, *README_CLOSE)
    assert closed.returncode == 0, closed.stderr
    found = re.match(r"Revision (\d+):", closed.stdout)
    assert found is not None, closed.stdout
    undone = content(database, "rollback", found.group(1), "--editor", "amina")
    assert undone.returncode == 0, undone.stderr
    said = undone.stdout
    assert f"rolled back revision {found.group(1)}: airport KBL is as it was before it" in said
    assert re.search(
        r"Put back with it: gate KBL/east-gate \(revision \d+\), KBL/north-gate \(revision \d+\), "
        r"KBL/baron-hotel \(revision \d+\)\.",
        said,
    ), said
    assert "Re-check undone with it: gate KBL/abbey-gate" in said
    listed = content(database, "list", "gate").stdout
    for key in CLOSED_GATES:
        assert f"{key}  open" in listed, listed


# -- the admin API ------------------------------------------------------------------------------


@pytest.fixture
async def api(content_db: Engine) -> AsyncIterator[tuple[Client, dict[str, str]]]:
    amina = bearer(fresh_tokens(content_db).amina)
    app = create_app(content_db, AdminSettings(), clock=lambda: UNDO_AT)
    async with TestClient(TestServer(app)) as client:
        yield client, amina


async def test_the_apis_rollback_puts_the_gates_back_and_lists_them(
    api: tuple[Client, dict[str, str]],
) -> None:
    client, amina = api
    closure = close_kbl()
    response = await client.post(f"/revisions/{closure}/rollback", json={}, headers=amina)
    assert response.status == 200, await response.text()
    body = await response.json()
    assert body["record"]["values"]["state"] == "restricted"
    reopened = [r["key"] for r in body["with_it"] if "state" in r["changed_fields"]]
    assert reopened == CLOSED_GATES and body["left"] == []
    assert {stored("gate", key)["state"] for key in CLOSED_GATES} == {"open"}


# -- the console --------------------------------------------------------------------------------

UNDONE = {
    "en": "Gates put back with it: East Gate, North Gate, Baron Hotel side (UK processing centre).",
    "prs": "دروازه‌هایی که همراه آن به حالت قبلی برگشتند: دروازهٔ شرقی، دروازهٔ شمالی،",
    "ps": "هغه دروازې چې ورسره پخواني حالت ته وګرځېدې: ختیځه دروازه، شمالي دروازه،",
}


async def undo_in_console(browser: Client, revision_id: int, language: str) -> str:  # noqa: F811
    """Tap "Undo this change" on the airport's history, as the editor sees it next."""
    history = await (await browser.get(f"/console/history/airport/KBL?lang={language}")).text()
    assert f'action="/console/rollback/{revision_id}"' in history
    response = await browser.post(
        f"/console/rollback/{revision_id}", data={"csrf": csrf_in(history)}
    )
    assert response.status == 200 and response.url.path == "/console/history/airport/KBL"
    return visible(await response.text())


@pytest.mark.parametrize("language", LANGUAGES)
async def test_undo_in_the_console_puts_the_gates_back_and_names_them(
    browser: Client,  # noqa: F811
    language: str,
) -> None:
    closure = close_kbl()
    shown = await undo_in_console(browser, closure, language)
    assert UNDONE[language] in shown, shown
    assert {stored("gate", key)["state"] for key in CLOSED_GATES} == {"open"}
    home = visible(await (await browser.get(f"/console/?lang={language}")).text())
    assert CONTRADICTING["en"] not in home


async def test_the_console_names_a_gate_it_left_because_it_changed_since(
    browser: Client,  # noqa: F811
) -> None:
    closure = close_kbl()
    with db.session_scope() as session:
        publishing.publish(
            session, "rahim", "gate", "KBL/east-gate", {"note": GATE_NOTE}, "crater", now=LATER
        )
    shown = await undo_in_console(browser, closure, "en")
    assert "Gates put back with it: North Gate, Baron Hotel side" in shown
    assert (
        "Not put back, because they changed since: East Gate. Check that each still holds."
    ) in shown


# -- What needs me now --------------------------------------------------------------------------

CONTRADICTING = {
    "en": "Gates that say the airport is closed (3)",
    "prs": "دروازه‌هایی که می‌گویند میدان هوایی بسته است (3)",
    "ps": "هغه دروازې چې وايي هوايي ډګر بند دی (3)",
}
WHY = {
    "en": "Its note says “The airport is closed.”, but Hamid Karzai International Airport is "
    "open with restrictions.",
    "prs": "یادداشت آن می‌گوید «میدان هوایی بسته است.»، ولی میدان هوایی بین‌المللی حامد کرزی "
    "با محدودیت باز است.",
    "ps": "یادښت یې وايي «هوايي ډګر بند دی.»، خو حامد کرزي نړیوال هوايي ډګر په محدود ډول خلاص دی.",
}


def reopen_kbl() -> None:
    """The airport reopened by a new change, not by an undo: the gates keep their closure."""
    with db.session_scope() as session:
        publishing.publish(
            session, "amina", "airport", "KBL", {"state": "restricted", "advice": REOPEN_ADVICE},
            "reopened", now=LATER + timedelta(minutes=1),
        )  # fmt: skip


@pytest.mark.parametrize("language", LANGUAGES)
async def test_what_needs_me_lists_gates_that_say_the_airport_is_closed_while_it_is_open(
    browser: Client,  # noqa: F811
    language: str,
) -> None:
    close_kbl()
    home = visible(await (await browser.get(f"/console/?lang={language}")).text())
    assert CONTRADICTING[language] not in home  # closed: the gates' notes are true
    reopen_kbl()
    page = await (await browser.get(f"/console/?lang={language}")).text()
    home = visible(page)
    assert CONTRADICTING[language] in home, home
    assert WHY[language] in home, home
    assert home.index(CONTRADICTING[language]) < home.index(WHY[language])
    for key in CLOSED_GATES:
        assert f'href="/console/edit/gate/{key}"' in page


#: "The airport is closed until further notice", beginning as the close-gates path's note does.
UNTIL_FURTHER_NOTICE = {
    "prs": "میدان هوایی بسته است تا اطلاع بعدی.",
    "ps": "هوايي ډګر بند دی تر بل خبر پورې.",
}


@pytest.mark.parametrize("language", ["prs", "ps"])
async def test_a_note_saying_it_in_dari_or_pashto_alone_is_listed(
    browser: Client,  # noqa: F811
    language: str,
) -> None:
    note = {**stored("gate", "KBL/east-gate")["note"], language: UNTIL_FURTHER_NOTICE[language]}
    with db.session_scope() as session:
        publishing.publish(
            session, "amina", "gate", "KBL/east-gate", {"note": note}, "n", now=LATER
        )
    home = visible(await (await browser.get("/console/?lang=en")).text())
    assert "Gates that say the airport is closed (1) East Gate (KBL)" in home, home


def test_closed_with_finds_the_joint_change_and_nothing_else(content_db: Engine) -> None:
    with db.session_scope() as session:
        plain = publishing.publish(
            session, "amina", "airport", "KBL", {"advice": REOPEN_ADVICE}, "same", now=LATER
        )
        publishing.publish(
            session, "amina", "gate", "KBL/east-gate", {"note": GATE_NOTE}, "same", now=LATER
        )
        assert plain is not None
        # Same editor, moment and note, but not closed with the airport: not one change.
        assert publishing.closed_with(session, plain) == []
