"""Numbered options, cutting at three segments and MORE for SMS replies."""

from __future__ import annotations

import pytest

from kernel.lang import codes
from kernel.lang.codes import gaps
from kernel.lang.texts import CATALOGUE
from kernel.memory import ChannelMemory, ProcessMemory
from kernel.notices import try_again
from kernel.sms_render import (
    ReplyMemory,
    ReplyRenderer,
    bare_number,
    condense,
    for_basic_phones,
    more_request,
    numbered_options,
    split_messages,
)
from kernel.sms_segments import encoding, fits, message_units, segment_count
from tests.channels.channel_support import fixture_text
from tests.channels.redis_support import unreachable_redis

CALL_HOTLINE = CATALOGUE.entry("channels.call_hotline")
CHOOSE = CATALOGUE.entry("channels.choose")
TEXT_ONLY = CATALOGUE.entry("channels.text_only")
TRY_AGAIN = CATALOGUE.entry("channels.try_again")
MORE_HINT = CATALOGUE.entry("sms.more_hint")
NOTHING_MORE = CATALOGUE.entry("sms.nothing_more")

LANGUAGE_BUTTONS = [
    {"title": "English", "payload": '/set_language{"language": "en"}'},
    {"title": "دری", "payload": '/set_language{"language": "prs"}'},
    {"title": "پښتو", "payload": '/set_language{"language": "ps"}'},
]


# -- language, numbers, MORE -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("2", 2),
        ("۲", 2),
        ("٢", 2),
        (" 2. ", 2),
        ("#3", 3),
        ("12", 12),
        ("2 3", None),
        ("two", None),
    ],
)
def test_bare_number(text: str, number: int | None) -> None:
    assert bare_number(text) == number


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("MORE", "en"),
        (" more. ", "en"),
        ("More!", "en"),
        ("بیشتر", "prs"),
        ("بيشتر", "prs"),  # Arabic yeh
        ("«بیشتر»", "prs"),
        ("Beshtar", "prs"),
        ("نور", "ps"),
        ("noor", "ps"),
        ("more flights", None),
        ("2", None),
    ],
)
def test_more_request(text: str, language: str | None) -> None:
    assert more_request(text) == language


def test_buttons_become_numbered_lines_in_the_replys_digits() -> None:
    english, options = numbered_options("Which language?", LANGUAGE_BUTTONS, "en")
    dari, _ = numbered_options("به کدام زبان؟", LANGUAGE_BUTTONS, "prs")

    assert english == "Which language?\n1 English\n2 دری\n3 پښتو"
    assert dari == "به کدام زبان؟\n۱ English\n۲ دری\n۳ پښتو"
    assert options == {n + 1: b["payload"] for n, b in enumerate(LANGUAGE_BUTTONS)}


def test_a_menu_that_lists_its_numbers_keeps_them() -> None:
    menu = "یک نمبر بنویسید:\n۱ پروازهای بعدی\n۲ میدان هوایی\n۹ همین مینو"
    buttons = [
        {"title": "۱ پروازها", "payload": "/ask_flights"},
        {"title": "۲ میدان هوایی", "payload": "/ask_airport_status"},
    ]

    text, options = numbered_options(menu, buttons, "prs")

    assert text == menu
    assert options == {1: "/ask_flights", 2: "/ask_airport_status"}


def test_titled_numbers_are_kept_when_the_text_does_not_list_them() -> None:
    buttons = [{"title": "5 Help", "payload": "/ask_help"}, {"title": "Menu", "payload": "/m"}]

    text, options = numbered_options("Anything else?", buttons, "en")

    assert text == "Anything else?\n5 Help\n1 Menu"
    assert options == {5: "/ask_help", 1: "/m"}


# -- cutting --------------------------------------------------------------------------------


def test_short_text_is_sent_whole() -> None:
    assert condense("Abbey Gate is closed.") == ("Abbey Gate is closed.", "")


def test_long_dari_text_keeps_whole_lines_and_ends_with_the_dari_hint() -> None:
    text = fixture_text("long_reply_prs.txt")
    assert not fits(text)

    page, rest = condense(text, "prs")

    assert message_units(page) <= 201
    assert page.endswith("\n" + MORE_HINT["prs"])
    kept = page.splitlines()[:-1]
    assert kept == text.splitlines()[: len(kept)]
    assert rest.splitlines() == text.splitlines()[len(kept) :]


def test_long_english_text_uses_the_gsm7_budget() -> None:
    lines = [f"Flight {n}: QR80{n:02d} Kabul to Doha, Tuesday 14:30, East Gate." for n in range(12)]

    page, rest = condense("\n".join(lines))

    assert encoding(page) == "GSM-7"
    assert 400 < message_units(page) <= 459
    assert page.endswith("\nReply MORE for the rest.")
    assert rest


def test_one_endless_line_is_cut_at_a_word() -> None:
    words = ["کلمه"] * 80

    page, rest = condense(" ".join(words), "prs")

    head = page.splitlines()[0]
    assert fits(page)
    assert head.split(" ") + rest.split(" ") == words


def test_chat_messages_split_at_lines_within_1600_characters() -> None:
    lines = ["x" * 700, "y" * 700, "z" * 700]

    assert split_messages("\n".join(lines)) == ["\n".join(lines[:2]), lines[2]]
    assert [len(m) for m in split_messages("w " * 1000)] == [1599, 399]
    assert split_messages("👍" * 900) == ["👍" * 800, "👍" * 100]  # two UTF-16 units each


# -- the renderer's memory -------------------------------------------------------------------------


@pytest.fixture
def renderer(memory: ChannelMemory) -> ReplyRenderer:
    """An SMS renderer on each kind of memory (this process's, Redis)."""
    return ReplyRenderer(ReplyMemory(memory))


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_number_after_language_question_picks_that_payload_once(
    renderer: ReplyRenderer,
) -> None:
    await renderer.outgoing("c1", "Which language?", LANGUAGE_BUTTONS)

    assert (await renderer.incoming("c1", "۲")).text == '/set_language{"language": "prs"}'
    assert (await renderer.incoming("c1", "2")).text == "2", "options belong to the last reply"


async def test_options_are_per_conversation(renderer: ReplyRenderer) -> None:
    await renderer.outgoing("c1", "Which language?", LANGUAGE_BUTTONS)

    assert (await renderer.incoming("c2", "2")).text == "2"


async def test_options_and_rest_expire() -> None:
    clock = Clock()
    renderer = ReplyRenderer(ReplyMemory(ProcessMemory(clock=clock), ttl_seconds=600))
    await renderer.outgoing("c1", "Which language?", LANGUAGE_BUTTONS)
    await renderer.outgoing("c1", fixture_text("long_reply_prs.txt"), language="prs")
    clock.now = 601

    assert (await renderer.incoming("c1", "2")).text == "2"
    # The Dari reply is forgotten too: "more" is answered in the language it was written in.
    assert (await renderer.incoming("c1", "more")).replies == (NOTHING_MORE["en"],)


async def test_each_more_gives_a_slow_reader_the_time_again() -> None:
    clock = Clock()
    renderer = ReplyRenderer(ReplyMemory(ProcessMemory(clock=clock), ttl_seconds=600))
    text = "\n".join([fixture_text("long_reply_prs.txt")] * 2)
    await renderer.outgoing("c1", text, language="prs")
    clock.now = 500
    second = await renderer.incoming("c1", "بیشتر")
    clock.now = 1000  # over 600 s after the reply, under 600 s after the last MORE
    third = await renderer.incoming("c1", "بیشتر")

    assert second.replies[0].endswith(MORE_HINT["prs"])
    assert third.replies and third.replies != (NOTHING_MORE["prs"],)


async def test_more_pages_through_the_rest_then_says_that_was_all(
    renderer: ReplyRenderer,
) -> None:
    text = fixture_text("long_reply_prs.txt")
    pages = await renderer.outgoing("c1", text, language="prs")
    while pages[-1].endswith(MORE_HINT["prs"]):
        pages.extend((await renderer.incoming("c1", "بیشتر")).replies)

    assert len(pages) > 1
    assert all(fits(page) for page in pages)
    shown = [line for page in pages for line in page.splitlines() if line != MORE_HINT["prs"]]
    assert shown == text.splitlines()
    assert (await renderer.incoming("c1", "بیشتر")).replies == (NOTHING_MORE["prs"],)


async def test_a_new_question_drops_the_unsent_rest(renderer: ReplyRenderer) -> None:
    await renderer.outgoing("c1", fixture_text("long_reply_prs.txt"), language="prs")

    assert (await renderer.incoming("c1", "airport")).text == "airport"
    assert (await renderer.incoming("c1", "more")).replies == (NOTHING_MORE["prs"],)


async def test_empty_message_is_answered_by_the_channel(renderer: ReplyRenderer) -> None:
    everything = ("\n".join(TEXT_ONLY.values()),)
    assert (await renderer.incoming("c1", " ")).replies == everything
    await renderer.outgoing("c1", "راتلونکې الوتنې", language="ps")
    assert (await renderer.incoming("c1", "")).replies == (TEXT_ONLY["ps"],)


async def test_without_its_memory_the_renderer_still_answers() -> None:
    """A memory that cannot be reached (Redis down) is a memory that remembers nothing."""
    renderer = ReplyRenderer(ReplyMemory(unreachable_redis()))
    first = await renderer.outgoing(
        "c1", fixture_text("long_reply_prs.txt"), LANGUAGE_BUTTONS, "prs"
    )

    assert first and first[0].endswith(MORE_HINT["prs"])  # the first page still goes out
    assert (await renderer.incoming("c1", "بیشتر")).replies == (NOTHING_MORE["prs"],)
    assert (await renderer.incoming("c1", "2")).text == "2"


def test_channel_sentences_fit_in_three_segments_even_in_all_three_languages() -> None:
    for sentences in (TEXT_ONLY, NOTHING_MORE):
        assert fits("\n".join(sentences.values()))
    assert fits(try_again(None, None))
    for language in ("en", "prs", "ps"):  # with the hotline, in the conversation's language
        assert fits(try_again(language, "+93 700 000 100 (Kabul Aid Network)"))


async def test_whatsapp_rendering_is_not_paged() -> None:
    renderer = ReplyRenderer(paged=False)
    text = fixture_text("long_reply_prs.txt")

    assert await renderer.outgoing("c1", text) == [text]
    assert (await renderer.incoming("c1", "more")).text == "more"


# -- characters a basic phone shows (docs/SMS.md) ------------------------------------------------

LRM, RLM, FSI, PDI = "\u200e", "\u200f", "\u2068", "\u2069"


def test_isolates_become_marks_of_the_runs_own_direction() -> None:
    dari = f"پرواز {FSI}RCH871{PDI} امروز، {FSI}+93 700 000 101{PDI}"
    assert for_basic_phones(dari) == f"پرواز {LRM}RCH871{LRM} امروز، {LRM}+93 700 000 101{LRM}"
    english = f"Note: {FSI}سفارت امریکا{PDI} (in Dari)"
    assert for_basic_phones(english) == f"Note: {RLM}سفارت امریکا{RLM} (in Dari)"


def test_no_isolate_reaches_a_phone_not_even_a_stray_one() -> None:
    text = for_basic_phones(f"{FSI}Abbey Gate{PDI}: بسته {FSI}ناتمام \u2066x")
    assert not set(text) & {"\u2066", "\u2067", FSI, PDI}
    assert for_basic_phones("⚠ تایید نشده") == "! تایید نشده"


def test_english_keeps_the_gsm_alphabet_and_its_459_characters() -> None:
    text = "• RCH871 — Tue 1 Dec, 15:50 · Boarding’s “now”…"
    plain = for_basic_phones(text)
    assert plain == '- RCH871 - Tue 1 Dec, 15:50 , Boarding\'s "now"...'
    assert segment_count(plain) == 1
    # A text that needs UCS-2 anyway keeps its typography.
    assert for_basic_phones("• دروازه — باز") == "• دروازه — باز"


async def test_every_sms_reply_is_converted_before_it_is_cut() -> None:
    renderer = ReplyRenderer()
    sent = await renderer.outgoing("c1", f"{FSI}RCH871{PDI} امروز ۱۵:۵۰")
    assert sent == [f"{LRM}RCH871{LRM} امروز ۱۵:۵۰"]
    chat = ReplyRenderer(paged=False)
    assert await chat.outgoing("c1", f"{FSI}RCH871{PDI} امروز") == [f"{FSI}RCH871{PDI} امروز"]


def test_the_channels_own_sentences_name_a_language_they_still_lack(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tables = {
        "MORE_HINT": MORE_HINT,
        "NOTHING_MORE": NOTHING_MORE,
        "TEXT_ONLY": TEXT_ONLY,
        "TRY_AGAIN": TRY_AGAIN,
        "CALL_HOTLINE": CALL_HOTLINE,
        "CHOOSE": CHOOSE,
    }
    assert [gap for name, table in tables.items() for gap in gaps(table, name)] == []
    monkeypatch.setattr(codes, "LANGUAGES", (*codes.LANGUAGES, "ur"))
    found = [gap for name, table in tables.items() for gap in gaps(table, name)]
    assert found == [f"{name} has no 'ur'" for name in tables]


async def test_a_cut_reply_keeps_its_numbered_options_on_the_sms_the_person_reads(
    renderer: ReplyRenderer,
) -> None:
    lines = [f"د {n} الوتنه: کابل نه دوحې ته، د ختیځې دروازې له لارې." for n in range(1, 6)]
    buttons = [{"title": "۱ مشوره", "payload": "/ask_airport_status"}]
    [first] = await renderer.outgoing("c9", "\n".join(lines), buttons, "ps")
    assert segment_count(first) <= 3
    assert first.endswith("۱ مشوره\n" + CATALOGUE.entry("sms.more_hint")["ps"])
    rest = await renderer.memory.next_page("c9")
    assert rest is not None and "مشوره" not in rest and lines[-1] in rest
    # The option answers from the first page, as it always did.
    assert (await renderer.incoming("c9", "۱")).text == "/ask_airport_status"
