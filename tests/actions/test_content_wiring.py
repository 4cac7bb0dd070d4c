"""The action server finds our actions, and the domain has what they send, in three languages,
with the variables they fill. What an action sends is read from the action itself
(``ContentAction.RESPONSES``): an action or a response added without it fails here, by name."""

from __future__ import annotations

import inspect
import re
from types import ModuleType
from typing import Any

import pytest
import yaml
from rasa_sdk.executor import ActionExecutor

from actions.content.answering import ContentAction, Shows
from kernel.contract import SMS
from kernel.lang.letters import has_arabic_script, pashto_letter_count
from tests.actions.content_support import DOMAIN_DIR, load_domain_responses


def registered() -> dict[str, ContentAction]:
    """The content actions the action server registers (it is started on ``actions.chat``)."""
    executor = ActionExecutor()
    executor.register_package("actions.chat")
    found = {name: getattr(run, "__self__", None) for name, run in executor.actions.items()}
    return {name: action for name, action in found.items() if isinstance(action, ContentAction)}


ACTIONS = registered()
#: Every response each action can send, with the variables it shows.
SENT: dict[str, dict[str, Shows]] = {
    name: type(action).responses() for name, action in ACTIONS.items()
}
OUR_FILES = ("flights.yml", "airport.yml", "announcements.yml", "guidance.yml", "content.yml")
RESPONSES = sorted({response for sent in SENT.values() for response in sent})
#: The conversation's own responses (the menu names each language in its letters, in English
#: too); tests/bot/test_domain.py checks those.
CONVERSATION = yaml.safe_load((DOMAIN_DIR / "conversation.yml").read_text("utf-8"))["responses"]
OURS = sorted(set(RESPONSES) - set(CONVERSATION))
#: A response named in an action's module: ``"utter_…"``.
NAMED = re.compile(r"[\"'](utter_\w+)[\"']")


def content_modules() -> dict[ModuleType, list[type[ContentAction]]]:
    """The modules of the registered actions and of their bases, each with the content action
    classes it defines."""
    classes = {
        base
        for action in ACTIONS.values()
        for base in type(action).__mro__
        if issubclass(base, ContentAction) and base.__module__.startswith("actions.chat")
    }
    modules: dict[ModuleType, list[type[ContentAction]]] = {}
    for cls in classes:
        modules.setdefault(inspect.getmodule(cls), []).append(cls)  # type: ignore[arg-type]
    return modules


def test_the_action_server_registers_our_content_actions() -> None:
    assert {"action_answer_flights", "action_answer_help", "action_check_claim"} <= set(ACTIONS)


@pytest.mark.parametrize(
    "module", sorted(content_modules(), key=lambda m: m.__name__), ids=lambda m: m.__name__
)
def test_each_content_action_declares_every_response_its_module_names(module: ModuleType) -> None:
    classes = content_modules()[module]
    for cls in classes:
        assert "RESPONSES" in vars(cls), f"{cls.__name__} declares no RESPONSES"
    declared = {response for cls in classes for response in cls.responses()}
    named = set(NAMED.findall(inspect.getsource(module)))
    missing = sorted(named - declared)
    assert not missing, f"{module.__name__} sends {missing}: add them to its RESPONSES"


def test_our_domain_files_declare_the_actions_and_nothing_the_lead_owns() -> None:
    declared: set[str] = set()
    for name in OUR_FILES:
        domain = yaml.safe_load((DOMAIN_DIR / name).read_text("utf-8"))
        assert domain["version"] == "3.1"
        assert not {"intents", "entities", "slots", "forms"} & set(domain), name
        declared |= set(domain.get("actions") or [])
    assert declared <= set(ACTIONS), sorted(declared - set(ACTIONS))
    everywhere: set[str] = set()
    for path in DOMAIN_DIR.glob("*.yml"):
        everywhere |= set(yaml.safe_load(path.read_text("utf-8")).get("actions") or [])
    assert not set(ACTIONS) - everywhere, f"not in the domain: {sorted(set(ACTIONS) - everywhere)}"


THREE_LANGUAGES = [
    [{"type": "slot", "name": "language", "value": "prs"}],
    [{"type": "slot", "name": "language", "value": "ps"}],
    None,
]


@pytest.mark.parametrize("response", OURS)
def test_each_response_has_dari_pashto_and_english(response: str) -> None:
    every: list[dict[str, Any]] = load_domain_responses()[response]
    sms = [v.get("condition") for v in every if v.get("channel") == SMS]
    assert sms in ([], [*THREE_LANGUAGES]), response
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
    declared = {name: sent[response] for name, sent in SENT.items() if response in sent}
    [shown] = set(declared.values()) or [Shows()]
    assert all(each == shown for each in declared.values()), f"{response}: {declared}"
    for variation in load_domain_responses()[response]:
        used = set(re.findall(r"{([^\n{}]+?)}", variation["text"]))
        channel = variation.get("channel")
        if channel == SMS:
            assert shown.sms is not None, f"{response} has SMS variations: declare what they show"
            assert used == shown.sms, (response, channel)
        else:
            assert used == shown.chat, (response, variation.get("condition"))
