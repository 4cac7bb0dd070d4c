"""The names other processes send Rasa are in the domain, spelled as bot/contract.py has them."""

from pathlib import Path

from rasa.shared.core.domain import Domain

from bot import contract

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
