"""Which announcement a question is about: "amnesty", "عفو", "بښنه", "women working".

The keywords are the announcements' own words, in all three languages: title, text, issuer and
kind as editors published them, so a new announcement is found by its topic the moment it is
published, without anyone maintaining a keyword list. Only the few romanized spellings people
type for the kinds (no editor writes "afwa") are listed here. A word that many announcements
share ("announcement", "Kabul") counts for little; the best announcement must beat the next
one, else the question has no topic and the newest come first as before.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Final

from actions.content import localise
from actions.content.columns import in_language
from actions.content.models import Announcement
from kernel.lang.codes import LANGUAGES
from kernel.lang.normalise import normalise

#: Romanized words for announcement kinds, as people type them in Dari and Pashto.
ROMANIZED_KINDS: Final[dict[str, tuple[str, ...]]] = {
    "amnesty": ("afw", "afwa", "afu", "afwe", "bakhshesh", "bakhshish", "bakhana", "bakhna"),
    "evacuation": ("takhliya", "takhlia", "wistal", "weestal"),
    "safety": ("amniyat", "amniyati", "khatar", "khabardari"),
    "government": ("hukumat", "hokumat", "hukumati"),
}
#: Words of questions, not of topics.
_QUESTION_LINES: Final = (
    "the what did does about any new latest announcement announcements announced said say",
    "is are was were there who for and from with of to in on a an tell me please",
    "چه چی گفت گفته کدام در باره مورد اعلامیه اعلامیه\u200cها اعلام است آیا از به را",
    "څه وویل ویلي کوم په د اعلان اعلانونه ده دی چې ته له",
    "chi chiz goft elan elanat",
)
_WORD: Final = re.compile(r"[^\W\d_]+(?:[’'\u200c][^\W\d_]+)*")
_MIN_LETTERS: Final = 3


def words(text: str) -> list[str]:
    """Normalised words of at least three letters, "'s" dropped ("Germany's" → "germany")."""
    found = []
    for raw in _WORD.findall(normalise(text).lower()):
        word = re.sub(r"['’]s$", "", raw)
        if len(word) >= _MIN_LETTERS:
            found.append(word)
    return found


#: The question words, normalised as the questions are.
QUESTION_WORDS: Final = frozenset(word for line in _QUESTION_LINES for word in words(line))


#: Endings Dari and Pashto inflect with (ښځې/ښځو, بښنه/بښنې, اعلامیه/اعلامیی): one letter.
_ENDINGS: Final = frozenset("هېۍويیا")


def stem(word: str) -> str:
    """The word without one inflecting final letter, for Arabic-script words of 3+ letters."""
    if len(word) >= _MIN_LETTERS and word[-1] in _ENDINGS and not word.isascii():
        return word[:-1]
    return word


def same_word(asked: str, written: str) -> bool:
    """One word in two forms: equal, equal but for an inflecting ending ("ښځو"/"ښځې"), or
    sharing a start of 3+ letters that is most of the shorter ("work"/"working",
    "german"/"germany")."""
    if asked == written or stem(asked) == stem(written):
        return True
    common = 0
    for a, b in zip(asked, written, strict=False):
        if a != b:
            break
        common += 1
    shorter = min(len(asked), len(written))
    return common >= _MIN_LETTERS and common >= 0.75 * shorter


def vocabulary(announcement: Announcement) -> set[str]:
    """Every word the announcement is known by, in every language."""
    texts: list[str] = []
    for language in LANGUAGES:
        for row, field in ((announcement, "title"), (announcement, "text")):
            texts.append(in_language(row, field, language)[0])
        texts.append(in_language(announcement.issuer, "name", language)[0])
        texts.append(localise.word("kind", announcement.kind.value, language))
    texts.extend(ROMANIZED_KINDS.get(announcement.kind.value, ()))
    return {word for text in texts for word in words(text)}


def on_topic(
    announcements: Sequence[Announcement], question: str
) -> tuple[Announcement | None, list[Announcement]]:
    """The announcement the question is about (or None) and the others, newest first."""
    asked = [word for word in words(question) if word not in QUESTION_WORDS]
    if not asked or not announcements:
        return None, list(announcements)
    known = [vocabulary(item) for item in announcements]
    scores = [0.0] * len(announcements)
    for word in asked:
        hits = [i for i, vocab in enumerate(known) if any(same_word(word, w) for w in vocab)]
        for i in hits:
            scores[i] += 1 / len(hits)
    ranked = sorted(range(len(announcements)), key=lambda i: -scores[i])
    best = ranked[0]
    if scores[best] == 0 or (len(ranked) > 1 and scores[ranked[1]] >= scores[best]):
        return None, list(announcements)
    return announcements[best], [item for i, item in enumerate(announcements) if i != best]


def slugs(announcements: Iterable[Announcement]) -> list[str]:
    return [item.slug for item in announcements]
