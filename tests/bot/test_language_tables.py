"""Every table in bot/lang has every language, and a language added without its words is
refused with the list of what is missing (docs/ADDING_A_LANGUAGE.md)."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from types import ModuleType

import pytest

from bot.lang import calendar, codes, letters, names, tags
from bot.lang.calendar import DAY_PARTS, MONTHS, WEEKDAYS, day_part, month, weekday
from bot.lang.codes import LANGUAGES, IncompleteLanguageTable, refuse_gaps
from bot.lang.letters import WRITTEN_DIGITS
from bot.lang.names import LANGUAGE_NAMES, READING_ORDER, own_name
from bot.lang.tags import PAGE_LANGUAGES, PageLanguage

TABLE_MODULES: tuple[ModuleType, ...] = (calendar, letters, names, tags)


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
    assert "bot/lang/letters.py WRITTEN_DIGITS has no 'ur'" in found
    assert "bot/lang/names.py LANGUAGE_NAMES['prs'] has no 'ur'" in found
    assert "bot/lang/tags.py PAGE_LANGUAGES has no 'ur'" in found
    assert any(gap.startswith("bot/lang/names.py READING_ORDER['ps'] must") for gap in found)
    with pytest.raises(IncompleteLanguageTable, match=r"MONTHS has no 'ur'"):
        importlib.reload(calendar)


def test_a_table_with_an_unknown_language_or_a_missing_month_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(calendar.MONTHS, "xx", {1: "Jan"})
    monkeypatch.setitem(calendar.WEEKDAYS, "en", {1: "Mon"})
    found = calendar.table_gaps()
    assert "bot/lang/calendar.py MONTHS has 'xx', not in LANGUAGES" in found
    assert "bot/lang/calendar.py WEEKDAYS['en'] has no [2, 3, 4, 5, 6, 7]" in found
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
        "bot/lang/tags.py PAGE_LANGUAGES['ps'] is ltr, RTL_LANGUAGES says rtl"
    ]
