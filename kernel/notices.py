"""What a connector says by itself when the language may be unknown: a text in the
conversation's language, or in all three when there is none yet.

The sentences are in the catalogue (``kernel/lang/texts/channels.py``). A voice note as the first
message, or a failure before anything was understood, leaves no language to answer in; a wrong
guess would leave the person with nothing, so these say it in every language, Dari and Pashto
first.
"""

from __future__ import annotations

from collections.abc import Sequence

from kernel.lang import texts
from kernel.lang.codes import DARI, ENGLISH, LANGUAGES, PASHTO, RTL_LANGUAGES
from kernel.lang.letters import written_digits

#: The order of a notice in every language: the people most likely to need it first.
UNKNOWN_LANGUAGE_ORDER: tuple[str, ...] = (DARI, PASHTO, ENGLISH)


def in_every_language(
    message: str, order: Sequence[str] = UNKNOWN_LANGUAGE_ORDER, separator: str = "\n\n"
) -> str:
    """``message`` once per language of ``order``, one after the other."""
    return separator.join(texts.render(message, code) for code in order)


def text_only(language: str | None) -> str:
    """The "please write" answer in ``language``; in all three when the language is unknown."""
    if language in LANGUAGES:
        return texts.render("channels.text_only", language)
    return in_every_language("channels.text_only")


def choose(language: str | None) -> str:
    """The label of the button that opens a WhatsApp list (at most 20 characters)."""
    return texts.render("channels.choose", language)


def try_again(language: str | None, hotline: str | None) -> str:
    """The apology for a failed answer, with the hotline when there is one; in all three
    languages when the conversation's language is unknown (as ``text_only``)."""

    def sentence(code: str) -> str:
        apology = texts.render("channels.try_again", code)
        if not hotline:
            return apology
        # A phone number reads left to right as a whole, also inside Dari and Pashto text.
        number = f"\u2068{hotline}\u2069" if code in RTL_LANGUAGES else hotline
        return f"{apology} {texts.render('channels.call_hotline', code, hotline=number)}"

    if language in LANGUAGES:
        return sentence(language)
    return "\n\n".join(sentence(code) for code in UNKNOWN_LANGUAGE_ORDER)


def cut_off(language: str | None) -> str:
    """That the answer to the person's last message may be incomplete; in all three languages
    when the language is unknown."""
    if language in LANGUAGES:
        return texts.render("channels.cut_off", language)
    return in_every_language("channels.cut_off")


def in_line(language: str | None, minutes: int | None) -> str:
    """The notice that a message waits in line, with about how many ``minutes`` (written in
    the language's digits), or None: "in a moment" (``waits.Wait.minutes``); in all three
    languages when the language is unknown."""

    def sentence(code: str) -> str:
        if minutes is None:
            return texts.render("channels.in_line_soon", code)
        return texts.render("channels.in_line", code, minutes=written_digits(str(minutes), code))

    if language in LANGUAGES:
        return sentence(language)
    return "\n\n".join(sentence(code) for code in UNKNOWN_LANGUAGE_ORDER)


def write_privately(link: str | None) -> str:
    """The one notice of a Telegram group: every language (its members' are unknown, and
    several), then the link to the bot's private chat when the bot's username is known."""
    notice = in_every_language("channels.write_privately", separator="\n")
    return f"{notice}\n{link}" if link else notice
