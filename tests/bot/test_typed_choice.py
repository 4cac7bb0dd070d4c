"""A typed number after "Which one did you hear? 1 … 2 …" picks the rumour, on every channel.

The web chat and the REST channel hand Rasa the bare "2"; the processor reads it against the
buttons the assistant just offered (``bot/typed_choice.py``), in any script's digits.
"""

from __future__ import annotations

from rasa.shared.core.events import ActionExecuted, BotUttered, UserUttered

from bot.channels.typed_numbers import TYPED_NUMBER_SECONDS
from bot.typed_choice import picked_payload

NOW = 1_700_000_000.0
WHICH = [
    {"title": "۱ کانادا هر افغان را می‌برد", "payload": '/check_claim{"detail": "canada-all"}'},
    {"title": "۲ کانادا همکاران را می‌برد", "payload": '/check_claim{"detail": "canada-staff"}'},
]


def conversation(buttons: list[dict[str, str]], asked_ago: float = 5.0) -> list[object]:
    return [
        UserUttered("کانادا همه را می‌برد؟", timestamp=NOW - asked_ago - 1),
        ActionExecuted("action_check_claim", timestamp=NOW - asked_ago),
        BotUttered("کدام یکی را شنیده‌اید؟", {"buttons": buttons}, timestamp=NOW - asked_ago),
        ActionExecuted("action_listen", timestamp=NOW - asked_ago),
    ]


def test_a_typed_two_in_any_digits_picks_the_second_rumour() -> None:
    for typed in ("2", "۲", "٢", " 2. "):
        assert picked_payload(conversation(WHICH), typed, NOW) == WHICH[1]["payload"]


def test_a_typed_one_picks_the_first_and_a_number_not_offered_picks_nothing() -> None:
    assert picked_payload(conversation(WHICH), "۱", NOW) == WHICH[0]["payload"]
    assert picked_payload(conversation(WHICH), "3", NOW) is None


def test_words_are_read_as_words() -> None:
    assert picked_payload(conversation(WHICH), "2 gates open?", NOW) is None
    assert picked_payload(conversation(WHICH), "دوم", NOW) is None


def test_a_number_after_another_question_or_long_after_is_the_menu_again() -> None:
    later = [*conversation(WHICH), UserUttered("پرواز بعدی؟", timestamp=NOW - 2)]
    later += [BotUttered("RCH871 …", {}, timestamp=NOW - 1)]
    assert picked_payload(later, "2", NOW) is None
    stale = conversation(WHICH, asked_ago=TYPED_NUMBER_SECONDS + 1)
    assert picked_payload(stale, "2", NOW) is None


def test_buttons_without_numbers_leave_the_number_to_the_menu() -> None:
    unnumbered = [{"title": "Yes", "payload": "/affirm"}, {"title": "No", "payload": "/deny"}]
    assert picked_payload(conversation(unnumbered), "2", NOW) is None


def test_a_later_reply_without_buttons_in_the_same_turn_keeps_the_choice() -> None:
    events = [*conversation(WHICH)[:-1], BotUttered("Safety: …", {}, timestamp=NOW - 4)]
    assert picked_payload(events, "2", NOW) == WHICH[1]["payload"]
