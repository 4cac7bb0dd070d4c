"""What the action server, the notifier and the editors' tools share: the clock, Kabul time,
one unit of work, and the outbox kernel (``outbox``, ``leases``) both the alerts and the cases
send through. The bottom layer: it imports nothing else of the project (``[tool.importlinter]``
in pyproject.toml), so the notifier uses the clock without loading the chat actions."""
