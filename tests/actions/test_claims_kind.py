"""Claims, rumours with the editors' verdict, are a content kind like every other: published,
changed, withdrawn and rolled back from the command line, the admin API and the console, with
their phrasings kept in every revision; on SQLite and PostgreSQL."""

from __future__ import annotations

import html
import json
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from actions import publishing
from actions.admin.app import AccessLog, create_app
from actions.admin.settings import AdminSettings
from actions.alerts import outbox
from actions.alerts.models import EVERYWHERE, Topic
from actions.alerts.subscriptions import Wish
from actions.content import __main__ as cli
from actions.content import db, editing
from actions.content import format as fmt
from actions.content.freshness import stalest_check
from actions.content.models import ClaimAbout, ConsoleSession, SignInCode
from actions.content.queries import claim_by_slug, claims_for_matching
from actions.content.seed.loader import read_file
from actions.content.validation import ContentError
from actions.settings import FreshnessLimits
from tests.actions.admin_support import LATER, bearer, fresh_tokens, revision, stored
from tests.actions.alerts_support import add_subscribers
from tests.actions.console_support import form_of, invitation, sign_in, version_in, visible
from tests.actions.content_support import NOW

SEEDED = "gates-open-tonight-women-children"
RUMOUR = {
    "verdict": "false",
    "claim": {
        "en": "Canada takes everyone with a tazkira",
        "prs": "کانادا هر کسی را که تذکره دارد می‌برد",
        "ps": "کاناډا هر هغه څوک وړي چې تذکره لري",
    },
    "explanation": {
        "en": "Canada takes only people on its own lists. Wait for its call.",
        "prs": "کانادا فقط کسانی را می‌برد که در فهرست خودش هستند. منتظر تماس آن باشید.",
        "ps": "کاناډا یوازې هغه کسان وړي چې د هغې په لست کې دي. د هغې زنګ ته انتظار وباسئ.",
    },
    "phrasings": ["canada tazkira kafi ast", "کانادا با تذکره"],
    "source": "us-embassy-kabul",
}
Client = TestClient[web.Request, web.Application]


def texts_of(values: dict[str, Any]) -> dict[str, str]:
    """The claim's texts as the console names them: ``claim.en``, ``explanation.ps``."""
    return {
        f"{name}.{lang}": text
        for name in ("claim", "explanation")
        for lang, text in values[name].items()
    }


def publish(key: str, changes: dict[str, Any], **options: Any) -> Any:
    with db.session_scope() as session:
        revision = editing.publish(session, "amina", "claim", key, changes, now=LATER, **options)
        return None if revision is None else revision.id


def matching() -> dict[str, list[str]]:
    with db.session_scope() as session:
        return dict(claims_for_matching(session, LATER))


def test_the_demo_has_its_claims_with_what_they_are_about(content_db: Engine) -> None:
    assert len(read_file()["claims"]) >= 2
    claim = stored("claim", SEEDED)
    assert (claim["about_kind"], claim["about_key"]) == ("gate", "KBL")
    assert "women and children can enter any gate tonight" in claim["phrasings"]
    assert "women and children can enter any gate tonight" in matching()[SEEDED]


def test_a_claim_published_from_the_command_line_is_matched_by_all_its_phrasings(
    content_db: Engine, capsys: pytest.CaptureFixture[str]
) -> None:
    texts = [f"--{name.replace('.', '-')}={text}" for name, text in texts_of(RUMOUR).items()]
    argv = ["publish", "claim", "canada-takes-everyone", "--verdict", "false", *texts]
    argv += ["--phrasing", "canada tazkira kafi ast", "--phrasing", "کانادا با تذکره"]
    argv += ["--about-kind", "airport", "--about-key", "kbl", "--source", "us-embassy-kabul"]
    assert cli.main([*argv, "--editor", "amina", "--note", "heard at the gate"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Revision ") and "amina created claim canada-takes-everyone (" in out
    said = matching()["canada-takes-everyone"]
    assert said == [*RUMOUR["claim"].values(), *RUMOUR["phrasings"]]
    with db.session_scope() as session:
        claim = claim_by_slug(session, "canada-takes-everyone", LATER)
        assert claim is not None
        assert (claim.about_kind, claim.about_key) == (ClaimAbout.AIRPORT, "KBL")
        assert fmt.organisation(claim.source, "en") == "US Embassy Kabul"

    assert cli.main(["list", "claim"]) == 0
    assert "canada-takes-everyone  false  airport  Canada takes everyone" in capsys.readouterr().out


def test_a_rollback_restores_the_phrasings_with_the_verdict(content_db: Engine) -> None:
    created = publish("canada-takes-everyone", RUMOUR)
    assert revision(created).after["phrasings"] == RUMOUR["phrasings"]
    changed = publish(
        "canada-takes-everyone", {"verdict": "misleading", "phrasings": ["canada everyone"]}
    )
    assert revision(changed).changed_fields() == ["verdict", "phrasings"]
    assert matching()["canada-takes-everyone"][-1] == "canada everyone"

    with db.session_scope() as session:
        editing.rollback(session, "bilal", changed, "wrong claim", now=LATER)
    claim = stored("claim", "canada-takes-everyone")
    assert (claim["verdict"], claim["phrasings"]) == ("false", RUMOUR["phrasings"])
    assert matching()["canada-takes-everyone"][-2:] == RUMOUR["phrasings"]


def test_a_withdrawn_or_lapsed_claim_is_not_matched(content_db: Engine) -> None:
    publish("canada-takes-everyone", {**RUMOUR, "valid_until": LATER + timedelta(hours=6)})
    assert "canada-takes-everyone" in matching()
    with db.session_scope() as session:
        assert claims_for_matching(session, LATER + timedelta(hours=7))
        lapsed = dict(claims_for_matching(session, LATER + timedelta(hours=7)))
        assert "canada-takes-everyone" not in lapsed and SEEDED in lapsed
        assert claim_by_slug(session, "canada-takes-everyone", LATER + timedelta(hours=7)) is None

    with db.session_scope() as session:
        publishing.withdraw(session, "amina", "claim", SEEDED, "the gate reopened", now=LATER)
    assert SEEDED not in matching()
    with db.session_scope() as session:
        assert claim_by_slug(session, SEEDED, LATER) is None


@pytest.mark.parametrize(
    ("about", "problem"),
    [
        ({"about_kind": "gate", "about_key": "KBL/nowhere-gate"}, "unknown gate KBL/nowhere-gate"),
        ({"about_kind": "gate", "about_key": "XXX"}, "unknown airport 'XXX'"),
        ({"about_kind": "gate", "about_key": "DOH"}, "the gates of DOH, which has none"),
        ({"about_kind": "flight", "about_key": "ZZ999"}, "unknown flight ZZ999"),
        ({"about_kind": "announcement", "about_key": "no-such-thing"}, "unknown announcement"),
        ({"about_key": "KBL"}, "give both about_kind and about_key"),
    ],
)
def test_what_a_claim_is_about_must_exist(
    content_db: Engine, about: dict[str, str], problem: str
) -> None:
    with pytest.raises(ContentError) as refused:
        publish("canada-takes-everyone", {**RUMOUR, **about})
    assert refused.value.field in ("about_key", "about_kind")
    assert problem in str(refused.value)
    with db.session_scope() as session:
        assert editing.history(session, "claim", "canada-takes-everyone") == []


def test_a_claim_about_a_gate_a_flight_or_an_announcement_is_stored_by_its_key(
    content_db: Engine,
) -> None:
    for kind, key, kept in (
        ("gate", "kbl/abbey-gate", "KBL/abbey-gate"),
        ("flight", "rch871", "RCH871"),
        ("announcement", "taliban-amnesty-2021-08-17", "taliban-amnesty-2021-08-17"),
    ):
        publish("canada-takes-everyone", {**RUMOUR, "about_kind": kind, "about_key": key})
        assert stored("claim", "canada-takes-everyone")["about_key"] == kept


def test_a_verdict_checked_longer_ago_than_its_limit_is_shown_with_a_warning(
    content_db: Engine,
) -> None:
    limits = FreshnessLimits.from_env({})
    assert limits.claims == timedelta(hours=24)
    publish("canada-takes-everyone", {**RUMOUR, "verified_at": LATER - timedelta(hours=2)})
    with db.session_scope() as session:
        claim = claim_by_slug(session, "canada-takes-everyone", LATER)
        assert claim is not None
        checked = claim.verified_at
        assert stalest_check([claim], LATER + timedelta(hours=21), limits) is None
        assert stalest_check([claim], LATER + timedelta(hours=23), limits) == checked
        shorter = FreshnessLimits.from_env({"CONTENT_FRESHNESS_CLAIMS": "1h"})
        assert stalest_check([claim], LATER, shorter) == checked
        block = fmt.claim_block(claim, LATER, "prs")
    assert block.startswith("• «کانادا هر کسی را که تذکره دارد می‌برد» — نادرست\n")
    assert "۲ ساعت پیش تایید شده" in block


def test_a_new_verdict_alerts_no_subscriber_of_any_topic(
    content_db: Engine, no_alert_subscribers: None
) -> None:
    wishes = [Wish(Topic.AIRPORT, "KBL"), Wish(Topic.FLIGHTS, EVERYWHERE)]
    add_subscribers(3, [*wishes, Wish(Topic.ANNOUNCEMENTS, EVERYWHERE)])
    with db.session_scope() as session:
        created = publishing.publish(
            session, "amina", "claim", "canada-takes-everyone", RUMOUR, now=LATER
        )
        changed = publishing.publish(
            session, "amina", "claim", SEEDED, {"verdict": "true"}, now=LATER
        )
        assert created is not None and changed is not None
        assert outbox.queued_for(session, created.id) == outbox.queued_for(session, changed.id) == 0


# -- The admin API -----------------------------------------------------------------------


@pytest.fixture
async def api(content_db: Engine) -> AsyncIterator[tuple[Client, dict[str, str]]]:
    amina = bearer(fresh_tokens(content_db).amina)
    server = TestServer(create_app(content_db, AdminSettings(), clock=lambda: LATER))
    await server.start_server(access_log_class=AccessLog)
    async with TestClient(server) as client:
        yield client, amina


async def test_the_admin_api_creates_changes_withdraws_and_rolls_back_a_claim(
    api: tuple[Client, dict[str, str]],
) -> None:
    client, amina = api
    path = "/records/claim/canada-takes-everyone"
    created = await client.put(path, json={"changes": RUMOUR, "note": "heard"}, headers=amina)
    assert created.status == 200, await created.text()
    assert (await created.json())["record"]["values"]["phrasings"] == RUMOUR["phrasings"]

    change = {"changes": {"phrasings": ["canada everyone"], "verdict": "misleading"}}
    changed = await (await client.put(path, json=change, headers=amina)).json()
    assert changed["revision"]["changed_fields"] == ["verdict", "phrasings"]

    refused = await client.put(
        path, json={"changes": {"about_kind": "gate", "about_key": "KBL/x"}}, headers=amina
    )
    assert refused.status == 422
    assert (await refused.json())["error"]["field"] == "changes.about_key"
    shape = await client.put(path, json={"changes": {"phrasings": "one"}}, headers=amina)
    assert shape.status == 422 and "a list" in (await shape.json())["error"]["message"]

    withdrawn = await client.delete(path, json={"note": "checked: gone"}, headers=amina)
    assert withdrawn.status == 200 and "canada-takes-everyone" not in matching()
    history = await (await client.get(f"/history?kind=claim&key={path[15:]}", headers=amina)).json()
    assert [r["action"] for r in history["revisions"]] == ["withdraw", "update", "create"]

    update_id = history["revisions"][1]["id"]
    undo = await client.post(f"/revisions/{update_id}/rollback", headers=amina)
    assert undo.status == 200, await undo.text()
    assert matching()["canada-takes-everyone"][-2:] == RUMOUR["phrasings"]
    assert stored("claim", "canada-takes-everyone")["verdict"] == "false"

    openapi = json.loads(await (await client.get("/openapi.json")).text())
    values = openapi["components"]["schemas"]["ClaimValues"]["properties"]
    assert values["verdict"]["enum"] == [
        "false",
        "misleading",
        "true",
        "unverified",
        "being_checked",
    ]
    assert values["phrasings"]["type"] == ["array", "null"]
    assert set(values["claim"]["properties"]) == {"en", "prs", "ps"}


# -- The console -------------------------------------------------------------------------


@pytest.fixture
async def browser(content_db: Engine) -> AsyncIterator[tuple[Client, str]]:
    with Session(content_db) as session, session.begin():
        for table in (ConsoleSession, SignInCode):
            session.query(table).delete()
    code = invitation(content_db, "amina", NOW)
    server = TestServer(create_app(content_db, AdminSettings(), clock=lambda: LATER))
    await server.start_server(access_log_class=AccessLog)
    async with TestClient(server) as client:
        yield client, await sign_in(client, code)


async def test_the_console_edits_a_claim_in_three_languages_with_its_phrasings(
    browser: Client,
) -> None:
    client, csrf = browser
    new = await (await client.get("/console/new/claim?lang=prs")).text()
    for name in ("claim", "explanation"):
        for lang in ("en", "prs", "ps"):
            assert f'name="{name}.{lang}"' in new
    assert '<textarea id="phrasings" name="phrasings"' in new
    shown = visible(new)
    assert "شایعه‌ها" in shown and "نتیجهٔ بررسی" in shown and "نادرست (false)" in shown

    form = {
        **form_of(new),
        "key": "canada-takes-everyone",
        "verdict": "false",
        **texts_of(RUMOUR),
        "phrasings": "canada tazkira kafi ast\n\nکانادا با تذکره\n",
        "source": "us-embassy-kabul",
        "do": "publish",
    }
    created = await client.post("/console/new/claim", data=form)
    assert created.status == 200, visible(await created.text())[:2000]
    assert created.url.path == "/console/edit/claim/canada-takes-everyone"
    assert stored("claim", "canada-takes-everyone")["phrasings"] == RUMOUR["phrasings"]

    edit = "/console/edit/claim/canada-takes-everyone"
    page = await (await client.get(f"{edit}?lang=en")).text()
    assert html.escape("canada tazkira kafi ast\nکانادا با تذکره") in page
    more = {**form_of(page), "phrasings": "canada everyone", "do": "publish"}
    assert (await client.post(edit, data=more)).status == 200
    assert stored("claim", "canada-takes-everyone")["phrasings"] == ["canada everyone"]

    page = await (await client.get(edit)).text()
    withdrawn = await client.post(
        "/console/withdraw/claim/canada-takes-everyone",
        data={"csrf": csrf, "version": version_in(page), "note": "checked: gone"},
    )
    assert "Withdrawn: claim canada-takes-everyone." in visible(await withdrawn.text())
    history = await (await client.get("/console/history/claim/canada-takes-everyone")).text()
    assert "checked: gone" in history and "canada everyone" in history
    with db.session_scope() as session:
        update = editing.history(session, "claim", "canada-takes-everyone")[1]
        update_id = update.id
    undone = await client.post(f"/console/rollback/{update_id}", data={"csrf": csrf})
    assert "Undone: claim canada-takes-everyone." in visible(await undone.text())
    assert stored("claim", "canada-takes-everyone")["phrasings"] == RUMOUR["phrasings"]
    assert stored("claim", "canada-takes-everyone")["withdrawn_at"] is None
