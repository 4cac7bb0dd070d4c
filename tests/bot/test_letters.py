"""The one definition of Arabic-script letters, Pashto and Persian letters, and digits."""

from __future__ import annotations

import unicodedata

import pytest

from kernel.lang.letters import (
    ARABIC_LETTER,
    DARI_GAF,
    PASHTO_GAF,
    PASHTO_LETTERS,
    PERSIAN_LETTERS,
    has_arabic_script,
    pashto_letter_count,
    script_of,
    to_ascii_digits,
    written_digits,
)

#: The Dari alphabet (32 letters) and Pashto's (44), as schoolbooks list them.
DARI_ALPHABET = "ابپتثجچحخدذرزژسشصضطظعغفقکگلمنوهی"
PASHTO_ALPHABET = "ابپتټثجځچڅحخدډذرړزږژسشښصضطظعغفقکګلمنڼوهيېۍئ"


def test_pashto_has_its_gaf_and_dari_has_the_persian_one() -> None:
    assert unicodedata.name(PASHTO_GAF) == "ARABIC LETTER KAF WITH RING"
    assert unicodedata.name(DARI_GAF) == "ARABIC LETTER GAF"
    assert PASHTO_GAF in PASHTO_LETTERS and DARI_GAF not in PASHTO_LETTERS
    assert DARI_GAF in PERSIAN_LETTERS
    assert set("ټډړږښګڼېۍځڅ") == PASHTO_LETTERS


def test_pashto_letters_are_in_pashto_and_never_in_dari() -> None:
    assert set(PASHTO_ALPHABET) >= PASHTO_LETTERS
    assert not PASHTO_LETTERS & set(DARI_ALPHABET)
    assert set(DARI_ALPHABET) >= PERSIAN_LETTERS
    assert set(PASHTO_ALPHABET) - set(DARI_ALPHABET) - {"ي", "ئ"} == PASHTO_LETTERS


def test_every_letter_of_both_alphabets_is_an_arabic_letter() -> None:
    assert all(ARABIC_LETTER.fullmatch(letter) for letter in DARI_ALPHABET + PASHTO_ALPHABET)
    assert ARABIC_LETTER.fullmatch("\ufefb")  # the lam-alef ligature of old keyboards


@pytest.mark.parametrize(
    "character",
    ["۰", "۹", "٠", "٩", "ـ", "،", "؟", "؛", "\u064b", "\u200c", "a", "1", " "],
)
def test_digits_marks_tatweel_and_punctuation_are_not_letters(character: str) -> None:
    assert not ARABIC_LETTER.search(character)


def test_digits_both_ways() -> None:
    assert to_ascii_digits("RCH۸۷۱ و ٣٤") == "RCH871 و 34"
    assert written_digits("15:00, 24", "prs") == "۱۵:۰۰, ۲۴"
    assert written_digits("15:00", "ps") == "۱۵:۰۰"
    assert written_digits("15:00", "en") == "15:00"
    assert written_digits("15:00", "xx") == "15:00"
    assert to_ascii_digits(written_digits("0123456789", "prs")) == "0123456789"


@pytest.mark.parametrize(
    ("text", "script"),
    [
        ("gate باز است", "Arab"),
        ("alwatka kala da", "Latn"),
        ("Kārēz", "Latn"),
        ("۱۲۳", None),
        ("123 ?!", None),
        ("", None),
    ],
)
def test_script_of(text: str, script: str | None) -> None:
    assert script_of(text) == script
    assert has_arabic_script(text) == (script == "Arab")


def test_pashto_letters_are_counted() -> None:
    assert pashto_letter_count("د کابل هوايي ډګر") == 2
    assert pashto_letter_count("میدان هوایی کابل") == 0
