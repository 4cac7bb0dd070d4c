"""Segment counting: GSM-7 with its extension table, UCS-2 for Dari and Pashto, 3-part limits."""

from __future__ import annotations

import pytest

from kernel.sms_segments import encoding, fits, message_units, segment_count

DARI_LETTER = "س"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Flights to Doha @ 14:30 £5 é ñ ü", "GSM-7"),
        ("Gate {A} [closed] ~ 5€ | ^ \\", "GSM-7"),
        ("Gate ê", "UCS-2"),  # ê is not in the GSM alphabet
        ("Language / زبان", "UCS-2"),
        ("پروازهای بعدی", "UCS-2"),
        ("ok 👍", "UCS-2"),
    ],
)
def test_encoding_is_gsm7_only_when_every_character_has_a_septet(text: str, expected: str) -> None:
    assert encoding(text) == expected


def test_gsm7_extension_characters_count_double() -> None:
    assert message_units("a€") == 3
    assert message_units("{}[]~|^\\") == 16
    assert segment_count("{" * 80) == 1  # 160 septets
    assert segment_count("{" * 81) == 2


@pytest.mark.parametrize(
    ("length", "segments"),
    [(0, 0), (1, 1), (160, 1), (161, 2), (306, 2), (307, 3), (459, 3), (460, 4)],
)
def test_gsm7_segments(length: int, segments: int) -> None:
    assert segment_count("a" * length) == segments


@pytest.mark.parametrize(
    ("length", "segments"),
    [(70, 1), (71, 2), (134, 2), (135, 3), (201, 3), (202, 4)],
)
def test_ucs2_segments_for_dari_and_pashto(length: int, segments: int) -> None:
    assert segment_count(DARI_LETTER * length) == segments
    assert segment_count("ښ" * length) == segments


def test_three_segment_limits_are_201_ucs2_and_459_gsm7_characters() -> None:
    assert fits(DARI_LETTER * 201) and not fits(DARI_LETTER * 202)
    assert fits("a" * 459) and not fits("a" * 460)
    assert fits("a" * 457 + "€") and not fits("a" * 458 + "€")  # € counts two


def test_a_single_arabic_letter_makes_english_ucs2() -> None:
    assert fits("a" * 200 + DARI_LETTER)
    assert not fits("a" * 201 + DARI_LETTER)


def test_an_escape_sequence_is_never_split_across_segments() -> None:
    text = "a" * 152 + "€" + "a" * 152  # 306 septets: two parts by arithmetic, three on air
    assert message_units(text) == 306
    assert segment_count(text) == 3


def test_emoji_take_two_ucs2_units() -> None:
    assert message_units("👍") == 2
    assert segment_count(DARI_LETTER * 68 + "👍") == 1
    assert segment_count(DARI_LETTER * 69 + "👍") == 2
