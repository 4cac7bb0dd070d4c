"""Bot replies as text messages: numbered options for buttons, at most three SMS, MORE for the rest.

A cheap phone shows no buttons, and every SMS segment costs the sender money and arrives
separately, sometimes out of order. So a reply is capped at three segments (201 characters of
Dari or Pashto, which travel as UCS-2; 459 GSM-7 characters of English), cut at whole lines, and
the rest waits for "MORE". ``sms_segments`` counts, the pure functions below number and cut,
and ``ReplyRenderer`` adds the small per-conversation memory that numbers and MORE need
(``ReplyMemory``: in Redis in production, so any Rasa process can answer the next message).
Importing it pulls in no web framework: the editors' console previews SMS through it.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from kernel.lang import texts
from kernel.lang.codes import ENGLISH, LANGUAGES
from kernel.lang.letters import ARABIC_PUNCTUATION, to_ascii_digits, written_digits
from kernel.lang.normalise import normalise
from kernel.lang.texts.sms import MORE_WORDS
from kernel.memory import ChannelMemory, MemoryUnavailable, ProcessMemory
from kernel.notices import in_every_language
from kernel.sms_segments import MAX_SEGMENTS, encoding, fits, split_message

#: Twilio's limit for one WhatsApp message body.
WHATSAPP_MAX_CHARS: Final = 1600

_NUMBERED_LINE: Final = re.compile(r"^\s*(\d{1,2})\s*[.):\-]?\s+(\S.*)$")
_BARE_NUMBER: Final = re.compile(r"^\s*#?\s*(\d{1,2})\s*[.)\-]?\s*$")
_MORE_PUNCTUATION: Final = re.compile(f"[\\s.!?,;:'\"«»(){ARABIC_PUNCTUATION}]+")


# -- language and numbers -----------------------------------------------------------------------


def localised_number(number: int, language: str) -> str:
    """Persian digits for Dari and Pashto readers, as the domain's own menus use."""
    return written_digits(str(number), language)


def bare_number(text: str) -> int | None:
    """The number in a reply that is only a number ("2", "۲", "2."), else None."""
    match = _BARE_NUMBER.match(to_ascii_digits(text))
    return int(match.group(1)) if match else None


def button_number(title: str) -> int | None:
    """The number a button's title starts with ("2 Airport", "۲ میدان هوایی"), else None."""
    match = _NUMBERED_LINE.match(to_ascii_digits(title))
    return int(match.group(1)) if match else None


def more_request(text: str) -> str | None:
    """The language of a MORE request ("MORE", "بیشتر", "نور", "beshtar" ...), else None."""
    word = _MORE_PUNCTUATION.sub("", normalise(text))
    return MORE_WORDS.get(word)


def numbered_options(
    text: str, buttons: Sequence[Mapping[str, Any]], language: str
) -> tuple[str, dict[int, str]]:
    """``text`` with buttons as numbered lines, and which number sends which payload.

    A menu that already lists its numbered items keeps its own numbering: the buttons only
    tell which payload each number stands for. A button titled "2 Airport" is number 2.
    """
    listed = {
        int(match.group(1))
        for line in to_ascii_digits(text).splitlines()
        if (match := _NUMBERED_LINE.match(line))
    }
    numbered: list[tuple[int | None, str, str]] = []
    for button in buttons:
        title = str(button.get("title") or "").strip()
        payload = str(button.get("payload") or title)
        number = button_number(title)
        label = title.split(None, 1)[1] if number is not None else title
        numbered.append((number, label, payload))
    taken = {number for number, _, _ in numbered if number is not None}
    options: dict[int, str] = {}
    lines: list[str] = []
    free = 1
    for number, label, payload in numbered:
        if number is None:
            while free in taken:
                free += 1
            number = free
            taken.add(number)
        options[number] = payload
        if number not in listed:
            lines.append(f"{localised_number(number, language)} {label}")
    rendered = "\n".join([text.rstrip(), *lines]) if lines else text
    return rendered, options


# -- characters a basic phone shows ----------------------------------------------------------

#: An isolated run (first-strong, left-to-right or right-to-left isolate … pop), Unicode 6.3.
_ISOLATED_RUN: Final = re.compile("[\u2066\u2067\u2068]([^\u2066-\u2069]*)\u2069")
_STRAY_ISOLATE: Final = re.compile("[\u2066-\u2069]")
LEFT_TO_RIGHT_MARK: Final = "\u200e"
RIGHT_TO_LEFT_MARK: Final = "\u200f"
#: Typography with a GSM-7 equivalent: an English reply keeps 459 characters, not 201.
_GSM_FALLBACKS: Final = str.maketrans(
    {
        "\u2014": "-",  # em dash
        "\u2013": "-",  # en dash
        "\u2022": "-",  # bullet
        "\u00b7": ",",  # middle dot
        "\u2019": "'",
        "\u2018": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u2026": "...",
        "\u00a0": " ",
    }
)
#: A warning sign (Unicode 4.0) is missing from many feature phones' fonts; "!" is everywhere.
_WARNING_SIGN: Final = re.compile("\u26a0\ufe0f?")


def _marked(match: re.Match[str]) -> str:
    """An isolated run between two marks of its own direction: what the run starts with
    decides, as for U+2068 (first strong), and the marks keep neutrals next to it on its side."""
    run = match.group(1)
    for char in run:
        kind = unicodedata.bidirectional(char)
        if kind == "L":
            return f"{LEFT_TO_RIGHT_MARK}{run}{LEFT_TO_RIGHT_MARK}"
        if kind in ("R", "AL"):
            return f"{RIGHT_TO_LEFT_MARK}{run}{RIGHT_TO_LEFT_MARK}"
    # Digits and punctuation only (a phone number): left to right, as it is written.
    return f"{LEFT_TO_RIGHT_MARK}{run}{LEFT_TO_RIGHT_MARK}"


def for_basic_phones(text: str) -> str:
    """The text with characters every phone that shows Dari or Pashto shows (docs/SMS.md).

    Bidi isolates (U+2066–U+2069, Unicode 6.3) become the marks U+200E/U+200F (Unicode 1.1),
    which Android before 5.0 and feature phones know; a warning sign becomes "!"; and when
    nothing else needs UCS-2, dashes,
    bullets and quotes become their GSM-7 equivalents, so English stays in 459 characters.
    """
    text = _STRAY_ISOLATE.sub("", _ISOLATED_RUN.sub(_marked, text))
    text = _WARNING_SIGN.sub("!", text)
    plain = text.translate(_GSM_FALLBACKS)
    return plain if encoding(plain) == "GSM-7" else text


# -- cutting --------------------------------------------------------------------------------


def condense(
    text: str,
    language: str = ENGLISH,
    max_segments: int = MAX_SEGMENTS,
    keep_last: str = "",
) -> tuple[str, str]:
    """(what to send now, what waits for MORE); the part sent fits in ``max_segments``.

    Whole lines are kept from the start; a single line too long on its own is cut at a word.
    The part sent ends with ``keep_last`` (a reply's numbered options: what the person can
    answer must be on the SMS they read) and the MORE hint in the reply's language,
    ``language``.
    """
    text = text.strip()
    whole = "\n".join(part for part in (text, keep_last.strip()) if part)
    if fits(whole, max_segments):
        return whole, ""
    hint = texts.render("sms.more_hint", language)
    end = "\n".join(part for part in (keep_last.strip(), hint) if part)
    lines = text.splitlines()
    kept: list[str] = []
    for line in lines:
        if not fits("\n".join([*kept, line, end]), max_segments):
            break
        kept.append(line)
    rest = lines[len(kept) :]
    if not kept:
        head, tail = _cut_line(rest[0], end, max_segments)
        kept, rest = [head], [tail, *rest[1:]]
    return "\n".join([*kept, end]), "\n".join(rest).strip()


def _cut_line(line: str, hint: str, max_segments: int) -> tuple[str, str]:
    """The longest start of ``line`` that fits with the hint: at a space if there is one."""
    words = line.split(" ")

    def words_fit(count: int) -> bool:
        return fits(" ".join(words[:count]) + "\n" + hint, max_segments)

    count = _longest(len(words) - 1, words_fit)
    if count:
        return " ".join(words[:count]), " ".join(words[count:])
    end = max(1, _longest(len(line) - 1, lambda n: fits(f"{line[:n]}\n{hint}", max_segments)))
    return line[:end], line[end:]


def _longest(upper: int, fits_at: Callable[[int], bool]) -> int:
    """The largest n ≤ ``upper`` with ``fits_at(n)`` (0 if none); longer never fits better."""
    low, high = 0, upper
    while low < high:
        middle = (low + high + 1) // 2
        if fits_at(middle):
            low = middle
        else:
            high = middle - 1
    return low


def split_messages(text: str, max_chars: int = WHATSAPP_MAX_CHARS) -> list[str]:
    """Chat-sized pieces (WhatsApp via Twilio: no paging), cut as the other chat channels cut."""
    return split_message(text, max_chars)


# -- per-conversation memory -------------------------------------------------------------------

#: How long numbered options and MORE pages wait: "2" an hour later should not pick a stale one.
REPLY_MEMORY_SECONDS: Final = 3600.0


class ReplyMemory:
    """What the last replies to one conversation left behind: their language, the payload of
    each numbered option, and the pages waiting for MORE.

    Kept in the channels' memory (Redis in production: a MORE or a "2" can reach another Rasa
    process), under the conversation's hash: the language code, option payloads and unsent
    reply text, for ``ttl_seconds`` after the last reply or MORE. Every change is one atomic step
    (MORE pops one page; a new question takes the options and drops the pages), so two
    processes never send the same page. When the memory cannot be reached, nothing is
    remembered: MORE then gets ``sms.nothing_more`` and "2" goes to the bot as it is.
    """

    def __init__(
        self, memory: ChannelMemory | None = None, ttl_seconds: float = REPLY_MEMORY_SECONDS
    ) -> None:
        self._memory = memory if memory is not None else ProcessMemory()
        self._ttl = ttl_seconds

    @staticmethod
    def _keys(conversation: str) -> tuple[str, str, str]:
        key = f"reply:{conversation}:"
        return key + "language", key + "options", key + "pages"

    async def language(self, conversation: str) -> str | None:
        """The language of the last reply, if any."""
        try:
            return await self._memory.get(self._keys(conversation)[0])
        except MemoryUnavailable:
            return None

    async def next_page(self, conversation: str) -> str | None:
        """The next page waiting for MORE (it is then no longer waiting), or None; the pages
        after it wait another ``ttl_seconds``, for someone reading slowly."""
        try:
            return await self._memory.pop(self._keys(conversation)[2], self._ttl)
        except MemoryUnavailable:
            return None

    async def new_question(self, conversation: str) -> dict[int, str]:
        """The last reply's options; they and its unsent pages now belong to the past."""
        _, options, pages = self._keys(conversation)
        try:
            stored = await self._memory.take(options, pages)
        except MemoryUnavailable:
            return {}
        if stored is None:
            return {}
        try:
            return {int(number): str(payload) for number, payload in json.loads(stored).items()}
        except (TypeError, ValueError, AttributeError):
            return {}

    async def remember(
        self, conversation: str, language: str, options: Mapping[int, str], pages: Sequence[str]
    ) -> None:
        """A reply went out: its language, its options (if it had any) and pages for MORE."""
        language_key, options_key, pages_key = self._keys(conversation)
        values = {language_key: language}
        if options:
            values[options_key] = json.dumps({str(n): payload for n, payload in options.items()})
        try:
            await self._memory.put(values, self._ttl, append={pages_key: pages})
        except MemoryUnavailable:
            return


@dataclass(frozen=True)
class Incoming:
    """What to do with a user's message: pass ``text`` to the bot, or answer with ``replies``."""

    text: str | None = None
    replies: tuple[str, ...] = ()


class ReplyRenderer:
    """Turns bot replies into text messages and reads numbers and MORE in the user's answers.

    ``paged=True`` (SMS): each reply is cut to ``max_segments`` and MORE fetches the rest.
    ``paged=False`` (WhatsApp through Twilio): long replies become several messages of at most
    ``max_chars``; buttons are numbered the same way.
    """

    def __init__(
        self,
        memory: ReplyMemory | None = None,
        *,
        paged: bool = True,
        max_segments: int = MAX_SEGMENTS,
        max_chars: int = WHATSAPP_MAX_CHARS,
    ) -> None:
        self.memory = memory if memory is not None else ReplyMemory()
        self.paged = paged
        self.max_segments = max_segments
        self.max_chars = max_chars

    async def incoming(self, conversation: str, text: str) -> Incoming:
        """Decide whether the channel answers itself (empty, MORE) or the bot gets the text."""
        if not text.strip():
            language = await self.memory.language(conversation)
            return Incoming(replies=self._notice("channels.text_only", language))
        more = more_request(text) if self.paged else None
        if more is not None:
            page = await self.memory.next_page(conversation)
            if page is None:
                language = await self.memory.language(conversation)
                return Incoming(replies=self._notice("sms.nothing_more", language or more))
            return Incoming(replies=(page,))
        number = bare_number(text)
        # A new question: earlier options and unsent rest belong to earlier replies.
        options = await self.memory.new_question(conversation)
        payload = options.get(number) if number is not None else None
        return Incoming(text=payload or text)

    def fits_one_message(
        self, text: str, buttons: Sequence[Mapping[str, Any]], language: str
    ) -> bool:
        """Whether ``text`` with its buttons goes out as one message, uncut."""
        rendered, _ = numbered_options(text, buttons, language)
        return fits(for_basic_phones(rendered).strip(), self.max_segments)

    async def outgoing(
        self,
        conversation: str,
        text: str,
        buttons: Sequence[Mapping[str, Any]] = (),
        language: str = ENGLISH,
    ) -> list[str]:
        """The messages to send for one bot reply, written in ``language``.

        Remembers its options, its unsent rest and its language (for the channel's own notices).
        """
        rendered, options = numbered_options(text, buttons, language)
        if not self.paged:
            await self.memory.remember(conversation, language, options, ())
            return split_messages(rendered, self.max_chars)
        body = text.rstrip()
        options_added = rendered[len(body) :] if rendered != text else ""
        page, rest = condense(
            for_basic_phones(body if options_added else rendered),
            language,
            self.max_segments,
            keep_last=for_basic_phones(options_added.strip()),
        )
        later: list[str] = []
        while rest:  # cut now: then MORE is one atomic pop, whichever process receives it
            next_page, rest = condense(rest, language, self.max_segments)
            later.append(next_page)
        await self.memory.remember(conversation, language, options, later)
        return [page] if page else []

    def _notice(self, message: str, language: str | None) -> tuple[str, ...]:
        """In the language of the last reply, or in all three when there was none."""
        if language in LANGUAGES:
            text = texts.render(message, language)
        else:
            text = in_every_language(message, LANGUAGES, "\n")
        if self.paged:
            return (condense(for_basic_phones(text), language or ENGLISH, self.max_segments)[0],)
        return tuple(split_messages(text, self.max_chars))
