"""What Rasa's process counts for ``/metrics`` (served by ``metrics.py``).

Each count is made where the thing happens: a person's turn and its apology in
``turns.take_turn``, a reply or an alert the provider refused in ``turns.TurnReplies`` and
``alerts.AlertOutput``. Labels are the channel, the language, the outcome and a refusal's
class: a handful of values each, never a conversation id, a number or a text.
"""

from __future__ import annotations

from typing import Final

from prometheus_client import Counter, Histogram

from bot.channels.transport import ProviderFailure
from kernel.metrics import TURN_BUCKETS, name

#: The language label of a turn that sent nobody anything (paused, unanswered).
NO_LANGUAGE: Final = "none"

TURNS = Counter(
    name("turns"),
    "Messages people sent that the assistant took a turn on, by how the turn ended "
    "(answered, apologised, paused, unanswered) and the language it answered in",
    ["channel", "outcome", "language"],
)
TURN_SECONDS = Histogram(
    name("turn_duration_seconds"),
    "How long a person's turn took, from the message to its last reply handed to the provider",
    ["channel"],
    buckets=TURN_BUCKETS,
)
APOLOGIES = Counter(
    name("apologies"),
    "Apologies the provider took: turns where the assistant failed or sent nothing",
    ["channel", "language"],
)
PROVIDER_REFUSALS = Counter(
    name("provider_refusals"),
    "Messages (replies, notices, alerts) a provider refused or could not be reached for, by "
    "class: rate_limited, refused_for_good, rejected, provider_error, unreachable",
    ["channel", "reason"],
)
HELD_REPLIES = Counter(
    name("held_replies"),
    "Replies the provider could not take when they were due (down, overloaded), by what "
    "became of them: held, handed_over (later), given_up (after INTAKE_REPLY_HOLD_SECONDS)",
    ["channel", "fate"],
)


def refusal_class(failure: ProviderFailure) -> str:
    """The class of a provider's refusal: what an operator does differently for each."""
    if failure.status is None:
        return "unreachable"
    if failure.status == 429:
        return "rate_limited"
    if failure.permanent:
        return "refused_for_good"
    if failure.status >= 500:
        return "provider_error"
    return "rejected"


def count_refusal(channel: str, failure: ProviderFailure) -> None:
    """One more refusal of ``channel``'s provider, by its class."""
    PROVIDER_REFUSALS.labels(channel, refusal_class(failure)).inc()
