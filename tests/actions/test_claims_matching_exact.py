"""The rumour matcher's fast paths score what a plain TF-IDF cosine over the texts scores: the
index keeps numbers in arrays, merges postings the first time a message walks them and sums
norms in integers, and none of it may change a score."""

from __future__ import annotations

import math
import random
from array import array
from collections import Counter
from pathlib import Path

import pytest
import yaml

from actions.claims.everyday import everyday_questions
from actions.claims.grams import TF, all_words, features, rumour_words
from actions.claims.matching import WHOLE, ClaimIndex, _exact

ROOT = Path(__file__).resolve().parents[2]
SEED = yaml.safe_load((ROOT / "actions/content/seed/claims.yml").read_text(encoding="utf-8"))
CLAIMS = [
    (entry["slug"], [*entry["claim"].values(), *entry["phrasings"]]) for entry in SEED["claims"]
]
EVERYDAY = list(everyday_questions())
MESSAGES = [
    "reshtia da che kanada har sok wri che tazkira ye lari?",
    "راست است که کانادا هر کس را که تذکره داشته باشد قبول میکند؟",
    "I heard the US embassy takes names on a WhatsApp link, true?",
    "is abbey gate open now?",
    "flights from mazar for everyone with a visa",
    "megan imshab hama darwaza ha baz ast baraye zan o awlad",
]


class Plain:
    """TF-IDF over the texts the index keeps, worked out directly: (1 + log count) × IDF,
    cosine by norms; a claim as a whole weighs its counts in single precision."""

    def __init__(self, claims: list[tuple[str, list[str]]], everyday: list[str]) -> None:
        owned = [(key, text) for key, texts in claims for text in texts]
        owned += [(None, text) for text in everyday]
        self.texts = [(key, text, grams) for key, text in owned if (grams := features(text))]
        frequency = Counter(gram for _, _, grams in self.texts for gram in grams)
        documents = len(self.texts)
        self.idf = {
            gram: math.log((1 + documents) / (1 + df)) + 1 for gram, df in frequency.items()
        }
        self.unseen = math.log(1 + documents) + 1
        self.wholes: dict[str, Counter[str]] = {}
        for key, _, grams in self.texts:
            if key is not None:
                self.wholes.setdefault(key, Counter()).update(grams)

    def cosine(self, message: str, weights: dict[str, float]) -> float:
        query = {
            gram: TF[count] * self.idf.get(gram, self.unseen)
            for gram, count in features(message).items()
        }
        vector = {gram: weight * self.idf[gram] for gram, weight in weights.items()}
        dot = math.fsum(query[gram] * vector[gram] for gram in query.keys() & vector.keys())
        norms = math.sqrt(math.fsum(w * w for w in query.values())) * math.sqrt(
            math.fsum(w * w for w in vector.values())
        )
        return dot / norms if norms else 0.0

    def text(self, message: str, grams: Counter[str]) -> float:
        return self.cosine(message, {gram: TF[count] for gram, count in grams.items()})

    def whole(self, message: str, key: str) -> float:
        single = array("f", [TF[min(count, len(TF) - 1)] for count in self.wholes[key].values()])
        return self.cosine(message, dict(zip(self.wholes[key], single, strict=True)))


@pytest.fixture(scope="module")
def plain() -> Plain:
    return Plain(CLAIMS, EVERYDAY)


@pytest.fixture(scope="module")
def exact() -> ClaimIndex:
    """Every posting walked, no place left out: each text's cosine, nothing rescored."""
    return ClaimIndex(CLAIMS, everyday=EVERYDAY, walk=10**9, elsewhere=False)


@pytest.mark.parametrize("message", MESSAGES)
def test_every_text_scores_its_plain_cosine(plain: Plain, exact: ClaimIndex, message: str) -> None:
    """Everything walked: each claim's nearest text, its score as a whole and the nearest
    everyday question of each length are the plain cosines."""
    nearness = exact.nearness(message)
    nearest: dict[str, float] = {}
    everyday: dict[int, float] = {}
    for key, text, grams in plain.texts:
        score = plain.text(message, grams)
        if key is not None:
            nearest[key] = max(nearest.get(key, 0.0), score)
        elif score > 0:
            length = len(rumour_words(all_words(text), True, True))
            everyday[length] = max(everyday.get(length, 0.0), score)
    assert nearness.claims, message
    assert dict(nearness.everyday) == pytest.approx(everyday, abs=1e-12)
    for blended, score, key, _ in nearness.claims:
        assert score == pytest.approx(nearest[key], abs=1e-12)
        whole = plain.whole(message, key)
        assert blended == pytest.approx((1 - WHOLE) * score + WHOLE * whole, abs=1e-12)
    shown = {key for _, _, key, _ in nearness.claims}
    assert all(score == 0 for key, score in nearest.items() if key not in shown)


def test_a_large_index_scores_the_texts_it_rescores_exactly(plain: Plain) -> None:
    """Past ``walk`` postings only the best texts get the rest of their cosine: the score
    shown for a claim is still its text's plain cosine."""
    index = ClaimIndex(CLAIMS, everyday=EVERYDAY, walk=300, rescored=20, elsewhere=False)
    cosines = {}
    for message in MESSAGES:
        for _, score, _, text in index.nearness(message).claims:
            grams = features(text)
            cosines[text] = (score, plain.text(message, grams))
    assert cosines
    for score, expected in cosines.values():
        assert score == pytest.approx(expected, abs=1e-12)


def test_postings_merged_on_demand_do_not_depend_on_what_was_asked_first() -> None:
    first = ClaimIndex(CLAIMS, everyday=EVERYDAY, walk=300)
    second = ClaimIndex(CLAIMS, everyday=EVERYDAY, walk=300)
    asked = [first.nearness(message) for message in MESSAGES]
    assert [second.nearness(message) for message in reversed(MESSAGES)] == asked[::-1]


def test_exact_sums_are_what_fsum_gives() -> None:
    chance = random.Random(2021)
    values = [1.0 + chance.random() * 40 for _ in range(500)] + [1.0, 2.5, 1e3 / 7]
    exact, unit = _exact(values)
    for _ in range(200):
        picked = chance.sample(range(len(values)), chance.randrange(1, 300))
        assert sum(exact[i] for i in picked) / unit == math.fsum(values[i] for i in picked)
