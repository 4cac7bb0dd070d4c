"""make bench-sms: the questions it asks and how it reads what a phone shows."""

from __future__ import annotations

from scripts.bench_sms import SLICES, all_of, plain


def test_five_slices_ask_the_same_six_questions() -> None:
    assert [s.name for s in SLICES] == [
        "en", "prs Arabic script", "prs romanized", "ps Arabic script", "ps romanized",
    ]  # fmt: skip
    questions = {tuple(s.questions) for s in SLICES}
    assert questions == {
        ("flights to Doha", "Abbey Gate", "amnesty", "documents", "who can help", "menu")
    }
    assert {s.answer_language for s in SLICES} == {"en", "prs", "ps"}


def test_what_a_reader_sees_ignores_invisible_marks_and_digit_shapes() -> None:
    shown = "\u200eRCH871\u200e امروز ۱۵:۵۰ \u2068QR8010\u2069"
    assert plain(shown) == "RCH871 امروز 15:50 QR8010"
    answered = all_of("RCH871", "QR8010", "۱۵:۵۰")
    assert answered(plain(shown))
    assert not all_of("RCH618")(plain(shown))


def test_a_first_sms_may_leave_later_flights_to_more_but_never_the_soonest() -> None:
    from scripts.bench_sms import soonest_then_rest

    check = soonest_then_rest(["RCH871", "QR8010"], "د پاتې برخې لپاره «نور» ولیکئ.")
    assert check(plain("\u200eRCH871\u200e نن شپه ۱۲:۱۲\nد پاتې برخې لپاره «نور» ولیکئ."))
    assert check(plain("RCH871 … QR8010"))
    assert not check(plain("RCH871 نن شپه ۱۲:۱۲"))  # the second flight, silently dropped
    assert not check(plain("QR8010\nد پاتې برخې لپاره «نور» ولیکئ."))  # the soonest left out
