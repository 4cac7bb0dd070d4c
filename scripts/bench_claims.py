"""Rumours: does a message find the checked claim it is about, only that one, and the same one
whichever of the five ways it is written?

    .venv/actions/bin/python scripts/bench_claims.py [--misses]

Indexes the demo claims (actions/content/seed/claims.yml: the claim in three languages and its
phrasings) and asks them the benchmark's messages (scripts/claims_bench/messages.py: paraphrases
in five slices, en, Dari and Pashto in Arabic script and in Latin letters; messages about no
claim; rumours nobody checked), split into DEVELOPMENT and TEST. Chooses the everyday guard and
the decision's thresholds (where a match starts, when two are offered, where a match is strong)
on the DEVELOPMENT split and reports both splits: top-1 per slice, what people are told, whether
one rumour gets the same verdict in every slice (scripts/claims_bench/told.py), strong and weak
matches. Compares the matcher's variants (senses, the claim as a whole, places, skeletons, frame
words, guards), each with thresholds chosen on dev; then times building and matching with 5 000
claims (synthetic ones built from the real texts' words). Prints Markdown; ``--misses`` adds the
development split's misses and false matches, to see why (never the test split's: nothing is
tuned on them).
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import string
import sys
import time
from bisect import bisect_left
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any, Final

ROOT: Final = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from actions.claims.everyday import everyday_questions  # noqa: E402
from actions.claims.matching import (  # noqa: E402
    WHOLE,
    ClaimIndex,
    Guard,
    Nearness,
    Thresholds,
    decide,
)
from scripts.claims_bench.messages import claims, splits, verdicts  # noqa: E402
from scripts.claims_bench.told import (  # noqa: E402
    SLICES,
    Asked,
    Ranked,
    choose_strong,
    consistency,
    consistency_table,
    same_everywhere,
    strength,
    strength_table,
)

SYNTHETIC_CLAIMS: Final = 5000


def ranked(index: ClaimIndex, asked: list[Asked], guard: Guard) -> Ranked:
    """Each message with the claims the index ranks for it under ``guard``."""
    return [(item, index.match(item.text, guard=guard)) for item in asked]


def guarded(near: list[tuple[Asked, Nearness]], guard: Guard) -> Ranked:
    """The same, from how near each message came (``ClaimIndex.nearness``, worked out once)."""
    return [(item, nearness.candidates(guard)) for item, nearness in near]


def top1(seen: Ranked) -> dict[str, float]:
    """Share of paraphrases whose best-ranked claim is theirs, per slice and overall."""
    hits: Counter[str] = Counter()
    totals: Counter[str] = Counter()
    for item, candidates in seen:
        if item.claim is None:
            continue
        for key in (item.slice, "all"):
            totals[key] += 1
            hits[key] += bool(candidates) and candidates[0].claim == item.claim
    return {key: hits[key] / totals[key] for key in totals}


def outcomes(seen: Ranked, thresholds: Thresholds) -> Counter[str]:
    """What people are told: right/wrong single match, a choice with or without theirs, none."""
    told: Counter[str] = Counter()
    for item, candidates in seen:
        decision = decide(candidates, thresholds)
        keys = [candidate.claim for candidate in decision.candidates]
        if item.claim is None:
            told[f"{item.slice}:unrelated"] += 1
            told[f"{item.slice}:false_{decision.kind}"] += decision.kind != "none"
            continue
        told[f"{item.slice}:asked"] += 1
        if decision.kind == "none":
            told[f"{item.slice}:missed"] += 1
        elif item.claim not in keys:
            told[f"{item.slice}:wrong"] += 1
        else:
            told[f"{item.slice}:{decision.kind}"] += 1
    return told


def total(seen: Counter[str], outcome: str) -> int:
    return sum(count for key, count in seen.items() if key.endswith(":" + outcome))


def found_and_false(seen: Ranked, thresholds: Thresholds) -> tuple[int, int]:
    """Paraphrases whose claim the person is shown (alone or as one of two), and unrelated
    messages shown any claim."""
    told = outcomes(seen, thresholds)
    return total(told, "one") + total(told, "two"), false_matches(told)


def false_matches(told: Counter[str]) -> int:
    return total(told, "false_one") + total(told, "false_two")


def choose_thresholds(dev: Ranked) -> tuple[tuple[int, int, float], Thresholds]:
    """The thresholds that find most dev paraphrases with at most 1 % false matches, and
    how they score: (found, -offered two, match threshold). The same as asking ``decide``
    with each pair of thresholds, from each message's two best scores."""
    unrelated = sorted(top[0] for item, top in _two_best(dev) if item.claim is None)
    asked = [top for item, top in _two_best(dev) if item.claim is not None]
    best: tuple[tuple[int, int, float], Thresholds] | None = None
    for match_step in range(10, 81):
        match = match_step / 100
        if len(unrelated) - bisect_left(unrelated, match) > len(unrelated) // 100:
            continue
        shown = [top for top in asked if top[0] >= match]
        for close_step in range(0, 16):
            close = close_step / 100
            found = twos = 0
            for first, second, is_first, is_second in shown:
                two = second >= match and first - second <= close
                found += is_first or (two and is_second)
                twos += two and (is_first or is_second)
            score = (found, -twos, match)
            if best is None or score > best[0]:
                best = (score, Thresholds(match=match, close=close))
    assert best is not None, "no thresholds keep false matches at 1 %"
    return best


def _two_best(seen: Ranked) -> list[tuple[Asked, tuple[float, float, bool, bool]]]:
    """Each message's best two scores (-1 for none) and whether each is its claim's."""
    tops = []
    for item, candidates in seen:
        first, second = (*candidates[:2], None, None)[:2]
        tops.append(
            (
                item,
                (
                    first.score if first else -1.0,
                    second.score if second else -1.0,
                    first is not None and first.claim == item.claim,
                    second is not None and second.claim == item.claim,
                ),
            )
        )
    return tops


#: The guards tried on the development split: everyday margin, hearsay margin, length share,
#: the length that always counts.
GUARDS: Final = [
    Guard(margin, hearsay, share, enough)
    for margin in (0.0, -0.05)
    for hearsay in (-0.1, -0.15, -0.2, -0.3)
    for share in (0.0, 0.34, 0.5, 0.6, 0.67)
    for enough in ((99,) if share == 0.0 else (3, 4, 99))
]


def choose_guard(index: ClaimIndex, dev: list[Asked]) -> tuple[Guard, Thresholds]:
    """The guard (and its thresholds) finding most dev paraphrases at ≤ 1 % false matches;
    between equals the strictest (larger margins, a shorter everyday question counting)."""
    best: tuple[tuple[float, ...], Guard, Thresholds] | None = None
    near = [(item, index.nearness(item.text)) for item in dev]
    for guard in GUARDS:
        (found, twos, match), thresholds = choose_thresholds(guarded(near, guard))
        strictness = (guard.margin, guard.hearsay_margin, -guard.share, -guard.enough)
        score = (found, twos, *strictness, match)
        if best is None or score > best[0]:
            best = (score, guard, thresholds)
    assert best is not None
    return best[1], best[2]


def misses(seen: Ranked, thresholds: Thresholds) -> list[str]:
    """Each message that was not found or that matched although unrelated, with the ranking."""
    lines = []
    for item, candidates in seen:
        keys = [candidate.claim for candidate in decide(candidates, thresholds).candidates]
        if (item.claim is None) == (not keys) and (item.claim is None or item.claim in keys):
            continue
        near = "; ".join(f"{c.claim} {c.score:.2f} «{c.text}»" for c in candidates[:2])
        about = item.claim or "no claim"
        lines.append(f"- {item.slice}: «{item.text}» is {about}; ranked {near or 'nothing'}")
    return lines


def synthetic(real: list[tuple[str, list[str]]], count: int) -> list[tuple[str, list[str]]]:
    """Claims shaped like the real ones, about other things: each copies a real claim's texts
    with the letters of each script shuffled (one shuffle per synthetic claim), so lengths,
    scripts and the spread of n-grams stay those of real texts while the words differ."""
    chance = random.Random(2021)
    alphabets = [sorted(set(string.ascii_lowercase)), sorted(_ARABIC_LETTERS)]
    made = []
    for number in range(count):
        _, texts = chance.choice(real)
        table: dict[int, str] = {}
        for letters in alphabets:
            shuffled = letters[:]
            chance.shuffle(shuffled)
            table |= {ord(a): b for a, b in zip(letters, shuffled, strict=True)}
        made.append((f"synthetic-{number}", [text.lower().translate(table) for text in texts]))
    return made


#: The Arabic-script letters of Dari and Pashto, shuffled among themselves by ``synthetic``.
_ARABIC_LETTERS: Final = set("ابپتټثجچحخځڅدډذرړزژږسشښصضطظعغفقکګگلمنڼوهیېۍ")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    real = claims()
    dev, test = splits()
    print("# Claims: matching rumours to checked claims\n")
    print(
        f"{time.strftime('%Y-%m-%d')}, {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, {len(real)} demo claims; development split {len(dev)} "
        f"messages ({sum(item.claim is not None for item in dev)} paraphrases), test split "
        f"{len(test)} ({sum(item.claim is not None for item in test)} paraphrases, "
        f"{sum(item.claim is None for item in test)} about no claim)\n"
    )
    everyday = list(everyday_questions())
    index = ClaimIndex(real, everyday=everyday)
    guard, thresholds = choose_guard(index, dev)
    thresholds = replace(thresholds, strong=choose_strong(ranked(index, dev, guard), thresholds))
    variants_table(real, everyday, index, guard, dev, test)
    default = (Guard(), Thresholds())
    same = "the same" if default == (guard, thresholds) else f"DIFFERENT: {default!r}"
    print(
        f"\n## Decision (chosen on dev among {len(GUARDS)} guards: a claim "
        f"counts if the message comes within {0.0 - guard.margin:.2f} of the nearest of "
        f"{len(everyday)} everyday questions (data/nlu) that has ≥ {guard.share:.0%} of its "
        f"words or {guard.enough}, within {0.0 - guard.hearsay_margin:.2f} when it passes on "
        f"hearsay; match ≥ {thresholds.match:.2f}, a second claim within "
        f"{thresholds.close:.2f} is offered too, a single match ≥ {thresholds.strong:.2f} is "
        f"strong; matching.py's defaults are {same})\n"
    )
    on_dev, on_test = ranked(index, dev, guard), ranked(index, test, guard)
    if "--misses" in sys.argv:
        print("Misses and false matches on the development split:\n")
        print("\n".join(misses(on_dev, thresholds)) or "none", end="\n\n")
    for name, seen in (("development", on_dev), ("test", on_test)):
        print(f"### {name.capitalize()} split\n")
        print("\n".join(decision_table(outcomes(seen, thresholds))), end="\n\n")
        told_report(seen, thresholds)
    scale_report(real, everyday, guard, thresholds, test)


def variants_table(
    real: list[tuple[str, list[str]]],
    everyday: list[str],
    index: ClaimIndex,
    guard: Guard,
    dev: list[Asked],
    test: list[Asked],
) -> None:
    """The matcher's variants, each with thresholds chosen on dev, on both splits."""
    print(
        "## Variants (dev / test): top-1 on the paraphrases; then, with thresholds chosen on "
        "dev for each variant, paraphrases whose claim is shown and messages about no claim "
        "shown one\n"
    )
    print("| variant | " + " | ".join(SLICES) + " | all | found | falsely matched |")
    print("|---" * (len(SLICES) + 4) + "|")
    checked = {"everyday": everyday}
    # Every option and guard field named: the variants must not follow matching.py's defaults.
    nearest = {"senses": False, "whole": 0.0, "elsewhere": False}
    earlier = Guard(margin=0.0, hearsay_margin=-0.1, share=0.6, enough=99)
    variants: dict[str, tuple[dict[str, Any], Guard]] = {
        "no everyday guard": ({}, guard),
        "nearest text only (the claim's score before)": ({**checked, **nearest}, guard),
        "+ senses": ({**checked, "whole": 0.0, "elsewhere": False}, guard),
        f"+ the claim as a whole ({WHOLE:.0%} of the score)": (
            {**checked, "elsewhere": False},
            guard,
        ),
        "+ places: a claim naming places, not for a message about others (chosen)": (
            checked,
            guard,
        ),
        "chosen, the claim as a whole 50%": ({**checked, "whole": 0.5}, guard),
        "chosen, the claim as a whole only": ({**checked, "whole": 1.0}, guard),
        "chosen, no senses": ({**checked, "senses": False}, guard),
        "chosen, no skeletons": ({**checked, "skeletons": False}, guard),
        "chosen, frame words kept": ({**checked, "frames": False}, guard),
        "chosen, the guard before (within 0.00, hearsay 0.10, ≥ 60% of the words)": (
            checked,
            earlier,
        ),
    }
    for name, (options, variant_guard) in variants.items():
        variant = index if options == checked else ClaimIndex(real, **options)
        on_dev, on_test = ranked(variant, dev, variant_guard), ranked(variant, test, variant_guard)
        chosen = choose_thresholds(on_dev)[1]
        found_dev, false_dev = found_and_false(on_dev, chosen)
        found_test, false_test = found_and_false(on_test, chosen)
        first_dev, first_test = top1(on_dev), top1(on_test)
        cells = [f"{first_dev[key]:.2f} / {first_test[key]:.2f}" for key in (*SLICES, "all")]
        cells += [f"{found_dev} / {found_test}", f"{false_dev} / {false_test}"]
        print(f"| {name} | " + " | ".join(cells) + " |")


def decision_table(seen: Counter[str]) -> list[str]:
    """Markdown: per slice, what the paraphrases and the messages about no claim are told."""
    lines = [
        "| slice | asked | one, right | two, theirs among | wrong | none | about no claim "
        "| falsely matched |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name in (*SLICES, "all"):
        pick = Counter(
            {key: n for key, n in seen.items() if name == "all" or key.startswith(name + ":")}
        )
        false = false_matches(pick)
        lines.append(
            f"| {name} | {total(pick, 'asked')} | {total(pick, 'one')} | {total(pick, 'two')} | "
            f"{total(pick, 'wrong')} | {total(pick, 'missed')} | {total(pick, 'unrelated')} | "
            f"{false} ({false / max(1, total(pick, 'unrelated')):.1%}) |"
        )
    return lines


def told_report(seen: Ranked, thresholds: Thresholds) -> None:
    """The same rumour's answer across the slices, and how many single matches are strong."""
    rows = consistency(seen, thresholds, verdicts())
    everywhere, written = same_everywhere(seen, thresholds, verdicts())
    print(
        "Paraphrases told the right verdict (their claim's, not a choice of two or "
        '"not checked"), per claim and slice; a slice agrees when most of them are:\n'
    )
    print("\n".join(consistency_table(rows)), end="\n\n")
    print(
        f"Messages written in all five slices (styles sets) told the right answer in all "
        f"five: {everywhere} of {written}.\n"
    )
    print("Single matches, strong or weak:\n")
    print("\n".join(strength_table(strength(seen, thresholds))), end="\n\n")


def scale_report(
    real: list[tuple[str, list[str]]],
    everyday: list[str],
    guard: Guard,
    thresholds: Thresholds,
    test: list[Asked],
) -> None:
    """Building and matching with 5 000 claims, and the test split among them."""
    big_claims = real + synthetic(real, SYNTHETIC_CLAIMS - len(real))
    started, cpu = time.perf_counter(), time.process_time()
    big = ClaimIndex(big_claims, everyday=everyday)
    built, built_cpu = time.perf_counter() - started, time.process_time() - cpu
    timings, cpu_timings = [], []
    for _ in range(3):
        for item in test:
            started, cpu = time.perf_counter(), time.process_time()
            big.match(item.text, guard=guard)
            timings.append((time.perf_counter() - started) * 1000)
            cpu_timings.append((time.process_time() - cpu) * 1000)
    on_big_test = ranked(big, test, guard)
    on_big = top1(on_big_test)
    big_seen = outcomes(on_big_test, thresholds)
    false_big = false_matches(big_seen)
    print(
        f"## {len(big)} claims ({sum(len(texts) for _, texts in big_claims)} texts)\n\n"
        f"Index built in {built:.1f} s ({built_cpu:.1f} s of CPU). match(): median "
        f"{statistics.median(timings):.2f} ms, p95 {percentile(timings, 0.95):.2f} ms, max "
        f"{max(timings):.2f} ms over {len(timings)} calls; CPU time per call median "
        f"{statistics.median(cpu_timings):.2f} ms, p95 {percentile(cpu_timings, 0.95):.2f} ms "
        f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores). Top-1 on the "
        f"test paraphrases among them: {on_big['all']:.2f}; "
        f"about no claim falsely matched: {false_big} of {total(big_seen, 'unrelated')}."
    )


if __name__ == "__main__":
    main()
