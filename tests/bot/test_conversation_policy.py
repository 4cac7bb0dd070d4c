"""The conversation policy: the slots a turn changes, set in Rasa before the rules run."""

from pathlib import Path
from typing import Any

import pytest
from rasa.core.policies.policy import PolicyPrediction
from rasa.engine.graph import ExecutionContext, GraphSchema
from rasa.engine.storage.local_model_storage import LocalModelStorage
from rasa.engine.storage.resource import Resource
from rasa.shared.core.domain import Domain
from rasa.shared.core.events import ActionExecuted, SlotSet, UserUttered
from rasa.shared.core.trackers import DialogueStateTracker

from bot.policies.conversation import (
    ConversationPolicy,
    answered_topic,
    with_turn_events,
)
from bot.settings import conversation_memory

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def domain() -> Domain:
    return Domain.load(str(ROOT / "bot" / "domain"))


@pytest.fixture
def policy(tmp_path: Path) -> ConversationPolicy:
    return ConversationPolicy.create(
        ConversationPolicy.get_default_config(),
        LocalModelStorage(tmp_path),
        Resource("policy"),
        ExecutionContext(GraphSchema({}), "test"),
    )


def said(
    intent: str,
    entities: list[dict[str, Any]] = (),  # type: ignore[assignment]
    language: str | None = None,
    at: float = 1000.0,
    metadata: dict[str, Any] | None = None,
) -> UserUttered:
    parse: dict[str, Any] = {"intent": {"name": intent, "confidence": 1.0}, "entities": entities}
    if language:
        parse["language"] = {"code": language, "script": "Arab", "confidence": 0.95}
    return UserUttered("…", parse["intent"], entities, parse, timestamp=at, metadata=metadata or {})


def conversation(domain: Domain, *events: Any) -> DialogueStateTracker:
    return DialogueStateTracker.from_events(
        "someone", [ActionExecuted("action_listen"), *events], domain.slots
    )


def changes(policy: ConversationPolicy, tracker: DialogueStateTracker) -> dict[str, Any]:
    return {event.key: event.value for event in policy.turn_events(tracker)}


def test_a_first_message_sets_its_language_and_topic(
    policy: ConversationPolicy, domain: Domain
) -> None:
    tracker = conversation(domain, said("ask_flights", language="ps"))
    assert changes(policy, tracker) == {
        "language": "ps",
        "language_chosen": False,
        "topic": "flights",
    }


def test_the_events_are_emitted_once(policy: ConversationPolicy, domain: Domain) -> None:
    tracker = conversation(domain, said("ask_flights", language="ps"))
    applied = with_turn_events(tracker, policy.turn_events(tracker), domain)
    assert policy.turn_events(applied) == []


def test_a_channel_hint_decides_only_without_evidence(
    policy: ConversationPolicy, domain: Domain
) -> None:
    tracker = conversation(domain, said("greet", metadata={"language_hint": "prs"}))
    assert changes(policy, tracker)["language"] == "prs"


def test_a_follow_up_answers_what_was_answered_last(
    policy: ConversationPolicy, domain: Domain
) -> None:
    tracker = conversation(
        domain,
        said("ask_announcements", at=1000.0),
        ActionExecuted("action_answer_announcements"),
        ActionExecuted("action_listen"),
        said("follow_up", at=1060.0),
    )
    assert answered_topic(tracker) == "announcements"
    assert changes(policy, tracker).get("topic") == "announcements"


def test_after_the_memory_lasts_a_follow_up_has_nothing_to_follow(
    policy: ConversationPolicy, domain: Domain
) -> None:
    tracker = conversation(
        domain,
        said("ask_flights", [{"entity": "destination", "value": "Doha"}], at=1000.0),
        SlotSet("destination", "Doha"),
        SlotSet("topic", "flights"),
        ActionExecuted("action_answer_flights"),
        ActionExecuted("action_listen"),
        said("follow_up", at=1000.0 + 31 * 60),
    )
    forgotten = changes(policy, tracker)
    assert (forgotten["topic"], forgotten["destination"]) == (None, None)


def test_alert_triggers_are_not_the_persons_messages(
    policy: ConversationPolicy, domain: Domain
) -> None:
    tracker = conversation(
        domain,
        said("ask_flights", at=1000.0),
        ActionExecuted("action_answer_flights"),
        ActionExecuted("action_listen"),
        said("EXTERNAL_alert", at=1500.0),
        ActionExecuted("action_send_alert"),
        ActionExecuted("action_listen"),
        said("follow_up", at=1000.0 + 20 * 60),
    )
    assert changes(policy, tracker).get("topic") == "flights"  # 20 minutes, not 8


def listen(domain: Domain) -> PolicyPrediction:
    probabilities = [0.0] * domain.num_actions
    probabilities[domain.index_for_action("action_listen")] = 1.0
    return PolicyPrediction(probabilities, "RulePolicy")


def test_the_safety_offer_ends_a_new_users_first_turn_once(domain: Domain) -> None:
    first = conversation(domain, said("ask_flights"), ActionExecuted("action_answer_flights"))
    assert ConversationPolicy._offer_due(first, listen(domain), domain)
    offered = conversation(
        domain,
        said("ask_flights"),
        ActionExecuted("action_answer_flights"),
        ActionExecuted("utter_safety_offer"),
    )
    assert not ConversationPolicy._offer_due(offered, listen(domain), domain)
    second = conversation(
        domain,
        said("ask_flights"),
        ActionExecuted("action_answer_flights"),
        ActionExecuted("action_listen"),
        said("ask_flights"),
        ActionExecuted("action_answer_flights"),
    )
    assert not ConversationPolicy._offer_due(second, listen(domain), domain)


def test_an_alert_trigger_is_not_a_first_message(domain: Domain) -> None:
    alert = conversation(domain, said("EXTERNAL_alert"), ActionExecuted("action_send_alert"))
    assert not ConversationPolicy._offer_due(alert, listen(domain), domain)


def test_the_memory_setting() -> None:
    assert conversation_memory({}).total_seconds() == 30 * 60
    assert conversation_memory({"CONVERSATION_MEMORY_MINUTES": "45"}).total_seconds() == 45 * 60
    # A test stack watches the memory lapse in seconds instead of a minute.
    assert conversation_memory({"CONVERSATION_MEMORY_MINUTES": "0.2"}).total_seconds() == 12
    for wrong in ("0", "half an hour", "-5", "nan"):
        with pytest.raises(ValueError, match="CONVERSATION_MEMORY_MINUTES"):
            conversation_memory({"CONVERSATION_MEMORY_MINUTES": wrong})
