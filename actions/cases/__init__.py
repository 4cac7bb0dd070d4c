"""Cases: a conversation handed from the assistant to a caseworker and back (docs/HANDOFF.md)."""
