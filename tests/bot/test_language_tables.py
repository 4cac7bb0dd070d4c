"""Every table in kernel/lang has every language, and a language added without its words is
refused with the list of what is missing (docs/ADDING_A_LANGUAGE.md)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import ModuleType

import pytest

from kernel.lang import (
    advice,
    calendar,
    codes,
    danger_words,
    gate_words,
    hearsay,
    letters,
    name_cues,
    names,
    near_words,
    question_words,
    skeleton,
    sms_lists,
    stop_words,
    tags,
    urgent_words,
)
from kernel.lang.calendar import DAY_PARTS, MONTHS, WEEKDAYS, day_part, month, weekday
from kernel.lang.codes import LANGUAGES, IncompleteLanguageTable, refuse_gaps
from kernel.lang.letters import WRITTEN_DIGITS
from kernel.lang.names import LANGUAGE_NAMES, READING_ORDER, own_name
from kernel.lang.tags import PAGE_LANGUAGES, PageLanguage

TABLE_MODULES: tuple[ModuleType, ...] = (calendar, letters, names, tags)
ROOT = Path(__file__).resolve().parents[2]

#: Every table of words (or counts, or codes) keyed by language, by module, each by the name
#: its module's check gives it: a language added to ``LANGUAGES`` must stop each import and
#: name each of them (docs/ADDING_A_LANGUAGE.md).
WORD_TABLES: dict[str, tuple[str, ...]] = {
    "kernel.lang.letters": ("WRITTEN_DIGITS",),
    "kernel.lang.calendar": ("WEEKDAYS", "MONTHS", "DAY_PARTS"),
    "kernel.lang.names": ("LANGUAGE_NAMES", "READING_ORDER"),
    "kernel.lang.tags": ("PAGE_LANGUAGES", "LOCALES", "WHATSAPP_LANGUAGES"),
    "kernel.lang.danger_words": (
        "DANGER_WORDS", "REPORTS", "RESOLVED", "QUESTION_WORDS", "QUESTION_OPENERS",
    ),
    "kernel.lang.urgent_words": ("URGENT_WORDS",),
    "kernel.lang.stop_words": (
        "OPT_OUT_WORDS", "WITHDRAW_ONLY_WORDS", "WITHDRAWING_OPT_OUTS", "JUMPING_WORDS",
    ),
    "kernel.lang.name_cues": ("NAME_CUES", "GIVEN_NAMES"),
    "kernel.lang.near_words": ("NEAR_WORDS", "GENERIC_WORDS"),
    "kernel.lang.question_words": ("QUESTION_WORDS",),
    "kernel.lang.hearsay": ("FRAMES", "CHAIN", "GRAMMAR", "HEARSAY"),
    "kernel.lang.skeleton": ("SKELETON_LETTERS",),
    "kernel.lang.sms_lists": ("SMS_TITLES", "SMS_PLACES"),
    "kernel.lang.gate_words": ("GATE_WORDS",),
    "kernel.lang.advice": (
        "ADVICE_OPENERS", "ADVICE_ENDINGS", "ANYWHERE", "NOT_REQUESTS_BY_LANGUAGE",
    ),
}  # fmt: skip
#: Modules that read those tables (those both runtimes can import), refused with them.
READERS: tuple[str, ...] = (
    "kernel.question_mask", "kernel.lang.normalise", "kernel.lang.choice", "kernel.danger",
    "kernel.case_urgency", "actions.claims.frames",
)  # fmt: skip

#: Run in a fresh interpreter. First a throwaway language is added to ``LANGUAGES`` before
#: anything else is imported, and each module is imported: each must refuse. Then each table
#: module runs again with that language, the tables it imports built for the real languages
#: (``kernel.lang.normalise`` reads ``WRITTEN_DIGITS``), so that its refusal names its own tables.
#: What each import said, as JSON.
_IMPORT_WITH_THROWAWAY = """
import importlib, json, sys
from kernel.lang import codes
real = codes.LANGUAGES
tables, readers = json.loads(sys.argv[1]), json.loads(sys.argv[2])

def said_by(module):
    try:
        importlib.import_module(module)
    except codes.IncompleteLanguageTable as refused:
        return str(refused)
    return None

codes.LANGUAGES = (*real, "zz")
fresh = {module: said_by(module) for module in [*tables, *readers]}
codes.LANGUAGES = real
for module in tables:
    importlib.import_module(module)
codes.LANGUAGES = (*real, "zz")
again = {}
for module in tables:
    del sys.modules[module]
    again[module] = said_by(module)
print(json.dumps({"fresh": fresh, "again": again}))
"""


@pytest.mark.parametrize(
    "table",
    [WEEKDAYS, MONTHS, DAY_PARTS, LANGUAGE_NAMES, READING_ORDER, WRITTEN_DIGITS, PAGE_LANGUAGES],
)
def test_every_table_has_every_language(table: dict[str, object]) -> None:
    assert set(table) == set(LANGUAGES)
    assert all(table.values())


@pytest.mark.parametrize("module", TABLE_MODULES, ids=lambda m: m.__name__)
def test_the_tables_as_shipped_have_no_gaps(module: ModuleType) -> None:
    assert module.table_gaps() == []


@pytest.mark.parametrize(
    "table",
    [
        stop_words.OPT_OUT_WORDS, stop_words.WITHDRAW_ONLY_WORDS, stop_words.WITHDRAWING_OPT_OUTS,
        stop_words.JUMPING_WORDS, name_cues.NAME_CUES, name_cues.GIVEN_NAMES,
        near_words.NEAR_WORDS, near_words.GENERIC_WORDS, question_words.QUESTION_WORDS,
        hearsay.FRAMES, hearsay.CHAIN, hearsay.GRAMMAR, hearsay.HEARSAY,
        skeleton.SKELETON_LETTERS, sms_lists.SMS_TITLES, sms_lists.SMS_PLACES, tags.LOCALES,
        tags.WHATSAPP_LANGUAGES, danger_words.QUESTION_WORDS, urgent_words.URGENT_WORDS,
        gate_words.GATE_WORDS, advice.ADVICE_OPENERS, advice.ADVICE_ENDINGS, advice.ANYWHERE,
        advice.NOT_REQUESTS_BY_LANGUAGE,
    ],
)  # fmt: skip
def test_every_word_table_has_exactly_every_language(table: Mapping[str, object]) -> None:
    """Some entries are empty on purpose (English has no letters of Arabic script, its grammar
    words are in its frame); every language is there, and none else ("latin" is no language:
    romanized Dari is Dari's)."""
    assert set(table) == set(LANGUAGES)


def test_a_throwaway_language_stops_every_table_and_names_each() -> None:
    """Importing with a language no table has words for fails, and names every table by its
    module: none escapes its check (a table left out of ``refuse_gaps`` fails this)."""
    ran = subprocess.run(
        [sys.executable, "-c", _IMPORT_WITH_THROWAWAY, json.dumps(list(WORD_TABLES)),
         json.dumps(READERS)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )  # fmt: skip
    said: dict[str, dict[str, str | None]] = json.loads(ran.stdout)
    for module, refused in said["fresh"].items():
        assert refused is not None, f"{module} imported with a language it has no words for"
    for module, tables in WORD_TABLES.items():
        where = module.replace(".", "/") + ".py"
        refused = said["again"][module] or ""
        for table in tables:
            assert f"{where} {table} has no 'zz'" in refused, (module, table)


def test_locales_read_as_ours() -> None:
    assert tags.locale_languages() == {"en": "en", "fa": "prs", "prs": "prs", "ps": "ps"}
    assert [tags.from_locale(c) for c in ("fa-AF", "fa_IR", "PS", "en-GB", "de", "", None)] == [
        "prs", "prs", "ps", "en", None, None, None
    ]  # fmt: skip
    assert tags.WHATSAPP_LANGUAGES == {"en": "en", "prs": "fa", "ps": "ps"}


def test_a_locale_of_two_languages_or_without_its_own_code_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(tags.LOCALES, "ps", ("fa",))
    assert tags.table_gaps() == [
        "kernel/lang/tags.py LOCALES['ps'] lacks 'ps' itself",
        "kernel/lang/tags.py LOCALES['ps'] and ['prs'] both have 'fa'",
    ]


def test_names_in_every_language_and_by_number() -> None:
    assert all(set(LANGUAGE_NAMES[reader]) == set(LANGUAGES) for reader in LANGUAGES)
    assert [own_name(code) for code in LANGUAGES] == ["English", "دری", "پښتو"]
    assert LANGUAGE_NAMES["prs"]["ps"] == "پشتو" and LANGUAGE_NAMES["ps"]["prs"] == "دري"
    assert weekday(2, "prs") == "سه‌شنبه" and weekday(7, "en") == "Sun"
    assert month(8, "ps") == "اګست" and month(12, "ps") == "ډسمبر" and month(8, "prs") == "اگست"
    assert [day_part(hour, "prs") for hour in (3, 4, 12, 13, 15, 16, 19, 23)] == [
        "شب", "صبح", "چاشت", "بعد از چاشت", "بعد از چاشت", "عصر", "شام", "شب"
    ]  # fmt: skip


def test_reading_order_starts_with_the_reader_and_holds_every_language() -> None:
    for reader, order in READING_ORDER.items():
        assert order[0] == reader and sorted(order) == sorted(LANGUAGES)


@pytest.fixture
def urdu(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A fourth language in ``LANGUAGES`` that no table has words for yet."""
    monkeypatch.setattr(codes, "LANGUAGES", (*LANGUAGES, "ur"))
    yield
    monkeypatch.undo()
    for module in TABLE_MODULES:  # back to tables built for the real languages
        importlib.reload(module)


def test_a_new_language_is_refused_until_every_table_has_it(urdu: None) -> None:
    found = [gap for module in TABLE_MODULES for gap in module.table_gaps()]
    for table in ("WEEKDAYS", "MONTHS", "DAY_PARTS", "LANGUAGE_NAMES", "READING_ORDER"):
        assert f"{table} has no 'ur'" in "\n".join(found), table
    assert "kernel/lang/letters.py WRITTEN_DIGITS has no 'ur'" in found
    assert "kernel/lang/names.py LANGUAGE_NAMES['prs'] has no 'ur'" in found
    assert "kernel/lang/tags.py PAGE_LANGUAGES has no 'ur'" in found
    assert any(gap.startswith("kernel/lang/names.py READING_ORDER['ps'] must") for gap in found)
    with pytest.raises(IncompleteLanguageTable, match=r"MONTHS has no 'ur'"):
        importlib.reload(calendar)


def test_a_table_with_an_unknown_language_or_a_missing_month_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(calendar.MONTHS, "xx", {1: "Jan"})
    monkeypatch.setitem(calendar.WEEKDAYS, "en", {1: "Mon"})
    found = calendar.table_gaps()
    assert "kernel/lang/calendar.py MONTHS has 'xx', not in LANGUAGES" in found
    assert "kernel/lang/calendar.py WEEKDAYS['en'] has no [2, 3, 4, 5, 6, 7]" in found
    with pytest.raises(IncompleteLanguageTable, match="WEEKDAYS"):
        refuse_gaps(found)
    refuse_gaps([])  # nothing missing: nothing raised


def test_pages_tag_dari_as_afghan_persian_and_lay_out_by_rtl_languages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert [(tags.tag(c), tags.direction(c)) for c in LANGUAGES] == [
        ("en", "ltr"), ("fa-AF", "rtl"), ("ps-AF", "rtl")
    ]  # fmt: skip
    assert (tags.tag("xx"), tags.direction(None)) == ("en", "ltr")
    monkeypatch.setitem(tags.PAGE_LANGUAGES, "ps", PageLanguage("ps-AF", "ltr"))
    assert tags.table_gaps() == [
        "kernel/lang/tags.py PAGE_LANGUAGES['ps'] is ltr, RTL_LANGUAGES says rtl"
    ]
