"""The names other processes send Rasa are in the domain, spelled as kernel/contract.py has them."""

import json
from pathlib import Path

import pytest
from rasa.shared.core.domain import Domain

from kernel import contract

ROOT = Path(__file__).resolve().parents[2]
DOMAIN = Domain.load(str(ROOT / "bot" / "domain"))


def test_every_triggered_intent_is_in_the_domain_and_marked_external() -> None:
    triggered = [contract.ALERT_INTENT, contract.CASE_REPLY_INTENT, contract.CASE_CLOSED_INTENT]
    assert set(triggered) <= set(DOMAIN.intents)
    assert all(contract.is_external(intent) for intent in triggered)
    assert not contract.is_external("ask_flights") and not contract.is_external(None)


def test_the_ids_the_triggers_carry_are_entities_of_the_domain() -> None:
    # The notifier sends the delivery id in the entity named like the payload tag.
    assert {contract.ALERT_DELIVERY, contract.CASE_REPLY} <= set(DOMAIN.entities)


def test_the_tags_are_distinct() -> None:
    names = [
        contract.REMEMBER_ADDRESS,
        contract.ALERT_DELIVERY,
        contract.CASE_REPLY,
        contract.WHATSAPP_TEMPLATE,
        contract.LANGUAGE_HINT,
        contract.REPLY_LANGUAGE,
    ]
    assert len(set(names)) == len(names)


def test_a_channels_refusal_is_read_back_as_it_was_answered() -> None:
    refusal = contract.NotDelivered("telegram: provider refused the alert", False, 3.0, 429)
    assert contract.NotDelivered.from_answer(json.dumps(refusal.body())) == refusal
    assert set(refusal.body()) == {
        contract.NOT_DELIVERED_REASON,
        contract.NOT_DELIVERED_PERMANENT,
        contract.NOT_DELIVERED_RETRY_AFTER,
        contract.NOT_DELIVERED_PROVIDER_STATUS,
    }


@pytest.mark.parametrize(
    "answer",
    [
        "<html>502 Bad Gateway</html>",
        "[]",
        '{"reason": "ConversationError", "message": "An unexpected error occurred."}',
        '{"reason": "x", "permanent": "false", "retry_after": null, "provider_status": null}',
        '{"reason": "x", "permanent": false, "retry_after": true, "provider_status": null}',
        '{"reason": "x", "permanent": false, "retry_after": null, "provider_status": "429"}',
    ],
)
def test_anything_else_is_no_refusal(answer: str) -> None:
    assert contract.NotDelivered.from_answer(answer) is None
