"""Language identification for English, Dari and Pashto, in Arabic script or Latin letters.

langdetect knows Persian but not Pashto, and guesses wildly on two-word and romanized messages.
We therefore decide in three steps:
1. the script (Arabic or Latin letters) restricts the candidates;
2. a character n-gram profile learned from our own training data (naive Bayes) ranks
   en-Latn, prs-Arab, prs-Latn, ps-Arab and ps-Latn;
3. hard evidence overrides it: letters only Pashto has (ټ ډ ړ ږ ښ ..., kernel/lang/letters.py;
   not ګ alone, which Dari typed on a Pashto keyboard has too), and langdetect's English
   probability for longer Latin-letter messages.
Everything is deterministic (langdetect is seeded) and needs no network or model download.

Besides the guess it says how much a message could move a conversation (kernel/lang/choice.py):
whether all its words are shared, and how many of them are the guessed language's own. The
opt-out words (STOP, «بس») count as shared: the Dari and Pashto replies teach them. Digits in
their Persian or Arabic form, alone, are Arabic script: they come from a Dari or Pashto keyboard.
"""

import logging
import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, Final

from bot.nlu.stop_keywords import is_opt_out, is_withdrawal
from kernel.lang.codes import ARABIC, DARI, DEFAULT_LANGUAGE, ENGLISH, LATIN, PASHTO
from kernel.lang.letters import (
    ARABIC_INDIC_DIGITS,
    PASHTO_GAF,
    PERSIAN_DIGITS,
    pashto_letter_count,
    script_of,
)
from kernel.lang.normalise import normalise

logger = logging.getLogger(__name__)

_WORDS: Final = re.compile(r"[^\W\d_]+")
_TOKENS: Final = re.compile(r"[^\W_]+")
#: A word is shared when the language that uses it second most often uses it at least this
#: often relative to the first («سلام», «بس», "salam", "ok"; not «پرواز», which Pashto data
#: has once for fifty times in Dari). Measured in docs/BENCHMARKS.md, "Shared words".
SHARED_RATIO: Final = 0.2
_MAX_CHARS: Final = 400  # language is clear long before this; bounds the cost of huge messages
_NGRAM_SIZES: Final = (1, 2, 3, 4)


@dataclass(frozen=True)
class LanguageGuess:
    """What the identifier believes; confidence 0.0 means "no evidence at all"."""

    code: str
    script: str
    confidence: float
    #: Every word is one Dari and Pashto (or English) share, a name, a number or a flight code:
    #: the guess says which language such a first message more likely is, but it is no reason
    #: to move a conversation that already has a language (kernel/lang/choice.py).
    shared: bool = False
    #: How many words speak for ``code``: neither shared nor another language's more often.
    #: In Latin letters one or two such words («stop», «sabah?») are no sentence, and do not
    #: move a conversation that has a language (kernel/lang/choice.py).
    words: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "script": self.script,
            "confidence": round(self.confidence, 4),
            "shared": self.shared,
            "words": self.words,
        }


NO_EVIDENCE: Final = LanguageGuess(DEFAULT_LANGUAGE, LATIN, 0.0)
#: Persian or Arabic digits and no letter («۸», «۱۲»): typed on a Dari or Pashto keyboard, so
#: Arabic script, and Dari's more likely than Pashto's; shared, so they keep either language.
ARABIC_DIGITS_ONLY: Final = LanguageGuess(DARI, ARABIC, 0.5, shared=True)
_ARABIC_DIGITS: Final = frozenset(PERSIAN_DIGITS + ARABIC_INDIC_DIGITS)


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

    def __init__(
        self,
        counts: dict[str, dict[str, int]],
        smoothing: float = 0.5,
        names: Iterable[str] = (),
    ) -> None:
        self.counts = counts
        self.smoothing = smoothing
        self.totals = {lab: sum(c.values()) for lab, c in counts.items()}
        self.vocabulary = len({f for c in counts.values() for f in c})
        #: Words of places, gates and flights named in the training data: every language
        #: writes "دوحه" or "Doha" alike, so a name says nothing about the language.
        self.names = frozenset(names)
        self._word_totals = {
            lab: sum(k for f, k in c.items() if f.startswith("w:")) or 1
            for lab, c in counts.items()
        }

    @classmethod
    def train(
        cls, examples: Iterable[tuple[str, str]], names: Iterable[str] = ()
    ) -> "LanguageProfile":
        """Learn from (text, label) pairs; texts are normalised as at prediction time."""
        counts: dict[str, Counter[str]] = {}
        for text, lab in examples:
            counts.setdefault(lab, Counter()).update(features(normalise(text)))
        words = {w for name in names for w in _WORDS.findall(normalise(name))}
        return cls({lab: dict(c) for lab, c in counts.items()}, names=sorted(words))

    def is_shared(self, word: str, labels: Iterable[str]) -> bool:
        """True when ``word`` (normalised) is no evidence for one of ``labels`` over another:
        a number or flight code, a name, or a word two of them use about as often."""
        if any(char.isdigit() for char in word) or word in self.names:
            return True
        rates = sorted(
            (
                self.counts[lab].get("w:" + word, 0) / self._word_totals[lab]
                for lab in labels
                if lab in self.counts
            ),
            reverse=True,
        )
        return len(rates) >= 2 and rates[1] > 0 and rates[1] >= SHARED_RATIO * rates[0]

    def only_shared_words(self, text: str, labels: Iterable[str]) -> bool:
        """True when ``text`` (normalised) has words and every one of them is shared."""
        labels = list(labels)
        tokens = _TOKENS.findall(text[:_MAX_CHARS])
        return bool(tokens) and all(self.is_shared(token, labels) for token in tokens)

    def own_words(self, text: str, labels: Iterable[str], winner: str) -> int:
        """How many words of ``text`` (normalised) speak for ``winner``: not shared, and not
        written more often in another of ``labels``. A word no data has counts for the winner
        (its letters chose it); «ast» in "flight ba germany kay ast?" counts for Dari, whatever
        langdetect made of the whole."""
        labels = [lab for lab in labels if lab in self.counts]
        return sum(
            1
            for word in _WORDS.findall(text[:_MAX_CHARS])
            if not self.is_shared(word, labels) and self._favours(word, labels) in (None, winner)
        )

    def _favours(self, word: str, labels: list[str]) -> str | None:
        """The label that writes ``word`` most often for its size; None when none writes it."""
        rates = {
            lab: self.counts[lab].get("w:" + word, 0) / self._word_totals[lab] for lab in labels
        }
        favoured = max(rates, key=rates.__getitem__, default=None)
        return favoured if favoured is not None and rates[favoured] > 0 else None

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
        return {"counts": self.counts, "smoothing": self.smoothing, "names": sorted(self.names)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "LanguageProfile":
        return cls(data["counts"], data["smoothing"], data.get("names", ()))


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
        raw = text[: _MAX_CHARS * 4]
        text = normalise(raw)
        script = script_of(text)
        if script is None:
            # The normaliser made «۸» an "8": the keyboard it came from is read before.
            return ARABIC_DIGITS_ONLY if _ARABIC_DIGITS.intersection(raw) else NO_EVIDENCE
        guess = (
            self._identify_arabic_script(text) if script == ARABIC else self._identify_latin(text)
        )
        if not guess.shared and (is_opt_out(raw) or is_withdrawal(raw)):
            # The opt-out words every reply teaches («بس» یا STOP): no one's language.
            return replace(guess, shared=True, words=0)
        return guess

    def _identify_arabic_script(self, text: str) -> LanguageGuess:
        pashto_letters = pashto_letter_count(text)
        # ګ alone is also Dari typed on a Pashto keyboard («ګیت شمالی باز است»): there the
        # profile, which knows «است» and «باز», decides.
        proof = pashto_letters - text.count(PASHTO_GAF)
        labels = [label(DARI, ARABIC), label(PASHTO, ARABIC)]
        post = self.profile.posteriors(text, labels)
        p_pashto = post.get(label(PASHTO, ARABIC), 0.5)
        if proof:
            # One Pashto-only letter is near proof; two or more settle it.
            p_pashto = max(p_pashto, 0.9 if proof == 1 else 0.98)
        shared = not pashto_letters and self.profile.only_shared_words(text, labels)
        code, confidence = (PASHTO, p_pashto) if p_pashto >= 0.5 else (DARI, 1.0 - p_pashto)
        words = self.profile.own_words(text, labels, label(code, ARABIC))
        return LanguageGuess(code, ARABIC, confidence, shared, words)

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
        shared = self.profile.only_shared_words(text, labels)
        words = self.profile.own_words(text, labels, best)
        return LanguageGuess(code, LATIN, post[best], shared, words)


def _reweigh_english(post: dict[str, float], p_en: float, en_label: str) -> dict[str, float]:
    p_en = min(max(p_en, 0.02), 0.98)
    weighted = {lab: p * (p_en if lab == en_label else (1.0 - p_en)) for lab, p in post.items()}
    total = sum(weighted.values())
    return {lab: v / total for lab, v in weighted.items()}
