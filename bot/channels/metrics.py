"""Rasa's ``/metrics`` route: the counts of ``counts.py`` and the intake's lines.

The intake's lines (``intake.py``) are read when Prometheus asks, not counted: how many
messages wait and how long the oldest has waited are facts of the line, shared by every
process in the production profile (Redis Streams), so any worker that answers the scrape
reads the whole truth. The route is added to Rasa's app by
``bot/server.py`` whatever the credentials file says (``metrics_blueprint``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any, Final

from prometheus_client.core import GaugeMetricFamily, Metric
from sanic import response
from sanic.request import Request
from sanic.response import HTTPResponse

from bot.channels.blueprints import Blueprint
from bot.channels.intake.worker import Intake
from kernel.metrics import CONTENT_TYPE, METRICS_PATH, exposition, name, refusal

logger = logging.getLogger(__name__)

#: Reading a line (Redis) must not hold the scrape longer than Prometheus waits for it.
LINE_READ_SECONDS: Final = 3.0


async def intake_families(channels: Iterable[Any]) -> list[Metric]:
    """The intake's lines as gauges, read now: messages in line (waiting or being answered)
    and the age of the oldest one not yet taken, per channel; ``eia_intake_up`` 0 for a line
    that could not be read (its Redis is down)."""
    depth = GaugeMetricFamily(
        name("intake_depth"),
        "Messages in the channel's intake line, waiting or being answered",
        labels=["channel"],
    )
    oldest = GaugeMetricFamily(
        name("intake_oldest_wait_seconds"),
        "How long the oldest message of the channel's line not yet taken has waited (0: none)",
        labels=["channel"],
    )
    readable = GaugeMetricFamily(
        name("intake_up"), "Whether the channel's intake line could be read", labels=["channel"]
    )
    found = False
    for channel in channels:
        intake = getattr(channel, "intake", None)
        if not isinstance(intake, Intake):
            continue
        found = True
        label = [channel.name()]
        try:
            count, age = await asyncio.wait_for(_read(intake), LINE_READ_SECONDS)
        except Exception as error:  # a scrape never fails for one line
            logger.warning("metrics: the %s line unreadable (%s)", label[0], type(error).__name__)
            readable.add_metric(label, 0)
            continue
        readable.add_metric(label, 1)
        depth.add_metric(label, count)
        oldest.add_metric(label, age)
    return [depth, oldest, readable] if found else []


async def _read(intake: Intake) -> tuple[int, float]:
    now = intake.clock()
    count = await intake.line.depth()
    waiting = await intake.line.waiting(now)
    age = max(0.0, now - min(job.put_at for job in waiting)) if waiting else 0.0
    return count, age


def metrics_blueprint(token: str | None, multiprocess_dir: str | None) -> Blueprint:
    """``GET /metrics`` for Prometheus, behind ``METRICS_TOKEN`` (``kernel/metrics.py``)."""
    blueprint = Blueprint("metrics")

    @blueprint.route(METRICS_PATH, methods=["GET"])
    async def metrics(request: Request) -> HTTPResponse:
        refused = refusal(token, request.headers.get("authorization"))
        if refused is not None:
            return response.json(refused.body(), status=refused.status, headers=refused.headers)
        channels = getattr(request.app.ctx, "input_channels", None) or []
        now = await intake_families(channels)
        return response.raw(exposition(multiprocess_dir, now), content_type=CONTENT_TYPE)

    return blueprint
