"""Rasa's prediction graph run in order, in the calling thread, without dask.

Rasa runs its NLU pipeline and its policies through ``DaskGraphRunner``, which on every
message rebuilds the minimal schema and a dask task graph, then lets dask's scheduler order
and run a dozen nodes one by one in the same thread. For a graph this small that machinery
costs about as much as the intent classifier (a tenth of Rasa's CPU per turn in the load
test). This runner does the same work — the same nodes, the same inputs, each node once,
dependencies first — with the order worked out once per set of targets.
"""

from __future__ import annotations

from typing import Any

import rasa.core.processor
from rasa.engine.exceptions import GraphRunError
from rasa.engine.graph import GraphSchema
from rasa.engine.runner.dask import DaskGraphRunner


class InOrderGraphRunner(DaskGraphRunner):
    """``DaskGraphRunner``'s results, computed in a precomputed dependency order."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._orders: dict[tuple[str, ...], list[tuple[str, list[str]]]] = {}

    def _order(self, targets: tuple[str, ...]) -> list[tuple[str, list[str]]]:
        """The nodes the targets need, each after what it needs, with their inputs' names."""
        order = self._orders.get(targets)
        if order is None:
            schema: GraphSchema = self._graph_schema.minimal_graph_schema(list(targets))
            order, placed = [], set()

            def place(name: str) -> None:
                if name in placed or name not in schema.nodes:
                    return  # done already, or an input given to run()
                placed.add(name)
                needs = list(schema.nodes[name].needs.values())
                for need in needs:
                    place(need)
                order.append((name, needs))

            for target in targets:
                place(target)
            self._orders[targets] = order
        return order

    def run(
        self, inputs: dict[str, Any] | None = None, targets: list[str] | None = None
    ) -> dict[str, Any]:
        run_targets = tuple(targets if targets else self._graph_schema.target_names)
        order = self._order(run_targets)
        results: dict[str, Any] = {}
        for name, value in (inputs or {}).items():
            if isinstance(value, str) and value in self._graph_schema.nodes:
                raise GraphRunError(
                    f"Input value '{value}' clashes with a node name. Make sure that none of "
                    "the input names passed to the `run` method are the same as node names "
                    "in the graph schema."
                )
            results[name] = (name, value)
        try:
            for name, needs in order:
                # Like dask, a need nothing provides is passed as its bare name.
                node = self._instantiated_nodes[name]
                results[name] = node(*(results.get(need, need) for need in needs))
        except RuntimeError as error:
            raise GraphRunError("Error running runner.") from error
        return dict(results.get(target, target) for target in run_targets)


def install() -> None:
    """Make the models this process loads predict with :class:`InOrderGraphRunner`
    (``MessageProcessor._load_model`` looks the runner class up in its module)."""
    rasa.core.processor.DaskGraphRunner = InOrderGraphRunner  # type: ignore[attr-defined]
