"""Does a conversation keep its language? Held-out messages appended to conversations in others.

    .venv/bot/bin/python scripts/bench_language_hold.py

Every held-out message (tests/nlu/heldout/, never trained on) is sent into a conversation that
already speaks each other language, and once more every message of the shared-words set below
(greetings, names, numbers, flight codes a Dari, Pashto or English speaker types alike) into a
conversation in each language that writes its script (Arabic-script words into Dari and Pashto
ones: they still move an English conversation). For each, the conversation's language is
chosen as Rasa chooses it (bot/lang/choice.py, follow threshold 0.7), once ignoring the
identifier's ``shared`` mark (as it was before) and once with it. Prints Markdown: how many
moved, and whether to the writer's own language (a Dari message moving a Pashto conversation to
Dari is right) or to a third one.
Runs in the bot venv; the identifier is trained from data/nlu exactly as `rasa train` trains it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

ROOT: Final = Path(__file__).resolve().parent.parent
HELD_OUT: Final = ROOT / "tests" / "nlu" / "heldout"
SLICES: Final = ("en", "prs_arab", "prs_latn", "ps_arab", "ps_latn")
LANGUAGES: Final = ("en", "prs", "ps")

#: Messages whose words every language here writes alike: written for this measurement, apart
#: from the training data (a word in it may be in the data; the message as a whole is not).
SHARED_MESSAGES: Final = (
    "سلام", "سلام!", "سلام علیکم", "السلام علیکم", "سلام سلام", "بس", "بس!",
    "ok", "OK", "okay", "salam", "Salam!", "salam alaikum", "hello", "hi",
    "۲", "۹", "3", "8", "۱۲",
    "RCH871", "QR8010?", "rch 871", "PK6250",
    "دوحه", "قطر؟", "کابل", "اسلام آباد", "Doha", "Kabul", "islamabad?", "Germany",
    "مینو", "menu", "ok salam",
)  # fmt: skip


@dataclass(frozen=True)
class Counted:
    """How ``messages`` messages moved conversations that spoke another language."""

    messages: int = 0
    to_writer: int = 0
    to_third: int = 0

    @property
    def moved(self) -> int:
        return self.to_writer + self.to_third

    def add(self, moved_to: str | None, writer: str | None) -> Counted:
        return Counted(
            self.messages + 1,
            self.to_writer + (moved_to is not None and moved_to == writer),
            self.to_third + (moved_to is not None and moved_to != writer),
        )


def identifier() -> Any:
    from bot.nlu.langid import LanguageProfile, ProfileIdentifier
    from bot.nlu.language_identifier import entity_names, labelled_examples

    data = ROOT / "data" / "nlu"
    return ProfileIdentifier(LanguageProfile.train(labelled_examples(data), entity_names(data)))


def held_out(slice_name: str) -> list[str]:
    from rasa.shared.nlu.training_data.loading import load_data

    path = HELD_OUT / f"{slice_name}.yml"
    return [m.get("text") for m in load_data(str(path)).training_examples]


def moved_to(established: str, detected: dict[str, Any], honour_shared: bool) -> str | None:
    """The language a conversation in ``established`` moves to after the message, or None."""
    from bot.lang.choice import LanguageState, choose_language

    language = detected if honour_shared else {**detected, "shared": False}
    message = {"intent": {"name": "ask_flights"}, "entities": [], "language": language}
    after = choose_language(LanguageState(established, chosen=False), message)
    return None if after.language == established else after.language


def count(
    texts: Iterable[str], writer: str | None, established: Iterable[str], ident: Any
) -> tuple[Counted, Counted]:
    """(before, after) over every text appended to a conversation in each of ``established``."""
    before, after = Counted(), Counted()
    established = list(established)
    for text in texts:
        detected = ident.identify(text).as_dict()
        for language in established:
            before = before.add(moved_to(language, detected, False), writer)
            after = after.add(moved_to(language, detected, True), writer)
    return before, after


def measure() -> dict[str, tuple[Counted, Counted]]:
    """Slice name (or "shared") → (before, after)."""
    from bot.lang.choice import shares_words

    ident = identifier()
    results = {}
    for name in SLICES:
        writer = name.partition("_")[0]
        others = [code for code in LANGUAGES if code != writer]
        results[name] = count(held_out(name), writer, others, ident)
    shared_before, shared_after = Counted(), Counted()
    for text in SHARED_MESSAGES:
        # Into conversations whose language may write it: an Arabic-script word, even one Dari
        # and Pashto share, is still evidence against English (bot/lang/choice.py).
        script = ident.identify(text).as_dict().get("script")
        alike = [code for code in LANGUAGES if shares_words(code, script)]
        before, after = count([text], None, alike, ident)
        shared_before, shared_after = _sum(shared_before, before), _sum(shared_after, after)
    results["shared"] = (shared_before, shared_after)
    return results


def _sum(one: Counted, other: Counted) -> Counted:
    return Counted(
        one.messages + other.messages,
        one.to_writer + other.to_writer,
        one.to_third + other.to_third,
    )


def report(results: dict[str, tuple[Counted, Counted]]) -> str:
    lines = [
        "| messages | appended | moved before | moved after | to the writer's language "
        "before → after | to a third language before → after |",
        "|---|---|---|---|---|---|",
    ]
    for name, (before, after) in results.items():
        lines.append(
            f"| {name} | {before.messages} | {before.moved} | {after.moved} | "
            f"{before.to_writer} → {after.to_writer} | {before.to_third} → {after.to_third} |"
        )
    return "\n".join(lines)


def main() -> None:
    import logging

    logging.getLogger("rasa").setLevel(logging.WARNING)
    print(report(measure()))


if __name__ == "__main__":
    main()
