"""The rumour benchmark's messages (YAML) and what it measures on them (``told``)."""
