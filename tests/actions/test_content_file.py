"""Content files from partners are read within bounds: no aliases, bounded depth and size.

The payloads are the ones that froze or broke the admin server: a 386-byte "billion laughs"
of nested aliases, and thousands of ``[``.
"""

from __future__ import annotations

import time

import pytest
import yaml

from actions.content.seed.content_file import MAX_DEPTH, MAX_NODES, ContentFileRefused, read_content
from actions.content.seed.loader import DEMO_FILE, read_file


def alias_bomb(levels: int = 7) -> str:
    """9^levels strings in about 50 bytes a level (386 bytes for 7)."""
    lines = ["l0: &l0 [" + ",".join(['"lol"'] * 9) + "]"]
    lines += [f"l{i}: &l{i} [" + ",".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


def refusal(text: str) -> ContentFileRefused:
    with pytest.raises(ContentFileRefused) as refused:
        read_content(text)
    return refused.value


@pytest.mark.serial  # a bound of milliseconds: not beside another worker
def test_the_alias_bomb_is_refused_at_its_first_anchor_in_well_under_a_second() -> None:
    bomb = alias_bomb()
    assert len(bomb.encode()) == 386
    started = time.perf_counter()
    error = refusal(bomb)
    elapsed = time.perf_counter() - started
    assert error.problem_mark is not None and error.problem_mark.line + 1 == 1
    assert "anchors and aliases" in str(error) and "line 1" in str(error)
    assert elapsed < 0.1, f"{elapsed * 1000:.1f} ms"


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("organisations:\n  unhcr: &org\n    en: UNHCR\n", 2),
        ("a: [1]\nb: *nowhere\n", 2),  # an alias without its anchor: refused all the same
        ("flights:\n  - &f {number: RCH871}\n  - *f\n", 2),
    ],
    ids=["anchor", "alias", "both"],
)
def test_anchors_and_aliases_are_refused_naming_their_line(text: str, line: int) -> None:
    error = refusal(text)
    assert error.problem_mark is not None and error.problem_mark.line + 1 == line


@pytest.mark.parametrize("brackets", [MAX_DEPTH + 1, 5_000, 50_000])
def test_deep_nesting_is_refused_not_a_recursion_error(brackets: int) -> None:
    error = refusal("[" * brackets)
    assert f"more than {MAX_DEPTH} levels" in str(error)


def test_nesting_up_to_the_limit_still_reads() -> None:
    assert read_content("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None


def test_more_values_than_the_cap_are_refused() -> None:
    assert len(read_content("[" + ",".join(["1"] * (MAX_NODES - 1)) + "]")) == MAX_NODES - 1  # type: ignore[arg-type]
    error = refusal("[" + ",".join(["1"] * MAX_NODES) + "]")
    assert f"more than {MAX_NODES:,} values" in str(error)


def test_the_demo_file_reads_with_every_mapping_knowing_its_line() -> None:
    document = read_file(DEMO_FILE)
    assert document.line == 1 or document.line > 0
    assert document == yaml.safe_load(DEMO_FILE.read_text(encoding="utf-8"))


def test_the_cli_reader_words_a_refusal_as_a_seed_error(tmp_path: object) -> None:
    from pathlib import Path

    from actions.content.seed.entries import SeedError

    bomb = Path(str(tmp_path)) / "bomb.yml"
    bomb.write_text(alias_bomb(), encoding="utf-8")
    with pytest.raises(SeedError, match=r"bomb.yml: not valid YAML: .*anchors and aliases"):
        read_file(bomb)
