"""The editors' web console, over real HTTP (aiohttp's TestServer), on SQLite and PostgreSQL.

Signing in, sessions and CSRF; what needs the editor now; editing through the one editing
service, with its preview, its refusals next to the field, and a colleague's change never
overwritten silently. The browser test (tests/integration/test_console_browser.py) drives the
same pages in Chromium.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from actions.admin.app import AccessLog, create_app
from actions.admin.console import sessions
from actions.admin.console.signin import THROTTLE
from actions.admin.console.throttle import FailedSignIns
from actions.admin.settings import AdminSettings
from actions.admin.state import CLOCK
from actions.alerts.models import Broadcast, Delivery, Topic
from actions.alerts.subscriptions import Wish
from actions.chat.airport import ActionAnswerAirportStatus
from actions.content import db
from actions.content.models import ConsoleSession, Organisation, Revision, SignInCode
from actions.publishing import publish
from tests.actions.admin_support import Tokens, command, fresh_tokens, stored
from tests.actions.alerts_support import add_subscribers
from tests.actions.console_support import (
    Client,
    csrf_in,
    form_of,
    invitation,
    sign_in,
    version_in,
    visible,
)
from tests.actions.content_support import DEMO_RECORDS, NOW, clock, run, tracker

#: An hour after seeding: two gates are past the 2-hour limit, two are close to it.
LATER = NOW + timedelta(hours=1)
GATE = "/console/edit/gate/KBL/abbey-gate"


@pytest.fixture
def keys(content_db: Engine) -> Tokens:
    return fresh_tokens(content_db)


@pytest.fixture
def code(content_db: Engine, keys: Tokens) -> str:
    with Session(content_db) as session, session.begin():
        for table in (ConsoleSession, SignInCode):
            session.query(table).delete()
    return invitation(content_db, "amina", NOW)


async def client_for(engine: Engine, settings: AdminSettings | None = None) -> Client:
    app = create_app(engine, settings or AdminSettings(), clock=lambda: LATER)
    server = TestServer(app)
    await server.start_server(access_log_class=AccessLog)
    return TestClient(server)


@pytest.fixture
async def browser(content_db: Engine, code: str) -> AsyncIterator[Client]:
    async with await client_for(content_db) as client:
        yield client


@pytest.fixture
async def signed_in(browser: Client, code: str) -> str:
    """The CSRF token of amina's session."""
    return await sign_in(browser, code)


def revisions() -> list[Revision]:
    with db.session_scope() as session:
        return list(session.scalars(select(Revision).order_by(Revision.id)))


# -- Signing in ---------------------------------------------------------------------------


async def test_pages_send_a_signed_out_browser_to_sign_in_and_back(browser: Client) -> None:
    for path in (
        "/console/",
        "/console/export",
        "/console/data",
        GATE,
        "/console/records/flight",
        "/console/history/gate/KBL/abbey-gate",
    ):
        response = await browser.get(path, allow_redirects=False)
        assert response.status == 303, path
        assert response.headers["Location"] == f"/console/signin?next={path}"
    response = await browser.post("/console/checked/gate/KBL/abbey-gate", allow_redirects=False)
    assert response.status == 303 and response.headers["Location"] == "/console/signin"


async def test_a_code_signs_in_once_with_a_strict_http_only_cookie(
    browser: Client, code: str
) -> None:
    page = await (await browser.get(f"/console/signin?code={code}")).text()
    assert f'value="{code}"' in page  # the link fills the form in; only the POST signs in
    response = await browser.post(
        "/console/signin",
        data={"csrf": csrf_in(page), "code": code.lower().replace("-", " "), "next": GATE},
        allow_redirects=False,
    )
    assert response.status == 303 and response.headers["Location"] == GATE
    cookie = response.cookies["console_session"]
    assert cookie["httponly"] and cookie["samesite"] == "Strict" and cookie["path"] == "/console"
    assert not cookie["secure"]  # plain HTTP on loopback; Secure behind TLS (next test)
    assert int(cookie["max-age"]) == 12 * 3600
    assert "amina" in visible(await (await browser.get(GATE)).text())

    browser.session.cookie_jar.clear()
    again = await (await browser.get("/console/signin")).text()
    refused = await browser.post("/console/signin", data={"csrf": csrf_in(again), "code": code})
    assert refused.status == 401
    assert "used already or expired" in visible(await refused.text())


async def test_cookies_are_secure_behind_tls(content_db: Engine, code: str) -> None:
    async with await client_for(content_db, AdminSettings(secure_cookies=True)) as client:
        first = await client.get("/console/signin")
        browser_cookie = first.cookies["console_browser"]
        assert browser_cookie["secure"]
        # A browser would send a Secure cookie over HTTPS only; the test sends it by hand.
        response = await client.post(
            "/console/signin",
            data={"csrf": csrf_in(await first.text()), "code": code},
            headers={"Cookie": f"console_browser={browser_cookie.value}"},
            allow_redirects=False,
        )
        assert response.status == 303
        assert response.cookies["console_session"]["secure"]


async def test_an_editor_token_signs_in_and_a_revoked_one_does_not(
    browser: Client, keys: Tokens
) -> None:
    page = await (await browser.get("/console/signin")).text()
    refused = await browser.post(
        "/console/signin", data={"csrf": csrf_in(page), "code": keys.revoked}
    )
    assert refused.status == 401
    await sign_in(browser, keys.amina)


async def test_an_expired_code_is_refused(content_db: Engine, browser: Client) -> None:
    old = invitation(content_db, "amina", LATER - sessions.CODE_LIFETIME - timedelta(minutes=1))
    page = await (await browser.get("/console/signin")).text()
    response = await browser.post("/console/signin", data={"csrf": csrf_in(page), "code": old})
    assert response.status == 401


async def test_failed_sign_ins_are_limited_even_for_a_right_code_afterwards(
    browser: Client, code: str
) -> None:
    browser.app[THROTTLE] = FailedSignIns(
        first_delay=0.01
    )  # the waits: test_console_sign_in_limits
    page = await (await browser.get("/console/signin")).text()
    token = csrf_in(page)
    for attempt in range(5):
        wrong = await browser.post(
            "/console/signin", data={"csrf": token, "code": f"WRONG-{attempt}"}
        )
        assert wrong.status == 401
    blocked = await browser.post("/console/signin", data={"csrf": token, "code": code})
    assert blocked.status == 429
    assert 0 < int(blocked.headers["Retry-After"]) <= 15 * 60
    assert "Try again in 15 min" in visible(await blocked.text())
    with db.session_scope() as session:  # the code was not even looked at: still usable later
        assert session.scalars(select(SignInCode.used_at)).all() == [None]


async def test_signing_out_ends_the_session_on_the_server(browser: Client, signed_in: str) -> None:
    stolen = browser.session.cookie_jar.filter_cookies(browser.make_url("/console/"))
    response = await browser.post("/console/signout", data={"csrf": signed_in})
    assert "You are signed out" in visible(await response.text())
    browser.session.cookie_jar.update_cookies(stolen)  # a copy of the cookie opens nothing
    again = await browser.get("/console/", allow_redirects=False)
    assert again.status == 303


async def test_a_session_expires(content_db: Engine, code: str) -> None:
    async with await client_for(content_db, AdminSettings(session_hours=1)) as client:
        await sign_in(client, code)
        client.app[CLOCK] = lambda: LATER + timedelta(hours=1, seconds=1)
        assert (await client.get("/console/", allow_redirects=False)).status == 303


async def test_sessions_and_codes_are_stored_only_as_hashes(
    content_db: Engine, browser: Client, code: str
) -> None:
    await sign_in(browser, code)
    secret = browser.session.cookie_jar.filter_cookies(browser.make_url("/console/"))
    value = secret["console_session"].value
    with db.session_scope() as session:
        rows = [*session.scalars(select(ConsoleSession)), *session.scalars(select(SignInCode))]
        stored_text = repr([vars(row) for row in rows])
    assert value not in stored_text and code.replace("-", "") not in stored_text


# -- Forms need their CSRF token ----------------------------------------------------------


@pytest.mark.parametrize("token", ["", "0" * 64, "other-session"])
async def test_a_form_without_its_csrf_token_changes_nothing(
    browser: Client, signed_in: str, content_db: Engine, token: str
) -> None:
    if token == "other-session":
        async with await client_for(content_db) as other:
            token = await sign_in(other, invitation(content_db, "bilal", NOW))
    before, count = stored("gate", "KBL/abbey-gate"), len(revisions())
    page = await (await browser.get(GATE)).text()
    posts = {
        "/console/checked/gate/KBL/abbey-gate": {"version": version_in(page)},
        GATE: {**form_of(page), "state": "open", "do": "publish"},
        "/console/withdraw/gate/KBL/abbey-gate": {"note": "gone", "version": version_in(page)},
        "/console/rollback/1": {},
        "/console/signout": {},
    }
    for path, data in posts.items():
        response = await browser.post(path, data={**data, "csrf": token})
        assert response.status == 403, path
        assert "Nothing was changed" in visible(await response.text())
    assert stored("gate", "KBL/abbey-gate") == before and len(revisions()) == count
    assert (await browser.get("/console/", allow_redirects=False)).status == 200  # still signed in


async def test_a_sign_in_form_without_its_csrf_token_is_refused(browser: Client, code: str) -> None:
    response = await browser.post("/console/signin", data={"code": code})
    assert response.status == 403
    await sign_in(browser, code)  # and the code was not used up


# -- What needs me now --------------------------------------------------------------------


async def test_home_lists_the_stalest_fact_first_then_the_soon_stale_then_the_expired(
    browser: Client, signed_in: str
) -> None:
    page = visible(await (await browser.get("/console/")).text())
    stale = page.index("Past their freshness limit")
    soon, expired = page.index("About to pass it"), page.index("Expired: shown as out of date")
    assert stale < soon < expired
    baron, north = page.index("Baron Hotel side"), page.index("North Gate")
    assert stale < baron < north < soon  # 30 min past the limit before 10 min past it
    assert "30 min past the limit · last checked 2 h ago, limit 2 h" in page
    assert stale < soon < page.index("Abbey Gate") < expired  # 1 h 40 min of 2 h
    assert expired < page.index("Civilian terminal")


async def test_checked_still_true_renews_the_check_as_a_revision_and_alerts_nobody(
    browser: Client, signed_in: str, no_alert_subscribers: None
) -> None:
    add_subscribers(3, [Wish(Topic.AIRPORT, "KBL")])
    page = await (await browser.get("/console/")).text()
    before = stored("gate", "KBL/north-gate")
    form = page[page.index('action="/console/checked/gate/KBL/north-gate"') :]
    response = await browser.post(
        "/console/checked/gate/KBL/north-gate",
        data={"csrf": signed_in, "version": version_in(form), "editor": "mallory"},
    )
    assert response.status == 200 and response.url.path == "/console/"
    shown = visible(await response.text())
    assert "Marked as checked: North Gate (KBL). Nobody was alerted." in shown
    assert shown.index("Past their freshness limit") < shown.index("Baron Hotel side")
    stale = shown[shown.index("Past their freshness limit") : shown.index("About to pass it")]
    assert "North Gate" not in stale
    after = stored("gate", "KBL/north-gate")
    assert after["verified_at"] == LATER.isoformat()
    assert {k: v for k, v in after.items() if k not in ("verified_at", "valid_until")} == {
        k: v for k, v in before.items() if k not in ("verified_at", "valid_until")
    }
    latest = revisions()[-1]
    assert (latest.editor, latest.note, latest.changed_fields()) == (
        "amina",
        "checked, still true",
        ["verified_at", "valid_until"],
    )
    with db.session_scope() as session:
        assert session.scalars(select(Delivery)).all() == []


async def test_checked_again_within_the_same_second_reads_as_checked(
    browser: Client, signed_in: str, no_alert_subscribers: None
) -> None:
    # Two editors (or one double tap on a slow phone) mark the same fact in the same second.
    for _ in range(2):
        page = await (await browser.get("/console/edit/gate/KBL/north-gate")).text()
        response = await browser.post(
            "/console/checked/gate/KBL/north-gate",
            data={"csrf": signed_in, "version": version_in(page)},
        )
        assert response.status == 200 and response.url.path == "/console/"
        shown = visible(await response.text())
        assert "Marked as checked: North Gate (KBL). Nobody was alerted." in shown
        assert "no such record" not in shown.lower()
    assert [r.note for r in revisions()].count("checked, still true") == 1


# -- Editing ------------------------------------------------------------------------------


async def test_preview_shows_the_answer_in_each_language_and_who_it_alerts_and_changes_nothing(
    browser: Client, signed_in: str, no_alert_subscribers: None
) -> None:
    add_subscribers(4, [Wish(Topic.AIRPORT, "KBL")])
    form = form_of(await (await browser.get(f"{GATE}?lang=prs")).text())
    before, count = stored("gate", "KBL/abbey-gate"), len(revisions())
    form.update(
        {
            "state": "open",
            "note.en": "Open again for people called by their embassy.",
            "note.prs": "برای کسانی که سفارت‌شان تماس گرفته دوباره باز است.",
            "note.ps": "د هغو کسانو لپاره بیا خلاصه ده چې سفارت ورته زنګ وهلی.",
            "do": "preview",
        }
    )
    page = visible(await (await browser.post(GATE, data=form)).text())
    assert "نشر این تغییر به ۴ مشترک پیام خبری می‌فرستد." in page  # Dari interface
    assert "Abbey Gate: open — Open again for people called by their embassy." in page
    assert "دروازهٔ ابی (\u2068Abbey Gate\u2069): باز — برای کسانی که سفارت‌شان" in page
    assert "د ابي دروازه (\u2068Abbey Gate\u2069): خلاصه — د هغو کسانو لپاره بیا" in page
    assert "SMS، همان‌طور که فرستاده می‌شود: ۱ بخش" in page  # the SMS as sent, in Dari
    assert stored("gate", "KBL/abbey-gate") == before and len(revisions()) == count
    with db.session_scope() as session:
        assert session.scalars(select(Delivery)).all() == []


#: Abbey Gate reopened, in the editor's form.
REOPENED = {
    "state": "open",
    "note.en": "Open.",
    "note.prs": "باز است.",
    "note.ps": "خلاصه ده.",
    "note": "reopened",
    "do": "publish",
}


async def reopen_abbey_gate(browser: Client, **fields: str) -> str:
    """Publish :data:`REOPENED` through the gate's form; the page the editor sees after it."""
    form = {**form_of(await (await browser.get(GATE)).text()), **REOPENED, **fields}
    response = await browser.post(GATE, data=form)
    assert response.status == 200 and response.url.path == GATE
    return visible(await response.text())


async def test_publishing_is_a_revision_by_the_signed_in_editor_and_the_next_answer_says_it(
    browser: Client, signed_in: str
) -> None:
    shown = await reopen_abbey_gate(browser, editor="mallory")
    assert "Published: gate KBL/abbey-gate. 0 subscribers will be alerted." in shown
    latest = revisions()[-1]
    assert (latest.editor, latest.note, latest.after["state"]) == ("amina", "reopened", "open")
    assert latest.after["verified_at"] == LATER.isoformat()  # publishing vouches for it now
    action = ActionAnswerAirportStatus(clock=clock(timedelta(hours=1)))
    messages, _ = await run(action, tracker("ask_airport_status", "en", {"airport": "KBL"}))
    assert messages[-1]["response"] == "utter_airport_status"
    assert "• Abbey Gate: open — Open.\n" in messages[-1]["gates"]


async def test_a_published_change_queues_its_alerts_in_the_same_transaction(
    browser: Client, signed_in: str, no_alert_subscribers: None
) -> None:
    people = add_subscribers(2, [Wish(Topic.AIRPORT, "KBL")])
    shown = await reopen_abbey_gate(browser)
    assert "Published: gate KBL/abbey-gate. 2 subscribers will be alerted." in shown
    latest = revisions()[-1]
    with db.session_scope() as session:
        (broadcast,) = session.scalars(select(Broadcast)).all()
        queued = session.scalars(select(Delivery.conversation_id)).all()
    assert broadcast.revision_id == latest.id
    assert sorted(queued) == sorted(people)


async def test_a_text_changed_in_one_language_asks_for_the_others_next_to_their_fields(
    browser: Client, signed_in: str
) -> None:
    form = form_of(await (await browser.get(GATE)).text())
    count = len(revisions())
    form.update({"note.en": "Closed until further notice.", "do": "preview"})
    response = await browser.post(GATE, data=form)
    assert response.status == 422
    page = await response.text()
    for lang in ("prs", "ps"):
        assert f'id="note.{lang}-error"' in page
        assert f'name="note.{lang}" lang="' in page and 'aria-invalid="true"' in page
    assert 'id="note.en-error"' not in page
    assert "Closed until further notice." in page  # what the editor typed is kept
    form["same.note"] = "yes"  # the editor confirms Dari and Pashto still say the same
    response = await browser.post(GATE, data={**form, "do": "publish"})
    assert response.status == 200 and len(revisions()) == count + 1


async def test_a_bad_value_is_shown_next_to_its_field(browser: Client, signed_in: str) -> None:
    form = form_of(await (await browser.get(GATE)).text())
    form.update({"valid_until": "2021-08-20T10:00", "do": "publish"})
    response = await browser.post(GATE, data=form)
    assert response.status == 422
    page = await response.text()
    error = page[page.index('id="valid_until-error"') :]
    assert "not after verified_at" in error[: error.index("</p>")]


async def test_a_stale_save_is_refused_naming_who_changed_it_and_showing_both_versions(
    browser: Client, signed_in: str, content_db: Engine
) -> None:
    form = form_of(await (await browser.get(GATE)).text())
    with Session(content_db) as session, session.begin():  # bilal, two minutes earlier
        publish(
            session,
            "bilal",
            "gate",
            "KBL/abbey-gate",
            {"state": "open"},
            "reopened",
            now=LATER - timedelta(minutes=2),
            allow_missing_translation=False,
            confirm_unchanged=True,
        )
    theirs = stored("gate", "KBL/abbey-gate")
    mine = {
        "note.en": "Still closed: another threat.",
        "note.prs": "هنوز بسته است: تهدید دیگر.",
        "note.ps": "لا بنده ده: بل ګواښ.",
    }
    response = await browser.post(GATE, data={**form, **mine, "state": "closed", "do": "publish"})
    assert response.status == 409
    page = await response.text()
    shown = visible(page)
    assert "Changed by bilal 2 min ago: your save was not applied." in shown
    their_part = shown[shown.index("Their version (now)") : shown.index("Your version")]
    assert "Open" in their_part or "open" in their_part
    assert "Still closed: another threat." in page  # the editor's own version, still in the form
    assert stored("gate", "KBL/abbey-gate") == theirs
    # Publishing again, having seen theirs, is a deliberate choice: it carries the new version.
    again = form_of(page)
    assert again["version"] == str(revisions()[-1].id)
    response = await browser.post(GATE, data={**again, "do": "publish"})
    assert response.status == 200 and stored("gate", "KBL/abbey-gate")["state"] == "closed"


async def test_withdraw_history_and_rollback(browser: Client, signed_in: str) -> None:
    page = await (await browser.get(GATE)).text()
    response = await browser.post(
        "/console/withdraw/gate/KBL/abbey-gate",
        data={"csrf": signed_in, "version": version_in(page), "note": "gate bricked up"},
    )
    assert "Withdrawn: gate KBL/abbey-gate." in visible(await response.text())
    assert stored("gate", "KBL/abbey-gate")["withdrawn_at"] == LATER.isoformat()
    history = await (await browser.get("/console/history/gate/KBL/abbey-gate")).text()
    assert "gate bricked up" in history and "withdraw" in visible(history)
    latest = revisions()[-1]
    response = await browser.post(f"/console/rollback/{latest.id}", data={"csrf": signed_in})
    assert "Undone: gate KBL/abbey-gate." in visible(await response.text())
    assert stored("gate", "KBL/abbey-gate")["withdrawn_at"] is None
    assert revisions()[-1].editor == "amina" and revisions()[-1].rolls_back_id == latest.id


async def test_text_typed_by_an_editor_is_escaped_in_every_page(
    browser: Client, signed_in: str
) -> None:
    form = form_of(await (await browser.get(GATE)).text())
    attack = '<script>alert(1)</script><img src=x onerror="alert(2)">'
    form.update({"note.en": attack, "note.prs": attack, "note.ps": attack, "do": "publish"})
    await browser.post(GATE, data=form)
    for path in (GATE, "/console/history/gate/KBL/abbey-gate", "/console/"):
        page = await (await browser.get(path)).text()
        assert "<script>alert" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in await (await browser.get(GATE)).text()


async def test_pages_are_not_framed_cached_or_given_outside_resources(
    browser: Client, signed_in: str
) -> None:
    response = await browser.get("/console/")
    policy = response.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy and "default-src 'none'" in policy
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["Referrer-Policy"] == "no-referrer"


async def test_a_pashto_interface_is_right_to_left(browser: Client, signed_in: str) -> None:
    page = await (await browser.get("/console/?lang=ps")).text()
    assert '<html lang="ps-AF" dir="rtl">' in page and "بیړني کارونه" in page
    assert '<html lang="ps-AF" dir="rtl">' in await (await browser.get(GATE)).text()  # remembered
    form = await (await browser.get(GATE)).text()
    assert 'name="note.ps" lang="ps-AF" dir="rtl"' in form
    assert 'name="note.en" lang="en" dir="ltr"' in form


async def test_a_records_history_marks_each_languages_text_with_its_tag_and_direction(
    browser: Client, signed_in: str
) -> None:
    form = form_of(await (await browser.get(GATE)).text())
    notes = {"note.en": "Open at 9.", "note.prs": "ساعت ۹ باز است.", "note.ps": "په ۹ بجو خلاص دی."}
    await browser.post(GATE, data={**form, **notes, "do": "publish"})
    history = await (await browser.get("/console/history/gate/KBL/abbey-gate")).text()
    assert '<td lang="fa-AF" dir="rtl"><ins>ساعت ۹ باز است.</ins></td>' in history
    assert '<td lang="ps-AF" dir="rtl"><ins>په ۹ بجو خلاص دی.</ins></td>' in history
    assert '<td lang="en" dir="ltr"><ins>Open at 9.</ins></td>' in history


# -- The CLI ------------------------------------------------------------------------------


def test_invite_prints_a_link_and_a_code_that_signs_in_once(content_db: Engine) -> None:
    url = content_db.url
    if url.get_backend_name() != "sqlite" or url.database is None:
        pytest.skip("the CLI runs on the SQLite copy; the PostgreSQL schema is shared")
    result = command(Path(url.database), "actions.admin", "invite", "amina")
    assert result.returncode == 0, result.stderr
    link = next(line for line in result.stdout.splitlines() if "/console/signin?code=" in line)
    code = link.split("code=")[1]
    assert f"code: {code}" in result.stdout
    with Session(content_db) as session, session.begin():
        assert sessions.redeem(session, code, datetime.now(timezone.utc)).name == "amina"
    with Session(content_db) as session, session.begin(), pytest.raises(sessions.SignInRefused):
        sessions.redeem(session, code, datetime.now(timezone.utc))


def test_invite_a_caseworker_of_an_organisation_as_the_help_shows(content_db: Engine) -> None:
    url = content_db.url
    if url.get_backend_name() != "sqlite" or url.database is None:
        pytest.skip("the CLI runs on the SQLite copy; the PostgreSQL schema is shared")
    database = Path(url.database)
    shown = " ".join(command(database, "actions.admin", "invite", "--help").stdout.split())
    assert "--organisation SLUG required for a caseworker" in shown
    result = command(
        database, "actions.admin", "invite", "farida", "--role", "caseworker",
        "--organisation", "kabul-aid-network",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    code = result.stdout.rsplit("code: ", 1)[1].strip()
    with Session(content_db) as session, session.begin():
        who = sessions.redeem(session, code, datetime.now(timezone.utc))
        network = session.scalars(
            select(Organisation.id).where(Organisation.slug == "kabul-aid-network")
        ).one()
    assert (who.name, who.role, who.organisation_id) == ("farida", "caseworker", network)
    refused = command(database, "actions.admin", "invite", "wahid", "--role", "caseworker")
    assert refused.returncode == 1 and refused.stdout == ""
    assert refused.stderr.startswith(
        "error: a caseworker answers the cases of one organisation: add --organisation SLUG"
    )


async def test_checked_on_a_fact_changed_meanwhile_is_refused_naming_who(
    browser: Client, signed_in: str, content_db: Engine
) -> None:
    page = await (await browser.get("/console/")).text()
    form = page[page.index('action="/console/checked/gate/KBL/north-gate"') :]
    with Session(content_db) as session, session.begin():
        publish(
            session,
            "bilal",
            "gate",
            "KBL/north-gate",
            {"state": "closed"},
            "crowd crush",
            now=LATER - timedelta(minutes=3),
            confirm_unchanged=True,
        )
    response = await browser.post(
        "/console/checked/gate/KBL/north-gate",
        data={"csrf": signed_in, "version": version_in(form)},
    )
    assert response.status == 409
    shown = visible(await response.text())
    assert "Changed by bilal 3 min ago" in shown and "Their version (now)" in shown
    assert revisions()[-1].editor == "bilal"


async def test_a_long_list_shows_the_oldest_checks_and_says_how_many_more(
    browser: Client, signed_in: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from actions.admin.console import needs

    monkeypatch.setattr(needs, "SHOWN", 1)
    page = visible(await (await browser.get("/console/")).text())
    stale = page[page.index("Past their freshness limit (2)") : page.index("About to pass it")]
    assert "Baron Hotel side" in stale and "North Gate" not in stale
    assert "1 more, not listed: the oldest checks come first." in stale


# -- Export and import --------------------------------------------------------------------


async def test_export_then_import_a_change_as_the_signed_in_editor(
    browser: Client, signed_in: str
) -> None:
    from aiohttp import FormData

    exported = await browser.get("/console/export")
    assert exported.status == 200 and exported.content_type == "application/yaml"
    text = await exported.text()
    assert "abbey-gate" in text
    changed = text.replace("Abbey Gate", "Abbey Gate (moved)", 1)

    def upload(body: str, csrf: str = signed_in) -> FormData:
        form = FormData()
        form.add_field("csrf", csrf)
        form.add_field("note", "names from the field team")
        form.add_field(
            "file", body.encode(), filename="content.yml", content_type="application/yaml"
        )
        return form

    count = len(revisions())
    refused = await browser.post("/console/import", data=upload(changed, "0" * 64))
    assert refused.status == 403 and len(revisions()) == count
    broken = await browser.post("/console/import", data=upload("flights:\n  - number: [\n"))
    assert broken.status == 422 and "line" in visible(await broken.text())
    assert len(revisions()) == count
    response = await browser.post("/console/import", data=upload(changed))
    assert response.status == 200, visible(await response.text())
    unchanged = DEMO_RECORDS - 1
    assert f"0 created, 1 changed, {unchanged} unchanged, 0 withdrawn" in visible(
        await response.text()
    )
    latest = revisions()[-1]
    assert (latest.editor, latest.note) == ("amina", "names from the field team")
    assert stored("gate", "KBL/abbey-gate")["name"]["en"] == "Abbey Gate (moved)"


async def test_a_hostile_content_file_is_refused_as_a_page_naming_the_line(
    browser: Client, signed_in: str
) -> None:
    from aiohttp import FormData

    from tests.actions.test_content_file import alias_bomb

    count = len(revisions())
    for payload, words in ((alias_bomb(), "anchors and aliases"), ("[" * 50_000, "levels deep")):
        form = FormData()
        form.add_field("csrf", signed_in)
        form.add_field("file", payload.encode(), filename="partner.yml")
        response = await browser.post("/console/import", data=form)
        page = visible(await response.text())
        assert response.status == 422 and "line 1: not valid YAML" in page and words in page
    assert len(revisions()) == count


@pytest.mark.parametrize(
    "disposition",
    ['name="file"; filename="a\r\nb.yml"', 'filename="a.yml"'],
    ids=["line-break-in-file-name", "part-without-a-name"],
)
async def test_a_form_that_cannot_be_read_is_a_400_page_not_a_500(
    browser: Client, signed_in: str, caplog: pytest.LogCaptureFixture, disposition: str
) -> None:
    boundary = "partnerfile"
    body = (
        f"--{boundary}\r\n"
        'Content-Disposition: form-data; name="csrf"\r\n\r\n'
        f"{signed_in}\r\n"
        f"--{boundary}\r\n"
        f"Content-Disposition: form-data; {disposition}\r\n"
        "Content-Type: application/yaml\r\n\r\n"
        "organisations: {}\r\n"
        f"--{boundary}--\r\n"
    ).encode()
    count = len(revisions())
    caplog.set_level(logging.INFO)
    caplog.clear()
    response = await browser.post(
        "/console/import",
        data=body,
        headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
    )
    assert response.status == 400
    assert "This form could not be read" in visible(await response.text())
    assert not any(record.exc_info for record in caplog.records)
    assert len(revisions()) == count


async def test_an_address_that_is_no_page_says_so_as_a_page(
    browser: Client, signed_in: str
) -> None:
    response = await browser.get("/console/no/such/page")
    assert response.status == 404 and response.content_type == "text/html"
    assert "There is no such page." in visible(await response.text())
    assert (await browser.get("/console/static/console.css")).status == 200
