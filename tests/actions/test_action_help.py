"""action_answer_help: checked contacts only, each with its own check, and never a blank answer."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, delete, update

from actions.chat.help import ActionAnswerHelp
from actions.content import db
from actions.content.models import GuidanceKind, GuidanceTopic
from tests.actions.content_support import (
    LANGUAGES,
    NOW,
    clock,
    only_message,
    outside_isolates,
    render,
    run,
    tracker,
)

FSI, PDI = "\u2068", "\u2069"


async def ask(language: object, offset: timedelta = timedelta()) -> dict[str, Any]:
    action = ActionAnswerHelp(clock=clock(offset))
    messages, events = await run(action, tracker("ask_help", language))
    assert events == []
    return only_message(messages)


def blocks(message: dict[str, Any]) -> list[list[str]]:
    return [block.split("\n") for block in message["contacts"].split("\n\n")]


def iso(text: str) -> str:
    return f"{FSI}{text}{PDI}"


EXPECTED = {
    "en": {
        "headings": [
            "• UNHCR, the UN Refugee Agency — Protection information line",
            "• IOM, the UN Migration Agency — Help for displaced families",
            "• International Committee of the Red Cross (ICRC)"
            " — Lost family members and the wounded",
            "• US Embassy Kabul — US evacuation line",
            "• Kabul Aid Network (example NGO) — Advice line in Dari and Pashto",
            "• Kabul Aid Network (example NGO) — Emergency protection line",
            "• EMERGENCY Surgical Centre for War Victims — Surgical hospital for the wounded",
            "• Afghan Red Crescent Society (ARCS) — First-aid point on the airport road",
        ],
        "unhcr": [
            "• UNHCR, the UN Refugee Agency — Protection information line",
            "Phone: +93 700 000 101 · WhatsApp: +93 700 000 102 · Email: unhcr@example.org",
            "Hours: Saturday to Thursday, 08:00–16:00 Kabul time",
            "Information on protection and on seeking asylum in neighbouring countries. "
            "UNHCR cannot put anyone on an evacuation flight.",
            "verified 2 h ago · source: UNHCR, the UN Refugee Agency",
        ],
        "ngo_reach": "WhatsApp: +93 700 000 141 · Email: help@example.org",
    },
    "prs": {
        "headings": [
            f"• کمیشنری عالی ملل متحد در امور پناهندگان ({iso('UNHCR')}) — خط معلومات حفاظتی",
            f"• سازمان بین‌المللی مهاجرت ({iso('IOM')}) — کمک برای فامیل‌های بیجاشده",
            f"• کمیتهٔ بین‌المللی صلیب سرخ ({iso('ICRC')}) — اعضای گم‌شدهٔ فامیل و زخمی‌ها",
            "• سفارت امریکا در کابل — خط تخلیهٔ امریکا",
            "• شبکهٔ کمک‌رسانی کابل (مؤسسهٔ نمونه) — خط مشوره به دری و پشتو",
            "• شبکهٔ کمک‌رسانی کابل (مؤسسهٔ نمونه) — خط عاجل حفاظت",
            f"• شفاخانهٔ جراحی {iso('EMERGENCY')} برای قربانیان جنگ — شفاخانهٔ جراحی برای زخمی‌ها",
            f"• جمعیت هلال احمر افغانی ({iso('ARCS')}) — نقطهٔ کمک‌های اولیه در سرک میدان هوایی",
        ],
        "unhcr": [
            f"• کمیشنری عالی ملل متحد در امور پناهندگان ({iso('UNHCR')}) — خط معلومات حفاظتی",
            f"تیلفون: {iso('+93 700 000 101')} · واتساپ: {iso('+93 700 000 102')}"
            f" · ایمیل: {iso('unhcr@example.org')}",
            "ساعات کاری: شنبه تا پنجشنبه، ساعت ۸ صبح تا ۴ عصر به وقت کابل",
            "معلومات در مورد حفاظت و درخواست پناهندگی در کشورهای همسایه. "
            f"{iso('UNHCR')} هیچ کسی را در پروازهای تخلیه جای داده نمی‌تواند.",
            "۲ ساعت پیش تایید شده · منبع: "
            f"کمیشنری عالی ملل متحد در امور پناهندگان ({iso('UNHCR')})",
        ],
        "ngo_reach": f"واتساپ: {iso('+93 700 000 141')} · ایمیل: {iso('help@example.org')}",
    },
    "ps": {
        "headings": [
            f"• د کډوالو لپاره د ملګرو ملتونو عالي کمېشنري ({iso('UNHCR')})"
            " — د ساتنې د معلوماتو کرښه",
            f"• د کډوالۍ نړیوال سازمان ({iso('IOM')}) — د بې ځایه شویو کورنیو لپاره مرسته",
            f"• د سره صلیب نړیواله کمېټه ({iso('ICRC')}) — ورک شوي خپلوان او ټپیان",
            "• په کابل کې د امریکا سفارت — د امریکا د وېستلو کرښه",
            "• د کابل د مرستې شبکه (بېلګه موسسه) — په دري او پښتو د مشورې کرښه",
            "• د کابل د مرستې شبکه (بېلګه موسسه) — د ساتنې بیړنۍ کرښه",
            f"• د جګړې د قربانیانو لپاره د {iso('EMERGENCY')} جراحي مرکز — د ټپیانو د جراحۍ روغتون",
            f"• د افغاني سرې میاشتې ټولنه ({iso('ARCS')}) — د هوايي ډګر پر سړک د لومړنیو مرستو ځای",
        ],
        "unhcr": [
            f"• د کډوالو لپاره د ملګرو ملتونو عالي کمېشنري ({iso('UNHCR')})"
            " — د ساتنې د معلوماتو کرښه",
            f"ټیلیفون: {iso('+93 700 000 101')} · واټساپ: {iso('+93 700 000 102')}"
            f" · ایمیل: {iso('unhcr@example.org')}",
            "د کار وخت: له شنبې تر پنجشنبې، د سهار له ۸ بجو د مازدیګر تر ۴ بجو (د کابل وخت)",
            "د ساتنې او په ګاونډیو هېوادونو کې د پناه غوښتلو په اړه معلومات. "
            f"{iso('UNHCR')} هېڅوک د وېستلو په الوتنو کې نه شي ځایولای.",
            "۲ ساعته مخکې تایید شوي · سرچینه: "
            f"د کډوالو لپاره د ملګرو ملتونو عالي کمېشنري ({iso('UNHCR')})",
        ],
        "ngo_reach": f"واټساپ: {iso('+93 700 000 141')} · ایمیل: {iso('help@example.org')}",
    },
}
VERIFIED = {"en": "verified ", "prs": " تایید شده · منبع: ", "ps": " تایید شوي · سرچینه: "}


@pytest.mark.parametrize("language", LANGUAGES)
async def test_current_contacts_in_the_editors_order(content_db: Engine, language: str) -> None:
    message = await ask(language)
    expected = EXPECTED[language]
    assert message["response"] == "utter_help"
    found = blocks(message)
    assert [block[0] for block in found] == expected["headings"]  # not the lapsed German line
    assert found[0] == expected["unhcr"]
    assert found[4][1] == expected["ngo_reach"]  # only the ways it can be reached
    assert all(VERIFIED[language] in block[-1] for block in found), "each has its own check"
    assert message["contacts"] in render(message, language)


@pytest.mark.parametrize("language", LANGUAGES)
async def test_numbers_stay_dialable(content_db: Engine, language: str) -> None:
    contacts = (await ask(language))["contacts"]
    numbers = re.findall(r"\+93 700 000 1\d\d", contacts)
    assert numbers == [
        f"+93 700 000 1{n}"
        for n in ("01", "02", "11", "12", "21", "31", "32", "41", "42", "61", "71")
    ]
    if language != "en":  # whole, so right-to-left text does not reorder the digit groups
        assert all(iso(number) in contacts for number in numbers)


@pytest.mark.parametrize("language", ["prs", "ps"])
async def test_right_to_left_answer_has_no_bare_latin_or_ascii_digits(
    content_db: Engine, language: str
) -> None:
    shown = render(await ask(language), language)
    assert not any(c.isascii() and c.isalnum() for c in outside_isolates(shown))
    assert "@" not in outside_isolates(shown)


async def test_a_lapsed_contact_is_not_given_out(content_db: Engine) -> None:
    message = await ask("en", offset=timedelta(hours=6, minutes=1))  # US line valid for 6 h
    headings = [block[0] for block in blocks(message)]
    assert headings == [h for h in EXPECTED["en"]["headings"] if "US Embassy" not in h]
    assert "000 131" not in message["contacts"]


def remove_contacts(how: str) -> None:
    with db.session_scope() as session:
        contacts = GuidanceTopic.kind == GuidanceKind.CONTACTS
        if how == "missing":
            session.execute(delete(GuidanceTopic).where(contacts))
        else:
            lapsed = NOW - timedelta(minutes=1)
            session.execute(update(GuidanceTopic).where(contacts).values(valid_until=lapsed))


WHAT_TO_DO = {
    "en": (
        "I have no checked help numbers right now",
        "If you are in danger right now, first go somewhere safe",
    ),
    "prs": (
        "فعلاً هیچ نمبر تایید شدهٔ کمک ندارم",
        "اگر همین حالا در خطر هستید، اول به یک جای امن بروید",
    ),
    "ps": (
        "اوس مهال د مرستې هېڅ تایید شوې شمېره نه لرم",
        "که همدا اوس په خطر کې یاست، لومړی یو خوندي ځای ته ولاړ شئ",
    ),
}


@pytest.mark.parametrize("how", ["missing", "expired"])
@pytest.mark.parametrize("language", LANGUAGES)
async def test_without_current_contacts_the_answer_still_helps(
    content_db: Engine, how: str, language: str
) -> None:
    remove_contacts(how)
    message = await ask(language)
    assert message == {**message, "response": "utter_help_none"}
    assert "contacts" not in message
    shown = render(message, language)
    first, danger = WHAT_TO_DO[language]
    assert shown.startswith(first) and danger in shown
    assert not re.search(r"\d{3}", shown), "never a number nobody has checked"
