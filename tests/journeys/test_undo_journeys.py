"""An editor closes the airport with its gates from her phone, sees it was a mistake and undoes
it from the airport's history: the gates are open again in the same tap, the page names them,
and the next answers in Dari, Pashto and English list no gate "closed — The airport is closed."
under an airport that is open."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from playwright.sync_api import Page, expect

from tests.journeys.conftest import Phone, Running, screenshot
from tests.journeys.test_editor_journeys import ADVICE, AIRPORT_OPEN, answer
from tests.screenshots import for_docs

#: A gate closed with the airport, as a person reads it.
CLOSED_WITH_AIRPORT = {
    "en": "closed — The airport is closed.",
    "prs": "بسته — میدان هوایی بسته است.",
    "ps": "بنده — هوايي ډګر بند دی.",
}
#: East Gate's line in each language's answer.
EAST_OPEN = {"en": "East Gate: open", "prs": "دروازهٔ شرقی", "ps": "ختیځه دروازه"}
OPEN = {"en": ": open", "prs": ": باز", "ps": ": خلاصه"}
PUT_BACK = "Gates put back with it: East Gate, North Gate, Baron Hotel side"


def sign_in(running: Running, page: Page) -> str:
    link = running.invite("amina")
    code = parse_qs(urlparse(link).query)["code"][0]
    console = running.stack.admin_url
    page.goto(f"{console}/console/signin?code={code}&lang=en")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    return console


def close_airport_with_its_gates(page: Page, console: str) -> None:
    page.goto(f"{console}/console/edit/airport/KBL")
    page.get_by_label("State", exact=True).select_option("closed")
    for language, text in ADVICE.items():
        page.locator(f'[name="advice.{language}"]').fill(text)
    page.locator("label", has_text="Close the gates too:").locator(
        'input[name="close_gates"]'
    ).check()
    page.locator("#note").fill("gates shut after blast")
    page.get_by_role("button", name="Preview").click()
    page.get_by_role("button", name="Publish", exact=True).click()
    expect(page.get_by_role("status").first).to_contain_text("Published: airport KBL")


def gate_lines(running: Running, sender: str, language: str) -> list[str]:
    said = answer(running, sender, AIRPORT_OPEN[language])
    gates = [line for line in said.splitlines() if line.lstrip().startswith("•")]
    assert gates, said
    return gates


def test_an_editor_undoes_a_closure_and_its_gates_open_again_in_one_tap(
    running: Running, phone: Phone
) -> None:
    page = phone()
    console = sign_in(running, page)
    close_airport_with_its_gates(page, console)
    closed = gate_lines(running, "before-undo", "en")
    assert any(CLOSED_WITH_AIRPORT["en"] in line for line in closed), closed

    page.goto(f"{console}/console/history/airport/KBL")
    newest = page.locator("li.card").first
    expect(newest).to_contain_text("gates shut after blast")
    newest.get_by_role("button", name="Undo this change").click()

    expect(page.get_by_role("status").filter(has_text="Undone: airport KBL.")).to_be_visible()
    put_back = page.get_by_role("status").filter(has_text=PUT_BACK)
    expect(put_back).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(page, "editor-undo-closure-history")
    page.screenshot(path=str(for_docs("console-undo-closure.png")))  # its first screen

    for language in ("prs", "ps", "en"):
        gates = gate_lines(running, f"after-undo-{language}", language)
        assert gates, gates
        assert not any(CLOSED_WITH_AIRPORT[language] in line for line in gates), gates
        east = [line for line in gates if EAST_OPEN[language] in line]
        assert east and OPEN[language] in east[0], gates

    page.goto(f"{console}/console/")
    expect(page.get_by_role("heading", level=1)).to_have_text("What needs me now")
    expect(page.get_by_text("Gates that say the airport is closed")).to_have_count(0)
    screenshot(page, "editor-undo-closure-home")
