"""Where a message goes while a case is open: into the case, to the assistant, or withdrawing
it (bot/policies/cases.py); the one-line "received" of a paused conversation (bot/paused.py)
and that it does not count as an answer (bot/case_inbox.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rasa.shared.core.constants import ACTION_LISTEN_NAME
from rasa.shared.core.domain import Domain
from rasa.shared.core.events import (
    ActionExecuted,
    BotUttered,
    ConversationPaused,
    Event,
    SlotSet,
    UserUttered,
)
from rasa.shared.core.trackers import DialogueStateTracker

from bot.case_inbox import message_for_the_case
from bot.nlu.stop_keywords import is_opt_out, is_withdrawal
from bot.paused import RECEIPT_SECONDS, receipt_due
from bot.policies.cases import ADD_TO_CASE, WITHDRAW, case_action

ROOT = Path(__file__).resolve().parents[2]
DOMAIN = Domain.load(str(ROOT / "bot" / "domain"))
T0 = 1_000_000.0


def said(text: str, intent: str, at: float = T0) -> UserUttered:
    parse = {"intent": {"name": intent, "confidence": 1.0}, "entities": [], "text": text}
    return UserUttered(text, parse["intent"], [], parse, timestamp=at)


def listen(at: float = T0) -> ActionExecuted:
    return ActionExecuted(ACTION_LISTEN_NAME, timestamp=at)


def conversation(*events: Event) -> DialogueStateTracker:
    return DialogueStateTracker.from_events("c", list(events), DOMAIN.slots)


REQUESTED = (
    listen(),
    said("I need to talk to a real person", "ask_human"),
    ActionExecuted("action_request_caseworker"),
)
WAITING = (*REQUESTED, SlotSet("case_waiting", True), listen())


@pytest.mark.parametrize(
    ("text", "intent"),
    [("is abbey gate open? my son is lost there", "ask_airport_status"),
     ("پسر ۸ ساله‌ام پیش دروازه ابی گم شد", "ask_airport_status"),
     ("we are at the baron hotel", "ask_flights")],
)  # fmt: skip
def test_the_first_message_after_the_request_goes_to_the_case_whatever_it_looks_like(
    text: str, intent: str
) -> None:
    assert case_action(conversation(*WAITING, said(text, intent))) == ADD_TO_CASE


def test_later_questions_are_answered_and_the_rest_goes_to_the_case() -> None:
    after_first = (*WAITING, said("my visa", "nlu_fallback"), ActionExecuted(ADD_TO_CASE), listen())
    flights = conversation(*after_first, said("when is the next flight", "ask_flights"))
    assert case_action(flights) is None  # the rules answer it
    for text, intent in [("blah blah", "nlu_fallback"), ("who can help", "ask_help"),
                         ("the next flight, my child is bleeding", "ask_flights")]:  # fmt: skip
        assert case_action(conversation(*after_first, said(text, intent))) == ADD_TO_CASE
    # Commands are commands: STOP, "delete my data", the menu.
    for intent in ("unsubscribe_alerts", "delete_my_data", "show_menu", "ask_safety"):
        assert case_action(conversation(*after_first, said("x", intent))) is None
    # After the action, the turn ends.
    assert case_action(conversation(*after_first[:-1])) == ACTION_LISTEN_NAME


@pytest.mark.parametrize("text", ["cancel", "لغو", "لغوه یې کړه", "بس کن", "Laghwa ye kra!"])
def test_cancel_withdraws_an_open_case_paused_or_waiting(text: str) -> None:
    paused = conversation(*REQUESTED, ConversationPaused(), listen(), said(text, "x"))
    assert case_action(paused) == WITHDRAW
    assert case_action(conversation(*WAITING, said(text, "unsubscribe_alerts"))) == WITHDRAW
    # Without a case "cancel" is left to the rules (an opt-out, as carriers expect).
    assert case_action(conversation(listen(), said(text, "unsubscribe_alerts"))) is None


def test_stop_stays_stop_and_the_cancel_words_are_whole_messages() -> None:
    assert is_opt_out("STOP") and not is_withdrawal("STOP") and not is_withdrawal("بس")
    assert is_opt_out("cancel") and is_withdrawal("cancel")  # the carriers' word, both
    assert is_withdrawal("لغوه یې کړه") and not is_opt_out("لغوه یې کړه")
    assert not is_withdrawal("please cancel my flight booking")


def paused_with(*events: Event) -> DialogueStateTracker:
    return conversation(*REQUESTED, ConversationPaused(), listen(), *events)


def receipt(at: float) -> BotUttered:
    return BotUttered("Received", metadata={"utter_action": "utter_case_received"}, timestamp=at)


def test_one_received_per_burst_and_another_after_a_pause() -> None:
    first = paused_with(said("my passport is gone", "nlu_fallback", at=T0 + 1))
    assert receipt_due(first, now=T0 + 1)
    burst = paused_with(
        said("my passport is gone", "nlu_fallback", at=T0 + 1),
        ActionExecuted("utter_case_received", timestamp=T0 + 1),
        receipt(T0 + 1),
        listen(T0 + 1),
        said("and my tazkira", "nlu_fallback", at=T0 + 5),
    )
    assert not receipt_due(burst, now=T0 + 5)
    assert receipt_due(burst, now=T0 + 30)  # written after a pause: its own "received"
    assert receipt_due(burst, now=T0 + 1 + RECEIPT_SECONDS + 1)


def test_a_received_line_does_not_make_the_message_answered() -> None:
    acknowledged = paused_with(
        said("my passport is gone", "nlu_fallback"),
        ActionExecuted("utter_case_received"),
        receipt(T0),
        listen(),
    )
    assert message_for_the_case(acknowledged) == "my passport is gone"
    answered = paused_with(
        said("STOP", "unsubscribe_alerts"),
        ActionExecuted("action_unsubscribe_alerts"),
        BotUttered("All your alerts are stopped", metadata={"utter_action": "x"}),
        listen(),
    )
    assert message_for_the_case(answered) is None
