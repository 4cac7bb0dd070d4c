"""A caseworker's phone is lost at a checkpoint: the operator takes her access back at once.

She signs in on her phone (Dari interface) and sees the cases. The phone is lost; the operator
lists who is signed in (README: ``python -m actions.admin sessions``) and signs her out
(``signout NAME``). Whoever holds the lost phone gets the sign-in page on the next tap, and
her old link opens nothing; with a new invitation she is back on a new phone.
"""

from __future__ import annotations

import re
from urllib.parse import urlparse

from playwright.sync_api import expect

from tests.journeys.conftest import Phone, Running, screenshot


def invitation(running: Running) -> str:
    """The link ``invite`` prints, on this stack's console (the command beside it does not
    know the stack's free port, as an operator's ``CONSOLE_PUBLIC_URL`` would)."""
    link = urlparse(running.invite("zarmina", "caseworker"))
    return f"{running.stack.admin_url}{link.path}?{link.query}"


def test_a_lost_phone_is_signed_out_and_a_new_one_signed_in(running: Running, phone: Phone) -> None:
    first_link = invitation(running)
    lost = phone(locale="fa-AF")
    lost.goto(f"{first_link}&lang=prs")
    lost.get_by_role("button", name="ورود").click()
    expect(lost.get_by_role("heading", name=re.compile("قضیه‌های باز"))).to_be_visible()

    listing = running.cli("actions.admin", "sessions")
    opened = r"^\s+zarmina\s+caseworker\s+opened .* with a code\s+organisation kabul-aid-network$"
    assert re.search(opened, listing, re.M), listing
    assert first_link.rsplit("=", 1)[1] not in listing
    said = running.cli("actions.admin", "signout", "zarmina")
    assert said.startswith("Signed out zarmina: 1 console session(s) ended"), said

    lost.reload()  # the next tap on the lost phone
    expect(lost.get_by_role("heading", name="ورود")).to_be_visible()
    assert urlparse(lost.url).path == "/console/signin"
    expect(lost.get_by_text("قضیه‌های باز")).to_have_count(0)
    lost.goto(first_link)  # the old link, from the phone's messages
    lost.get_by_role("button", name="ورود").click()
    expect(lost.get_by_text("این کد یا توکن کار نمی‌کند")).to_be_visible()
    screenshot(lost, "lost-phone-signed-out")

    new = phone()
    new.goto(invitation(running))
    new.get_by_role("button", name="Sign in").click()
    expect(new.get_by_role("heading", name=re.compile("Open cases"))).to_be_visible()
    lost.goto(f"{running.stack.admin_url}/console/cases")
    expect(lost.get_by_role("heading", name="ورود")).to_be_visible()  # still signed out
