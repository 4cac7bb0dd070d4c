"""The editors' console in a real browser (Debian's Chromium driven by Playwright) on a phone's
360-px screen, against the admin server as a real process on a freshly seeded database.

An editor signs in with the link ``invite`` prints, sees the stalest fact first, marks it
checked, changes a gate in Dari with the preview, publishes, and the next answer says it; a
colleague's change is never overwritten silently; a form without its CSRF token changes
nothing; a Pashto page lays out right to left. A caseworker takes the urgent case from the
queue in Pashto; an editor cannot open the cases. Screenshots of the phone layout go to docs/.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright
from sqlalchemy.orm import Session

from scripts.stack import ROOT, free_port
from tests.screenshots import for_docs

pytestmark = pytest.mark.integration

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 360, "height": 740}


@dataclass(frozen=True)
class Console:
    url: str
    db_url: str
    env: dict[str, str]

    def cli(self, module: str, *args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", module, *args],
            env=self.env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        return done.stdout

    def invite(self, name: str) -> str:
        """The sign-in link ``invite`` prints."""
        out = self.cli("actions.admin", "invite", name)
        return next(line for line in out.splitlines() if "/console/signin?code=" in line)


@contextmanager
def serving_console(folder: Path, db_url: str, **settings: str) -> Iterator[Console]:
    """``python -m actions.admin serve`` on a free port over ``db_url`` (migrated), until the
    block ends; its log in ``folder``."""
    port = free_port()
    env = {
        **os.environ,
        "CONTENT_DB_URL": db_url,
        "PYTHONPATH": str(ROOT),
        "CONSOLE_PUBLIC_URL": f"http://127.0.0.1:{port}",
        **settings,
    }
    console = Console(f"http://127.0.0.1:{port}", db_url, env)
    log = (folder / "admin.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "actions.admin", "serve", "--port", str(port)],
        env=env,
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{console.url}/health", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError((folder / "admin.log").read_text()) from None
                time.sleep(0.2)
        yield console
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=10)
        log.close()


@pytest.fixture(scope="module")
def console(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Console]:
    """The console on a freshly seeded database; the airport's freshness limit is 1 h, so that
    the seeded gates checked 70 and 90 minutes ago are past it."""
    folder = tmp_path_factory.mktemp("console")
    db_url = f"sqlite:///{folder / 'content.db'}"
    settings = {"CONTENT_FRESHNESS_AIRPORT": "1h", "CONSOLE_CASES_POLL_SECONDS": "1"}
    for command in ("migrate", "seed"):
        subprocess.run(
            [sys.executable, "-m", "actions.content", command],
            env={**os.environ, "CONTENT_DB_URL": db_url, "PYTHONPATH": str(ROOT)},
            cwd=ROOT,
            check=True,
            timeout=60,
        )
    with serving_console(folder, db_url, **settings) as serving:
        yield serving


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: run `make deps` (as root)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser, console: Console) -> Iterator[Page]:
    """A phone-sized page with its own cookies; nothing may be loaded from elsewhere."""
    context = browser.new_context(viewport=PHONE, locale="en-US")
    opened = context.new_page()
    outside: list[str] = []
    opened.on("request", lambda r: None if r.url.startswith(console.url) else outside.append(r.url))
    yield opened
    context.close()
    assert outside == [], "the console must not load anything from elsewhere"


def sign_in(page: Page, console: Console, name: str = "amina") -> None:
    page.goto(console.invite(name))
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("What needs me now")


def fits_the_phone(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a {PHONE['width']}-px phone"


def screenshot(page: Page, name: str) -> None:
    """The picture ``docs/<name>`` shows, as this run saw it (``make screenshots``)."""
    path = for_docs(name)
    page.screenshot(path=str(path))
    assert path.stat().st_size < 150_000


def airport_answer(console: Console) -> str:
    """What the assistant answers now to "is Kabul airport open?" in Dari: the action
    server's own code, on the console's database."""
    from rasa_sdk.executor import CollectingDispatcher

    from actions.chat.airport import ActionAnswerAirportStatus
    from actions.common.clock import utc_now
    from actions.content import db
    from actions.content.database_action import Turn
    from tests.actions.content_support import tracker

    engine = db.create_content_engine(console.db_url)
    try:
        with Session(engine) as session:
            asked = tracker("ask_airport_status", "prs", {"airport": "KBL"})
            turn = Turn(CollectingDispatcher(), session, asked, "prs", utc_now())
            replies = ActionAnswerAirportStatus().replies(turn)
            return replies[-1].variables["gates"]
    finally:
        engine.dispose()


def test_an_editor_keeps_the_gates_current_from_a_phone_in_dari(
    page: Page, console: Console
) -> None:
    sign_in(page, console)
    fits_the_phone(page)
    stale = page.locator(
        "section", has=page.get_by_role("heading", name="Past their freshness limit")
    )
    first = stale.locator("li").first
    expect(first).to_contain_text("Baron Hotel side")  # checked 90 min ago: the stalest
    expect(first).to_contain_text("30 min past the limit")
    screenshot(page, "console-home.png")

    # One tap, by keyboard: "checked, still true".
    first.get_by_role("button", name="Checked, still true").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("status")).to_contain_text(
        "Marked as checked: Baron Hotel side (UK processing centre) (KBL)"
    )
    expect(stale.locator("li").first).not_to_contain_text("Baron Hotel side")

    # The gate's state in Dari, with the preview, then publish.
    page.goto(f"{console.url}/console/edit/gate/KBL/abbey-gate?lang=prs")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    page.get_by_label("وضعیت", exact=True).select_option("open")
    page.locator('[name="note.en"]').fill("Open again for people called by their embassy.")
    page.locator('[name="note.prs"]').fill("برای کسانی که سفارت‌شان تماس گرفته دوباره باز است.")
    page.locator('[name="note.ps"]').fill("د هغو کسانو لپاره بیا خلاصه ده چې سفارت ورته زنګ وهلی.")
    assert (
        page.locator('[name="note.prs"]').evaluate("el => getComputedStyle(el).direction") == "rtl"
    )
    assert (
        page.locator('[name="note.en"]').evaluate("el => getComputedStyle(el).direction") == "ltr"
    )
    page.get_by_role("button", name="پیش‌نمایش").click()
    preview = page.locator("#preview")
    expect(preview).to_contain_text("جواب، همان‌طور که مردم می‌بینند")
    dari = preview.locator('[data-language="prs"]')
    expect(dari).to_contain_text("باز — برای کسانی که سفارت‌شان تماس گرفته دوباره باز است.")
    expect(dari).to_contain_text("SMS، همان‌طور که فرستاده می‌شود")
    assert "بسته — به دلیل تهدید" in airport_answer(console)  # not published yet
    fits_the_phone(page)
    dari.scroll_into_view_if_needed()
    screenshot(page, "console-preview-prs.png")
    page.get_by_role("button", name="نشر", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("نشر شد: gate KBL/abbey-gate")
    assert "باز — برای کسانی که سفارت‌شان تماس گرفته دوباره باز است." in airport_answer(console)


def test_a_stale_version_save_is_refused_showing_both_versions(
    page: Page, console: Console
) -> None:
    sign_in(page, console)
    page.goto(f"{console.url}/console/edit/gate/KBL/east-gate?lang=en")
    token = console.cli("actions.admin", "token", "add", "bilal").split("\n\n")[1].strip()
    request = urllib.request.Request(
        f"{console.url}/records/gate/KBL/east-gate",
        method="PUT",
        data=json.dumps(
            {
                "changes": {
                    "state": "closed",
                    "note": {
                        "en": "Closed: crush at the gate.",
                        "prs": "بسته است.",
                        "ps": "بنده ده.",
                    },
                },
                "note": "crush",
            }
        ).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 200
    page.locator('[name="note.en"]').fill("Open, queues short.")
    page.locator('[name="note.prs"]').fill("باز است، قطار کوتاه است.")
    page.locator('[name="note.ps"]').fill("خلاصه ده، کتار لنډ دی.")
    page.get_by_role("button", name="Preview").click()
    alert = page.get_by_role("alert").first
    expect(alert).to_contain_text("Changed by bilal")
    expect(alert).to_contain_text("your save was not applied")
    expect(alert).to_contain_text("Closed: crush at the gate.")  # theirs
    expect(page.locator('[name="note.en"]')).to_have_value("Open, queues short.")  # yours
    fits_the_phone(page)
    screenshot(page, "console-stale.png")


def test_a_form_without_its_csrf_token_is_refused(page: Page, console: Console) -> None:
    sign_in(page, console)
    page.locator('form[action^="/console/checked/"] input[name="csrf"]').first.evaluate(
        "el => el.remove()"
    )
    page.get_by_role("button", name="Checked, still true").first.click()
    expect(page.get_by_role("alert")).to_contain_text("Nothing was changed")
    expect(page.get_by_role("heading", level=1)).to_have_count(0)


def test_a_pashto_page_is_laid_out_right_to_left(page: Page, console: Console) -> None:
    sign_in(page, console)
    page.goto(f"{console.url}/console/?lang=ps")
    expect(page.get_by_role("heading", level=1)).to_have_text("بیړني کارونه")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert page.locator("main").evaluate("el => getComputedStyle(el).direction") == "rtl"
    heading = page.get_by_role("heading", level=1).bounding_box()
    assert heading is not None and heading["x"] + heading["width"] > PHONE["width"] - 40  # right
    fits_the_phone(page)
    screenshot(page, "console-home-ps.png")


AXE = ROOT / "var" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
#: WCAG 2.1 A and AA rules; "serious" and "critical" findings fail the test.
AXE_RUN = """() => axe.run(document, {runOnly: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]})
  .then(result => result.violations
    .filter(v => v.impact === "serious" || v.impact === "critical")
    .map(v => v.id + ": " + v.nodes.map(n => n.target.join(" ")).join(", ")))"""


def test_no_serious_accessibility_violations_in_any_language(
    browser: Browser, console: Console
) -> None:
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `make axe-core` (make test-integration does)")
    # The page's Content-Security-Policy forbids injected scripts: bypassed for axe only.
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    page = context.new_page()
    try:
        page.goto(console.invite("amina"))
        found: dict[str, list[str]] = {}

        def check(name: str) -> None:
            page.add_script_tag(path=str(AXE))
            found[name] = page.evaluate(AXE_RUN)

        check("sign-in")
        page.get_by_role("button", name="Sign in").click()
        for lang in ("en", "prs", "ps"):
            page.goto(f"{console.url}/console/?lang={lang}")
            check(f"home {lang}")
            page.goto(f"{console.url}/console/edit/gate/KBL/north-gate?lang={lang}")
            check(f"edit {lang}")
        page.locator('[name="note.en"]').fill("Changed.")
        page.locator('[name="note.prs"]').fill("تغییر کرد.")
        page.locator('[name="note.ps"]').fill("بدل شو.")
        page.get_by_role("button", name="مخکتنه").click()
        check("preview ps")
        page.goto(f"{console.url}/console/history/gate/KBL/abbey-gate?lang=en")
        check("history")
        page.goto(f"{console.url}/console/records/flight")
        check("flights")
        for lang in ("en", "prs", "ps"):
            page.goto(f"{console.url}/console/questions?lang={lang}")
            check(f"questions {lang}")
    finally:
        context.close()
    assert {name: v for name, v in found.items() if v} == {}


# -- Caseworkers: the queue of cases, in Pashto, and only for caseworkers ------------------


def open_cases(console: Console, cases: tuple[tuple[str, str, int], ...] = ()) -> None:
    """Two Pashto cases, the urgent one opened last (or ``cases``: conversation, first line,
    minutes ago), straight into the console's database."""
    from actions.cases import store
    from actions.content import db

    engine = db.create_content_engine(console.db_url)
    now = datetime.now(timezone.utc)
    try:
        with Session(engine) as session, session.begin():
            for conversation, text, minutes in cases or (
                ("telegram-1", "ویزه مې رد شوه، څه وکړم؟", 40),
                ("sms_gateway-2", "زما ماشوم ټپي دی، ډاکټر ته اړتیا لرو", 3),
            ):
                store.open_case(
                    session,
                    conversation_id=conversation,
                    channel=conversation.split("-")[0],
                    language="ps",
                    organisation=None,
                    request=text,
                    assistant_answers=["سلام! زه د وېستلو د الوتنو په اړه ځوابونه درکوم."],
                    now=now - timedelta(minutes=minutes),
                )
    finally:
        engine.dispose()


def invite_caseworker(console: Console, name: str) -> str:
    answering = ("--organisation", "kabul-aid-network")
    out = console.cli("actions.admin", "invite", name, "--role", "caseworker", *answering)
    return next(line for line in out.splitlines() if "/console/signin?code=" in line)


def test_a_caseworker_takes_the_urgent_case_from_a_phone_in_pashto(
    page: Page, console: Console
) -> None:
    open_cases(console)
    page.goto(invite_caseworker(console, "farida") + "&lang=ps")
    page.get_by_role("button", name="ننوتل").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("خلاصې قضیې")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    fits_the_phone(page)
    first = page.locator("li.case").first
    expect(first).to_contain_text("بیړنی")
    expect(first).to_contain_text("زما ماشوم ټپي دی")
    assert "telegram-1" not in page.content() and "sms_gateway-2" not in page.content()
    screenshot(page, "console-cases-ps.png")

    # A new case appears by itself, without the page being reloaded.
    page.evaluate("window.stillTheSamePage = true")
    open_cases(console, (("webchat-3", "کورنۍ مې په دروازه کې ورکه شوه", 0),))
    expect(page.locator("li.case")).to_have_count(3, timeout=5000)
    expect(page.locator("#queue")).to_contain_text("کورنۍ مې په دروازه کې ورکه شوه")
    assert page.evaluate("window.stillTheSamePage") is True

    first.get_by_role("link").click()
    fits_the_phone(page)
    page.get_by_role("button", name="دا قضیه واخلئ").click()
    expect(page.get_by_role("status")).to_have_text("دا قضیه اوس ستاسو سره ده.")
    expect(page.get_by_role("button", name="دا قضیه واخلئ")).to_have_count(0)


def test_an_editor_cannot_open_the_cases(page: Page, console: Console) -> None:
    page.goto(console.invite("amina"))
    page.get_by_role("button", name="Sign in").click()
    response = page.goto(console.url + "/console/cases")
    assert response is not None and response.status == 403
    expect(page.get_by_role("alert")).to_contain_text("Editors do not see people's cases.")


def test_no_serious_accessibility_violations_on_the_cases_pages(
    browser: Browser, console: Console
) -> None:
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `make axe-core` (make test-integration does)")
    open_cases(console, (("telegram-axe", "ویزه مې رد شوه", 5),))
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    page = context.new_page()
    found: dict[str, list[str]] = {}
    try:
        page.goto(invite_caseworker(console, "wahid"))
        page.get_by_role("button", name="Sign in").click()
        for lang in ("en", "prs", "ps"):
            page.goto(f"{console.url}/console/cases?lang={lang}")
            page.add_script_tag(path=str(AXE))
            found[f"cases {lang}"] = page.evaluate(AXE_RUN)
            page.locator("li.case a").first.click()
            page.add_script_tag(path=str(AXE))
            found[f"case {lang}"] = page.evaluate(AXE_RUN)
    finally:
        context.close()
    assert {name: v for name, v in found.items() if v} == {}


def test_a_caseworker_replies_from_a_phone_in_dari(browser: Browser, console: Console) -> None:
    """The reply box right to left at 360 px: the person's language first, a saved reply in one
    tap, a typed one; each is a line of the case, on its way to the person."""
    from actions.cases import store
    from actions.content import db

    engine = db.create_content_engine(console.db_url)
    try:
        with Session(engine) as session, session.begin():
            case_id = store.open_case(
                session,
                conversation_id="telegram-dari-reply",
                channel="telegram",
                language="prs",
                organisation=None,
                request="پاسپورتم در دروازه گم شد",
                assistant_answers=[],
                now=datetime.now(timezone.utc),
            ).id
    finally:
        engine.dispose()
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    page = context.new_page()
    try:
        page.goto(invite_caseworker(console, "mariam") + "&lang=prs")
        page.get_by_role("button", name="ورود").click()
        page.goto(f"{console.url}/console/cases/{case_id}")
        page.get_by_role("button", name="این قضیه را بگیرید").click()
        assert page.evaluate("document.documentElement.dir") == "rtl"
        language = page.get_by_label("به زبان")
        expect(language).to_have_value("prs")  # the person writes Dari
        page.get_by_role("button", name="همین حالا کار شما را می‌بینم.").click()
        expect(page.get_by_role("status")).to_have_text("جواب شما به طرف شخص در راه است.")
        page.get_by_label("جواب شما").fill("تذکره تان را همراه داشته باشید.")
        page.get_by_role("button", name="بفرستید", exact=True).click()
        lines = page.locator("li.line.caseworker")
        expect(lines).to_have_count(2)
        expect(lines.last).to_contain_text("تذکره تان را همراه داشته باشید.")
        expect(lines.last).to_contain_text("در راه")
        fits_the_phone(page)
        page.add_script_tag(path=str(AXE))
        assert page.evaluate(AXE_RUN) == []
        screenshot(page, "console-case-reply-prs.png")
    finally:
        context.close()


def test_a_long_unbroken_message_wraps_and_saved_replies_follow_the_reply_language(
    browser: Browser, console: Console
) -> None:
    """At 360 px a person's 1,500-character "word" (a pasted link) wraps instead of making the
    case page scroll sideways; in an English console the saved replies of a Pashto case are
    shown in Pashto, and in English once English is chosen (the page's own script, under the
    console's content security policy)."""
    from actions.cases import store
    from actions.content import db

    engine = db.create_content_engine(console.db_url)
    try:
        with Session(engine) as session, session.begin():
            case_id = store.open_case(
                session,
                conversation_id="telegram-long-word",
                channel="telegram",
                language="ps",
                organisation=None,
                request="https://example.org/" + "x" * 1500,
                assistant_answers=[],
                now=datetime.now(timezone.utc),
            ).id
    finally:
        engine.dispose()
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    try:
        page.goto(invite_caseworker(console, "zarghuna") + "&lang=en")
        page.get_by_role("button", name="Sign in").click()
        page.goto(f"{console.url}/console/cases/{case_id}")
        fits_the_phone(page)
        page.get_by_role("button", name="Take this case").click()
        saved = page.locator("ul.saved button").first
        expect(saved).to_have_text("زه همدا اوس ستاسو کار ګورم.")  # the taken case's page is there
        fits_the_phone(page)
        page.get_by_label("Send in").select_option("en")
        expect(saved).to_have_text("I am looking at your case now.")
        expect(page.locator("#saved-in")).to_contain_text("English")
        saved.click()
        expect(page.locator("li.line.caseworker").last).to_contain_text(
            "I am looking at your case now."
        )
    finally:
        context.close()


def test_what_became_of_an_alert_wraps_right_to_left_in_dari(page: Page, console: Console) -> None:
    """A closure's alerts, reported delivered, read and failed for two reasons, on a 360-px
    phone in Dari: the counts and each reason wrap inside the page, right to left."""
    from sqlalchemy import delete, select

    from actions.alerts.models import Broadcast, Delivery, DeliveryStatus, Topic
    from actions.content import db
    from actions.content.revision import Revision

    engine = db.create_content_engine(console.db_url)
    reported = [
        (DeliveryStatus.SENT, "delivered", None),
        (DeliveryStatus.SENT, "read", None),
        (DeliveryStatus.SENT, "failed", "131026"),
        (DeliveryStatus.FAILED, "failed", "21610"),
        (DeliveryStatus.FAILED, None, None),
    ]
    try:
        with Session(engine) as session, session.begin():
            revision = session.scalars(select(Revision.id).order_by(Revision.id.desc())).first()
            now = datetime.now(timezone.utc)
            broadcast = Broadcast(
                revision_id=revision,
                topic=Topic.AIRPORT,
                topic_key="KBL",
                editor="amina",
                created_at=now - timedelta(minutes=5),
            )
            session.add(broadcast)
            session.flush()
            for number, (status, provider, code) in enumerate(reported):
                session.add(
                    Delivery(
                        broadcast_id=broadcast.id,
                        conversation_id=f"whatsapp-{number:040x}",
                        channel="whatsapp",
                        status=status,
                        attempts=1,
                        next_attempt_at=now,
                        provider_status=provider,
                        provider_error=code,
                        last_error="whatsapp: no stored address" if provider is None else None,
                    )
                )
        sign_in(page, console)
        page.goto(f"{console.url}/console/?lang=prs")
        block = page.locator(
            "section", has=page.get_by_role("heading", name="پیام‌های خبری که نرسید")
        )
        alert = block.locator("li.alert")
        expect(alert).to_contain_text("مشترکین: ۵")
        expect(alert).to_contain_text("۱ رسید، ۱ خوانده شد، ۳ نرسید")
        reasons = alert.locator("ul.reasons li")
        expect(reasons).to_have_count(3)
        expect(reasons.first).to_contain_text("نرسید: ")
        assert reasons.first.evaluate("el => getComputedStyle(el).direction") == "rtl"
        box, item = reasons.nth(2).bounding_box(), alert.bounding_box()
        assert box is not None and item is not None
        assert box["x"] >= item["x"] and box["x"] + box["width"] <= item["x"] + item["width"]
        longest = max(reasons.all(), key=lambda reason: len(reason.inner_text()))
        assert (longest.bounding_box() or {"height": 0})["height"] > 30  # wrapped, not cut
        fits_the_phone(page)
        assert "whatsapp-0" not in page.content()
        picture = for_docs("console-alerts-prs.png")
        alert.screenshot(path=str(picture))
        assert picture.stat().st_size < 150_000
    finally:
        with Session(engine) as session, session.begin():
            session.execute(delete(Delivery))
            session.execute(delete(Broadcast))
        engine.dispose()
