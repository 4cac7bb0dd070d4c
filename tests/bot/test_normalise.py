"""The normaliser folds what keyboards vary, and keeps what carries meaning."""

import pytest

from kernel.lang.letters import has_arabic_script, to_ascii_digits
from kernel.lang.normalise import fold, normalise


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("كابل", "کابل"),  # Arabic kaf → Persian keheh
        ("هوايي", "هوایی"),  # Arabic yeh → Persian yeh
        ("مصطفى", "مصطفی"),  # alef maksura
        ("پـــرواز", "پرواز"),  # tatweel
        ("مَیدان هَوایی", "میدان هوایی"),  # harakat
        ("می‌خواهم", "می خواهم"),  # ZWNJ becomes a space
        ("میخواهم  ", "میخواهم"),
        ("ﻻ", "لا"),  # presentation form ligature
        ("پرواز ۸۷۱", "پرواز 871"),  # Persian digits
        ("پرواز ٨٧١", "پرواز 871"),  # Arabic-Indic digits
        ("Flight TO Doha", "flight to doha"),
        ("\u200fسلام\u200e", "سلام"),  # bidi marks
        ("maidan-e hawayi", "maidane hawayi"),  # romanized ezafe: hyphen or glued, one form
        ("Saat-e Harakat-e tayara", "saate harakate tayara"),
        ("shomara-e sifarat", "shomaraye sifarat"),  # after a vowel: -ye
        ("E-mail", "email"),
        ("C-17 ya P-2", "c-17 ya p-2"),  # hyphens next to digits stay
        ("kabul - doha", "kabul - doha"),
    ],
)
def test_keyboard_variants_fold_to_one_form(typed: str, expected: str) -> None:
    assert normalise(typed) == expected


def test_pashto_letters_are_kept() -> None:
    pashto = "ټ ډ ړ ږ ښ ګ ڼ ې ۍ ځ څ"
    assert normalise(pashto) == pashto


@pytest.mark.parametrize("junk", ["", "   ", "\x00\x01\x02", "🙂🙂🙂", "a" * 10_000])
def test_junk_never_raises(junk: str) -> None:
    assert isinstance(normalise(junk), str)


def test_fold_keeps_spacing_for_entity_offsets() -> None:
    assert fold(" كابل ") == " کابل "


def test_digits_helper_and_script_check() -> None:
    assert to_ascii_digits("RCH۸۷۱") == "RCH871"
    assert has_arabic_script("gate باز است")
    assert not has_arabic_script("gate open 123")
