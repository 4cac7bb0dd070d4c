"""The surge benchmark's account of the notices of the wait: each one's promise beside the
wait that followed it (scripts/loadtest/telegram_people.py)."""

from kernel.notices import in_line
from scripts.fake_providers import Received
from scripts.loadtest.telegram_people import Message, Person, RecordingTelegram, account


def test_each_notice_is_weighed_against_the_wait_that_followed_it() -> None:
    providers = RecordingTelegram()
    people = [Person(1, "prs_arab", [Message(1, "پرواز کی است؟", 0.0)]), Person(2, "en")]
    people[1].messages.append(Message(2, "when is the flight?", 0.0))
    people.append(Person(3, "en", [Message(3, "is the gate open?", 0.0)]))
    providers.received += [
        Received("telegram", "1", in_line("prs", 4), 10.0),  # 4 minutes, then 200 s: ×1.2
        Received("telegram", "1", "answer", 210.0),
        Received("telegram", "2", in_line("en", 2), 10.0),  # 2 minutes, then 30 s: ×4
        Received("telegram", "2", "answer", 40.0),
        Received("telegram", "3", in_line("en", None), 10.0),  # "in a moment", then 20 s
        Received("telegram", "3", "answer", 30.0),
    ]
    tally = account(people, providers, {})
    assert tally.notices == 3
    assert tally.promised_over_waited == [1.2, 4.0]
    assert tally.waited_after_a_moment == [20.0]
    assert tally.promises_kept() == (1, 2, 1, 1)
