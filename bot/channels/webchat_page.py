"""The web chat page as the server sends it, and the greeting it opens with.

``index.html`` is a template filled once, when the channel is built: the language buttons and
the page's words come from ``kernel/lang`` (the tag and direction of each language from
``tags.PAGE_LANGUAGES``, the words from the catalogue's ``webchat`` entries, the digits from
``letters.WRITTEN_DIGITS``, which browser language is which of ours from ``tags.LOCALES``: a
browser in ``fa-AF`` opens in Dari), handed to ``widget.js`` as one JSON block, so a language
added to ``LANGUAGES`` reaches the page without touching the script. The notice shown without
JavaScript names the other ways in the deployment has (``WebchatSettings``), in every language;
so does the page's notice to a person told to wait (``ways``: the SMS number, the help line),
since a wait of half an hour is too long for someone who needs help now. A deployment that has
none of them is told once, in the log, when the page is built (``warn_without_ways_in``): its
notice can only say that the chat does not work.

``embed.js``, the tag other sites put on their pages, gets its words the same way: the
button's and the close button's, in every language, with the ``lang`` values of a site's page
that stand for each (``embed_config``).

The first screen: the page asks ``/welcome?language=…`` for the greeting and the menu a
"hello" would get, rendered by Rasa's own response generator from the domain for that language
alone. No turn is taken: the conversation starts when the person writes, as on every channel.
"""

from __future__ import annotations

import html
import json
import logging
import string
from typing import Any, Final

from rasa.core.nlg.response import TemplatedNaturalLanguageGenerator

from bot.channels.settings import (
    HOTLINE_ENV,
    WEBCHAT_SMS_NUMBER_ENV,
    WEBCHAT_TELEGRAM_ENV,
    WebchatSettings,
)
from bot.nlg import LANGUAGE_SLOT, variation_language
from kernel.contract import language_metadata
from kernel.lang import codes, texts
from kernel.lang.letters import WRITTEN_DIGITS
from kernel.lang.names import own_name
from kernel.lang.tags import PAGE_LANGUAGES, direction, locale_languages, tag

#: The catalogue's entries the page's script shows (``kernel/lang/texts/webchat.py``), as written:
#: the script fills in ``{seconds}``, in the language's digits.
PAGE_WORDS: Final = (
    "title",
    "label",
    "placeholder",
    "send",
    "reconnecting",
    "retry_in",
    "too_many",
    "too_many_minutes",
    "refused",
    "clear",
    "cleared",
)
#: The catalogue's entries ``embed.js`` shows on another site's page: the button's words, the
#: close button's, and the chat's name (its frame's title, read out by screen readers).
EMBED_WORDS: Final = ("open", "close", "title")
#: Where ``embed.js`` takes its table of languages (a comment, so the file as kept is valid).
EMBED_MARKER: Final = "/*languages*/{}"
#: What the first screen shows, in this order: what a "hello" is answered with.
WELCOME: Final = ("utter_greet", "utter_menu")
#: Logged once when the page is built without any other way in (names, never values).
NO_WAY_IN_WARNING: Final = (
    "webchat: a browser without JavaScript is told of no other way in: set "
    f"{WEBCHAT_SMS_NUMBER_ENV}, {WEBCHAT_TELEGRAM_ENV} or {HOTLINE_ENV} (docs/CHANNELS.md)"
)

logger = logging.getLogger(__name__)


def _isolated(text: str, value: str) -> str:
    """``text`` escaped, with ``value`` (a number, a user name) kept left to right inside it."""
    marker = "\x00"
    escaped = html.escape(text.replace(value, marker))
    return escaped.replace(marker, f'<bdi dir="ltr">{html.escape(value)}</bdi>')


def _notice(code: str, settings: WebchatSettings, hotline: str | None) -> str:
    """One language's paragraph of the notice shown without JavaScript."""
    lines = [html.escape(texts.render("webchat.no_script", code))]
    if settings.sms_number:
        sentence = texts.render("webchat.no_script_sms", code, number=settings.sms_number)
        lines.append(_isolated(sentence, settings.sms_number))
    if settings.telegram:
        sentence = texts.render("webchat.no_script_telegram", code, name=settings.telegram)
        lines.append(_isolated(sentence, settings.telegram))
    if hotline:
        sentence = texts.render("channels.call_hotline", code, hotline=hotline)
        lines.append(_isolated(sentence, hotline))
    return f'<p lang="{tag(code)}" dir="{direction(code)}">' + "<br>".join(lines) + "</p>"


def _language_buttons() -> str:
    return "\n      ".join(
        f'<button type="button" data-lang="{code}" lang="{tag(code)}" dir="{direction(code)}" '
        f'aria-pressed="false">{html.escape(own_name(code))}</button>'
        for code in codes.LANGUAGES
    )


def _other_ways(code: str, settings: WebchatSettings, hotline: str | None) -> list[list[str]]:
    """The other ways to ask, or to get help, as ``[before, number, after]`` in ``code``: the
    page keeps the number left to right inside a right-to-left sentence."""
    marker = "\x00"
    ways = []
    for entry, variable, number in (
        ("webchat.no_script_sms", "number", settings.sms_number),
        ("channels.call_hotline", "hotline", hotline),
    ):
        if number:
            before, after = texts.render(entry, code, **{variable: marker}).split(marker, 1)
            ways.append([before, number, after])
    return ways


def page_config(
    settings: WebchatSettings | None = None, hotline: str | None = None
) -> dict[str, Any]:
    """What ``widget.js`` reads from the page: every language's tag, direction, words, digits
    and other ways in, our language for a browser's (``locales``: ``{"fa": "prs", …}``), and
    the language of a browser that says nothing the page knows."""
    settings = settings or WebchatSettings()
    return {
        "default": codes.DEFAULT_LANGUAGE,
        "locales": locale_languages(),
        "languages": {
            code: {
                "tag": PAGE_LANGUAGES[code].tag,
                "dir": PAGE_LANGUAGES[code].direction,
                "digits": WRITTEN_DIGITS[code],
                "words": {word: texts.text(f"webchat.{word}", code) for word in PAGE_WORDS},
                "ways": _other_ways(code, settings, hotline),
            }
            for code in codes.LANGUAGES
        },
    }


def embed_config() -> dict[str, Any]:
    """What ``embed.js`` knows of the languages: each one's tag, direction and words, and the
    ``lang`` values of a site's page that stand for it (its code, its tag and the tag's
    language alone: ``prs``, ``fa-af``, ``fa``), lower case."""
    aliases: dict[str, str] = {}
    for code in codes.LANGUAGES:
        written = PAGE_LANGUAGES[code].tag.lower()
        for alias in (code, written, written.split("-")[0]):
            aliases.setdefault(alias, code)
    return {
        "default": codes.DEFAULT_LANGUAGE,
        "aliases": aliases,
        "languages": {
            code: {
                "tag": PAGE_LANGUAGES[code].tag,
                "dir": PAGE_LANGUAGES[code].direction,
                **{word: texts.text(f"webchat.{word}", code) for word in EMBED_WORDS},
            }
            for code in codes.LANGUAGES
        },
    }


def render_embed(script: str) -> bytes:
    """``embed.js`` with its table of languages (``embed_config``) in place of its marker."""
    if script.count(EMBED_MARKER) != 1:
        raise ValueError(f"embed.js must hold {EMBED_MARKER} once")
    config = json.dumps(embed_config(), ensure_ascii=False, separators=(",", ":"))
    return script.replace(EMBED_MARKER, config).encode()


def warn_without_ways_in(settings: WebchatSettings, hotline: str | None) -> bool:
    """Log ``NO_WAY_IN_WARNING`` when the page can name no SMS number, Telegram bot or help
    line: the operator learns it at the start, not from a person who found no way in.
    Whether it warned."""
    if settings.sms_number or settings.telegram or hotline:
        return False
    logger.warning(NO_WAY_IN_WARNING)
    return True


def render_page(template: str, settings: WebchatSettings, hotline: str | None) -> bytes:
    """``index.html`` filled in: English until the script knows the person's language, the
    title and the notice in every language."""
    warn_without_ways_in(settings, hotline)
    default = codes.DEFAULT_LANGUAGE
    config = json.dumps(page_config(settings, hotline), ensure_ascii=False, separators=(",", ":"))
    filled = string.Template(template).substitute(
        tag=tag(default),
        dir=direction(default),
        title=html.escape(" · ".join(texts.render("webchat.title", c) for c in codes.LANGUAGES)),
        heading=html.escape(texts.render("webchat.title", default)),
        no_script="\n  ".join(_notice(code, settings, hotline) for code in codes.LANGUAGES),
        languages=html.escape(
            " · ".join(texts.render("webchat.languages", c) for c in codes.LANGUAGES)
        ),
        language_buttons=_language_buttons(),
        clear=html.escape(texts.render("webchat.clear", default)),
        label=html.escape(texts.render("webchat.label", default)),
        placeholder=html.escape(texts.render("webchat.placeholder", default)),
        send=html.escape(texts.render("webchat.send", default)),
        config=config.replace("</", "<\\/"),  # a JSON text never ends the script element
    )
    return filled.encode()


class Welcome:
    """The greeting and the menu in one language, as Rasa's response generator renders them
    for a conversation in that language on this channel; the same list for every caller."""

    def __init__(self, responses: dict[str, list[dict[str, Any]]], channel: str) -> None:
        self._generator = TemplatedNaturalLanguageGenerator(responses)
        self._channel = channel

    def messages(self, language: str) -> list[dict[str, Any]]:
        """Each message with the language of the variation picked (the page lays it out)."""
        shown = []
        for response in WELCOME:
            message = self._generator.generate_from_slots(
                response, {LANGUAGE_SLOT: language}, self._channel
            )
            if message is None:
                continue
            part = {key: message[key] for key in ("text", "buttons") if message.get(key)}
            part["metadata"] = language_metadata(variation_language(message))
            shown.append(part)
        return shown
