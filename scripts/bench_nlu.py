"""NLU benchmark: intent accuracy, language identification and parse latency on held-out data.

    .venv/bot/bin/python scripts/bench_nlu.py --config ours=config.yml \
        --config rasa-default=scripts/configs/rasa_default.yml

Trains every named config on data/nlu (timed), then parses every held-out message
(tests/nlu/heldout/<lang>[_<script>].yml, never trained on) and prints Markdown tables:
per slice intent accuracy and macro-F1, language-identification accuracy against langdetect
alone on the same messages, parse latency p50/p95, training time. Runs in the bot venv.
"""

import argparse
import asyncio
import logging
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HELD_OUT = ROOT / "tests" / "nlu" / "heldout"
SLICES = {
    "en": ("en", "Latn"),
    "prs_arab": ("prs", "Arab"),
    "prs_latn": ("prs", "Latn"),
    "ps_arab": ("ps", "Arab"),
    "ps_latn": ("ps", "Latn"),
}


@dataclass
class Case:
    slice: str
    text: str
    intent: str


@dataclass
class Result:
    name: str
    train_seconds: float
    predictions: dict[str, list[tuple[Case, dict[str, Any]]]] = field(default_factory=dict)
    latencies_ms: list[float] = field(default_factory=list)


def held_out_cases() -> list[Case]:
    from rasa.shared.nlu.training_data.loading import load_data

    cases = []
    for name in SLICES:
        for message in load_data(str(HELD_OUT / f"{name}.yml")).training_examples:
            cases.append(Case(name, message.get("text"), message.get("intent")))
    return cases


def train(config: Path, out_dir: Path, name: str) -> tuple[Path, float]:
    from rasa.model_training import train_nlu

    started = time.perf_counter()
    model = train_nlu(str(config), str(ROOT / "data" / "nlu"), str(out_dir), fixed_model_name=name)
    if model is None:
        raise RuntimeError(f"training {config} failed")
    return Path(model), time.perf_counter() - started


def evaluate(name: str, model: Path, train_seconds: float, cases: list[Case]) -> Result:
    from rasa.core.agent import Agent

    agent = Agent.load(str(model))
    result = Result(name, train_seconds)
    loop = asyncio.new_event_loop()
    for case in cases[:20]:  # warm-up: first parses build TensorFlow graphs and caches
        loop.run_until_complete(agent.parse_message(case.text))
    for case in cases:
        started = time.perf_counter()
        parsed = loop.run_until_complete(agent.parse_message(case.text))
        result.latencies_ms.append((time.perf_counter() - started) * 1000)
        result.predictions.setdefault(case.slice, []).append((case, parsed))
    loop.close()
    return result


def macro_f1(pairs: list[tuple[str, str]]) -> float:
    from sklearn.metrics import f1_score

    truth, predicted = zip(*pairs, strict=True)
    return float(f1_score(truth, predicted, average="macro", zero_division=0))


def langdetect_correct(text: str, code: str, script: str) -> bool:
    """langdetect alone: 'fa' counts as Dari in Arabic script, 'en' as English; no Pashto."""
    from langdetect import DetectorFactory, detect
    from langdetect.lang_detect_exception import LangDetectException

    DetectorFactory.seed = 0
    try:
        detected = detect(text)
    except LangDetectException:
        return False
    return (code, script, detected) in {("en", "Latn", "en"), ("prs", "Arab", "fa")}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def report(results: list[Result], cases: list[Case]) -> str:
    lines = ["### Intent accuracy / macro-F1 on the held-out split", ""]
    header = "| slice | n | " + " | ".join(f"{r.name} acc | {r.name} F1" for r in results) + " |"
    lines += [header, "|" + "---|" * (2 + 2 * len(results))]
    for slice_name in [*SLICES, "all"]:
        row_cases = [c for c in cases if slice_name in (c.slice, "all")]
        cells = [slice_name, str(len(row_cases))]
        for result in results:
            pairs = [
                (case.intent, parsed["intent"]["name"] or "")
                for name, items in result.predictions.items()
                for case, parsed in items
                if slice_name in (name, "all")
            ]
            accuracy = sum(t == p for t, p in pairs) / len(pairs)
            cells += [f"{accuracy:.3f}", f"{macro_f1(pairs):.3f}"]
        lines.append("| " + " | ".join(cells) + " |")

    lines += ["", "### Language identification (code and script) on the same messages", ""]
    with_language = [
        r
        for r in results
        if any("language" in parsed for items in r.predictions.values() for _, parsed in items)
    ]
    names = [r.name for r in with_language]
    lines += [
        "| slice | n | langdetect | " + " | ".join(names) + " |",
        "|" + "---|" * (3 + len(names)),
    ]
    totals = [0] * (len(names) + 1)
    for slice_name, (code, script) in SLICES.items():
        row = [c for c in cases if c.slice == slice_name]
        detected = sum(langdetect_correct(c.text, code, script) for c in row)
        ours = [
            sum(
                p.get("language", {}).get("code") == code
                and p.get("language", {}).get("script") == script
                for _, p in r.predictions[slice_name]
            )
            for r in with_language
        ]
        for i, value in enumerate([detected, *ours]):
            totals[i] += value
        lines.append(
            f"| {slice_name} | {len(row)} | {detected / len(row):.3f} | "
            + " | ".join(f"{v / len(row):.3f}" for v in ours)
            + " |"
        )
    lines.append(
        f"| all | {len(cases)} | " + " | ".join(f"{t / len(cases):.3f}" for t in totals) + " |"
    )

    lines += [
        "",
        "### Speed",
        "",
        "| config | training s | parse p50 ms | parse p95 ms |",
        "|---|---|---|---|",
    ]
    for r in results:
        lines.append(
            f"| {r.name} | {r.train_seconds:.0f} | {statistics.median(r.latencies_ms):.1f}"
            f" | {percentile(r.latencies_ms, 95):.1f} |"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--config", action="append", required=True, metavar="NAME=PATH")
    parser.add_argument("--models", type=Path, help="keep trained models here")
    args = parser.parse_args()
    os.environ.setdefault("RASA_TELEMETRY_ENABLED", "false")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    logging.disable(logging.WARNING)
    from rasa.utils.log_utils import configure_structlog

    configure_structlog(logging.WARNING)
    sys.path.insert(0, str(ROOT))
    cases = held_out_cases()
    results = []
    with tempfile.TemporaryDirectory() as scratch:
        out_dir = args.models or Path(scratch)
        for item in args.config:
            name, _, path = item.partition("=")
            model, seconds = train(Path(path), out_dir, name)
            print(f"trained {name} in {seconds:.0f} s", file=sys.stderr, flush=True)
            results.append(evaluate(name, model, seconds, cases))
    print(report(results, cases))
    return 0


if __name__ == "__main__":
    sys.exit(main())
