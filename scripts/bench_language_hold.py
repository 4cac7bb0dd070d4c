"""Does a conversation keep its language? Held-out messages appended to conversations in others.

    .venv/bot/bin/python scripts/bench_language_hold.py

Every held-out message (tests/nlu/heldout/, never trained on) is sent into a conversation that
already speaks each other language; so is every message of the sets below: words every
language writes alike (into a conversation in each language that writes their script:
Arabic-script words still move an English one), Latin-letter words that are no sentence and
English text forwarded (each into Dari and Pashto conversations). For each, the conversation's
language is chosen as Rasa chooses it (kernel/lang/choice.py, follow threshold 0.7), once by the
rule as it was before 2026-12-06 (``previous_choice``: shared words kept the language, any
other guess of 0.7 moved it, forwarded or not, one Latin word as well; the identifier's marks
as they were then) and once by today's. Prints Markdown: how many moved, and whether to the
writer's own language (a Dari message moving a Pashto conversation to Dari is right) or to a
third one; then the language a first message of Persian digits gets, and the languages the
web chat page showed over five romanized messages.
Runs in the bot venv; the identifier is trained from data/nlu exactly as `rasa train` trains it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

ROOT: Final = Path(__file__).resolve().parent.parent
HELD_OUT: Final = ROOT / "tests" / "nlu" / "heldout"
SLICES: Final = ("en", "prs_arab", "prs_latn", "ps_arab", "ps_latn")
LANGUAGES: Final = ("en", "prs", "ps")
FOLLOW: Final = 0.7

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
#: What Dari and Pashto speakers type in Latin letters without writing English: the opt-out
#: words their replies teach, a menu number, an English word or two, a romanized word.
SHORT_LATIN_MESSAGES: Final = (
    "STOP", "Stop!", "stop alerts", "cancel", "8", "8.", "yes", "no", "help", "thanks",
    "ok thanks", "visa", "flight?", "sabah?", "sahar?", "flight ba germany kay ast?",
)  # fmt: skip
#: English text a Dari or Pashto speaker forwards to ask "is this true?".
FORWARDED_MESSAGES: Final = (
    "URGENT: the Taliban announced that all flights to Doha are cancelled from tomorrow, "
    "share this with everyone",
    "Germany will take 10,000 more Afghans, register at the Abbey gate tonight with your passport",
    "The US embassy says: anyone with a green card can board without a visa, go to the "
    "north gate now",
)
#: A first message of Persian or Arabic digits: a menu number typed on a Dari keyboard.
ARABIC_DIGIT_FIRST_MESSAGES: Final = ("۸", "۱", "۱۲", "٣")
#: Five romanized messages typed on the web chat page, whose language was English before.
WEBCHAT_MESSAGES: Final = (
    "salam",
    "parwaz ba doha kai ast?",
    "darwaza abbey khlasa da?",
    "sabah?",
    "flight ba germany kay ast?",
)


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

    def __add__(self, other: Counted) -> Counted:
        return Counted(
            self.messages + other.messages,
            self.to_writer + other.to_writer,
            self.to_third + other.to_third,
        )


@dataclass(frozen=True)
class Identified:
    """A message as today's identifier reads it, and as the identifier of the previous rule
    did (``previous_marks``)."""

    now: dict[str, Any]
    before: dict[str, Any]


def identifier() -> Any:
    from bot.nlu.langid import LanguageProfile, ProfileIdentifier
    from bot.nlu.language_identifier import entity_names, labelled_examples

    data = ROOT / "data" / "nlu"
    return ProfileIdentifier(LanguageProfile.train(labelled_examples(data), entity_names(data)))


def held_out(slice_name: str) -> list[str]:
    from rasa.shared.nlu.training_data.loading import load_data

    path = HELD_OUT / f"{slice_name}.yml"
    return [m.get("text") for m in load_data(str(path)).training_examples]


def identify(ident: Any, text: str) -> Identified:
    return Identified(ident.identify(text).as_dict(), previous_marks(ident, text))


def previous_marks(ident: Any, text: str) -> dict[str, Any]:
    """What the identifier said before 2026-12-06: digits without letters were no evidence
    (the normaliser had made «۸» an "8"), and an opt-out word was shared only when the
    training data shared it (STOP was English)."""
    from bot.nlu.langid import NO_EVIDENCE, label
    from kernel.lang.letters import pashto_letter_count, script_of
    from kernel.lang.normalise import normalise

    normalised = normalise(text)
    script = script_of(normalised)
    if script is None:
        return NO_EVIDENCE.as_dict()
    codes = ("prs", "ps") if script == "Arab" else LANGUAGES
    shared = ident.profile.only_shared_words(normalised, [label(code, script) for code in codes])
    if script == "Arab" and pashto_letter_count(normalised):
        shared = False
    return {**ident.identify(text).as_dict(), "shared": shared}


def previous_choice(
    current: Any, message: Mapping[str, Any], hint: str | None = None, forwarded: bool = False
) -> Any:
    """kernel/lang/choice.py's rule before 2026-12-06 (``forwarded`` was not read)."""
    from kernel.lang.choice import LanguageState, shares_words
    from kernel.lang.codes import DEFAULT_LANGUAGE, is_language

    detected = message.get("language") or {}
    if detected.get("shared"):
        kept = current or (LanguageState(hint, chosen=False) if is_language(hint) else None)
        if kept and shares_words(kept.language, detected.get("script")):
            return kept
    if is_language(detected.get("code")) and detected.get("confidence", 0.0) >= FOLLOW:
        return LanguageState(detected["code"], chosen=False)
    if current:
        return current
    return LanguageState(hint if is_language(hint) else DEFAULT_LANGUAGE, chosen=False)


def todays_choice(
    current: Any, message: Mapping[str, Any], hint: str | None = None, forwarded: bool = False
) -> Any:
    from kernel.lang.choice import choose_language

    return choose_language(current, message, hint, FOLLOW, forwarded=forwarded)


def parse(language: dict[str, Any]) -> dict[str, Any]:
    return {"intent": {"name": "ask_flights"}, "entities": [], "language": language}


def moved_to(
    established: str, identified: Identified, previous: bool, forwarded: bool = False
) -> str | None:
    """The language a conversation in ``established`` moves to after the message, or None."""
    from kernel.lang.choice import LanguageState

    rule, language = (
        (previous_choice, identified.before) if previous else (todays_choice, identified.now)
    )
    after = rule(LanguageState(established, chosen=False), parse(language), None, forwarded)
    return None if after.language == established else str(after.language)


def count(
    texts: Iterable[str],
    writer: str | None,
    established: Callable[[Identified], Iterable[str]],
    ident: Any,
    forwarded: bool = False,
) -> tuple[Counted, Counted]:
    """(before, after) over every text appended to a conversation in each of ``established``."""
    before, after = Counted(), Counted()
    for text in texts:
        identified = identify(ident, text)
        for language in established(identified):
            before = before.add(moved_to(language, identified, True, forwarded), writer)
            after = after.add(moved_to(language, identified, False, forwarded), writer)
    return before, after


def measure(ident: Any = None) -> dict[str, tuple[Counted, Counted]]:
    """Slice or set name → (before, after)."""
    from kernel.lang.choice import shares_words

    ident = ident or identifier()
    results = {}
    for name in SLICES:
        writer = name.partition("_")[0]
        others = [code for code in LANGUAGES if code != writer]
        results[name] = count(held_out(name), writer, into(others), ident)

    def alike(identified: Identified) -> list[str]:
        # An Arabic-script word, even one Dari and Pashto share, is still evidence against
        # English (kernel/lang/choice.py): it goes into the languages that write its script.
        return [code for code in LANGUAGES if shares_words(code, identified.now.get("script"))]

    results["shared"] = count(SHARED_MESSAGES, None, alike, ident)
    afghan = into(["prs", "ps"])
    results["short Latin"] = count(SHORT_LATIN_MESSAGES, None, afghan, ident)
    results["forwarded en"] = count(FORWARDED_MESSAGES, None, afghan, ident, forwarded=True)
    return results


def into(codes: list[str]) -> Callable[[Identified], list[str]]:
    """Conversations in each of ``codes``, whatever the message."""
    return lambda _: codes


def first_messages(ident: Any) -> list[tuple[str, str | None, str, str]]:
    """(message, hint, language before, language now) of a new conversation's first message."""
    rows = []
    for text in ARABIC_DIGIT_FIRST_MESSAGES:
        identified = identify(ident, text)
        for hint in (None, "en"):
            before = previous_choice(None, parse(identified.before), hint)
            now = todays_choice(None, parse(identified.now), hint)
            rows.append((text, hint, before.language, now.language))
    return rows


def webchat_sequence(ident: Any) -> tuple[list[str], list[str]]:
    """The page's language after each of ``WEBCHAT_MESSAGES`` (the page sends its own as the
    hint), by the previous rule and by today's."""
    sequences: tuple[list[str], list[str]] = ([], [])
    for previous, shown in zip((True, False), sequences, strict=True):
        rule = previous_choice if previous else todays_choice
        state = None
        for text in WEBCHAT_MESSAGES:
            identified = identify(ident, text)
            language = identified.before if previous else identified.now
            hint = shown[-1] if shown else "en"
            state = rule(state, parse(language), hint, False)
            shown.append(state.language)
    return sequences


def report(
    results: dict[str, tuple[Counted, Counted]],
    firsts: list[tuple[str, str | None, str, str]],
    page: tuple[list[str], list[str]],
) -> str:
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
    lines += ["", "| first message | channel hint | language before | language after |"]
    lines.append("|---|---|---|---|")
    lines += [f"| {text} | {hint or '–'} | {was} | {now} |" for text, hint, was, now in firsts]
    page_before, page_after = page
    lines += ["", "| web chat page, after | before | after |", "|---|---|---|"]
    lines += [
        f"| {text} | {was} | {now} |"
        for text, was, now in zip(WEBCHAT_MESSAGES, page_before, page_after, strict=True)
    ]
    return "\n".join(lines)


def main() -> None:
    import logging

    logging.getLogger("rasa").setLevel(logging.WARNING)
    ident = identifier()
    print(report(measure(ident), first_messages(ident), webchat_sequence(ident)))


if __name__ == "__main__":
    main()
