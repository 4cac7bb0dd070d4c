"""A content file's text as YAML, within bounds that a hostile or broken file cannot exceed.

Editors import whole files they get from partner organisations. Plain YAML lets such a file
hurt the server that reads it. Anchors and aliases let 386 bytes stand for 9^7 strings (a
"billion laughs"), and walking them froze the admin server for 10 s. 5,000 ``[`` make
PyYAML's composer recurse past Python's limit, which gave a 500 and a 3,000-line traceback.
Content files need neither feature: every record is written out in full, and records nest
six levels deep at most (``demo.yml``).

So the loader checks every parser event as the composer takes it, before anything is built.
It refuses an anchor or an alias at its line, more than :data:`MAX_DEPTH` levels of nesting
and more than :data:`MAX_NODES` values. The parser and the scanner are loops, not
recursions, so they hold on any input. With the depth bounded, the recursive composer and
constructor stay far from the recursion limit.
"""

from __future__ import annotations

from typing import Any, Final, NoReturn, cast

import yaml
from yaml.error import Mark
from yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    CollectionStartEvent,
    Event,
    NodeEvent,
)
from yaml.tokens import Token

#: Levels of mappings and lists; the format needs 6 (``demo.yml``), this leaves room.
MAX_DEPTH: Final = 20
#: Values (texts, mappings, lists); ``demo.yml`` has about 1,500, this is 60 times that.
MAX_NODES: Final = 100_000


class _Mapping(dict[str, Any]):
    line: int = 0


class _LineLoader(yaml.SafeLoader):
    """Remembers the line of every mapping, for error messages that point into the file."""


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> _Mapping:
    mapping = _Mapping(cast(dict[str, Any], loader.construct_mapping(node, deep=True)))
    mapping.line = node.start_mark.line + 1
    return mapping


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


class ContentFileRefused(yaml.MarkedYAMLError):
    """A file the format does not allow; ``problem`` says what to change, the mark where."""


class _BoundedLoader(_LineLoader):
    """The line-keeping loader, which refuses aliases, anchors, depth and size beyond bounds."""

    _too_deep = f"nested more than {MAX_DEPTH} levels deep; a content file needs 6 at most"

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0
        self._nodes = 0

    def get_event(self) -> Event:
        event: Event = super().get_event()  # type: ignore[no-untyped-call]
        if isinstance(event, AliasEvent) or (
            isinstance(event, NodeEvent) and event.anchor is not None
        ):
            self._refuse(
                event,
                "anchors and aliases (&name, *name) are not allowed in a content file; "
                "write the value out in full",
            )
        if isinstance(event, NodeEvent):
            self._nodes += 1
            if self._nodes > MAX_NODES:
                self._refuse(
                    event, f"more than {MAX_NODES:,} values; split the file into smaller ones"
                )
        if isinstance(event, CollectionStartEvent):
            self._depth += 1
            if self._depth > MAX_DEPTH:
                self._refuse(event, self._too_deep)
        elif isinstance(event, CollectionEndEvent):
            self._depth -= 1
        return event

    def fetch_flow_collection_start(self, TokenClass: type[Token]) -> None:
        """Deep ``[[[…`` stops at the scanner: it reads ahead of the parser, slowly on deep
        flow collections (0.5 s for 5,000 ``[``), before any event reaches :meth:`get_event`."""
        if self.flow_level >= MAX_DEPTH:
            raise ContentFileRefused(problem=self._too_deep, problem_mark=self.get_mark())
        super().fetch_flow_collection_start(TokenClass)

    @staticmethod
    def _refuse(event: Event, problem: str) -> NoReturn:
        raise ContentFileRefused(problem=problem, problem_mark=cast(Mark, event.start_mark))


def read_content(text: str) -> object:
    """The document in ``text``, every mapping knowing its line; :class:`yaml.YAMLError`
    (:class:`ContentFileRefused` among them) for a file that is not YAML or not within bounds.

    CPU-bound for a large file: callers on an event loop run it in a thread.
    """
    loader = _BoundedLoader(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()
