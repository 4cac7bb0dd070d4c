"""The notifier process: the loop that sends the alerts' and the caseworkers' replies' outboxes
and the helpdesk's case events (``loop.py``), forgetting on schedule (``retention.py``) and the
operator's commands (``commands.py``, run as ``python -m actions.alerts``). It sits above the
alert system and the cases, which it runs side by side and which know nothing of each other's
sending."""
