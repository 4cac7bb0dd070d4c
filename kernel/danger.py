"""Is a person in danger now, and of what kind? Read before anything else answers a message.

Three kinds, each answered by its own day-and-night line (content: a contact's ``dangers``):

* ``missing`` — a child or a relative lost, missing, separated, taken and not heard of since;
  a child alone;
* ``medical`` — wounded, bleeding, fainted, in labour, very sick: care is needed now;
* ``threat`` — armed men at the door, beaten, threatened, followed, shot at, in hiding.

A kind is found by a phrase that means it alone («بیهوش شد», "ambulance", "death threat"), or by
two words of one sentence that mean it together: someone and what happened to them ("my son" …
"lost"; «مادرم» … «مریض»). The pairs are what keep everyday messages calm: "I lost my ticket"
names nobody, and "my son's **passport** is lost" names a thing between the son and the loss, so
neither is a missing child. A thing counts within its clause (cut at a comma too): "my son has
no phone, he is missing" is still a missing son. "Lost my son at the gate, is the gate open?"
leaves a question (:func:`asks_more`) for the assistant to answer after the help.

What is **not now** is no danger: a clause naming a year before the evacuation ("injured in 2018
in the army"); a message saying it is over or long past ("she is fine now", «پارسال», "os jor
de": no wound nor loss in it counts, a threat still does); a threat seen on a video, heard on the
radio or as a rumour (news, not one's own). Nor is a threat the message says came and went
without harm ("asked some questions and left, everyone ok", «او لاړل»: ``GONE``), one asked about
as hearsay ("is it true?", «راست است»: ``HEARSAY``) or told of weeks back ("last month",
«هفته گذشته»: ``PAST``), unless the message says it is still on ("they will come back tonight",
«بیا راځو»: ``STILL_THREAT``; or harm done, for the first and last: ``HARM``). And the
classifier is not asked about a message with no word of the lexicon in it but a thing's ("East
Gate, North Gate, Baron Hotel side"), nor about one whose threat these set aside.

Someone **taken** ("they took my husband", «بردنش», «یې بوتلو») is a threat, unless the message
also says that nobody knows where they are now (a ``missing`` word: "no news", «هیچ درکش نیست»):
then they are missing, and the missing line answers, not the threat line too. A beating or a
death threat in the same message is a threat still.

Words are matched whole, as written or with one of their language's endings, after the
project's normaliser and after folding Pashto letters to what a Persian keyboard types, as
``kernel/case_urgency.py`` does. Romanized Dari and Pashto have no fixed spelling: a word is read
by its shape, its consonants and where its vowels stand (kernel/lang/skeleton.py), so "bihush",
"zaxmi" and "doxtar-em" are read as the lexicon's "behosh", "zakhmi" and "dokhtar" with their
ending — only for shapes distinctive enough (three consonants) and meaning one thing (see
:func:`_spellings`). A run of fragments ("son 6yo. red shirt. lost.") is read as one sentence.
Every language's words are tried on every message: people mix them. Precision and recall per
kind and per slice: ``scripts/bench_danger.py``, on held-out
messages written apart from the lexicon (tests/nlu/danger/).

Standard library only: Rasa's policy routes on it and the action server answers with it.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from functools import cache, lru_cache
from typing import Final

from kernel.danger_classifier import guess
from kernel.lang.codes import ENGLISH
from kernel.lang.danger_words import (
    DANGER_WORDS,
    GONE,
    HARM,
    HEARSAY,
    PAST,
    QUESTION_OPENERS,
    QUESTION_WORDS,
    REPORTS,
    RESOLVED,
    STILL_THREAT,
    TAKEN,
    DangerWords,
    Pair,
)
from kernel.lang.letters import PERSIAN_KEYBOARD
from kernel.lang.normalise import normalise
from kernel.lang.skeleton import skeleton


class Danger(str, enum.Enum):
    """The kinds of danger, most pressing first: the order answers are given in."""

    MISSING = "missing"
    MEDICAL = "medical"
    THREAT = "threat"


#: Romanized spellings of one sound: "mashoom" and "mashum", "beemar" and "bimar"; and English
#: contractions with or without their apostrophe: "can't" and "cant".
_LATIN_SPELLINGS: Final = (("oo", "u"), ("ee", "i"), ("n't", "nt"), ("n\u2019t", "nt"))
#: What a Persian keyboard types for each Pashto letter (kernel/lang/letters.py).
_KEYBOARD: Final = tuple((chr(letter), str(typed)) for letter, typed in PERSIAN_KEYBOARD.items())
#: Dari's negative prefix, typed joined, apart or after a zero-width non-joiner (a space once
#: normalised): «نمیتانم», «نمی تانم» and «نمی‌توانم» are one word to the lexicon.
_NEGATIVE_PREFIX: Final = re.compile(r"(?<!\w)(نمی) (?=\w)")
#: A word, where a sentence ends (punctuation in both scripts; a line break, cut before
#: normalising), and where a clause ends within it.
_WORD: Final = re.compile(r"\w+")
_TOKEN: Final = re.compile(r"(\w+)|([.!?؟;؛])|[,،]|\s-\s")
_LINE_END: Final = re.compile(r"[\r\n]+")
#: Romanized Dari's ezafe written apart ("posht e darwaza"), as it is also typed joined: the
#: normaliser reads "posht-e darwaza" as "poshte darwaza".
_EZAFE: Final = re.compile(r"(?<=[a-z]) e (?=[a-z])")
#: A romanized word this short takes no ending: "i" is not "is", nor "ma" "may".
_SHORTEST_TO_INFLECT: Final = 3
#: A romanized word the lexicon does not spell is read by its consonants when it has this many
#: ("bhS" is «بیهوش» however spelled; "rk" or "gm" could be anything).
_FEWEST_CONSONANTS: Final = 3
#: A romanized word's vowels, and its w and y, each a slot between consonants (see _shape).
_VOWELS: Final = re.compile("[aeiou]+")
_W_Y: Final = re.compile("[wy]+")
#: A sentence of this many words or fewer is a fragment, read with the fragments beside it.
_FRAGMENT: Final = 4
#: How near a thing must stand to a pair's words to make the pair about the thing.
_THING_SPAN: Final = 3
#: A year before the evacuation, Gregorian or solar («۱۳۹۸»): a clause that names one tells of
#: the past ("injured in 2018 in the army", "sal-e 2019 gum bood magar pas amad").
_PAST_YEAR: Final = re.compile(r"19[89]\d|20[01]\d|2020|13[5-9]\d")
#: The kinds a report of what others saw is read apart for ("a video of the Taliban beating
#: people", «ویدیوی دیدم که طالبا مردم ره لت میکنن»): news, not someone's own danger.
_REPORTED_KINDS: Final = frozenset({Danger.THREAT.value, TAKEN})

Phrase = tuple[str, ...]
#: The kinds a lexicon is written for: the three dangers, and someone taken (see above).
_KEYS: Final = (*(kind.value for kind in Danger), TAKEN)


def folded(text: str) -> str:
    """``text`` as the lexicon is written: normalised, Pashto letters folded as a Persian
    keyboard types them, one spelling of each romanized sound."""
    folded = normalise(text)
    for letter, typed in _KEYBOARD:  # as_on_persian_keyboard, letter by letter: many times faster
        if letter in folded:
            folded = folded.replace(letter, typed)
    if "نمی" in folded:
        folded = _NEGATIVE_PREFIX.sub(r"\1", folded)
    return _spelled(folded)


def _spelled(word: str) -> str:
    """``word`` with one spelling of each romanized sound, as an ending may join two: "mobile"
    and "e" are "mobili", as the message's «mobile-e» reads."""
    for spelling, sound in _LATIN_SPELLINGS:
        word = word.replace(spelling, sound)
    return word


def words(text: str) -> list[str]:
    """The words of ``text`` as the lexicon is written: normalised, Pashto letters folded."""
    return _WORD.findall(folded(text))


def _forms(phrases: Iterable[str], endings: tuple[str, ...]) -> set[Phrase]:
    """Every accepted form of ``phrases``: the last word with each ending of its script (but a
    short romanized word only as written)."""
    forms: set[Phrase] = set()
    for phrase in phrases:
        forms |= _phrase_forms(phrase, endings)
        if _EZAFE.search(phrase):
            forms |= _phrase_forms(_EZAFE.sub("e ", phrase), endings)
    return forms


@cache
def _phrase_forms(phrase: str, endings: tuple[str, ...]) -> frozenset[Phrase]:
    """One phrase's forms (:func:`_forms`), kept while the index is built: the respelling reads
    every phrase's forms again (cleared once the index stands)."""
    *head, last = words(phrase)
    if len(last) < _SHORTEST_TO_INFLECT and last.isascii():
        return frozenset({(*head, last)})
    script = last.isascii()
    return frozenset(
        (*head, _spelled(last + ending))
        for ending in endings
        if not ending or ending.isascii() == script
    )


#: What a phrase found in a message is to one kind: a phrase that means it alone, a phrase that
#: looks like it and is calm, or one side of one of its pairs ("who" or "what" of pair n).
Role = tuple[str, str, int]
_THING: Final[Role] = ("", "thing", 0)
_REPORT: Final[Role] = ("", "report", 0)
_RESOLVED: Final[Role] = ("", "resolved", 0)
_HEARSAY: Final[Role] = ("", "hearsay", 0)
_GONE: Final[Role] = ("", "gone", 0)
_STILL: Final[Role] = ("", "still", 0)
_HARM: Final[Role] = ("", "harm", 0)
_PAST: Final[Role] = ("", "past", 0)
#: What a message read as over (:data:`RESOLVED`) no longer speaks of.
_OVER: Final = frozenset({Danger.MISSING, Danger.MEDICAL})


def _roles() -> dict[Phrase, set[Role]]:
    """Every accepted form of every phrase of every language, with what it is to which kind."""
    roles: dict[Phrase, set[Role]] = {}
    for lexicon in DANGER_WORDS.values():
        for form in _forms(lexicon.things, lexicon.endings):
            roles.setdefault(form, set()).add(_THING)
        for key in _KEYS:
            kind_words = lexicon.kinds[key]
            for part in ("alone", "calm"):
                for form in _forms(getattr(kind_words, part), lexicon.endings):
                    roles.setdefault(form, set()).add((key, part, 0))
            for n, pair in enumerate(kind_words.pairs):
                for side in ("who", "what"):
                    for form in _forms(getattr(pair, side), lexicon.endings):
                        roles.setdefault(form, set()).add((key, side, n))
    for table, role in (
        (REPORTS, _REPORT),
        (RESOLVED, _RESOLVED),
        (HEARSAY, _HEARSAY),
        (GONE, _GONE),
        (STILL_THREAT, _STILL),
        (HARM, _HARM),
        (PAST, _PAST),
    ):
        for language, phrases in table.items():
            for form in _forms(phrases, DANGER_WORDS[language].endings):
                roles.setdefault(form, set()).add(role)
    return roles


#: A word's roles as a phrase of its own, and the longer phrases it begins, by length.
Entry = tuple[frozenset[Role], tuple[tuple[int, dict[Phrase, frozenset[Role]]], ...]]


def _index(roles: dict[Phrase, set[Role]]) -> dict[str, Entry]:
    """Every phrase of every language by its first word, then by its length, with what it is
    to which kind: a few dictionary look-ups per word of a message, however long the lexicon."""
    by_first: dict[str, dict[int, dict[Phrase, frozenset[Role]]]] = {}
    shared: dict[frozenset[Role], frozenset[Role]] = {}  # one set for the forms of a phrase
    for phrase, found in roles.items():
        kinds = shared.setdefault(frozenset(found), frozenset(found))
        by_first.setdefault(phrase[0], {}).setdefault(len(phrase), {})[phrase] = kinds
    return {
        first: (
            lengths.pop(1, {}).get((first,), frozenset()),
            tuple(sorted(lengths.items())),
        )
        for first, lengths in by_first.items()
    }


def _written(lexicon: DangerWords) -> Iterator[str]:
    """Every phrase of ``lexicon``, as written."""
    yield from lexicon.things
    for key in _KEYS:
        kind_words = lexicon.kinds[key]
        yield from (*kind_words.alone, *kind_words.calm)
        for pair in kind_words.pairs:
            yield from (*pair.who, *pair.what)


def _shape(word: str) -> str:
    """A romanized word's consonants (kernel/lang/skeleton.py) and where its vowels ("9") and its
    w and y ("8") stand between them: "bihush", "behosh" and "bihosh" are all "b9h9S", but
    "emroz" (today) is "9mr9z", not "mariz" (sick), "m9r9z", nor "nawishta" (written)
    "nishta" (is not), nor "memory" "memera" (is dying)."""
    return skeleton(_W_Y.sub("8", _VOWELS.sub("9", word)))


def _spellings(roles: dict[Phrase, set[Role]]) -> tuple[dict[str, str], dict[str, str]]:
    """One spelling for the romanized Dari and Pashto words of one shape and one meaning, by
    shape and by each word the lexicon writes: "zakhmi" and "zakhme", "gum shuda" and "gom
    shoda" are read as one, on the lexicon's side and the message's, and so are spellings the
    lexicon does not write ("zaxmi", "doxtar", "gom shode"). A shape stands for none when it is
    not distinctive (one of its words has fewer than ``_FEWEST_CONSONANTS`` consonants before
    its ending: "tab-ash" is not "tebbi-esh"), when its words mean different things alone (two
    kinds, a word of phrases and a word alone), when one is a thing (names are not "sim-am"),
    or when one is English, spelled one way ("later" is not "letter")."""
    alone = {phrase[0]: frozenset(found) for phrase, found in roles.items() if len(phrase) == 1}
    by_shape: dict[str, set[str]] = {}
    rejected: set[str] = set()
    shapes: dict[str, str] = {}
    for language, lexicon in DANGER_WORDS.items():
        for phrase in set(_written(lexicon)):
            written = words(phrase)
            for form in _phrase_forms(phrase, lexicon.endings):
                for word, stem in zip(form, written, strict=True):
                    if not word.isascii():
                        continue
                    shape = shapes.get(word) or shapes.setdefault(word, _shape(word))
                    by_shape.setdefault(shape, set()).add(word)
                    if (
                        language == ENGLISH
                        or _THING in alone.get(word, ())
                        or _consonants(shapes.get(stem) or _shape(stem)) < _FEWEST_CONSONANTS
                    ):
                        rejected.add(shape)
    by_word: dict[str, str] = {}
    spellings: dict[str, str] = {}
    for shape, spelled in by_shape.items():
        if shape not in rejected and len({alone.get(word) for word in spelled}) == 1:
            spellings[shape] = min(spelled, key=lambda word: (len(word), word))
            by_word.update(dict.fromkeys(spelled, spellings[shape]))
    return spellings, by_word


def _respelled(roles: dict[Phrase, set[Role]], spelling: dict[str, str]) -> dict[Phrase, set[Role]]:
    """``roles`` with every word in its one ``spelling``: the roles of "zakhmi" and "zakhme"
    are one word's."""
    respelled: dict[Phrase, set[Role]] = {}
    for phrase, found in roles.items():
        respelled.setdefault(tuple(spelling.get(w, w) for w in phrase), set()).update(found)
    return respelled


def _consonants(shape: str) -> int:
    return len(shape) - shape.count("9") - shape.count("8")


#: The one spelling of each shape of romanized Dari and Pashto words that means one thing, and
#: every word of the lexicon in it.
_ROLES: Final = _roles()
_BY_SHAPE, _SPELLING = _spellings(_ROLES)
_INDEX: Final = _index(_respelled(_ROLES, _SPELLING))
#: Every word the lexicon writes (in the one spelling of its shape).
_KNOWN: Final = frozenset(_SPELLING.get(word, word) for phrase in _ROLES for word in phrase)
del _ROLES
#: Romanized endings, longest first, to find a respelled word's stem: "zaxm-esh".
_LATIN_ENDINGS: Final = sorted(
    {
        e
        for language, lexicon in DANGER_WORDS.items()
        if language != ENGLISH
        for e in lexicon.endings
        if e.isascii() and e
    },
    key=len,
    reverse=True,
)


@lru_cache(maxsize=16384)
def _as_spelled(word: str) -> str:
    """``word`` as the lexicon spells it: a romanized word in the one spelling of its shape,
    with the ending it came with ("zaxm-esh" is "zakhm-esh")."""
    if not word.isascii() or word in _KNOWN:
        return word
    respelled = _BY_SHAPE.get(_shape(word))
    if respelled:
        return respelled
    for ending in _LATIN_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= _SHORTEST_TO_INFLECT:
            stem = _BY_SHAPE.get(_shape(word[: -len(ending)]))
            if stem:
                inflected = _spelled(stem + ending)
                inflected = _BY_SHAPE.get(_shape(inflected), inflected)
                if inflected in _KNOWN:
                    return inflected
    return word


def _pairs() -> dict[str, tuple[Pair, ...]]:
    """How each pair of each kind is read (its span, whether things count, what it yields to):
    pair n means the same in every language, so it is read one way, its words put aside."""
    pairs: dict[str, tuple[Pair, ...]] = {}
    for key in _KEYS:
        by_n: dict[int, set[Pair]] = {}
        for lexicon in DANGER_WORDS.values():
            for n, pair in enumerate(lexicon.kinds[key].pairs):
                by_n.setdefault(n, set()).add(replace(pair, who=(), what=()))
        if any(len(read) > 1 for read in by_n.values()):
            raise ValueError(
                f"kernel/lang/danger_words.py: {key} pairs read differently by language"
            )
        pairs[key] = tuple(read.pop() for _, read in sorted(by_n.items()))
    return pairs


_PAIRS: Final = _pairs()
_ASKING: Final = frozenset(
    form for table in QUESTION_WORDS.values() for form in _forms(table, ("",))
)
_OPENERS: Final = frozenset(
    form[0] for table in QUESTION_OPENERS.values() for form in _forms(table, ("",))
)
_QUESTION_MARK: Final = re.compile(r"[?؟]\s*$")
_phrase_forms.cache_clear()  # the index stands: no phrase is read again

Span = tuple[int, int]


class _Sentence:
    """The words of one sentence, the clause each stands in, and where each role's phrases
    stand among them."""

    def __init__(self, clauses: list[list[str]]) -> None:
        self.words = sentence = [_as_spelled(word) for clause in clauses for word in clause]
        self.clause = [n for n, clause in enumerate(clauses) for _ in clause]
        self.found: dict[Role, list[Span]] = {}
        found = self.found
        for i, word in enumerate(sentence):
            entry = _INDEX.get(word)
            if entry is None:
                continue
            alone, longer = entry
            for role in alone:
                found.setdefault(role, []).append((i, i + 1))
            for length, phrases in longer:
                for role in phrases.get(tuple(sentence[i : i + length]), ()):
                    found.setdefault(role, []).append((i, i + length))
        #: Whether a clause's words of a kind were dropped as past (see _forget_the_past).
        self.forgot = False
        self._forget_the_past()
        self.things = [start for start, _ in found.get(_THING, ())]
        self._spans: dict[Role, list[Span]] = {}
        self._has: dict[str, bool] = {}

    def _forget_the_past(self) -> None:
        """Drop what the clauses naming a year before the evacuation say: an old wound, a
        brother lost for a week in 2019 and back since, are no danger now."""
        past = {self.clause[i] for i, word in enumerate(self.words) if _PAST_YEAR.fullmatch(word)}
        self._forget(past, lambda role: True)

    def forget_past_threats(self) -> None:
        """Drop the threats the clauses naming a time weeks or months ago tell of ("followed
        last month in Mazar", «هفته گذشته طالبان به کوچه ما آمدند»): called when nothing in the
        message says the threat is still on. Someone taken then is taken still."""
        past = {self.clause[start] for start, _ in self.found.get(_PAST, ())}
        self._forget(past, lambda role: role[0] == Danger.THREAT.value)

    def _forget(self, past: set[int], of: Callable[[Role], bool]) -> None:
        if not past:
            return
        for role, spans in list(self.found.items()):
            if not of(role):
                continue
            kept = [span for span in spans if self.clause[span[0]] not in past]
            if len(kept) < len(spans) and role[0]:
                self.forgot = True
            if kept:
                self.found[role] = kept
            else:
                del self.found[role]

    @property
    def hearsay(self) -> bool:
        """Whether the sentence is what others say or a question whether news is true ("my
        neighbour said they search cars at the checkpoint, is it true?"), with nothing in it
        saying a threat is still on."""
        return _HEARSAY in self.found and _STILL not in self.found

    @property
    def hearsaid(self) -> bool:
        """Whether the sentence is hearsay (``hearsay``) of threats or of someone taken."""
        return self.hearsay and any(role[0] in _REPORTED_KINDS for role in self.found)

    @property
    def named(self) -> bool:
        """Whether the sentence holds any word of the lexicon but a thing or a report: someone,
        something that happened, a calm phrase. Without one, nothing it says is the lexicon's to
        read ("East Gate, North Gate, Baron Hotel side")."""
        return any(role[0] for role in self.found)

    def spans(self, key: str, part: str, n: int = 0) -> list[Span]:
        """Where the ``part`` phrases of ``key`` stand, but those inside a calm phrase of it."""
        role = (key, part, n)
        if role not in self._spans:
            spans = self.found.get(role, [])
            calm = self.found.get((key, "calm", 0))
            if calm and spans:
                spans = [
                    span
                    for span in spans
                    if not any(start <= span[0] and span[1] <= end for start, end in calm)
                ]
            self._spans[role] = spans
        return self._spans[role]

    def has(self, key: str) -> bool:
        """Whether the sentence speaks of ``key``: a phrase alone, or a pair close together."""
        if key not in self._has:
            found = self.found
            reported = key in _REPORTED_KINDS and (_REPORT in found or self.hearsay)
            self._has[key] = not reported and (
                bool(self.spans(key, "alone"))
                or any(
                    (key, "who", n) in found
                    and (key, "what", n) in found
                    and self._paired(self.spans(key, "who", n), self.spans(key, "what", n), pair)
                    and not (pair.unless and self.has(pair.unless))
                    for n, pair in enumerate(_PAIRS[key])
                )
            )
        return self._has[key]

    def _paired(self, whos: list[Span], whats: list[Span], pair: Pair) -> bool:
        """A person and what happened to them, close together, and not about a thing."""
        return any(
            max(what[0] - who[1], who[0] - what[1]) < pair.span
            and not (pair.of_things and self.things and self._of_a_thing(who, what))
            for who in whos
            for what in whats
        )

    def _of_a_thing(self, who: Span, what: Span) -> bool:
        """Whether a thing of the what's clause makes the pair about the thing: "my son's
        passport is lost", «پاسپورت بچیم گم شده» (the thing before its owner), "my son lost
        his phone", "where is my daughter's passport", "my phone is broken, I write from my
        brother's" (the owner in a later clause)."""
        clause = self.clause[what[0]]
        for thing in self.things:
            if self.clause[thing] != clause or any(s[0] <= thing < s[1] for s in (who, what)):
                continue  # another clause's, or part of a side ("phone off")
            if self.clause[who[0]] > clause:
                return True  # the loss and its thing, then someone else's clause
            if what[1] <= who[0] and what[0] - _THING_SPAN <= thing < what[0]:
                return True  # the thing, its loss, then someone after: «پاسپورت … گم شده با فامیل»
            if min(who[0], what[0]) <= thing < max(who[1], what[1]):
                return True  # between them
            if who[1] <= what[0]:
                if who[0] - _THING_SPAN <= thing < who[0] or thing == what[1] + 1:
                    return True  # before its owner, or right after the loss and a "his"
            elif who[1] <= thing < who[1] + _THING_SPAN:
                return True  # right after its owner
        return False


def _sentences(text: str) -> list[_Sentence]:
    """Each sentence of ``text`` with words, cut into clauses; a run of fragments ("son 6yo.
    red shirt. lost. north gate", «زن حامله. درد. آبش شکسته.») is one sentence, each fragment
    a clause of it."""
    sentences: list[list[list[str]]] = []
    for line in _LINE_END.split(text):
        fragment = False  # whether the line's last sentence was a fragment
        clauses: list[list[str]] = []
        clause: list[str] = []
        for word, sentence_end in (*_TOKEN.findall(folded(line)), ("", ".")):
            if word:
                clause.append(word)
                continue
            if clause:
                clauses.append(clause)
                clause = []
            if sentence_end and clauses:
                short = sum(map(len, clauses)) <= _FRAGMENT
                if short and fragment:
                    sentences[-1] += clauses
                else:
                    sentences.append(clauses)
                fragment = short and sum(map(len, sentences[-1][-1:])) <= _FRAGMENT
                clauses = []
    read = [_Sentence(clauses) for clauses in sentences]
    if not _still(read):
        for sentence in read:
            sentence.forget_past_threats()
    return read


def _still(sentences: list[_Sentence]) -> bool:
    """Whether the message says a threat is still on or harm was done: a threat to come ("they
    will come back tonight"), someone hunted or hiding, a plea for help; beaten, threatened."""
    return any(_STILL in s.found or _HARM in s.found for s in sentences)


def _gone(sentences: list[_Sentence]) -> bool:
    """Whether the message says the armed men came and went and did no harm ("asked some
    questions and left, everyone ok", «رها کردند», «او لاړل»), and not that a threat is still
    on."""
    return any(_GONE in s.found for s in sentences) and not _still(sentences)


def _over(sentences: list[_Sentence]) -> bool:
    """Whether the message says its danger is over or long past ("she is fine now", «پارسال»,
    "os jor de"): then it asks about something else."""
    return any(_RESOLVED in s.found for s in sentences)


def _kinds(sentences: list[_Sentence]) -> set[Danger]:
    """The kinds ``sentences`` speak of, someone taken counted as missing or as a threat; a
    wound or a loss the message says is over, none."""
    kinds = {kind for kind in Danger if any(s.has(kind.value) for s in sentences)}
    if _gone(sentences):
        kinds.discard(Danger.THREAT)  # they came and went; someone taken is taken still
    if any(s.has(TAKEN) for s in sentences):
        unheard_of = any(
            s.spans(Danger.MISSING.value, "what", n)
            for s in sentences
            for n in range(len(_PAIRS[Danger.MISSING.value]))
        )
        kinds.add(Danger.MISSING if unheard_of or Danger.MISSING in kinds else Danger.THREAT)
    return kinds - _OVER if _over(sentences) else kinds


def words_alone(text: str) -> tuple[Danger, ...]:
    """The kinds the danger words find in ``text``, most pressing first."""
    found = _kinds(_sentences(text))
    return tuple(kind for kind in Danger if kind in found)


@lru_cache(maxsize=4096)
def dangers(text: str) -> tuple[Danger, ...]:
    """The kinds of danger ``text`` speaks of, most pressing first; empty when none: the words
    first, and the classifier trained beside them (kernel/danger_classifier.py) when they find
    none.

    Cached: Rasa's policy asks once per prediction of a turn, the action server once more.
    """
    sentences = _sentences(text)
    found = _kinds(sentences)
    if found:
        return tuple(kind for kind in Danger if kind in found)
    if (
        _over(sentences)
        or _gone(sentences)
        or any(sentence.forgot for sentence in sentences)
        or (
            any(sentence.hearsaid for sentence in sentences)
            and not any(_STILL in sentence.found for sentence in sentences)
        )
        or not any(sentence.named for sentence in sentences)
    ):
        return ()  # over, gone, past, hearsay, or a list of places: not the classifier's to tell
    kind = guess(folded(text))
    return () if kind is None else (Danger(kind),)


def asks_more(text: str) -> bool:
    """Whether ``text`` also asks a question in a clause that speaks of no danger ("lost my son
    at the gate, is the gate open?"): then its answer follows the help. A clause asks when it
    ends with a question mark or holds a question word ("is", «کی», «کله», "kay")."""
    for clause in re.split(r"(?<=[.!?؟;؛\n,،])", text):
        clause_words = words(clause)
        if len(clause_words) < 2 or _kinds([_Sentence([clause_words])]):
            continue
        if _QUESTION_MARK.search(clause.strip(" .,،")) or clause_words[0] in _OPENERS:
            return True
        if any(
            tuple(clause_words[i : i + len(q)]) == q
            for q in _ASKING
            for i in range(len(clause_words))
        ):
            return True
    return False
