"""``make run``'s stack tells a newcomer only of routes the credentials serve."""

from __future__ import annotations

from pathlib import Path

from scripts.stack import ROOT, Stack


def _stack(credentials: Path) -> Stack:
    """A stack that is not started: only its credentials are read."""
    stack = Stack.__new__(Stack)
    stack.credentials = credentials
    return stack


def test_the_rest_route_is_named_only_where_the_credentials_serve_it(tmp_path: Path) -> None:
    assert _stack(ROOT / "credentials.yml").serves("rest")
    # The deployment's channels: the web chat and the providers, no REST route (it answers 404).
    deployed = _stack(ROOT / "credentials.channels.yml")
    assert deployed.serves("webchat") and deployed.serves("telegram")
    assert not deployed.serves("rest")
    empty = tmp_path / "credentials.yml"
    empty.write_text("", encoding="utf-8")
    assert not _stack(empty).serves("rest")
