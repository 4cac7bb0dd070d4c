"""Helpers for the admin API tests: tokens, database state, the CLI as a real process."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, delete, func, select
from sqlalchemy.orm import Session

from actions.admin import tokens
from actions.content import db
from actions.content.models import Revision
from actions.content.records import snapshot, spec_for
from tests.actions.content_support import NOW

REPO = Path(__file__).resolve().parents[2]
#: The API's clock in these tests: five minutes after the demo was seeded.
LATER = NOW + timedelta(minutes=5)
ADVICE = {
    "en": "The airport is closed after the blast. Do not come.",
    "prs": "میدان هوایی پس از انفجار بسته است. نیایید.",
    "ps": "هوايي ډګر له چاودنې وروسته بند دی. مه راځئ.",
}


@dataclass(frozen=True)
class Tokens:
    amina: str
    revoked: str


def fresh_tokens(engine: Engine) -> Tokens:
    """Amina's token, and Bilal's, revoked; no others (PostgreSQL keeps rows between tests)."""
    with Session(engine) as session, session.begin():
        session.execute(delete(tokens.EditorToken))
        amina = tokens.issue(session, "amina", NOW).token
        revoked = tokens.issue(session, "bilal", NOW).token
        tokens.revoke(session, "bilal", NOW)
    return Tokens(amina, revoked)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def revision_count() -> int:
    with db.session_scope() as session:
        return session.scalar(select(func.count()).select_from(Revision)) or 0


def stored(kind: str, key: str) -> dict[str, Any]:
    """The record as a revision stores it, read in a fresh session."""
    with db.session_scope() as session:
        spec = spec_for(kind)
        row = spec.find(session, spec.normalise(key))
        assert row is not None
        return snapshot(spec, row)


def revision(revision_id: int) -> Revision:
    with db.session_scope() as session:
        row = session.get(Revision, revision_id)
        assert row is not None
        return row


def command(database: Path, module: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m MODULE ARGS`` on the SQLite file ``database``, as an operator runs it."""
    env = {**os.environ, db.URL_ENV: f"sqlite:///{database}", "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
