"""``/metrics`` on every process of a running stack: Rasa, the action server, the notifier and
the admin server, each readable with ``METRICS_TOKEN`` only; a few turns move Rasa's and the
action server's counts by exactly what they were, and an apology is counted as one."""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from scripts.stack import Stack, free_port
from tests.integration.conftest import running_stack

pytestmark = pytest.mark.integration

TOKEN = "metrics-test-" + uuid.uuid4().hex
#: Dari: "when is the next flight to Doha?"
FLIGHTS_IN_DARI = "پرواز بعدی به دوحه چه وقت است"

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


@pytest.fixture(scope="module")
def stack(content_db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with running_stack(
        content_db_url,
        tmp_path_factory,
        "metrics-logs",
        extra_env={"METRICS_TOKEN": TOKEN, "RASA_API_TOKEN": "metrics-api-" + uuid.uuid4().hex},
        with_notifier=True,
        admin_port=free_port(),
        notifier_metrics_port=free_port(),
    ) as running:
        yield running


def metrics_urls(stack: Stack) -> dict[str, str]:
    return {
        "rasa": f"{stack.rasa_url}/metrics",
        "actions": f"{stack.action_url}/metrics",
        "admin": f"{stack.admin_url}/metrics",
        "notifier": f"http://{stack.host}:{stack.notifier_metrics_port}/metrics",
    }


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return int(reply.status), reply.read().decode()
    except urllib.error.HTTPError as error:
        return int(error.code), error.read().decode()
    except urllib.error.URLError:
        return 0, ""


def scrape(url: str) -> Samples:
    status, text = get(url, {"Authorization": f"Bearer {TOKEN}"})
    assert status == 200, text
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def moved(before: Samples, after: Samples, name: str, **labels: str) -> float:
    key = (name, tuple(sorted(labels.items())))
    return after.get(key, 0.0) - before.get(key, 0.0)


def rest(stack: Stack, sender: str, text: str) -> list[dict[str, Any]]:
    request = urllib.request.Request(
        f"{stack.rasa_url}/webhooks/rest/webhook",
        json.dumps({"sender": sender, "message": text}).encode(),
        {"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as reply:
        replies: list[dict[str, Any]] = json.loads(reply.read())
    return replies


def test_every_process_serves_metrics_to_the_token_only(stack: Stack) -> None:
    urls = metrics_urls(stack)
    deadline = time.monotonic() + 30  # the notifier starts after Rasa, without a health check
    while get(urls["notifier"])[0] == 0 and time.monotonic() < deadline:
        time.sleep(0.3)
    for process, url in urls.items():
        assert get(url)[0] == 401, process
        assert get(url, {"Authorization": "Bearer a-guess"})[0] == 401, process
        status, text = get(url, {"Authorization": f"Bearer {TOKEN}"})
        assert status == 200, process
        assert list(text_string_to_metric_families(text)), process


def test_turns_and_actions_move_by_what_was_asked(stack: Stack) -> None:
    rasa, actions = metrics_urls(stack)["rasa"], metrics_urls(stack)["actions"]
    rasa_before, actions_before = scrape(rasa), scrape(actions)
    for _ in range(3):
        replies = rest(stack, "metrics-" + uuid.uuid4().hex, FLIGHTS_IN_DARI)
        assert replies and "QR" in json.dumps(replies, ensure_ascii=False)
    rasa_after, actions_after = scrape(rasa), scrape(actions)

    answered = {"channel": "rest", "outcome": "answered", "language": "prs"}
    assert moved(rasa_before, rasa_after, "eia_turns_total", **answered) == 3
    assert moved(rasa_before, rasa_after, "eia_turn_duration_seconds_count", channel="rest") == 3
    assert (
        moved(rasa_before, rasa_after, "eia_apologies_total", channel="rest", language="prs") == 0
    )
    flights = {"action": "action_answer_flights", "outcome": "ok"}
    assert moved(actions_before, actions_after, "eia_actions_total", **flights) == 3
    assert not any("metrics-" in str(labels) for _, labels in rasa_after)  # no sender as a label


def test_an_apology_for_a_dead_action_server_is_counted(stack: Stack) -> None:
    rasa = metrics_urls(stack)["rasa"]
    person = "metrics-" + uuid.uuid4().hex
    assert rest(stack, person, FLIGHTS_IN_DARI)  # past a new person's first turn
    before = scrape(rasa)
    actions = stack.processes()["actions"]
    os.killpg(actions.pid, signal.SIGKILL)
    actions.wait(timeout=10)
    replies = rest(stack, person, FLIGHTS_IN_DARI)
    assert len(replies) == 1  # the apology alone
    after = scrape(rasa)
    assert moved(before, after, "eia_apologies_total", channel="rest", language="prs") == 1
    apologised = {"channel": "rest", "outcome": "apologised", "language": "prs"}
    assert moved(before, after, "eia_turns_total", **apologised) == 1
