"""Urgent cases: precision and recall of kernel/case_urgency.py beside the prefix matcher it
replaced.

    .venv/actions/bin/python scripts/bench_urgency.py

Reads the held-out messages in tests/nlu/urgency/<language>.yml (written apart from the lexicon;
"urgent" and "calm") and prints a Markdown table per language and script: how many urgent
messages each matcher finds (recall) and how many of the messages it calls urgent are
(precision). The old matcher is kept here, word for word as it was, so the comparison can be
repeated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Final

import yaml

from kernel.case_urgency import is_urgent
from kernel.lang.codes import ENGLISH, LANGUAGES
from kernel.lang.letters import has_arabic_script
from kernel.lang.normalise import normalise

ROOT: Final = Path(__file__).resolve().parent.parent
HELD_OUT: Final = ROOT / "tests" / "nlu" / "urgency"

#: The word list the prefix matcher used (kernel/case_urgency.py before whole words).
OLD_WORDS: Final = frozenset(
    {
        "ambulance", "bleeding", "blood", "doctor", "hospital", "injured", "injury", "wounded",
        "sick", "pregnant", "unconscious", "heart attack", "emergency", "dying",
        "child", "children", "baby", "kid", "kids", "son", "daughter", "minor",
        "beaten", "beat me", "attack", "shot", "violence", "threat", "kidnap", "rape", "gun",
        "زخمی", "خون", "خونریزی", "داکتر", "شفاخانه", "امبولانس", "مریض", "حامله", "بیهوش", "عاجل",
        "طفل", "اطفال", "اولاد", "بچه", "کودک", "دختر", "پسر",
        "لت و کوب", "تهدید", "حمله", "خشونت", "فیر", "اختطاف", "تجاوز", "لت",
        "ټپی", "وینه", "ډاکټر", "روغتون", "ناروغ", "امیندواره", "بېهوښ", "بیړنی",
        "ماشوم", "کوچنی", "زوی", "لور",
        "وهل", "ګواښ", "برید", "تاوتریخوالی", "ډزې", "تښتول", "زورزیاتی",
        "zakhmi", "khun", "daktar", "doktar", "shifakhana", "ambulans", "mariz", "hamila",
        "tifl", "atfal", "awlad", "bacha", "kudak", "dokhtar", "pesar",
        "tahdid", "hamla", "khushunat", "lat o kob",
        "tapi", "wina", "roghtun", "naroogh", "narogh", "mashum", "mashoom", "kuchnai", "zoy",
        "wahal", "gwash", "barid", "dze",
    }
)  # fmt: skip
_WORD: Final = re.compile(r"\w+")


def _old_words(text: str) -> list[str]:
    return _WORD.findall(normalise(text).replace("\u200c", ""))


_OLD_PHRASES: Final = tuple(tuple(_old_words(term)) for term in sorted(OLD_WORDS))


def prefix_matcher(text: str) -> bool:
    """The old rule: a word of the message *starts with* an urgent word (Arabic script from
    three letters, Latin from four; shorter ones whole)."""
    words = _old_words(text)
    for phrase in _OLD_PHRASES:
        size = len(phrase)
        for i in range(len(words) - size + 1):
            window = words[i : i + size]
            last, wanted = window[-1], phrase[-1]
            prefix = len(wanted) >= (3 if has_arabic_script(wanted) else 4)
            matches = last.startswith(wanted) if prefix else last == wanted
            if window[:-1] == list(phrase[:-1]) and matches:
                return True
    return False


@dataclass(frozen=True)
class Score:
    urgent: int
    calm: int
    found: int  # urgent messages called urgent
    false: int  # calm messages called urgent

    @property
    def precision(self) -> float:
        called = self.found + self.false
        return self.found / called if called else 0.0

    @property
    def recall(self) -> float:
        return self.found / self.urgent if self.urgent else 0.0


def held_out(language: str) -> dict[str, list[str]]:
    """{"urgent": [...], "calm": [...]} for ``language``."""
    data = yaml.safe_load((HELD_OUT / f"{language}.yml").read_text(encoding="utf-8"))
    return {"urgent": list(data["urgent"]), "calm": list(data["calm"])}


def score(matcher: Callable[[str], bool], urgent: list[str], calm: list[str]) -> Score:
    return Score(len(urgent), len(calm), sum(map(matcher, urgent)), sum(map(matcher, calm)))


def scores(matcher: Callable[[str], bool]) -> dict[str, Score]:
    """Per language, and per language and script ("prs Arab", "prs Latn")."""
    result: dict[str, Score] = {}
    for language in LANGUAGES:
        messages = held_out(language)
        result[language] = score(matcher, messages["urgent"], messages["calm"])
        if language == ENGLISH:
            continue
        for script, wanted in (("Arab", True), ("Latn", False)):
            part = {
                k: [t for t in v if has_arabic_script(t) == wanted] for k, v in messages.items()
            }
            result[f"{language} {script}"] = score(matcher, part["urgent"], part["calm"])
    return result


def report() -> str:
    old, new = scores(prefix_matcher), scores(is_urgent)
    lines = [
        "| messages | urgent / calm | precision: prefix → whole words "
        "| recall: prefix → whole words | calm called urgent: prefix → whole words |",
        "|---|---|---|---|---|",
    ]
    for name in new:
        o, n = old[name], new[name]
        lines.append(
            f"| {name} | {n.urgent} / {n.calm} | {o.precision:.2f} → **{n.precision:.2f}** | "
            f"{o.recall:.2f} → **{n.recall:.2f}** | {o.false} → {n.false} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(report())
