"""The editors' command line, run as editors run it: a real process on a temporary SQLite file.

Checks exit statuses and the exact one-line messages; the content is the demo, seeded now.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from actions.common.kabul_time import KABUL
from actions.content import __main__ as cli
from actions.content.seed.loader import read_file
from actions.content.seed.records import parse

REPO = Path(__file__).resolve().parents[2]
COMMANDS = (
    "migrate",
    "seed",
    "import",
    "export",
    "publish",
    "withdraw",
    "rollback",
    "list",
    "history",
    "translations",
)
KINDS = (
    "organisation",
    "airport-name",
    "airport",
    "gate",
    "flight",
    "announcement",
    "guidance",
    "claim",
)
#: The revisions seeding the demo writes, one per record; the first change is the next one.
SEEDED = len(parse(read_file(), datetime.now(timezone.utc)))
NEXT = SEEDED + 1
CLAIMS = len(read_file()["claims"])
ANSWERS = len(read_file()["answers"])
ADVICE = {
    "en": "The airport is closed after the blast. Do not come.",
    "prs": "میدان هوایی پس از انفجار بسته است. نیایید.",
    "ps": "هوايي ډګر له چاودنې وروسته بند دی. مه راځئ.",
}
KABUL_TIME = r"\d{4}-\d\d-\d\d \d\d:\d\d\+04:30"


def content(path: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    """``python -m actions.content ARGS`` on the SQLite file at ``path``."""
    env = {**os.environ, "CONTENT_DB_URL": f"sqlite:///{path}", "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "actions.content", *map(str, args)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.fixture(scope="module")
def seeded_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "content.db"
    assert content(path, "migrate").returncode == 0
    seeded = content(path, "seed")
    assert seeded.returncode == 0, seeded.stderr
    return path


@pytest.fixture
def database(seeded_template: Path, tmp_path: Path) -> Path:
    path = tmp_path / "content.db"
    shutil.copyfile(seeded_template, path)
    return path


def latest_revision(database: Path) -> str:
    return content(database, "history", "--limit", "1").stdout.split()[0]


def flight_key(database: Path, number: str) -> str:
    listed = content(database, "list", "flight").stdout
    found = re.search(rf"^({number}@\S+)", listed, re.MULTILINE)
    assert found is not None, listed
    return found.group(1)


def test_help_for_every_command(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    root = content(tmp_path / "unused.db", "--help")
    assert root.returncode == 0
    assert all(command in root.stdout for command in COMMANDS)
    for argv in [[c, "--help"] for c in COMMANDS] + [["publish", k, "--help"] for k in KINDS]:
        with pytest.raises(SystemExit) as exited:
            cli.main(argv)
        assert exited.value.code == 0
        assert capsys.readouterr().out.startswith("usage: python -m actions.content ")


def test_publish_an_airport_status_in_one_command(database: Path) -> None:
    published = content(
        database,
        *("publish", "airport", "KBL", "--status", "closed", "--close-gates"),
        *(f"--advice-{lang}={text}" for lang, text in ADVICE.items()),
        *("--source", "us-embassy-kabul", "--editor", "amina"),
        *("--note", "gates shut after blast"),
    )
    assert published.returncode == 0 and published.stderr == ""
    assert re.fullmatch(
        rf"Revision {NEXT}: amina updated airport KBL \(state, advice, verified_at, "
        rf"valid_until\)\. Verified {KABUL_TIME}, valid until {KABUL_TIME}\. Closed with it: gate "
        rf"KBL/east-gate \(revision {NEXT + 3}\), KBL/north-gate \(revision {NEXT + 4}\), "
        rf"KBL/baron-hotel \(revision {NEXT + 5}\)\. Re-checked with it: gate KBL/abbey-gate "
        rf"\(revision {NEXT + 1}\), KBL/civilian-terminal \(revision {NEXT + 2}\)\.\n",
        published.stdout,
    )
    history = content(database, "history", "airport", "KBL").stdout.splitlines()
    assert re.fullmatch(
        rf"{NEXT:>5}  {KABUL_TIME}  amina  update  airport KBL: state: restricted → closed; "
        r"advice; verified_at; valid_until  — gates shut after blast",
        history[0],
    )
    assert len(history) == 2 and "seed  create  airport KBL: created" in history[1]
    assert content(database, "list", "airport").stdout.startswith(
        "KBL  closed  The airport is closed after the blast."
    )


def test_a_missing_language_is_refused_naming_the_options(database: Path) -> None:
    refused = content(
        database, "publish", "airport", "KBL", "--advice-en", ADVICE["en"], "--editor", "amina"
    )
    assert (refused.returncode, refused.stdout) == (1, "")
    assert refused.stderr == (
        "error: missing text: give --advice-prs, --advice-ps (every language of a text you "
        "change, so none keeps an old text), or --allow-missing-translation to publish now "
        "and translate later\n"
    )
    assert latest_revision(database) == str(SEEDED)


def test_an_allowed_missing_translation_is_reported(database: Path) -> None:
    published = content(
        database,
        *("publish", "gate", "KBL", "abbey-gate", "--state", "open"),
        *("--note-en", "Open again for people called by their embassy."),
        *("--editor", "amina", "--allow-missing-translation"),
    )
    assert published.returncode == 0
    assert published.stdout.startswith(
        f"Revision {NEXT}: amina updated gate KBL/abbey-gate (state, "
    )
    assert published.stdout.endswith(
        " Missing translation: note in prs, ps (see `translations`).\n"
    )
    report = content(database, "translations")
    assert (report.returncode, report.stdout) == (
        0,
        "gate KBL/abbey-gate: note in prs, ps\n"
        "1 text(s) missing a translation; readers see another language.\n",
    )


def test_a_flight_delayed_past_midnight_gets_its_new_key(database: Path) -> None:
    key = flight_key(database, "RCH233")  # departs in 26 h
    later = (datetime.now(timezone.utc) + timedelta(days=3)).astimezone(KABUL)
    published = content(
        database,
        *("publish", "flight", key, "--status", "delayed", "--departs-at", later.isoformat()),
        *("--editor", "amina", "--note", "crew rest"),
    )
    assert published.returncode == 0, published.stderr
    new_key = f"RCH233@{later.date().isoformat()}"
    assert published.stdout.startswith(
        f"Revision {NEXT}: amina updated flight {new_key} (departs_at, status, verified_at, "
        "valid_until). Verified "
    )
    assert content(database, "history", "flight", key).stdout.count("\n") == 2


def test_publish_a_new_announcement(database: Path) -> None:
    now = datetime.now(timezone.utc).astimezone(KABUL).isoformat(timespec="minutes")
    published = content(
        database,
        *("publish", "announcement", "airport-closed", "--issuer", "us-embassy-kabul"),
        *("--kind", "safety", "--published-at", now, "--verification", "verified"),
        *(f"--title-{lang}=Closed {lang}" for lang in ADVICE),
        *(f"--text-{lang}={text}" for lang, text in ADVICE.items()),
        *("--source", "us-embassy-kabul", "--editor", "amina"),
    )
    assert published.returncode == 0, published.stderr
    assert published.stdout.startswith(
        f"Revision {NEXT}: amina created announcement airport-closed (issuer, kind, published_at, "
        "verification, title, text, source, verified_at). Verified "
    )


def test_withdraw_and_roll_back(database: Path) -> None:
    key = flight_key(database, "RCH871")
    withdrawn = content(
        database, "withdraw", "flight", key, "--editor", "amina", "--note", "cancelled"
    )
    assert (withdrawn.returncode, withdrawn.stdout) == (
        0,
        f"Revision {NEXT}: amina withdrew flight {key}; answers no longer show it "
        f"(undo: rollback {NEXT}).\n",
    )
    assert "RCH871" not in content(database, "list", "flight").stdout
    assert re.search(
        rf"^{key} .* WITHDRAWN {KABUL_TIME}$",
        content(database, "list", "flight", "--withdrawn").stdout,
        re.MULTILINE,
    )

    undone = content(database, "rollback", str(NEXT), "--editor", "bilal")
    assert (undone.returncode, undone.stdout) == (
        0,
        f"Revision {NEXT + 1}: bilal rolled back revision {NEXT}: flight {key} is as it was "
        f"before it (withdrawn_at restored; undo: rollback {NEXT + 1}).\n",
    )
    assert key in content(database, "list", "flight").stdout

    missing = content(database, "rollback", "9999", "--editor", "bilal")
    assert (missing.returncode, missing.stderr) == (
        1,
        "error: there is no revision 9999; see `history`\n",
    )
    unexplained = content(database, "withdraw", "flight", key, "--editor", "amina")
    assert unexplained.returncode == 2 and "--note" in unexplained.stderr


def test_export_and_import_round_trip(database: Path, tmp_path: Path) -> None:
    first, second, fresh = tmp_path / "a.yml", tmp_path / "b.yml", tmp_path / "fresh.db"
    exported = content(database, "export", first)
    assert exported.stdout == (
        "Exported 18 organisations, 13 airports, 5 gates, 10 flights, 4 announcements, "
        f"18 guidance topics, {CLAIMS} claims, {ANSWERS} answers from sqlite:///{database} "
        f"to {first}.\n"
    )
    assert content(fresh, "migrate").returncode == 0
    imported = content(fresh, "import", first, "--editor", "amina")
    assert (imported.returncode, imported.stdout) == (
        0,
        f"Imported a.yml into sqlite:///{fresh}: 18 organisations, 13 airports, 5 gates, "
        f"10 flights, 4 announcements, 18 guidance topics, {CLAIMS} claims, {ANSWERS} answers "
        f"— {SEEDED} created, "
        f"0 changed, 0 unchanged, 0 withdrawn (revisions 1–{SEEDED}).\n",
    )
    assert content(fresh, "export", second).returncode == 0
    assert second.read_text("utf-8") == first.read_text("utf-8")
    assert content(fresh, "export", "-").stdout == first.read_text("utf-8")


def test_a_bad_import_exits_1_naming_the_line_and_changes_nothing(
    database: Path, tmp_path: Path
) -> None:
    good, bad = tmp_path / "good.yml", tmp_path / "bad.yml"
    content(database, "export", good)
    lines = good.read_text("utf-8").splitlines()
    index = next(i for i, line in enumerate(lines) if "status: boarding" in line)
    lines[index] = lines[index].replace("boarding", "landed")
    bad.write_text("\n".join(lines), "utf-8")
    entry = next(i for i in range(index, 0, -1) if lines[i].startswith("- number:")) + 1

    failed = content(database, "import", bad, "--editor", "amina")
    assert (failed.returncode, failed.stdout) == (1, "")
    assert failed.stderr == (
        f"error: line {entry} (flights[1]): 'status' is 'landed'; expected one of scheduled | "
        "boarding | departed | delayed | cancelled\n"
    )
    assert latest_revision(database) == str(SEEDED)


def test_an_unmigrated_database_and_usage_errors(tmp_path: Path) -> None:
    empty = content(tmp_path / "empty.db", "list", "flight")
    assert empty.returncode == 1
    assert empty.stderr.endswith("run `python -m actions.content migrate` first\n")
    unknown = content(tmp_path / "empty.db", "publish", "spaceship", "X1", "--editor", "a")
    assert unknown.returncode == 2 and "invalid choice: 'spaceship'" in unknown.stderr


def subscribe(database: Path, topic: str, key: str, people: int) -> None:
    with sqlite3.connect(database) as connection:
        connection.executemany(
            "INSERT INTO alert_subscriptions (conversation_id, channel, topic, topic_key, "
            "language, created_at, expires_at) VALUES (?, 'telegram', ?, ?, 'prs', "
            "'2021-08-01 00:00:00', '2099-01-01 00:00:00')",
            [(f"telegram-{n:040x}", topic, key) for n in range(people)],
        )


def alerts_queued(database: Path) -> tuple[int, int]:
    """Broadcasts and deliveries in the outbox, whatever their state."""
    with sqlite3.connect(database) as connection:
        (broadcasts,) = connection.execute("SELECT count(*) FROM alert_broadcasts").fetchone()
        (deliveries,) = connection.execute("SELECT count(*) FROM alert_deliveries").fetchone()
    return broadcasts, deliveries


def test_the_editor_is_told_how_many_subscribers_a_change_alerts(database: Path) -> None:
    subscribe(database, "airport", "KBL", 3)
    published = content(
        database,
        *("publish", "airport", "KBL", "--status", "closed", "--close-gates"),
        *(f"--advice-{lang}={text}" for lang, text in ADVICE.items()),
        *("--source", "us-embassy-kabul", "--editor", "amina"),
    )
    assert published.returncode == 0, published.stderr
    assert published.stdout.rstrip().endswith(
        "3 subscriber(s) will be alerted (progress: python -m actions.alerts status)."
    )
    status = subprocess.run(
        [sys.executable, "-m", "actions.alerts", "status"],
        cwd=REPO,
        env={**os.environ, "CONTENT_DB_URL": f"sqlite:///{database}", "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert re.search(r"airport/KBL by amina: 3 queued$", status.stdout, re.MULTILINE)


def test_an_import_and_a_rollback_alert_subscribers_as_a_change_by_hand_does(
    database: Path, tmp_path: Path
) -> None:
    subscribe(database, "flights", "*", 2)
    changed = tmp_path / "changed.yml"
    content(database, "export", changed)
    text = changed.read_text("utf-8")
    assert "status: boarding" in text
    changed.write_text(text.replace("status: boarding", "status: delayed", 1), "utf-8")

    imported = content(database, "import", changed, "--editor", "amina")
    assert imported.returncode == 0, imported.stderr
    assert "1 changed" in imported.stdout
    assert alerts_queued(database) == (1, 2)

    undone = content(database, "rollback", latest_revision(database), "--editor", "bilal")
    assert undone.returncode == 0, undone.stderr
    assert alerts_queued(database) == (2, 4)


def test_a_flight_and_an_airport_take_their_countries_and_export_them(
    database: Path, tmp_path: Path
) -> None:
    key = flight_key(database, "UAF102")
    published = content(
        database,
        *("publish", "flight", key, "--evacuates-for", "AE", "--editor", "amina"),
    )
    assert published.returncode == 0, published.stderr
    assert published.stdout.startswith(
        f"Revision {NEXT}: amina updated flight {key} (evacuates_for, verified_at, valid_until)."
    )
    named = content(
        database,
        *("publish", "airport-name", "CDG", "--place", "Paris", "--country", "FR"),
        *("--name-en", "Paris Charles de Gaulle Airport", "--name-prs", "میدان هوایی شارل دوگل"),
        *("--name-ps", "شارل دوګول هوايي ډګر", "--city-en", "Paris", "--city-prs", "پاریس"),
        *("--city-ps", "پاریس", "--editor", "amina"),
    )
    assert named.returncode == 0, named.stderr
    bad = content(database, "publish", "flight", key, "--evacuates-for", "XX", "--editor", "amina")
    assert bad.returncode != 0 and "'evacuates_for' is 'XX'; expected one of" in bad.stderr
    exported = content(database, "export", "-").stdout
    uaf102 = exported[exported.index("number: UAF102") :]
    assert uaf102[: uaf102.index("- number:")].count("evacuates_for: AE") == 1
    assert "  place: Paris\n" in exported and "  country: FR\n" in exported
    # Imported into a fresh database, the countries come back as they were.
    copy, fresh = tmp_path / "countries.yml", tmp_path / "fresh.db"
    copy.write_text(exported, "utf-8")
    assert content(fresh, "migrate").returncode == 0
    assert content(fresh, "import", copy, "--editor", "amina").returncode == 0
    assert content(fresh, "export", "-").stdout == exported
