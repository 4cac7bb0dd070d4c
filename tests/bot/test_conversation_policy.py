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

from bot.nlu.langid import LanguageProfile, ProfileIdentifier
from bot.nlu.language_identifier import entity_names, labelled_examples
from bot.policies.conversation import (
    ConversationPolicy,
    answered_topic,
    with_turn_events,
)
from kernel.settings import conversation_memory

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


@pytest.fixture(scope="module")
def identifier() -> ProfileIdentifier:
    data = ROOT / "data" / "nlu"
    return ProfileIdentifier(LanguageProfile.train(labelled_examples(data), entity_names(data)))


def written(
    identifier: ProfileIdentifier,
    text: str,
    intent: str = "ask_flights",
    metadata: dict[str, Any] | None = None,
) -> UserUttered:
    """What Rasa stores of a message: the identifier's language as the pipeline sets it."""
    parse = {
        "text": text,
        "intent": {"name": intent, "confidence": 1.0},
        "entities": [],
        "language": identifier.identify(text).as_dict(),
    }
    return UserUttered(text, parse["intent"], [], parse, metadata=metadata or {})


def languages_over(
    policy: ConversationPolicy, domain: Domain, messages: list[UserUttered], *before: Any
) -> list[str]:
    """The conversation's language after each message, the turns' slot events applied."""
    tracker = conversation(domain, *before)
    said_in = []
    for message in messages:
        tracker.update(message)
        for event in policy.turn_events(tracker):
            tracker.update(event)
        said_in.append(tracker.get_slot("language"))
        tracker.update(ActionExecuted("action_listen"))
    return said_in


def test_a_dari_telegram_user_forwarding_an_english_rumour_is_answered_in_dari(
    policy: ConversationPolicy, domain: Domain, identifier: ProfileIdentifier
) -> None:
    """Then "8", the menu's "delete my data": its answer and the deletion's are Dari too."""
    app = {"language_hint": "prs"}
    rumour = (
        "URGENT: the Taliban announced that all flights to Doha are cancelled from tomorrow, "
        "share this with everyone"
    )
    messages = [
        written(identifier, "سلام", "greet", app),
        written(identifier, rumour, "check_claim", {**app, "forwarded": True}),
        written(identifier, "8", "delete_my_data", app),
    ]
    assert languages_over(policy, domain, messages) == ["prs", "prs", "prs"]


def test_a_pashto_user_waiting_for_a_case_who_sends_stop_stays_in_pashto(
    policy: ConversationPolicy, domain: Domain, identifier: ProfileIdentifier
) -> None:
    messages = [written(identifier, "STOP", "unsubscribe_alerts", {"language_hint": "ps"})]
    pashto = (SlotSet("language", "ps"), SlotSet("language_chosen", False))
    assert languages_over(policy, domain, messages, *pashto) == ["ps"]


@pytest.mark.parametrize("digits", ["۸", "۱"])
def test_persian_digits_as_a_first_message_are_answered_in_dari(
    policy: ConversationPolicy, domain: Domain, identifier: ProfileIdentifier, digits: str
) -> None:
    assert languages_over(policy, domain, [written(identifier, digits)]) == ["prs"]


def test_the_web_chat_page_never_goes_back_to_english_over_romanized_messages(
    policy: ConversationPolicy, domain: Domain, identifier: ProfileIdentifier
) -> None:
    """Five romanized messages from a page that was in English: it moved English → Dari →
    Pashto → Dari → English. A Pashto sentence may still move it from Dari; "sabah?" and
    romanized Dari around "flight" and "germany" move nothing."""
    texts = [
        "salam",
        "parwaz ba doha kai ast?",
        "darwaza abbey khlasa da?",
        "sabah?",
        "flight ba germany kay ast?",
    ]
    page = {"language_hint": "en"}
    messages = [written(identifier, text, metadata=page) for text in texts]
    assert languages_over(policy, domain, messages) == ["en", "prs", "ps", "ps", "ps"]


def test_a_sentence_of_english_still_switches_a_dari_conversation(
    policy: ConversationPolicy, domain: Domain, identifier: ProfileIdentifier
) -> None:
    dari = (SlotSet("language", "prs"), SlotSet("language_chosen", False))
    english = [written(identifier, "when is the next flight to Germany?")]
    assert languages_over(policy, domain, english, *dari) == ["en"]
