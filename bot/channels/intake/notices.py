"""The notice of the wait: in which one language it is said (the conversation's, the
provider's hint, the letters of the message, else the language the turn will answer in), and
how often a person is told."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any, Final

from bot.channels.intake.line import Job
from bot.channels.turns import Assistant, conversation_language
from kernel.lang.choice import choose_language, language_of_letters

logger = logging.getLogger(__name__)

#: How often a person is told at most that their message waits.
NOTICE_EVERY_SECONDS: Final = 600.0
#: Notices of the wait handed to the provider at the same time.
NOTICES_AT_ONCE: Final = 16
#: How long the notice's language may take to read from the person's first message.
PARSE_SECONDS: Final = 2.0


def one_per_person(jobs: Iterable[Job]) -> list[Job]:
    """The first of each person's ``jobs``: one notice each, for their oldest message."""
    seen: dict[str, Job] = {}
    for job in jobs:
        seen.setdefault(job.conversation, job)
    return list(seen.values())


async def language_for(
    agent: Assistant, conversation: str, text: str | None, hint: str | None
) -> str | None:
    """The conversation's language as the tracker remembers it; else the provider's hint;
    else what the text's letters say (``language_of_letters``: Pashto's own letters, else Dari
    for Arabic script); None (every language) for Latin letters, which romanized Dari and
    Pashto use too."""
    remembered = await conversation_language(agent, conversation)
    if remembered:
        return remembered
    if hint:
        return hint
    return language_of_letters(text) if text else None


async def notice_language(
    agent: Assistant, conversation: str, text: str | None, hint: str | None
) -> str:
    """The one language of a notice of the wait: ``language_for``'s, else the one the turn
    will answer in (``answer_language``). Never all three, as the apologies are when nothing
    is known: a notice goes to many at once, and three languages are three times as long to
    read and, on SMS, to pay for."""
    return await language_for(agent, conversation, text, hint) or await answer_language(agent, text)


async def answer_language(agent: Assistant, text: str | None) -> str:
    """The language a first message in Latin letters will be answered in: the agent's NLU
    identifies it (romanized Dari, Pashto or English) and ``choose_language`` decides, as in
    the turn; English, the default, when that cannot be asked."""
    parsed: dict[str, Any] = {}
    if text:
        try:
            parsed = await asyncio.wait_for(agent.parse_message(text), PARSE_SECONDS)
        except Exception:
            logger.debug("intake: the notice's language could not be read from the message")
    return choose_language(None, parsed).language
