"""The action server finds our actions, and the domain has what they send, in three languages."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml
from rasa_sdk.executor import ActionExecutor

from bot.lang.letters import has_arabic_script, pashto_letter_count
from tests.actions.content_support import DOMAIN_DIR, load_domain_responses

#: Sent before an answer whose facts were checked longer ago than their freshness limit.
MAY_BE_OUTDATED = {"utter_content_may_be_outdated": {"checked_ago", "checked_at"}}
#: Sent instead of an answer when the database cannot be read (with EMERGENCY_HOTLINE: the second).
UNAVAILABLE: dict[str, set[str]] = {
    "utter_content_unavailable": set(),
    "utter_content_unavailable_hotline": {"hotline"},
}
#: Every response each action can send, with the variables it fills.
SENT: dict[str, dict[str, set[str]]] = {
    "action_answer_flights": {
        **MAY_BE_OUTDATED,
        "utter_flight_number_matches": {"digits", "numbers"},
        "utter_gates_only_now": {"day"},
        "utter_flights_list": {"flights"},
        "utter_flights_none": {"query", "destinations"},
        "utter_flights_outdated": {"query", "provenance"},
        "utter_flight_not_upcoming": {"flights", "destinations"},
        **UNAVAILABLE,
    },
    "action_answer_airport_status": {
        **MAY_BE_OUTDATED,
        "utter_airport_status": {"airport", "status", "gates", "advice", "provenance"},
        "utter_airport_status_outdated": {"airport", "provenance"},
        "utter_airport_status_unknown": {"airport"},
        "utter_nearby": {"places"},
        **UNAVAILABLE,
    },
    "action_answer_announcements": {
        **MAY_BE_OUTDATED,
        "utter_announcements": {"announcements"},
        "utter_announcements_none": set(),
        **UNAVAILABLE,
    },
    "action_answer_documents": {
        **MAY_BE_OUTDATED,
        "utter_documents": {"documents", "eligibility"},
        "utter_documents_none": set(),
        **UNAVAILABLE,
    },
    "action_answer_help": {
        **MAY_BE_OUTDATED,
        "utter_help": {"contacts"},
        "utter_help_none": set(),
        "utter_nearby": {"places"},
        **UNAVAILABLE,
    },
}
#: What the SMS variations (channel: sms_gateway, twilio_sms) of a response show instead.
DETAIL = {"utter_detail": {"detail", "checked"}}
SMS_SENT: dict[str, set[str]] = {
    "utter_content_may_be_outdated": set(),  # said inside the answer, in {checked}
    "utter_flights_list": {"brief", "checked", "later"},
    "utter_airport_status": {"city", "status", "gates_brief", "checked", "gates_elsewhere"},
    "utter_announcements": {"lead", "checked", "others"},
    "utter_announcement_on_topic": {"lead", "checked", "others"},
    "utter_documents": {"document_titles", "eligibility_titles", "checked"},
    "utter_help": {"contacts_brief", "checked"},
    "utter_nearby": {"places_brief", "checked"},
}
SMS_CHANNELS = ("sms_gateway", "twilio_sms")
for sent in SENT.values():
    sent.update(DETAIL)
SENT["action_answer_announcements"]["utter_announcement_on_topic"] = {"announcement", "others"}
OUR_FILES = ("flights.yml", "airport.yml", "announcements.yml", "guidance.yml", "content.yml")
RESPONSES = sorted({response for sent in SENT.values() for response in sent})


def test_the_action_server_registers_our_actions_from_the_chat_package() -> None:
    executor = ActionExecutor()
    executor.register_package("actions.chat")  # what the action server is started on
    assert set(SENT) <= set(executor.actions)


def test_our_domain_files_declare_the_actions_and_nothing_the_lead_owns() -> None:
    declared: set[str] = set()
    for name in OUR_FILES:
        domain = yaml.safe_load((DOMAIN_DIR / name).read_text("utf-8"))
        assert domain["version"] == "3.1"
        assert not {"intents", "entities", "slots", "forms"} & set(domain), name
        declared |= set(domain.get("actions") or [])
    assert declared == set(SENT)


THREE_LANGUAGES = [
    [{"type": "slot", "name": "language", "value": "prs"}],
    [{"type": "slot", "name": "language", "value": "ps"}],
    None,
]


@pytest.mark.parametrize("response", RESPONSES)
def test_each_response_has_dari_pashto_and_english(response: str) -> None:
    every: list[dict[str, Any]] = load_domain_responses()[response]
    for channel in SMS_CHANNELS:
        sms = [v.get("condition") for v in every if v.get("channel") == channel]
        assert sms in ([], [*THREE_LANGUAGES]), (response, channel)
    variations = [v for v in every if not v.get("channel")]
    conditions = [v.get("condition") for v in variations]
    assert conditions == THREE_LANGUAGES
    dari, pashto, english = (v["text"] for v in variations)
    if not re.sub(r"{[^{}]*}|\W", "", pashto):
        return  # only the action's data blocks: nothing of the domain's own to check
    assert pashto_letter_count(pashto), "Pashto needs Pashto letters"
    assert not pashto_letter_count(dari), "Pashto letters in Dari"
    assert not has_arabic_script(english)


@pytest.mark.parametrize("response", RESPONSES)
def test_templates_use_only_the_variables_the_actions_send(response: str) -> None:
    variables = [sent[response] for sent in SENT.values() if response in sent]
    for variation in load_domain_responses()[response]:
        used = set(re.findall(r"{([^\n{}]+?)}", variation["text"]))
        if variation.get("channel") in SMS_CHANNELS:
            assert used == SMS_SENT[response], (response, variation.get("channel"))
            continue
        for provided in variables:
            assert used == provided, (response, variation.get("condition"))
