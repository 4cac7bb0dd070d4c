"""Alerts: subscriptions, the outbox that editors' changes fill, and the notifier that empties it.

``models.py`` (tables), ``outbox.py`` (what change alerts whom, queued in the editor's
transaction), ``subscriptions.py`` (subscribe, opt out, forget), ``notifier.py`` (sends
through Rasa's HTTP API at each channel's rate), ``retention.py`` (forgets what is older than
the retention period). The Rasa actions are ``actions/chat/subscriptions.py``,
``actions/chat/alert_delivery.py``, ``actions/chat/privacy.py``; what alerts say is in
``kernel/lang/texts/alerts.py``. Operators: docs/DATA_PROTECTION.md.
"""
