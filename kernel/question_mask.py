"""What is left of a question we could not answer once whatever could identify a person is gone.

Editors need to see what people ask that the assistant cannot answer, never who asked. So a
message that fell back (``nlu_fallback``) or was out of scope is masked *before* it is stored:

* e-mail addresses → ``[email]``, web addresses → ``[url]``, ``@handles`` → ``[name]``;
* anything like a phone number (7 or more digits with spaces, dashes, dots or brackets, in Latin,
  Persian or Arabic-Indic digits, with or without ``+``) → ``[phone]``; every other word with a
  digit in it (a passport, a flight or a house number) → ``[number]``: no digit is ever kept;
* names: the word after "my name is" / «نام من» / «اسمم» / «زما نوم» and after a title
  (Mr, Haji, آقای, خانم, حاجی, ښاغلی …); capitalised Latin words that do not start a sentence
  (places the assistant knows, such as Doha or Abbey Gate, are kept); a list of common Afghan
  given names in Latin and Arabic script, in any position; family names formed with -zai / -khel
  (احمدزی، سلیمان‌خیل). The cues and the given names are every language's, in
  kernel/lang/name_cues.py: a language added without them stops the import.

Limits, honestly: a name that is in none of these forms (a lower-case romanized name not in the
list, a rare name in Arabic script, which has no capital letters) passes through, and so do
numbers written out in words; names that are also ordinary words (نور "light", عمر "age",
"said") are left off the list. That is why a message is shown to editors only when at least three
different conversations sent it (``actions/questions/report.py``): a name typed by one person does
not reach the page. The masked text is then normalised (``kernel/lang/normalise.py``), stripped of
punctuation and cut to 200 characters, so that similar messages look the same and group.

Standard library only: both runtimes may import it.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from typing import Final

from kernel.lang import name_cues
from kernel.lang.codes import LANGUAGES, every_word
from kernel.lang.normalise import normalise

MAX_LENGTH: Final = 200
#: Read at most this much of a message: the masks are regular expressions over all of it.
MAX_READ: Final = 1000

EMAIL: Final = "[email]"
URL: Final = "[url]"
PHONE: Final = "[phone]"
NUMBER: Final = "[number]"
NAME: Final = "[name]"

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_URL = re.compile(
    r"(?:https?://|www\.)\S+|\b[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|af|gov|int|info|io|me|ly)\b\S*",
    re.IGNORECASE,
)
_HANDLE = re.compile(r"(?<!\w)@\w+")
#: 7 or more digits, possibly grouped: +93 700 123 456, 0700-123-456, (079) 1234567, ۰۷۹۹۱۲۳۴۵۶.
_PHONE = re.compile(r"(?<!\w)\+?\(?\d(?:[\s\-.()]{0,3}\d){6,}(?!\w)")
_WITH_DIGIT = re.compile(r"[^\s\[\]]*\d[^\s\[\]]*")

#: Words that introduce a name, then titles, every language's (kernel/lang/name_cues.py
#: ``NAME_CUES``): the next word is masked (a second Latin one is capitalised).
_AFTER_CUE = re.compile(
    r"(?<!\w)("
    + "|".join(re.escape(cue) for language in LANGUAGES for cue in name_cues.NAME_CUES[language])
    + r")\.?(\s+)([^\s.,!?؟،]+)",
    re.IGNORECASE,
)


def _words(block: str) -> frozenset[str]:
    return frozenset(block.split())


#: Common Afghan given names, romanized as people type them and in Arabic script, every
#: language's (kernel/lang/name_cues.py ``GIVEN_NAMES``).
GIVEN_NAMES: Final = every_word(name_cues.GIVEN_NAMES)
_GIVEN_NAME_WORDS: Final = frozenset(normalise(name) for name in GIVEN_NAMES)
_FAMILY_LATIN = re.compile(r"\b\w{3,}(?:zai|zay|zoi|khel|khail|khil)\b", re.IGNORECASE)
_FAMILY_ARABIC = re.compile(r"(?<!\S)(\S{3,}?)(زی|زۍ|زائی|خیل|خېل)(?!\S)")
#: "سلیمان خیل": the ZWNJ of "سلیمان‌خیل" became a space in normalising.
_FAMILY_ARABIC_APART = re.compile(r"(?<!\S)\S{2,} (?:خیل|خېل)(?!\S)")
#: Ordinary words that end like a family name: "game", "making", "launching", "music", and
#: after the normaliser's ی for Pashto's ي: «پرانیزي» (opens), «انګرېزي» / «انگریزی» (English).
_NOT_FAMILIES: Final = ("با", "سا", "اندا", "نوا", "پردا", "تا", "ر", "پرانی", "انگری", "انګرې")

#: Capitalised words that are no name: places and things the assistant answers about.
KNOWN_WORDS: Final = _words(
    """
    i i'm i'll i've kabul hkia hamid karzai doha qatar islamabad pakistan dubai uae abu dhabi
    ramstein germany tashkent uzbekistan frankfurt london uk washington usa us america
    american afghanistan afghan mazar mazar-i-sharif sharif kandahar herat jalalabad
    abbey gate east north baron hotel airport taliban un unhcr iom siv p1 p2 visa embassy
    english dari pashto farsi persian monday tuesday wednesday thursday friday saturday sunday
    january february march april may june july august september october november december
    whatsapp telegram sms stop help menu ok please hello hi thanks thank
    """
)

_SENTENCE_END = re.compile(r"[.!?؟\n]\s*$")
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
_PUNCTUATION = re.compile(r"[^\w\s\[\]]")
_REPEATED_MASK = re.compile(r"(\[\w+\])(?:\s+\1)+")
_SPACES = re.compile(r"\s+")


def _mask_capitalised(text: str) -> str:
    """Capitalised Latin words that do not start a sentence, unless the assistant knows them."""
    pieces: list[str] = []
    last = 0
    for match in _LATIN_WORD.finditer(text):
        word = match.group()
        before = text[: match.start()]
        starts_sentence = not before.strip() or bool(_SENTENCE_END.search(before))
        capitalised = word[0].isupper() and not word.isupper()
        if capitalised and not starts_sentence and word.lower() not in KNOWN_WORDS:
            pieces.append(text[last : match.start()] + NAME)
            last = match.end()
    pieces.append(text[last:])
    return "".join(pieces)


def _mask_listed_names(text: str) -> str:
    words = []
    for word in text.split(" "):
        bare = word.strip(".,!?؟،:;")
        if bare and bare in _GIVEN_NAME_WORDS:
            word = word.replace(bare, NAME)
        words.append(word)
    return " ".join(words)


def _mask_family(match: re.Match[str]) -> str:
    return match.group() if match.group(1).endswith(_NOT_FAMILIES) else NAME


def mask(text: str) -> str:
    """The message as it may be stored: identifying parts replaced, normalised, at most 200
    characters; "" for a message with nothing left."""
    text = unicodedata.normalize("NFKC", text[:MAX_READ]).replace("\x00", "")
    text = _EMAIL.sub(EMAIL, text)
    text = _URL.sub(URL, text)
    text = _HANDLE.sub(NAME, text)
    text = _PHONE.sub(PHONE, text)
    text = _WITH_DIGIT.sub(NUMBER, text)
    text = _AFTER_CUE.sub(lambda m: m.group(1) + m.group(2) + NAME, text)
    text = _mask_capitalised(text)
    text = _FAMILY_LATIN.sub(NAME, text)
    text = normalise(text)
    text = _FAMILY_ARABIC_APART.sub(NAME, text)
    text = _FAMILY_ARABIC.sub(_mask_family, text)
    text = _mask_listed_names(text)
    text = _PUNCTUATION.sub(" ", text)
    text = _REPEATED_MASK.sub(r"\1", _SPACES.sub(" ", text)).strip()
    if len(text) > MAX_LENGTH:
        text = text[:MAX_LENGTH].rsplit(" ", 1)[0] + " …"
    return text


def as_bigint(hex_digest: str) -> int:
    """The first 64 bits of a hex digest as a signed integer (a BIGINT column)."""
    return int.from_bytes(bytes.fromhex(hex_digest[:16]), "big", signed=True)


def wording(masked: str) -> int:
    """What groups masked messages in the database: 64 bits of their SHA-256 (two different
    texts share one with a chance of about one in 10^19)."""
    return as_bigint(hashlib.sha256(masked.encode()).hexdigest())
