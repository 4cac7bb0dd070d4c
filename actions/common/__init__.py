"""What both the action server and the editors' tools need, with no dependency on either:
the clock, Kabul time, the database step of an action. Imports nothing from actions.content or
actions.alerts, so the notifier can use the clock without loading the chat actions."""
