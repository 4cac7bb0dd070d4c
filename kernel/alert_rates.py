"""How many alerts a second each channel may send: read by the notifier and by Rasa's alert
channels alike (standard library only, like ``kernel/lang``: both runtimes import it).

``ALERT_RATE_<CHANNEL>`` (``ALERT_RATE_TELEGRAM``…) overrides the defaults, which sit below the
providers' limits (Telegram 30 a second, the WhatsApp Cloud API 80). Kannel's is the operator's
SMSC: an SMPP account commonly takes 10 SMS a second (``throughput`` in Kannel's ``smsc``
group) and an alert may be three of them, so 3 alerts a second, which leaves room for the
replies to people that share the account; raise it to what the operator grants.

The notifier paces its requests to Rasa at this rate; each Rasa worker paces its calls to the
provider at its share of it (rate / ``SANIC_WORKERS``), because Rasa's varying processing time
bunches requests that left the notifier evenly (measured: 31 in one second at the provider
from 25 a second sent, docs/BENCHMARKS.md).
"""

from __future__ import annotations

from kernel.contract import CHANNELS
from kernel.settings_values import positive_number

#: ``positive_number`` lives in kernel/settings_values.py; it stays importable from here for the
#: modules that read their rates with it. The rates are read by ``kernel/settings.py``'s
#: ``alert_rate``.
__all__ = ["DEFAULT_RATES", "positive_number"]

#: Each alert channel's default, from the channel table (``kernel/contract.py`` ``CHANNELS``).
DEFAULT_RATES: dict[str, float] = {
    name: channel.alert_rate for name, channel in CHANNELS.items() if channel.alert_rate is not None
}
#: A channel without a default of its own.
OTHER_RATE = 10.0
