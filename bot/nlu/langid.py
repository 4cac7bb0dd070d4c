"""Language identification for English, Dari and Pashto, in Arabic script or Latin letters.

langdetect knows Persian but not Pashto, and guesses wildly on two-word and romanized messages.
We therefore decide in three steps:
1. the script (Arabic or Latin letters) restricts the candidates;
2. a character n-gram profile learned from our own training data (naive Bayes) ranks
   en-Latn, prs-Arab, prs-Latn, ps-Arab and ps-Latn;
3. hard evidence overrides it: letters only Pashto has (ټ ډ ړ ږ ښ ګ ..., bot/lang/letters.py),
   and langdetect's English probability for longer Latin-letter messages.
Everything is deterministic (langdetect is seeded) and needs no network or model download.
"""

import logging
import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from bot.lang.codes import ARABIC, DARI, DEFAULT_LANGUAGE, ENGLISH, LATIN, PASHTO
from bot.lang.letters import pashto_letter_count, script_of
from bot.lang.normalise import normalise

logger = logging.getLogger(__name__)

_WORDS: Final = re.compile(r"[^\W\d_]+")
_MAX_CHARS: Final = 400  # language is clear long before this; bounds the cost of huge messages
_NGRAM_SIZES: Final = (1, 2, 3, 4)


@dataclass(frozen=True)
class LanguageGuess:
    """What the identifier believes; confidence 0.0 means "no evidence at all"."""

    code: str
    script: str
    confidence: float

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "script": self.script, "confidence": round(self.confidence, 4)}


NO_EVIDENCE: Final = LanguageGuess(DEFAULT_LANGUAGE, LATIN, 0.0)


def label(code: str, script: str) -> str:
    """Profile label such as ``ps-Arab``."""
    return f"{code}-{script}"


def features(text: str) -> Counter[str]:
    """Character 1–4-grams of each padded word, plus whole words (weighted as one feature)."""
    counts: Counter[str] = Counter()
    for word in _WORDS.findall(text[:_MAX_CHARS]):
        counts["w:" + word] += 1
        padded = f" {word} "
        for n in _NGRAM_SIZES:
            for i in range(len(padded) - n + 1):
                counts[padded[i : i + n]] += 1
    return counts


class LanguageProfile:
    """Multinomial naive Bayes over :func:`features`, one class per language-script label."""

    def __init__(self, counts: dict[str, dict[str, int]], smoothing: float = 0.5) -> None:
        self.counts = counts
        self.smoothing = smoothing
        self.totals = {lab: sum(c.values()) for lab, c in counts.items()}
        self.vocabulary = len({f for c in counts.values() for f in c})

    @classmethod
    def train(cls, examples: Iterable[tuple[str, str]]) -> "LanguageProfile":
        """Learn from (text, label) pairs; texts are normalised as at prediction time."""
        counts: dict[str, Counter[str]] = {}
        for text, lab in examples:
            counts.setdefault(lab, Counter()).update(features(normalise(text)))
        return cls({lab: dict(c) for lab, c in counts.items()})

    def posteriors(self, text: str, labels: Iterable[str]) -> dict[str, float]:
        """Probabilities over ``labels`` (those the profile knows), tempered for short text.

        Naive Bayes multiplies hundreds of correlated n-gram likelihoods and so is wildly
        over-confident; dividing the log-likelihood by the square root of the feature count
        keeps two-word messages uncertain while long messages still become certain.
        """
        feats = features(text)
        known = [lab for lab in labels if lab in self.counts]
        if not feats or not known:
            return {}
        n = sum(feats.values())
        scale = 1.0 / math.sqrt(n)
        scores = {}
        for lab in known:
            label_counts = self.counts[lab]
            denominator = self.totals[lab] + self.smoothing * (self.vocabulary + 1)
            loglik = sum(
                k * math.log((label_counts.get(f, 0) + self.smoothing) / denominator)
                for f, k in feats.items()
            )
            scores[lab] = loglik * scale
        top = max(scores.values())
        exp = {lab: math.exp(s - top) for lab, s in scores.items()}
        total = sum(exp.values())
        return {lab: v / total for lab, v in exp.items()}

    def to_dict(self) -> dict[str, Any]:
        return {"counts": self.counts, "smoothing": self.smoothing}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "LanguageProfile":
        return cls(data["counts"], data["smoothing"])


def _langdetect_english(text: str) -> float | None:
    """langdetect's probability that Latin-letter text is English (seeded: deterministic)."""
    try:
        from langdetect import DetectorFactory, detect_langs
        from langdetect.lang_detect_exception import LangDetectException
    except ImportError:  # pragma: no cover - langdetect is pinned in both environments
        return None
    DetectorFactory.seed = 0
    try:
        guesses = detect_langs(text)
    except LangDetectException:
        return None
    return next((g.prob for g in guesses if g.lang == "en"), 0.0)


class ProfileIdentifier:
    """Identifies the language and script of one (already normalised or raw) message."""

    #: langdetect is only trusted on Latin text with at least this many words.
    LANGDETECT_MIN_WORDS: Final = 4
    #: The profiles' posterior beyond which langdetect is not asked (it is most of the
    #: identifier's time). Its opinion is clipped to 0.02-0.98 (:func:`_reweigh_english`), so
    #: it could not change such a winner, nor bring its confidence below 0.95.
    DECISIVE: Final = 0.999

    def __init__(self, profile: LanguageProfile) -> None:
        self.profile = profile

    def identify(self, text: str) -> LanguageGuess:
        text = normalise(text[: _MAX_CHARS * 4])
        script = script_of(text)
        if script is None:
            return NO_EVIDENCE
        if script == ARABIC:
            return self._identify_arabic_script(text)
        return self._identify_latin(text)

    def _identify_arabic_script(self, text: str) -> LanguageGuess:
        pashto_letters = pashto_letter_count(text)
        post = self.profile.posteriors(text, [label(DARI, ARABIC), label(PASHTO, ARABIC)])
        p_pashto = post.get(label(PASHTO, ARABIC), 0.5)
        if pashto_letters:
            # One Pashto-only letter is near proof; two or more settle it.
            p_pashto = max(p_pashto, 0.9 if pashto_letters == 1 else 0.98)
        if p_pashto >= 0.5:
            return LanguageGuess(PASHTO, ARABIC, p_pashto)
        return LanguageGuess(DARI, ARABIC, 1.0 - p_pashto)

    def _identify_latin(self, text: str) -> LanguageGuess:
        labels = [label(ENGLISH, LATIN), label(DARI, LATIN), label(PASHTO, LATIN)]
        post = self.profile.posteriors(text, labels)
        if not post:
            return LanguageGuess(ENGLISH, LATIN, 0.0)
        best = max(post, key=post.__getitem__)
        if post[best] < self.DECISIVE and len(_WORDS.findall(text)) >= self.LANGDETECT_MIN_WORDS:
            p_en = _langdetect_english(text)
            if p_en is not None:
                # Combine as two independent opinions on "English or not".
                post = _reweigh_english(post, p_en, label(ENGLISH, LATIN))
                best = max(post, key=post.__getitem__)
        code = best.split("-")[0]
        return LanguageGuess(code, LATIN, post[best])


def _reweigh_english(post: dict[str, float], p_en: float, en_label: str) -> dict[str, float]:
    p_en = min(max(p_en, 0.02), 0.98)
    weighted = {lab: p * (p_en if lab == en_label else (1.0 - p_en)) for lab, p in post.items()}
    total = sum(weighted.values())
    return {lab: v / total for lab, v in weighted.items()}
