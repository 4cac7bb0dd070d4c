"""Editors give places a position, both halves of it and on Earth, or none; positions go into
the revision history and the admin API's schema like every other field."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import Engine

from actions.admin.schema import values_schema
from actions.content import db, editing
from actions.content.models import RecordKind
from actions.content.records import spec_for
from actions.content.validation import ContentError
from tests.actions.content_support import NOW

LATER = NOW + timedelta(minutes=10)


def publish(kind: str, key: str, changes: dict[str, Any]) -> Any:
    with db.session_scope() as session:
        revision = editing.publish(session, "amina", kind, key, changes, "moved", now=LATER)
        return None if revision is None else revision.after


def test_a_gate_gets_a_position_recorded_in_its_history(content_db: Engine) -> None:
    after = publish("gate", "KBL/east-gate", {"latitude": "34.5650", "longitude": 69.225})
    assert (after["latitude"], after["longitude"]) == (34.565, 69.225)
    cleared = publish("gate", "KBL/east-gate", {"latitude": "", "longitude": None})
    assert (cleared["latitude"], cleared["longitude"]) == (None, None)


@pytest.mark.parametrize(
    ("kind", "key", "changes", "field"),
    [
        ("gate", "KBL/east-gate", {"latitude": 134.5, "longitude": 69.2}, "latitude"),
        ("gate", "KBL/east-gate", {"latitude": 34.5, "longitude": "east"}, "longitude"),
        ("airport-name", "KBL", {"latitude": None}, "latitude"),  # longitude stays: half a pair
        ("guidance", "keep-documents-hidden", {"latitude": 34.5, "longitude": 69.2}, "latitude"),
    ],
)
def test_a_position_that_is_no_place_is_refused(
    content_db: Engine, kind: str, key: str, changes: dict[str, Any], field: str
) -> None:
    with pytest.raises(ContentError) as refused:
        publish(kind, key, changes)
    assert refused.value.field == field


def test_the_admin_api_says_what_a_position_is() -> None:
    schema = values_schema(spec_for(RecordKind.GATE))["properties"]
    assert schema["latitude"]["type"] == ["number", "null"]
    assert (schema["latitude"]["minimum"], schema["latitude"]["maximum"]) == (-90, 90)
    assert (schema["longitude"]["minimum"], schema["longitude"]["maximum"]) == (-180, 180)
