"""The benchmark's messages: the demo claims, and what people ask about them or about nothing.

Paraphrases of each claim in five slices (``told.SLICES``) and messages about no claim, split
into DEVELOPMENT (where the matcher's guard and thresholds are chosen) and TEST (only
reported): paraphrases.yml (two per claim and slice for development, three for test),
paraphrases_dev.yml (development only), styles_dev.yml and styles_test.yml (more writers'
styles, the same message in all five slices, one file per split), unrelated.yml (half and
half), unrelated_test.yml (test only), unchecked.yml (half and half).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

import yaml

from scripts.claims_bench.told import SLICES, Asked

DEV_PER_SLICE: Final = 2
BENCH: Final = Path(__file__).resolve().parent
ROOT: Final = BENCH.parents[1]


def seed() -> list[dict[str, Any]]:
    return list(yaml.safe_load((ROOT / "actions/content/seed/claims.yml").read_text())["claims"])


def claims() -> list[tuple[str, list[str]]]:
    """The demo claims as the matcher indexes them: texts in three languages and phrasings."""
    return [(entry["slug"], [*entry["claim"].values(), *entry["phrasings"]]) for entry in seed()]


def verdicts() -> dict[str, str]:
    """Each demo claim's verdict: what a person matched to it is told."""
    return {entry["slug"]: str(entry["verdict"]) for entry in seed()}


def splits() -> tuple[list[Asked], list[Asked]]:
    """(development, test): paraphrases and unrelated messages."""
    dev: list[Asked] = []
    test: list[Asked] = []
    paraphrases = yaml.safe_load((BENCH / "paraphrases.yml").read_text())["claims"]
    for claim, by_slice in paraphrases.items():
        for name in SLICES:
            for number, text in enumerate(by_slice[name]):
                (dev if number < DEV_PER_SLICE else test).append(Asked(text, name, claim))
    more = yaml.safe_load((BENCH / "paraphrases_dev.yml").read_text())["claims"]
    dev += [
        Asked(text, name, claim)
        for claim, by_slice in more.items()
        for name in SLICES
        for text in by_slice[name]
    ]
    unrelated = yaml.safe_load((BENCH / "unrelated.yml").read_text())["unrelated"]
    for name in SLICES:
        for number, text in enumerate(unrelated[name]):
            (dev if number % 2 == 0 else test).append(Asked(text, name, None))
    held_out = yaml.safe_load((BENCH / "unrelated_test.yml").read_text())["unrelated"]
    test += [Asked(text, name, None) for name in SLICES for text in held_out[name]]
    unchecked = yaml.safe_load((BENCH / "unchecked.yml").read_text())["unchecked"]
    for name in SLICES:
        for number, text in enumerate(unchecked[name]):
            (dev if number < DEV_PER_SLICE else test).append(Asked(text, name, None))
    return dev + styles("styles_dev.yml"), test + styles("styles_test.yml")


def styles(file: str) -> list[Asked]:
    """The paraphrases and unchecked rumours of an aligned style set, each message grouped
    with its versions in the other slices."""
    written = yaml.safe_load((BENCH / file).read_text())
    asked = [
        Asked(text, name, claim, f"{file}:{claim}:{number}")
        for claim, by_slice in written["claims"].items()
        for name in SLICES
        for number, text in enumerate(by_slice[name])
    ]
    return asked + [
        Asked(text, name, None, f"{file}:unchecked:{number}")
        for name in SLICES
        for number, text in enumerate(written["unchecked"][name])
    ]
