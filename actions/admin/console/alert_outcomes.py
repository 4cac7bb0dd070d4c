"""What became of each broadcast's alerts: how many are still on their way, with the provider,
delivered, read or failed, and why the failed ones failed — counted, never naming who (no
conversation id, address or provider message id leaves the database).

The notifier's status (``alert_deliveries.status``) says whether an alert left us; the
provider's (``provider_status``, written by Rasa's channels from WhatsApp's and Twilio's
callbacks, ``bot/channels/statuses.py``) what became of it afterwards. A failure is explained by
the provider's error code ("not on WhatsApp", "texted STOP": ``kernel.delivery_statuses``) or, when
the alert never reached the provider, by the notifier's reason line, read as the caseworkers'
page reads a reply's (``actions/cases/undelivered.py``): an editor and a caseworker get the same
words for the same failure.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from sqlalchemy import and_, func, or_, select
from sqlalchemy.orm import Session

from actions.alerts.models import Delivery
from actions.cases import undelivered
from actions.common.outbox import DeliveryStatus
from kernel import delivery_statuses

#: Where an alert stands, in the order the console lists them (``console.alert_<outcome>``).
WAITING: Final = "waiting"
SENT: Final = "sent"
DELIVERED: Final = "delivered"
READ: Final = "read"
FAILED: Final = "failed"
NOT_SENT: Final = "not_sent"
OUTCOMES: Final = (WAITING, SENT, DELIVERED, READ, FAILED, NOT_SENT)
#: A failure nothing explains better: the provider refused it with a code we have no words for.
REFUSED: Final = "undelivered_channel_refused"

_NOT_SENT = frozenset({DeliveryStatus.CANCELLED, DeliveryStatus.SUPERSEDED})
_ON_ITS_WAY = frozenset({DeliveryStatus.QUEUED, DeliveryStatus.SENDING})
_PROVIDER_SAID = {
    delivery_statuses.DELIVERED: DELIVERED,
    delivery_statuses.READ: READ,
    delivery_statuses.FAILED: FAILED,
}


@dataclass(frozen=True)
class Outcome:
    """One broadcast's alerts counted by where they stand, and its failures by reason."""

    counts: dict[str, int] = field(default_factory=dict)
    #: (reason's text key, how many), the most frequent first.
    reasons: tuple[tuple[str, int], ...] = ()

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def failed(self) -> int:
        return self.counts.get(FAILED, 0)


def outcome_of(status: DeliveryStatus, provider_status: str | None) -> str:
    """Where one alert stands: the provider's word once we handed it over, else ours."""
    if status in _ON_ITS_WAY:
        return WAITING
    if status in _NOT_SENT:
        return NOT_SENT
    if status is DeliveryStatus.FAILED:
        return FAILED
    return _PROVIDER_SAID.get(provider_status or "", SENT)


def why_failed(status: DeliveryStatus, provider_error: str | None, last_error: str | None) -> str:
    """The text key of why a failed alert did not arrive."""
    return undelivered.reason(status, last_error, provider_error=provider_error) or REFUSED


def _failing() -> Any:
    """Alerts that did not arrive: given up by the notifier, or reported failed by the provider
    and not yet acted on (the notifier's next round retries or ends them)."""
    return or_(
        Delivery.status == DeliveryStatus.FAILED,
        and_(
            Delivery.status == DeliveryStatus.SENT,
            Delivery.provider_status == delivery_statuses.FAILED,
        ),
    )


def outcomes(session: Session, broadcast_ids: Iterable[int]) -> dict[int, Outcome]:
    """Each broadcast's :class:`Outcome`: its deliveries counted from the index of (broadcast,
    status, provider status) alone (migration 0022), then the reasons of the failed ones, for
    the broadcasts that have some."""
    ids = list(broadcast_ids)
    if not ids:
        return {}
    counts: dict[int, Counter[str]] = {broadcast: Counter() for broadcast in ids}
    where = (Delivery.broadcast_id, Delivery.status, Delivery.provider_status)
    rows = session.execute(
        select(*where, func.count()).where(Delivery.broadcast_id.in_(ids)).group_by(*where)
    )
    for broadcast, status, provider_status, count in rows:
        counts[broadcast][outcome_of(DeliveryStatus(status), provider_status)] += count
    reasons: dict[int, Counter[str]] = defaultdict(Counter)
    failing = [broadcast for broadcast, counted in counts.items() if counted[FAILED]]
    if failing:
        why = (Delivery.broadcast_id, Delivery.status, Delivery.provider_error, Delivery.last_error)
        rows = session.execute(
            select(*why, func.count())
            .where(Delivery.broadcast_id.in_(failing), _failing())
            .group_by(*why)
        )
        for broadcast, status, provider_error, last_error, count in rows:
            reason = why_failed(DeliveryStatus(status), provider_error, last_error)
            reasons[broadcast][reason] += count
    return {
        broadcast: Outcome(
            {name: counted[name] for name in OUTCOMES if counted[name]},
            tuple(sorted(reasons[broadcast].items(), key=lambda pair: (-pair[1], pair[0]))),
        )
        for broadcast, counted in counts.items()
    }
