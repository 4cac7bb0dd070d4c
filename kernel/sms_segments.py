"""How many SMS segments a text costs: GSM-7 or UCS-2, single or concatenated.

Phones send a text in GSM-7 (160 septets, 153 per part when concatenated) only when every
character is in the GSM 03.38 alphabet; a single Dari letter or emoji switches the whole text to
UCS-2 (70 UTF-16 code units, 67 per part). Three parts are therefore 459 GSM-7 characters but
only 201 Dari or Pashto ones, which is why replies are cut by segments, not by characters.
"""

from __future__ import annotations

from typing import Final, Literal

Encoding = Literal["GSM-7", "UCS-2"]

#: GSM 03.38 default alphabet (without the escape character): one septet each.
GSM7_BASIC: Final = frozenset(
    "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?"
    "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà"
)
#: GSM 03.38 extension table: escape + character, two septets each.
GSM7_EXTENSION: Final = frozenset("\f^{}\\[~]|€")

#: (single-message capacity, capacity per part of a concatenated message), in septets or
#: UTF-16 code units; concatenated parts lose room to the user data header.
_CAPACITY: Final[dict[Encoding, tuple[int, int]]] = {"GSM-7": (160, 153), "UCS-2": (70, 67)}

MAX_SEGMENTS: Final = 3


def encoding(text: str) -> Encoding:
    """The encoding a phone network uses: GSM-7 when every character has a septet code."""
    ok = all(ch in GSM7_BASIC or ch in GSM7_EXTENSION for ch in text)
    return "GSM-7" if ok else "UCS-2"


def _unit_sizes(text: str, enc: Encoding) -> list[int]:
    if enc == "GSM-7":
        return [2 if ch in GSM7_EXTENSION else 1 for ch in text]
    # Characters outside the Basic Multilingual Plane (emoji) take a surrogate pair.
    return [2 if ord(ch) > 0xFFFF else 1 for ch in text]


def message_units(text: str) -> int:
    """Septets (GSM-7, extension characters count two) or UTF-16 code units (UCS-2)."""
    return sum(_unit_sizes(text, encoding(text)))


def segment_count(text: str) -> int:
    """How many SMS segments ``text`` travels as (0 for an empty text).

    Exact rather than ``ceil(units / 153)``: phones never split an escape sequence or a
    surrogate pair across two parts, so such a character at a boundary moves to the next one.
    """
    enc = encoding(text)
    sizes = _unit_sizes(text, enc)
    single, part = _CAPACITY[enc]
    if sum(sizes) <= single:
        return 1 if sizes else 0
    segments, used = 1, 0
    for size in sizes:
        if used + size > part:
            segments, used = segments + 1, 0
        used += size
    return segments


def fits(text: str, max_segments: int = MAX_SEGMENTS) -> bool:
    """True when ``text`` travels in at most ``max_segments`` SMS segments."""
    return segment_count(text) <= max_segments


def prefix_within(text: str, max_units: int) -> int:
    """How many characters of ``text`` fit in ``max_units`` UTF-16 code units."""
    units = 0
    for index, char in enumerate(text):
        units += 2 if ord(char) > 0xFFFF else 1
        if units > max_units:
            return index
    return len(text)


def split_message(text: str, limit: int) -> list[str]:
    """``text`` in pieces of at most ``limit`` units, cut between paragraphs, else lines, else
    words, so that a long flight list never arrives cut in the middle of a line."""
    pieces: list[str] = []
    rest = text.strip()
    while rest:
        end = prefix_within(rest, limit)  # providers count UTF-16 units: an emoji is two
        if end == len(rest):
            pieces.append(rest)
            break
        cut = -1
        for separator in ("\n\n", "\n", " "):
            cut = rest.rfind(separator, 0, end)
            if cut > 0:
                break
        if cut <= 0:
            cut = end  # one endless word: cut it where the limit falls
        piece = rest[:cut].rstrip()
        if piece:
            pieces.append(piece)
        rest = rest[cut:].lstrip()
    return pieces
