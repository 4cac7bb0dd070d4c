"""The systemd units: one user per program, one shared group, and every one may write var/."""

from __future__ import annotations

import configparser
from pathlib import Path

import pytest

UNITS = sorted((Path(__file__).resolve().parents[2] / "scripts" / "systemd").glob("*.service"))
VAR = "/opt/evacuee-assistant/var"


def service(path: Path) -> dict[str, str]:
    """The unit's [Service] section (continued lines joined, as systemd reads them)."""
    parser = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("=",))
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(path.read_text(encoding="utf-8").replace("\\\n", " "))
    return dict(parser["Service"])


def test_there_are_the_four_programs() -> None:
    assert [unit.stem for unit in UNITS] == [
        "evacuee-actions",
        "evacuee-admin",
        "evacuee-notifier",
        "evacuee-rasa",
    ]


def test_each_program_runs_as_a_user_of_its_own_in_one_shared_group() -> None:
    users = [service(unit)["User"] for unit in UNITS]
    assert users == [unit.stem for unit in UNITS]  # evacuee-rasa runs Rasa, and so on
    assert {service(unit)["Group"] for unit in UNITS} == {"evacuee"}


@pytest.mark.parametrize("unit", UNITS, ids=[unit.stem for unit in UNITS])
def test_each_unit_can_write_var_and_sees_no_other_users_processes(unit: Path) -> None:
    settings = service(unit)
    assert settings["ProtectSystem"] == "strict" and settings["ReadWritePaths"] == VAR
    assert settings["ProtectProc"] == "invisible" and settings["UMask"] == "0007"


def test_the_admin_unit_names_what_closing_a_case_needs() -> None:
    text = (UNITS[1]).read_text(encoding="utf-8")
    assert "RASA_URL" in text and "RASA_API_TOKEN" in text and "CASE_WEBHOOK_URL" in text


@pytest.mark.parametrize("unit", [UNITS[0], UNITS[3]], ids=["actions", "rasa"])
def test_the_servers_with_workers_have_a_directory_to_add_up_their_counts(unit: Path) -> None:
    directory = service(unit)["RuntimeDirectory"]
    assert directory.startswith(unit.stem)  # its own, emptied on each start and stop
    lines = unit.read_text(encoding="utf-8").splitlines()
    assert f"Environment=PROMETHEUS_MULTIPROC_DIR=/run/{directory}" in lines
