"""The action server's environment variables: defaults that work locally, clear errors."""

from __future__ import annotations

import pytest

from actions import settings


def test_defaults() -> None:
    assert settings.content_db_url({}) is None


def test_values_from_the_environment() -> None:
    assert settings.content_db_url({"CONTENT_DB_URL": " sqlite:///x.db "}) == "sqlite:///x.db"


def test_the_emergency_hotline_is_optional_and_kept_on_one_line() -> None:
    assert settings.emergency_hotline({}) is None
    assert settings.emergency_hotline({"EMERGENCY_HOTLINE": "  "}) is None
    raw = " +93 700 000 100\n (Kabul Aid Network) "
    hotline = settings.emergency_hotline({"EMERGENCY_HOTLINE": raw})
    assert hotline == "+93 700 000 100 (Kabul Aid Network)"


def test_an_emergency_hotline_without_a_number_says_what_to_give() -> None:
    with pytest.raises(settings.SettingsError, match=r"EMERGENCY_HOTLINE is 'call us'; give a"):
        settings.emergency_hotline({"EMERGENCY_HOTLINE": "call us"})
