"""``/alerts``: what became of the alerts editors' changes set off (queued / sent / failed…).

Counts only: which change alerted how many people, never who.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web
from sqlalchemy.orm import Session

from actions.admin.inputs import query_int
from actions.admin.state import in_transaction
from actions.alerts.outbox import latest
from actions.common.outbox import DeliveryStatus

routes = web.RouteTableDef()
DEFAULT_LIMIT, MAX_LIMIT = 20, 500
STATUSES = [status.value for status in DeliveryStatus]
ALERT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "revision": {"type": "integer", "description": "the change that set it off"},
        "topic": {"enum": ["airport", "flights", "announcements"]},
        "key": {"type": "string", "description": "airport code, or * for every destination"},
        "editor": {"type": "string"},
        "created_at": {"type": "string", "format": "date-time"},
        "deliveries": {
            "type": "object",
            "description": "how many deliveries are in each status",
            "properties": {status: {"type": "integer"} for status in STATUSES},
        },
    },
}


@routes.get("/alerts")
async def alerts(request: web.Request) -> web.Response:
    """The latest alerts, newest first, each with its deliveries counted by status."""
    limit = query_int(request, "limit", DEFAULT_LIMIT, MAX_LIMIT)

    def read(session: Session) -> list[dict[str, Any]]:
        return [
            {
                "id": broadcast.id,
                "revision": broadcast.revision_id,
                "topic": broadcast.topic.value,
                "key": broadcast.topic_key,
                "editor": broadcast.editor,
                "created_at": broadcast.created_at.isoformat(),
                "deliveries": {status: counts.get(status, 0) for status in STATUSES},
            }
            for broadcast, counts in latest(session, limit)
        ]

    return web.json_response({"alerts": await in_transaction(request, read)})
