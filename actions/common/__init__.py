"""What the action server, the notifier and the editors' tools share: the clock, Kabul time,
one unit of work, and the database step of an action. ``clock``, ``kabul_time`` and
``transactions`` need nothing else of the project, so the notifier uses the clock without
loading the chat actions; ``database_action`` runs on the content database."""
