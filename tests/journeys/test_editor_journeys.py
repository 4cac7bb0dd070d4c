"""An editor closes the airport from her phone, and the next answers in Dari, Pashto and English
say it is closed, list no gate as open and say it was checked just now; the README's own
command for the same change is consistent, or refused saying how to make it so."""

from __future__ import annotations

import shlex
import subprocess
import sys
from urllib.parse import parse_qs, urlparse

from playwright.sync_api import expect

from scripts.stack import ROOT
from tests.journeys.conftest import SCREENSHOTS, Phone, Running, screenshot

ADVICE = {
    "en": "All gates are closed after the explosion. Do not come to the airport.",
    "prs": "همه دروازه‌ها بعد از انفجار بسته است. به میدان هوایی نیایید.",
    "ps": "د چاودنې وروسته ټولې دروازې بندې دي. هوايي ډګر ته مه راځئ.",
}
AIRPORT_OPEN = {
    "en": "is the airport open?",
    "prs": "آیا میدان هوایی باز است؟",
    "ps": "د کابل هوايي ډګر خلاص دی؟",
}
ABBEY_OPEN = {
    "en": "is abbey gate open?",
    "prs": "دروازه ابی باز است؟",
    "ps": "د ابي دروازه خلاصه ده؟",
}
CLOSED = {"en": "closed", "prs": "بسته", "ps": "بند"}  # «بند» in «بنده» (a gate) too
OPEN = {"en": ": open", "prs": ": باز", "ps": ": خلاص"}  # «: خلاص» in «: خلاصه» too
JUST_NOW = {"en": "just now", "prs": "همین حالا", "ps": "همدا اوس"}
AGO = {"en": " ago", "prs": " پیش", "ps": " مخکې"}


def answer(running: Running, sender: str, question: str) -> str:
    return "\n".join(reply.get("text", "") for reply in running.say(sender, question))


def assert_closed_everywhere(running: Running, sender: str) -> None:
    """What people read next, in each language: closed, no gate open, checked just now."""
    for language in ("prs", "ps", "en"):
        airport = answer(running, f"{sender}-{language}", AIRPORT_OPEN[language])
        gates = [line for line in airport.splitlines() if line.lstrip().startswith("•")]
        assert CLOSED[language] in airport, airport
        assert gates and not any(OPEN[language] in line for line in gates), airport
        checked = [line for line in airport.splitlines() if JUST_NOW[language] in line]
        assert checked, airport
        assert not any(AGO[language] in line for line in checked), airport
        abbey = answer(running, f"{sender}-{language}", ABBEY_OPEN[language])
        assert CLOSED[language] in abbey and OPEN[language] not in abbey, abbey
        assert JUST_NOW[language] in abbey, abbey


def test_an_editor_closes_the_airport_and_its_gates_from_her_phone(
    running: Running, phone: Phone
) -> None:
    link = running.invite("amina")
    code = parse_qs(urlparse(link).query)["code"][0]
    page = phone()
    console = running.stack.admin_url
    page.goto(f"{console}/console/signin?code={code}&lang=en")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", level=1)).to_be_visible()

    page.goto(f"{console}/console/edit/airport/KBL")
    page.get_by_label("State", exact=True).select_option("closed")
    for language, text in ADVICE.items():
        page.locator(f'[name="advice.{language}"]').fill(text)
    offered = page.locator("label", has_text="Close the gates too:")
    expect(offered).to_contain_text("East Gate, North Gate, Baron Hotel side")
    offered.locator('input[name="close_gates"]').check()
    page.get_by_role("button", name="Preview").click()

    preview = page.locator("#preview")
    expect(preview).to_contain_text("Close the gates too: East Gate, North Gate, Baron Hotel side")
    english = preview.locator('[data-language="en"] [data-channel="chat"]')
    expect(english).to_contain_text("Hamid Karzai International Airport: closed")
    assert ": open" not in english.inner_text()
    expect(preview.locator('[data-language="en"] [data-channel="sms"]')).to_contain_text("closed")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    english.scroll_into_view_if_needed()
    screenshot(page, "editor-close-airport-preview")
    preview.scroll_into_view_if_needed()  # what the phone shows first: the English answer
    page.screenshot(path=str(SCREENSHOTS / "editor-close-airport-preview-top.png"))

    page.get_by_role("button", name="Publish", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("Published: airport KBL")
    screenshot(page, "editor-close-airport-published")

    assert_closed_everywhere(running, "after-console")


def readme_command() -> list[str]:
    """The README's own `publish airport KBL --state closed …` command, as its arguments."""
    readme = (ROOT / "README.md").read_text("utf-8")
    start = readme.index(".venv/actions/bin/python -m actions.content publish airport KBL")
    lines = []
    for line in readme[start:].splitlines():
        lines.append(line.rstrip("\\").strip())
        if not line.endswith("\\"):
            break
    words = shlex.split(" ".join(lines))
    assert words[:3] == [".venv/actions/bin/python", "-m", "actions.content"], words
    return words[3:]


def test_the_readmes_command_closes_the_airport_consistently_or_is_refused(
    running: Running,
) -> None:
    # Open again, with a gate open, as before the blast.
    running.cli(
        "actions.content", "publish", "airport", "KBL", "--state", "restricted",
        *(f"--advice-{lang}=Only if your embassy called you ({lang})." for lang in ADVICE),
        "--editor", "amina", "--note", "reopened",
    )  # fmt: skip
    running.cli(
        "actions.content", "publish", "gate", "KBL", "east-gate", "--state", "open",
        "--note-en", "Only for people called by their embassy.",
        "--note-prs", "فقط برای کسانی که سفارت‌شان تماس گرفته.",
        "--note-ps", "یوازې د هغو کسانو لپاره چې سفارت ورته زنګ وهلی.",
        "--editor", "amina", "--note", "reopened",
    )  # fmt: skip

    written = readme_command()
    as_the_review_ran_it = [word for word in written if word != "--close-gates"]
    refused = subprocess.run(
        [sys.executable, "-m", "actions.content", *as_the_review_ran_it],
        env=running.env, cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert refused.returncode == 1
    assert refused.stderr == (
        "error: Closing Hamid Karzai International Airport would leave gates that still say "
        "open: East Gate. Close them too (--close-gates), or publish them closed first.\n"
    )
    assert "open with restrictions" in answer(running, "refused", AIRPORT_OPEN["en"])

    receipt = running.cli("actions.content", *written)
    assert "Closed with it: gate KBL/east-gate" in receipt, receipt
    assert_closed_everywhere(running, "after-readme")
