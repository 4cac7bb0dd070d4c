"""Sanic's ``Blueprint`` with the types its decorators lose.

Sanic 21.12 (Rasa 3.6's) wraps ``Blueprint.route`` and ``Blueprint.listener`` in an untyped
decorator (``sanic.blueprints.lazy``), so every webhook handler under them would be unchecked.
For mypy this declares what those methods take and return; at run time ``Blueprint`` *is*
Sanic's class, nothing is wrapped or changed.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

Handler = TypeVar("Handler", bound=Callable[..., Coroutine[Any, Any, Any]])

if TYPE_CHECKING:
    import sanic

    class Blueprint(sanic.Blueprint):
        def route(
            self,
            uri: str,
            methods: Iterable[str] | None = None,
            host: str | list[str] | None = None,
            strict_slashes: bool | None = None,
            stream: bool = False,
            version: int | str | float | None = None,
            name: str | None = None,
            ignore_body: bool = False,
            apply: bool = True,
            subprotocols: list[str] | None = None,
            websocket: bool = False,
            unquote: bool = False,
            static: bool = False,
            version_prefix: str = "/v",
            error_format: str | None = None,
            **ctx_kwargs: Any,
        ) -> Callable[[Handler], Handler]: ...

        # Sanic's mixin annotates the application's form (the listener as argument); on a
        # blueprint, given the event's name, it is a decorator.
        def listener(  # type: ignore[override]
            self, event: str
        ) -> Callable[[Handler], Handler]: ...

        def register(self, app: sanic.Sanic, options: dict[str, Any]) -> None: ...

else:
    from sanic import Blueprint

__all__ = ["Blueprint"]
