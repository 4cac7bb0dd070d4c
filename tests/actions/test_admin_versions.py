"""Two editors, one record, over the HTTP API: ETag on GET, If-Match on PUT and DELETE, 412.

Without If-Match the API behaves as before (the last write wins, each one a revision); with
it, a change based on an older read is refused and nothing is written.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import Engine

from actions.admin.app import create_app
from actions.admin.settings import AdminSettings
from tests.actions.admin_support import LATER, Tokens, bearer, fresh_tokens, revision_count, stored

Client = TestClient[web.Request, web.Application]
GATE = "/records/gate/KBL/abbey-gate"
OPEN = {"changes": {"state": "open"}, "note": "reopened", "confirm_unchanged": True}
CLOSED = {"changes": {"state": "closed"}, "note": "closed again", "confirm_unchanged": True}


@pytest.fixture
def keys(content_db: Engine) -> Tokens:
    return fresh_tokens(content_db)


@pytest.fixture
async def api(content_db: Engine, keys: Tokens) -> AsyncIterator[Client]:
    app = create_app(content_db, AdminSettings(), clock=lambda: LATER)
    async with TestClient(TestServer(app)) as client:
        yield client


@pytest.fixture
def amina(keys: Tokens) -> dict[str, str]:
    return bearer(keys.amina)


async def etag_of(api: Client, headers: dict[str, str], path: str = GATE) -> str:
    response = await api.get(path, headers=headers)
    assert response.status == 200
    return response.headers["ETag"]


async def stale_error(response: Any) -> dict[str, Any]:
    assert response.status == 412, await response.text()
    error = (await response.json())["error"]
    assert error["code"] == "stale_version" and error["field"] == "If-Match"
    return dict(error)


async def test_a_change_with_the_current_etag_applies_and_answers_the_next_one(
    api: Client, amina: dict[str, str]
) -> None:
    tag = await etag_of(api, amina)
    assert tag.startswith('"') and tag.endswith('"')
    response = await api.put(GATE, json=OPEN, headers={**amina, "If-Match": tag})
    assert response.status == 200
    new = response.headers["ETag"]
    assert new != tag and new == f'"{(await response.json())["revision"]["id"]}"'
    assert await etag_of(api, amina) == new


async def test_a_change_based_on_an_older_read_is_412_and_writes_nothing(
    api: Client, amina: dict[str, str]
) -> None:
    tag = await etag_of(api, amina)
    assert (await api.put(GATE, json=OPEN, headers=amina)).status == 200  # someone else's
    count, before = revision_count(), stored("gate", "KBL/abbey-gate")
    for request in (
        api.put(GATE, json=CLOSED, headers={**amina, "If-Match": tag}),
        api.delete(f"{GATE}?note=gone", headers={**amina, "If-Match": tag}),
    ):
        response = await request
        error = await stale_error(response)
        assert error["changed_by"] == "amina" and error["changed_at"] == LATER.isoformat()
        assert "was changed by amina since you opened it" in error["message"]
        assert error["current"]["values"]["state"] == "open"
        assert response.headers["ETag"] == await etag_of(api, amina)
    assert revision_count() == count and stored("gate", "KBL/abbey-gate") == before


async def test_without_if_match_the_last_write_still_wins(
    api: Client, amina: dict[str, str]
) -> None:
    assert (await api.put(GATE, json=OPEN, headers=amina)).status == 200
    assert (await api.put(GATE, json=CLOSED, headers=amina)).status == 200
    assert stored("gate", "KBL/abbey-gate")["state"] == "closed"


async def test_if_match_star_and_zero_guard_existence(api: Client, amina: dict[str, str]) -> None:
    assert (await api.put(GATE, json=OPEN, headers={**amina, "If-Match": "*"})).status == 200
    new = "/records/organisation/new-helpers"
    body = {"changes": {"name": {"en": "New", "prs": "جدید", "ps": "نوی"}}}
    await stale_error(await api.put(new, json=body, headers={**amina, "If-Match": "*"}))
    created = await api.put(new, json=body, headers={**amina, "If-Match": '"0"'})
    assert created.status == 200
    await stale_error(await api.put(new, json=body, headers={**amina, "If-Match": '"0"'}))


@pytest.mark.parametrize("value", ["42", 'W/"42"', '"1", "2"', '"abc"'])
async def test_a_malformed_if_match_is_400_saying_how(
    api: Client, amina: dict[str, str], value: str
) -> None:
    response = await api.put(GATE, json=OPEN, headers={**amina, "If-Match": value})
    assert response.status == 400
    error = (await response.json())["error"]
    assert error["code"] == "invalid_if_match" and 'If-Match: "42"' in error["message"]


async def test_the_description_documents_etag_if_match_and_412(api: Client) -> None:
    document = await (await api.get("/openapi.json")).json()
    put = document["paths"]["/records/gate/{key}"]["put"]
    assert "412" in put["responses"]
    assert any(p["name"] == "If-Match" and p["in"] == "header" for p in put["parameters"])
    assert "ETag" in document["paths"]["/records/gate/{key}"]["get"]["responses"]["200"]["headers"]
    assert "412" in document["paths"]["/records/gate/{key}"]["delete"]["responses"]
