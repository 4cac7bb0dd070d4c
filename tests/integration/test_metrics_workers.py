"""Rasa's ``/metrics`` with two Sanic workers (the production profile): whichever worker answers
the scrape, the turns counted are all the turns taken, by both workers.

Needs PostgreSQL and Redis, as tests/integration/test_shared_stores.py does.
"""

from __future__ import annotations

import json
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator

import psycopg
import pytest
from prometheus_client.parser import text_string_to_metric_families

from scripts.stack import Stack, free_port, fresh_keys, production_store_env
from tests.integration.conftest import MODEL
from tests.integration.test_shared_stores import PG_ADMIN, REDIS_URL, ROOT, _content_cli
from tests.integration.test_shared_stores import services as services  # the fixture

pytestmark = [pytest.mark.integration, pytest.mark.postgres]

TOKEN = "workers-metrics-" + uuid.uuid4().hex
#: Pashto: "when is the plane?"
QUESTION = "الوتکه کله ده"


@pytest.fixture(scope="module")
def two_workers(services: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    suffix = uuid.uuid4().hex[:12]
    name = f"test_metrics_workers_{suffix}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    database = urllib.parse.urlsplit(PG_ADMIN)._replace(path=f"/{name}").geturl()
    content = tmp_path_factory.mktemp("content") / "content.db"
    _content_cli(f"sqlite:///{content}", "migrate")
    _content_cli(f"sqlite:///{content}", "seed")
    stack = Stack(
        model=MODEL,
        content_db_url=f"sqlite:///{content}",
        log_dir=tmp_path_factory.mktemp("workers-logs"),
        rasa_port=free_port(),
        action_port=free_port(),
        endpoints=ROOT / "endpoints.production.yml",
        rasa_workers=2,
        extra_env={
            **production_store_env(database, REDIS_URL, f"test{suffix}"),
            **fresh_keys(),
            "METRICS_TOKEN": TOKEN,
            # Each turn answered before the webhook's answer: counted by the time we scrape.
            "CHANNEL_INTAKE": "direct",
            "SYNC_TURNS_WAITING": "1000",
        },
    )
    try:
        stack.start()
        yield stack
    finally:
        stack.stop()
        with psycopg.connect(PG_ADMIN, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def turns_counted(stack: Stack) -> float:
    request = urllib.request.Request(
        f"{stack.rasa_url}/metrics", headers={"Authorization": f"Bearer {TOKEN}"}
    )
    with urllib.request.urlopen(request, timeout=30) as reply:
        text = reply.read().decode()
    return sum(
        sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == "eia_turns_total" and sample.labels["channel"] == "rest"
    )


def test_every_scrape_adds_up_both_workers_turns(two_workers: Stack) -> None:
    before = turns_counted(two_workers)
    for _ in range(8):  # new connections: the two workers share them
        request = urllib.request.Request(
            f"{two_workers.rasa_url}/webhooks/rest/webhook",
            json.dumps({"sender": "w-" + uuid.uuid4().hex, "message": QUESTION}).encode(),
            {"Content-Type": "application/json", "Connection": "close"},
        )
        with urllib.request.urlopen(request, timeout=60) as reply:
            assert json.loads(reply.read())
    for _ in range(6):  # each scrape may reach either worker
        assert turns_counted(two_workers) - before == 8
