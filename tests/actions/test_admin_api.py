"""The editors' admin HTTP API, over real HTTP (aiohttp's TestServer), on SQLite and PostgreSQL.

Requests without a current token change nothing; bad input is refused naming the field; a
change is a revision by the token's editor and the very next answer shows it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from alembic import command as command_api
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from prometheus_client import REGISTRY
from sqlalchemy import Engine, inspect
from sqlalchemy.orm import Session

from actions import schema
from actions.admin import tokens
from actions.admin.app import AccessLog, create_app
from actions.admin.settings import AdminSettings
from actions.admin.tokens import EditorToken
from actions.alerts.models import Topic
from actions.alerts.subscriptions import Wish
from actions.chat.airport import ActionAnswerAirportStatus
from actions.chat.flights import ActionAnswerFlights
from actions.content import db
from actions.content.migrate import alembic_config
from actions.content.models import RevisionAction
from tests.actions.admin_support import (
    ADVICE,
    LATER,
    REPO,
    Tokens,
    bearer,
    command,
    fresh_tokens,
    revision,
    revision_count,
    stored,
)
from tests.actions.alerts_support import add_subscribers
from tests.actions.content_support import clock, only_message, run, tracker
from tests.actions.test_content_file import alias_bomb

LIMIT = 256 * 1024  # above the demo export (about 70 KB with its claims and positions)
TOKEN = re.compile(r"eia_[A-Za-z0-9_-]{43}")
Client = TestClient[web.Request, web.Application]


@pytest.fixture
def keys(content_db: Engine) -> Tokens:
    return fresh_tokens(content_db)


@pytest.fixture
async def api(content_db: Engine, keys: Tokens) -> AsyncIterator[Client]:
    app = create_app(content_db, AdminSettings(max_body_bytes=LIMIT), clock=lambda: LATER)
    server = TestServer(app)
    await server.start_server(access_log_class=AccessLog)  # as `serve` runs it
    async with TestClient(server) as client:
        yield client


@pytest.fixture
def amina(keys: Tokens) -> dict[str, str]:
    return bearer(keys.amina)


async def error_of(response: Any, status: int) -> dict[str, Any]:
    assert response.status == status, await response.text()
    body = await response.json()
    assert set(body) == {"error"} and {"code", "message", "field"} <= set(body["error"])
    return dict(body["error"])


CLOSE_KBL = {
    "changes": {"state": "closed", "advice": ADVICE},
    "note": "blast at Abbey Gate",
    "close_gates": True,
}


# -- Authentication ----------------------------------------------------------------------


async def test_health_and_the_description_need_no_token(api: Client) -> None:
    assert (await (await api.get("/health")).json()) == {"status": "ok"}
    assert (await api.get("/openapi.json")).status == 200


async def test_metrics_count_requests_by_route_pattern_for_the_metrics_token_only(
    content_db: Engine, keys: Tokens
) -> None:
    settings = AdminSettings(max_body_bytes=LIMIT, metrics_token="prometheus-token")
    app = create_app(content_db, settings, clock=lambda: LATER)
    async with TestClient(TestServer(app)) as client:
        refused = {"route": "/records/{kind}/{key}", "method": "GET", "status": "401"}
        read = {**refused, "status": "200"}
        before = {
            "refused": REGISTRY.get_sample_value("eia_admin_requests_total", refused) or 0,
            "read": REGISTRY.get_sample_value("eia_admin_requests_total", read) or 0,
        }
        assert (await client.get("/records/airport/KBL")).status == 401
        assert (
            await client.get("/records/gate/KBL/abbey-gate", headers=bearer(keys.amina))
        ).status == 200
        assert (await client.get("/records/airport/KBL", headers=bearer(keys.amina))).status == 200
        # An editor's token is not Prometheus's, nor is nothing.
        assert (await client.get("/metrics", headers=bearer(keys.amina))).status == 401
        assert (await client.get("/metrics")).status == 401
        answer = await client.get("/metrics", headers=bearer("prometheus-token"))
        assert answer.status == 200
        assert answer.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        text = await answer.text()
    assert REGISTRY.get_sample_value("eia_admin_requests_total", refused) - before["refused"] == 1
    assert REGISTRY.get_sample_value("eia_admin_requests_total", read) - before["read"] == 2
    assert "abbey-gate" not in text and 'route="/records/{kind}/{key}"' in text


@pytest.mark.parametrize(
    ("headers", "code"),
    [
        ({}, "missing_token"),
        (bearer("eia_" + "A" * 43), "invalid_token"),  # the right shape, but never issued
        (bearer("not-even-a-token"), "invalid_token"),
        ({"Authorization": "Basic YW1pbmE6c2VjcmV0"}, "invalid_token"),
        ("revoked", "revoked_token"),
    ],
    ids=["missing", "forged", "malformed", "basic", "revoked"],
)
async def test_changes_without_a_current_token_are_refused_and_change_nothing(
    api: Client, keys: Tokens, headers: Any, code: str
) -> None:
    headers = bearer(keys.revoked) if headers == "revoked" else headers
    before, count = stored("airport", "KBL"), revision_count()
    requests = [
        api.put("/records/airport/KBL", json=CLOSE_KBL, headers=headers),
        api.delete("/records/airport/KBL?note=gone", headers=headers),
        api.post(f"/revisions/{count}/rollback", headers=headers),
        api.post("/import?replace=true", data="organisations: {}\n", headers=headers),
        api.get("/records/airport/KBL", headers=headers),
    ]
    for request in requests:
        response = await request
        error = await error_of(response, 401)
        assert error["code"] == code
        assert "token add" in error["message"]
        assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert stored("airport", "KBL") == before
    assert revision_count() == count


async def test_every_endpoint_but_health_and_description_needs_a_token(api: Client) -> None:
    for resource in api.app.router.resources():
        path = resource.canonical.replace("{kind}", "gate").replace("{key}", "KBL/abbey-gate")
        path = path.replace("{revision}", "1").replace("{case}", "1")
        for route in resource:
            response = await api.request(route.method, path, allow_redirects=False)
            if path.startswith("/console"):
                # The console's pages send a browser to sign in, and nothing else happens.
                assert response.status in (303, 308, 403, 200), (route.method, path)
                continue
            if path == "/metrics":
                # Prometheus's own token (METRICS_TOKEN), which these settings do not set.
                assert response.status == 403, (route.method, path)
                continue
            public = path in ("/health", "/openapi.json")
            assert (response.status == 401) is not public, (route.method, path)


async def test_logs_show_the_editor_but_never_a_token_or_a_body(
    api: Client, keys: Tokens, amina: dict[str, str], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    await api.put("/records/airport/KBL", json=CLOSE_KBL, headers=amina)
    await api.put("/records/airport/KBL", json=CLOSE_KBL, headers=bearer(keys.revoked))
    await api.put("/records/airport/KBL", data="{not json", headers=amina)
    assert "PUT /records/airport/KBL 200" in caplog.text and "editor=amina" in caplog.text
    for secret in (keys.amina, keys.revoked, ADVICE["en"], "blast at Abbey Gate", "not json"):
        assert secret not in caplog.text


# -- Refusing bad input ------------------------------------------------------------------


async def test_malformed_json_is_400_saying_where(api: Client, amina: dict[str, str]) -> None:
    response = await api.put("/records/airport/KBL", data='{"changes": {', headers=amina)
    error = await error_of(response, 400)
    assert error["code"] == "malformed_json" and "line 1, column" in error["message"]


@pytest.mark.parametrize("nested", ["[" * 5000 + "]" * 5000, '{"a":' * 5000 + "1" + "}" * 5000])
async def test_deeply_nested_json_is_400_not_a_server_error(
    api: Client, amina: dict[str, str], nested: str
) -> None:
    count = revision_count()
    response = await api.put("/records/airport/KBL", data=nested, headers=amina)
    assert (await error_of(response, 400))["code"] == "malformed_json"
    assert revision_count() == count


async def test_a_body_over_the_limit_is_413(api: Client, amina: dict[str, str]) -> None:
    count = revision_count()
    huge = json.dumps({"changes": {"advice": {"en": "x" * LIMIT}}})
    error = await error_of(await api.put("/records/airport/KBL", data=huge, headers=amina), 413)
    assert error["code"] == "body_too_large"

    async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: aiohttp's own limit
        for _ in range(LIMIT // 1024 + 2):
            yield b"organisations: {}\n#" + b"x" * 1024 + b"\n"

    error = await error_of(await api.post("/import", data=chunks(), headers=amina), 413)
    assert error["code"] == "body_too_large"
    assert revision_count() == count


@pytest.mark.parametrize(
    ("kind", "key", "body", "field", "words"),
    [
        ("airport", "KBL", {"changes": {"state": "shut"}}, "changes.state", "expected one of"),
        ("airport", "KBL", {"changes": {"source": 5}}, "changes.source", "must be a text"),
        ("airport", "KBL", {"changes": {"source": "nobody"}}, "changes.source", "unknown"),
        ("airport", "KBL", {"changes": {"gates": []}}, "changes.gates", "expected: state, advice"),
        (
            "airport",
            "KBL",
            {"changes": {"advice": {"en": "x", "fr": "y"}}},
            "changes.advice.fr",
            "not expected",
        ),
        ("airport", "KBL", {"changes": {"advice": {"en": "Go"}}}, "changes.advice.prs", "prs"),
        (
            "airport",
            "KBL",
            {"changes": {"valid_until": "2021-08-24T09:00"}},
            "changes.valid_until",
            "offset",
        ),
        ("airport", "KBL", {"changes": {}, "editor": "mallory"}, "editor", "not expected"),
        (
            "airport",
            "KBL",
            {"changes": {}, "allow_missing_translation": "yes"},
            "allow_missing_translation",
            "true or false",
        ),
        ("airport", "KBL", {"note": "no changes"}, "changes", "is missing"),
        ("airport", "KBL", {"changes": {}, "note": "x" * 501}, "note", "longer than 500"),
        ("gate", "KBL/abbey-gate", {"changes": {"position": 2**40}}, "changes.position", "at most"),
        ("gate", "XYZ/new-gate", {"changes": {"state": "open"}}, "key", "unknown airport 'XYZ'"),
        ("flight", "QR8010", {"changes": {}}, "key", "number@Kabul date"),
        (
            "guidance",
            "unhcr-protection-line",
            {"changes": {"email": "at x"}},
            "changes.email",
            "help@example.org",
        ),
    ],
)
async def test_invalid_input_is_422_naming_the_field_and_changes_nothing(
    api: Client,
    amina: dict[str, str],
    kind: str,
    key: str,
    body: dict[str, Any],
    field: str,
    words: str,
) -> None:
    count = revision_count()
    error = await error_of(await api.put(f"/records/{kind}/{key}", json=body, headers=amina), 422)
    assert error["field"] == field
    assert words in error["message"]
    assert revision_count() == count


async def test_nul_characters_are_refused_naming_where_not_failing_on_postgresql(
    api: Client, amina: dict[str, str]
) -> None:
    count = revision_count()
    name = {"changes": {"name": {"en": "U\u0000N", "prs": "ا", "ps": "ب"}}}
    response = await api.put("/records/organisation/unhcr", json=name, headers=amina)
    assert (await error_of(response, 422))["field"] == "changes.name.en"
    response = await api.delete("/records/flight/RCH871@2021-08-24?note=a%00b", headers=amina)
    assert (await error_of(response, 422))["field"] == "note"
    document = 'organisations:\n  unhcr:\n    en: "U\\0N"\n    prs: ا\n    ps: ب\n'
    error = await error_of(await api.post("/import", data=document, headers=amina), 422)
    assert error["line"] == 3 and "U+0000" in error["message"]
    assert revision_count() == count


async def test_a_key_too_long_for_its_column_is_422_on_every_database(
    api: Client, amina: dict[str, str], content_db: Engine
) -> None:
    """Keys are bounded by their columns before the database sees them (SQLite stores more)."""
    count = revision_count()
    names = {"changes": {"name": {"en": "Aid", "prs": "کمک", "ps": "مرسته"}}}
    response = await api.put(f"/records/organisation/{'a' * 80}", json=names, headers=amina)
    error = await error_of(response, 422)
    assert (error["code"], error["field"]) == ("invalid_key", "key")
    assert "is 80 characters long; at most 64" in error["message"]
    assert revision_count() == count


async def test_an_unknown_kind_is_404(api: Client, amina: dict[str, str]) -> None:
    error = await error_of(await api.get("/records/hotel", headers=amina), 404)
    assert (error["code"], error["field"]) == ("unknown_kind", "kind")
    assert "one of organisation, airport-name" in error["message"]
    error = await error_of(await api.get("/records/gate?withdrawn=maybe", headers=amina), 422)
    assert error["field"] == "withdrawn"
    error = await error_of(await api.get("/records/gate/KBL/no-such-gate", headers=amina), 404)
    assert "GET /records/gate lists them" in error["message"]


# -- Publishing, withdrawing, rolling back -------------------------------------------------


async def test_publish_is_a_revision_by_the_tokens_editor_and_the_next_answer_shows_it(
    api: Client, amina: dict[str, str]
) -> None:
    response = await api.put("/records/airport/kbl", json=CLOSE_KBL, headers=amina)
    assert response.status == 200, await response.text()
    body = await response.json()
    row = revision(body["revision"]["id"])
    assert (row.editor, row.note, row.action, row.created_at) == (
        "amina",
        "blast at Abbey Gate",
        RevisionAction.UPDATE,
        LATER,
    )
    assert (
        row.after == stored("airport", "KBL") == {**body["record"]["values"], "withdrawn_at": None}
    )
    assert body["revision"]["changed_fields"] == ["state", "advice", "verified_at", "valid_until"]

    messages, _ = await run(
        ActionAnswerAirportStatus(clock=lambda: LATER), tracker("ask_airport_status")
    )
    answer = only_message(messages)
    assert (answer["status"], answer["advice"]) == ("closed", ADVICE["en"])


async def test_publishing_what_is_there_answers_revision_null(
    api: Client, amina: dict[str, str]
) -> None:
    current = (await (await api.get("/records/airport/KBL", headers=amina)).json())["values"]
    response = await api.put("/records/airport/KBL", json={"changes": current}, headers=amina)
    body = await response.json()
    assert response.status == 200 and body["revision"] is None
    assert body["record"]["values"] == current


async def test_a_text_published_without_its_translations_is_listed_as_missing(
    api: Client, amina: dict[str, str]
) -> None:
    change = {
        "changes": {"note": {"en": "Open for listed people."}},
        "allow_missing_translation": True,
    }
    assert (await api.put("/records/gate/KBL/east-gate", json=change, headers=amina)).status == 200
    missing = (await (await api.get("/translations/missing", headers=amina)).json())["missing"]
    assert missing == [
        {"kind": "gate", "key": "KBL/east-gate", "field": "note", "languages": ["prs", "ps"]}
    ]


async def test_withdraw_needs_a_note_and_hides_the_flight_from_answers(
    api: Client, amina: dict[str, str]
) -> None:
    flight = "/records/flight/RCH871@2021-08-24"
    error = await error_of(await api.delete(flight, headers=amina), 422)
    assert error["field"] == "note" and "why" in error["message"]

    response = await api.delete(flight, json={"note": "cancelled by operator"}, headers=amina)
    assert response.status == 200, await response.text()
    withdrawal = revision((await response.json())["revision"]["id"])
    assert (withdrawal.action, withdrawal.editor) == (RevisionAction.WITHDRAW, "amina")
    action = ActionAnswerFlights(clock=clock())
    messages, _ = await run(action, tracker("ask_flights", "en", {"flight_number": "RCH871"}))
    assert "RCH871" not in json.dumps(only_message(messages).get("flights", ""))

    assert (await error_of(await api.delete(f"{flight}?note=again", headers=amina), 409))[
        "code"
    ] == "conflict"
    assert (
        await error_of(
            await api.delete("/records/flight/XX1@2021-08-24?note=x", headers=amina), 404
        )
    )["field"] == "key"
    listed = await (await api.get("/records/flight?withdrawn=true", headers=amina)).json()
    assert any(r["key"] == "RCH871@2021-08-24" and r["withdrawn_at"] for r in listed["records"])


async def test_organisation_still_cited_cannot_be_withdrawn(
    api: Client, amina: dict[str, str]
) -> None:
    error = await error_of(
        await api.delete("/records/organisation/unhcr?note=x", headers=amina), 409
    )
    assert "still used by" in error["message"]


async def test_rollback_restores_the_record_and_history_shows_it(
    api: Client, amina: dict[str, str]
) -> None:
    original = stored("airport", "KBL")
    change = (await (await api.put("/records/airport/KBL", json=CLOSE_KBL, headers=amina)).json())[
        "revision"
    ]

    response = await api.post(
        f"/revisions/{change['id']}/rollback", json={"note": "wrong airport"}, headers=amina
    )
    assert response.status == 200, await response.text()
    undone = await response.json()
    undo = undone["revision"]
    assert stored("airport", "KBL") == original
    assert (undo["action"], undo["rolls_back"], undo["editor"]) == (
        "rollback",
        change["id"],
        "amina",
    )

    again = await api.post(f"/revisions/{change['id']}/rollback", headers=amina)
    assert "already as it was" in (await error_of(again, 409))["message"]
    assert (await error_of(await api.post("/revisions/99999/rollback", headers=amina), 404))[
        "field"
    ] == "revision"

    history = await (await api.get("/history?kind=airport&key=kbl&limit=2", headers=amina)).json()
    assert [r["id"] for r in history["revisions"]] == [undo["id"], change["id"]]
    everything = await (await api.get("/history", headers=amina)).json()
    # The newest: the undo, and the gates closed with the airport put back with it.
    together = sorted([undo["id"], *(gate["id"] for gate in undone["with_it"])], reverse=True)
    assert [r["id"] for r in everything["revisions"][: len(together)]] == together
    assert len(everything["revisions"]) == 50


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("key=KBL", "kind"),
        ("kind=hotel", "kind"),
        ("limit=0", "limit"),
        ("limit=x", "limit"),
        ("kind=gate&key=KBL", "key"),
    ],
)
async def test_history_refuses_bad_queries_naming_them(
    api: Client, amina: dict[str, str], query: str, field: str
) -> None:
    assert (await error_of(await api.get(f"/history?{query}", headers=amina), 422))[
        "field"
    ] == field


# -- Whole data sets -----------------------------------------------------------------------


async def test_export_then_import_round_trips(api: Client, amina: dict[str, str]) -> None:
    response = await api.get("/export", headers=amina)
    assert response.content_type == "application/yaml"
    exported = await response.text()
    before = stored("airport", "KBL"), stored("gate", "KBL/north-gate")
    await api.put("/records/airport/KBL", json=CLOSE_KBL, headers=amina)
    withdrawn = await api.delete("/records/gate/KBL/north-gate?note=no news", headers=amina)
    assert withdrawn.status == 200, await withdrawn.text()

    response = await api.post("/import?replace=true&note=restore", data=exported, headers=amina)
    assert response.status == 200, await response.text()
    summary = await response.json()
    # The airport and its five gates: North Gate brought back, the others closed or re-checked
    # with the airport.
    assert (summary["created"], summary["changed"], summary["withdrawn"]) == (0, 6, 0)
    assert revision(summary["revisions"][-1]).editor == "amina"
    assert (stored("airport", "KBL"), stored("gate", "KBL/north-gate")) == before
    assert await (await api.get("/export", headers=amina)).text() == exported


async def test_a_broken_import_names_line_and_field_and_changes_nothing(
    api: Client, amina: dict[str, str]
) -> None:
    exported = await (await api.get("/export", headers=amina)).text()
    document = yaml.safe_load(exported)
    document["organisations"]["unhcr"]["en"] = "Renamed first"  # valid, and before the error
    document["flights"][1]["status"] = "teleported"
    broken = yaml.safe_dump(document, allow_unicode=True, sort_keys=False)
    line = 1 + broken.splitlines().index(f"- number: {document['flights'][1]['number']}")
    count = revision_count()

    error = await error_of(await api.post("/import", data=broken, headers=amina), 422)
    assert (error["code"], error["line"], error["field"]) == (
        "invalid_content_file",
        line,
        "flights[1].status",
    )
    assert "teleported" in error["message"] and error["message"].startswith(f"line {line} ")
    assert revision_count() == count
    assert await (await api.get("/export", headers=amina)).text() == exported

    error = await error_of(await api.post("/import", data="flights: [\n", headers=amina), 422)
    assert error["line"] == 2 and "not valid YAML" in error["message"]


@pytest.mark.parametrize(
    ("payload", "line", "words"),
    [
        (alias_bomb(), 1, "anchors and aliases"),
        ("[" * 5_000, 1, "levels deep"),
        ("[" * 50_000, 1, "levels deep"),
    ],
    ids=["alias-bomb", "5000-brackets", "50000-brackets"],
)
async def test_a_hostile_content_file_is_a_422_with_one_log_line_and_changes_nothing(
    api: Client,
    amina: dict[str, str],
    caplog: pytest.LogCaptureFixture,
    payload: str,
    line: int,
    words: str,
) -> None:
    count = revision_count()
    caplog.set_level(logging.INFO)
    caplog.clear()
    started = time.perf_counter()
    error = await error_of(await api.post("/import", data=payload, headers=amina), 422)
    elapsed = time.perf_counter() - started
    assert error["code"] == "invalid_content_file" and error["line"] == line
    assert words in error["message"] and error["message"].startswith(f"line {line}: ")
    assert elapsed < 1.0, f"{elapsed * 1000:.0f} ms"
    (logged,) = caplog.records  # the access line, no traceback
    assert logged.getMessage().startswith("POST /import 422 ") and not logged.exc_info
    assert revision_count() == count


# -- The description -----------------------------------------------------------------------


async def test_openapi_describes_every_endpoint_and_its_refs_resolve(api: Client) -> None:
    document = json.loads(await (await api.get("/openapi.json")).text())
    assert document["openapi"] == "3.1.0"
    assert document["components"]["securitySchemes"]["editorToken"] == {
        "type": "http",
        "scheme": "bearer",
    }
    assert document["paths"]["/metrics"]["get"]["security"] == [{"metricsToken": []}]
    kinds = [
        schema["properties"]["kind"]["const"]
        for name, schema in document["components"]["schemas"].items()
        if name.endswith("Record")
    ]
    for resource in api.app.router.resources():
        if resource.canonical.startswith("/console"):
            continue  # the web console's pages are HTML for browsers, not this JSON API
        for kind in kinds if "{kind}" in resource.canonical else [None]:
            path = (
                resource.canonical if kind is None else resource.canonical.replace("{kind}", kind)
            )
            assert path in document["paths"], path
            methods = {route.method.lower() for route in resource} - {"head"}
            assert methods <= set(document["paths"][path]), path
    gate = document["components"]["schemas"]["GateValues"]["properties"]
    assert gate["state"]["enum"] == ["open", "closed"] and set(gate["note"]["properties"]) == {
        "en",
        "prs",
        "ps",
    }

    def refs(node: Any) -> list[str]:
        if isinstance(node, dict):
            own = [node["$ref"]] if "$ref" in node else []
            return own + [r for v in node.values() for r in refs(v)]
        return [r for v in node for r in refs(v)] if isinstance(node, list) else []

    for reference in refs(document):
        _, section, kind, name = reference.split("/")
        assert name in document[section][kind], reference


# -- Tokens: the command line and the table ---------------------------------------------


async def test_token_cli_shows_a_token_once_never_lists_it_and_revokes_it(tmp_path: Path) -> None:
    database = tmp_path / "content.db"
    unmigrated = command(database, "actions.admin", "token", "add", "amina")
    assert unmigrated.returncode == 1 and "python -m actions.content migrate" in unmigrated.stderr
    assert command(database, "actions.content", "migrate").returncode == 0

    added = command(database, "actions.admin", "token", "add", "amina")
    assert added.returncode == 0, added.stderr
    (token,) = TOKEN.findall(added.stdout)
    assert added.stdout.count(token) == 1 and "only this once" in added.stdout
    engine = db.create_content_engine(f"sqlite:///{database}")
    with Session(engine) as session:
        (row,) = tokens.listing(session)
        assert row.token_hash == hashlib.sha256(token.encode()).hexdigest()
        assert token not in repr([getattr(row, c.key) for c in EditorToken.__table__.columns])

    app = create_app(engine, clock=lambda: LATER)
    async with TestClient(TestServer(app)) as client:
        assert (await client.get("/records/airport", headers=bearer(token))).status == 200

        listed = command(database, "actions.admin", "token", "list")
        assert listed.returncode == 0 and "amina" in listed.stdout and "active" in listed.stdout
        assert token not in listed.stdout and row.token_hash not in listed.stdout
        assert "last used 2021-08-24 09:05+04:30" in listed.stdout

        revoked = command(database, "actions.admin", "token", "revoke", "amina")
        assert revoked.returncode == 0, revoked.stderr
        response = await client.get("/records/airport", headers=bearer(token))
        assert (await error_of(response, 401))["code"] == "revoked_token"
    engine.dispose()
    assert "REVOKED" in command(database, "actions.admin", "token", "list").stdout
    again = command(database, "actions.admin", "token", "revoke", "amina")
    assert again.returncode == 1 and "no active token" in again.stderr
    nameless = command(database, "actions.admin", "token", "add", " ")
    assert nameless.returncode == 1 and "'editor'" in nameless.stderr


def test_migration_0004_adds_the_token_table_and_downgrades(migrated: Engine) -> None:
    columns = {c["name"] for c in inspect(migrated).get_columns("editor_tokens")}
    assert columns == {"id", "editor", "token_hash", "created_at", "revoked_at", "last_used_at"}
    with migrated.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        differences = compare_metadata(context, schema.metadata)
    assert [d for d in differences if "editor_tokens" in repr(d)] == []  # the model is the table
    config = alembic_config()
    for target, direction in (("0003", command_api.downgrade), ("head", command_api.upgrade)):
        with migrated.begin() as connection:
            config.attributes["connection"] = connection
            direction(config, target)
    assert "editor_tokens" in inspect(migrated).get_table_names()


def test_serve_starts_the_api_and_stops_on_sigterm(tmp_path: Path) -> None:
    database = tmp_path / "content.db"
    assert command(database, "actions.content", "migrate").returncode == 0
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, db.URL_ENV: f"sqlite:///{database}", "PYTHONPATH": str(REPO)}
    server = subprocess.Popen(
        [sys.executable, "-m", "actions.admin", "serve", "--port", str(port)],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline, answer = time.monotonic() + 30, None
        while answer is None and time.monotonic() < deadline and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as reply:
                    answer = json.load(reply)
            except OSError:
                time.sleep(0.2)
        assert answer == {"status": "ok"}
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/export", timeout=2)
        assert refused.value.code == 401
    finally:
        server.terminate()  # the process started above, by its handle
        output, _ = server.communicate(timeout=30)
    assert "GET /health 200" in output and "GET /export 401" in output


# -- Alerts ----------------------------------------------------------------------------------


async def test_editors_see_how_many_alerts_their_change_queued(
    api: Client, amina: dict[str, str], no_alert_subscribers: None
) -> None:
    add_subscribers(4, [Wish(Topic.AIRPORT, "KBL")])
    assert (await api.get("/alerts", headers=amina)).status == 200
    published = await api.put("/records/airport/KBL", json=CLOSE_KBL, headers=amina)
    assert published.status == 200, await published.text()

    body = await (await api.get("/alerts?limit=5", headers=amina)).json()

    (alert,) = body["alerts"]
    assert (alert["topic"], alert["key"], alert["editor"]) == ("airport", "KBL", "amina")
    assert alert["deliveries"]["queued"] == 4 and alert["deliveries"]["sent"] == 0
    assert "conversation" not in json.dumps(body)  # counts, never who
    assert (await api.get("/alerts")).status == 401
