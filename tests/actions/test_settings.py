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


def test_the_action_server_listens_on_this_machine_unless_told_otherwise() -> None:
    local = settings.ActionServerSettings.from_env({})
    assert local == settings.ActionServerSettings(host="127.0.0.1", secret=None)
    given = settings.ActionServerSettings.from_env(
        {"SANIC_HOST": "10.0.0.5", "ACTION_SERVER_SECRET": " s3cret "}
    )
    assert given == settings.ActionServerSettings(host="10.0.0.5", secret="s3cret")
    environ: dict[str, str] = {}
    local.hand_to_rasa_sdk(environ)  # rasa-sdk would bind to every interface without it
    assert environ == {"SANIC_HOST": "127.0.0.1"}


@pytest.mark.parametrize("host", ["0.0.0.0", "10.0.0.5", "actions.internal", ""])
def test_an_action_server_others_can_reach_without_a_secret_does_not_start(
    host: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from actions import server

    with pytest.raises(settings.SettingsError, match="reachable from other machines"):
        settings.ActionServerSettings.from_env({"SANIC_HOST": host, "ACTION_SERVER_SECRET": " "})
    monkeypatch.setenv("SANIC_HOST", host)
    monkeypatch.delenv("ACTION_SERVER_SECRET", raising=False)
    assert server.main() == 2
    assert capsys.readouterr().err == (
        f"Action server not started: SANIC_HOST={host} makes the action server reachable from "
        "other machines: set ACTION_SERVER_SECRET (the same value for Rasa, endpoints.yml sends "
        "it) or bind to 127.0.0.1\n"
    )
