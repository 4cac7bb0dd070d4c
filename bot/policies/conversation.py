"""Rasa's RulePolicy, plus what a conversation carries from turn to turn.

Before the rules see a turn, this policy sets the slots that the turn changes: the
conversation's language (kernel/lang/choice.py) and its topic and details (memory.py). It does so
with the events of its prediction, which Rasa applies before the predicted action runs, so the
answer of the same turn already uses them — inside the Rasa process: no turn pays an
action-server call for them (docs/CONVERSATIONS.md has the measurements). The rules
(data/rules/) then route on the updated slots, e.g. a follow-up on the ``topic`` slot.

A message that speaks of danger is answered first by ``action_answer_danger``
(bot/policies/danger.py), in every state of the conversation.

It also ends a new user's first turn with ``utter_safety_offer``, in the language just chosen.
The computation is idempotent: each prediction of a turn recomputes it and emits only the slot
changes not yet applied, so ``rasa test`` (which replays stories without policy events) and a
live conversation see the same routing.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any, Dict, List

from rasa.core.policies.policy import PolicyPrediction
from rasa.core.policies.rule_policy import RulePolicy
from rasa.engine.recipes.default_recipe import DefaultV1Recipe
from rasa.shared.core.constants import ACTION_LISTEN_NAME
from rasa.shared.core.domain import Domain
from rasa.shared.core.events import ActionExecuted, Event, SlotSet, UserUttered
from rasa.shared.core.trackers import DialogueStateTracker

from bot.policies.cases import case_action
from bot.policies.danger import danger_action, helped, without_help
from bot.policies.memory import ACTION_TOPIC, TOPIC, remembered
from kernel.contract import FORWARDED, LANGUAGE_HINT, is_external
from kernel.lang.choice import LanguageState, choose_language
from kernel.lang.codes import is_language
from kernel.settings import conversation_memory, language_follow_confidence

logger = logging.getLogger(__name__)

LANGUAGE_SLOT = "language"
CHOSEN_SLOT = "language_chosen"
SAFETY_OFFER = "utter_safety_offer"


def own_messages(tracker: DialogueStateTracker) -> List[UserUttered]:
    """What the person wrote, oldest first: alert triggers (``EXTERNAL_…``) are not theirs."""
    return [
        event
        for event in tracker.events
        if isinstance(event, UserUttered) and not is_external(event.intent_name)
    ]


def _latest_user_event(tracker: DialogueStateTracker) -> UserUttered | None:
    return next((e for e in reversed(tracker.events) if isinstance(e, UserUttered)), None)


def answered_topic(tracker: DialogueStateTracker) -> str | None:
    """The topic of the last answer given before the latest message (None if none was)."""
    seen_latest_message = False
    for event in reversed(tracker.events):
        if isinstance(event, UserUttered):
            seen_latest_message = True
        elif seen_latest_message and isinstance(event, ActionExecuted):
            topic = ACTION_TOPIC.get(event.action_name or "")
            if topic:
                return topic
    return None


def with_turn_events(
    tracker: DialogueStateTracker, events: List[Event], domain: Domain
) -> DialogueStateTracker:
    """A copy of ``tracker`` with ``events`` right after the latest message, where a live
    conversation has them (Rasa logs a prediction's events before its action), so that the
    rules see them in every state of this turn."""
    past = list(tracker.events)
    latest = max((i for i, e in enumerate(past) if isinstance(e, UserUttered)), default=-1)
    return DialogueStateTracker.from_events(
        tracker.sender_id,
        [*past[: latest + 1], *events, *past[latest + 1 :]],
        domain.slots,
        sender_source=tracker.sender_source,
    )


def _actions_this_turn(tracker: DialogueStateTracker) -> List[str]:
    names: List[str] = []
    for event in reversed(tracker.events):
        if isinstance(event, UserUttered):
            break
        if isinstance(event, ActionExecuted) and event.action_name:
            names.append(event.action_name)
    return names


@DefaultV1Recipe.register(
    DefaultV1Recipe.ComponentType.POLICY_WITHOUT_END_TO_END_SUPPORT, is_trainable=True
)
class ConversationPolicy(RulePolicy):
    """The rules, on slots that already hold this turn's language, topic and details."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Read when Rasa loads the model: a wrong value keeps it from loading, naming the variable.
        self._follow_confidence = language_follow_confidence()
        self._memory_ttl = conversation_memory()

    def predict_action_probabilities(
        self,
        tracker: DialogueStateTracker,
        domain: Domain,
        rule_only_data: Dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> PolicyPrediction:
        """Predicts the next action (see parent class for more information)."""
        events = self.turn_events(tracker)
        if events:
            tracker = with_turn_events(tracker, events, domain)
        first = danger_action(tracker)
        if first is not None:
            # Danger first (bot/policies/danger.py): the help, then at most a command or the
            # question the message also asks.
            prediction = self._rule_prediction(
                self._prediction_result(first, tracker, domain), first
            )
        elif helped(tracker):
            prediction = super().predict_action_probabilities(
                without_help(tracker, domain), domain, rule_only_data
            )
        elif (routed := case_action(tracker)) is not None:
            # A waiting case takes what is not a question for the assistant (bot/policies/cases.py).
            prediction = self._rule_prediction(
                self._prediction_result(routed, tracker, domain), routed
            )
        elif tracker.latest_action_name == SAFETY_OFFER:
            prediction = self._rule_prediction(
                self._prediction_result(ACTION_LISTEN_NAME, tracker, domain), SAFETY_OFFER
            )
        else:
            prediction = super().predict_action_probabilities(tracker, domain, rule_only_data)
            if self._offer_due(tracker, prediction, domain):
                prediction = self._rule_prediction(
                    self._prediction_result(SAFETY_OFFER, tracker, domain), SAFETY_OFFER
                )
        prediction.events = [*events, *prediction.events]
        return prediction

    def turn_events(self, tracker: DialogueStateTracker) -> List[Event]:
        """The slot changes the latest message makes and that are not applied yet."""
        latest = _latest_user_event(tracker)
        if latest is None:
            return []
        message = latest.parse_data or {}
        changes: Dict[str, Any] = {}
        language = tracker.get_slot(LANGUAGE_SLOT)
        current = (
            LanguageState(language, bool(tracker.get_slot(CHOSEN_SLOT)))
            if is_language(language)
            else None
        )
        metadata = latest.metadata or {}
        new = choose_language(
            current,
            message,
            metadata.get(LANGUAGE_HINT),
            self._follow_confidence,
            forwarded=metadata.get(FORWARDED) is True,
        )
        if new != current:
            changes.update({LANGUAGE_SLOT: new.language, CHOSEN_SLOT: new.chosen})
        own = own_messages(tracker)
        silence = None
        if len(own) >= 2 and own[-1] is latest:
            silence = timedelta(seconds=max(own[-1].timestamp - own[-2].timestamp, 0.0))
        slots = {name: slot.value for name, slot in tracker.slots.items()}
        # What was answered, rather than the slot: the same whether the slot events of earlier
        # turns were applied (a conversation) or not (a story replayed by `rasa test`).
        before = {**slots, TOPIC: answered_topic(tracker)}
        memory = remembered(latest.intent_name, latest.entities, before, silence, self._memory_ttl)
        wanted = {**before, **memory}
        changes.update(
            {name: wanted[name] for name in (TOPIC, *memory) if slots.get(name) != wanted[name]}
        )
        return [SlotSet(name, value) for name, value in changes.items()]

    @staticmethod
    def _offer_due(
        tracker: DialogueStateTracker, prediction: PolicyPrediction, domain: Domain
    ) -> bool:
        """After the answer to a new user's first message, once."""
        if not prediction.probabilities or max(prediction.probabilities) <= 0.0:
            return False
        predicted = domain.action_names_or_texts[
            prediction.probabilities.index(max(prediction.probabilities))
        ]
        if predicted != ACTION_LISTEN_NAME or tracker.latest_action_name == ACTION_LISTEN_NAME:
            return False
        own = own_messages(tracker)
        return (
            len(own) == 1
            and own[0] is _latest_user_event(tracker)
            and SAFETY_OFFER not in _actions_this_turn(tracker)
        )
