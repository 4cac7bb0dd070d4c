"""Every change this process makes to a library's code, with the exact version it was written
against; nothing is installed on any other.

A patch replaces a name that the library looks up each time it runs (``read_by``): a class, a
function, a method. It was written by reading that version's code, and an upgrade may rename
the name, stop reading it, or change what it must do, with nothing failing loudly: the patch
would silently stop taking effect, or take effect wrongly. So ``install`` first compares each
package's version with the one here and refuses to start (``RuntimeError``) on any other.

**Upgrading Rasa or redis-py:** read each patch's module against the new version's code (what
it replaces and where that is read), run ``tests/bot/test_patches.py`` and the patch's own
tests, then change the version here. ``requirements/bot.lock`` and this list must agree (a
test checks it).

Rasa's speed-ups (``bot/speed``), the paused conversation's processor (``bot/paused.py``) and
``rasa run`` hardened (``bot/server.py``) are installed by ``python -m bot.server``: ``rasa
train`` and ``rasa test`` run Rasa untouched. redis-py's private ``_connect`` is overridden by
a subclass, not replaced: its version is checked where the intake's line makes its client
(``RedisLine.connect``).
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Final

#: The versions the patches were read against (``requirements/bot.lock``).
RASA: Final = "3.6.21"
REDIS: Final = "4.6.0"


@dataclass(frozen=True)
class Patch:
    """One change to a library: ``replaces`` and ``read_by`` are ``pkgutil.resolve_name``
    paths (``module:Class.attribute``)."""

    #: What is replaced (or, for a subclass's override, overridden).
    replaces: str
    #: The library's code that looks ``replaces`` up each time: what makes the patch count.
    read_by: str
    #: Why, in one line.
    why: str
    package: str
    #: The exact version of ``package`` it was written against.
    version: str
    #: Ours that installs it (``module:function``); None for an override made by a subclass,
    #: used where it is made.
    installer: str | None

    @property
    def name(self) -> str:
        """The attribute replaced, as ``read_by`` names it."""
        return self.replaces.rpartition(".")[2].rpartition(":")[2]


#: redis-py's connection, overridden by the intake's line (``intake/redis_line.LetGoConnection``).
LET_GO_CONNECTION: Final = Patch(
    "redis.asyncio.connection:Connection._connect",
    "redis.asyncio.connection:Connection.connect",
    "the line's sockets are reset when closed, so a call that timed out never lands later",
    "redis",
    REDIS,
    None,
)

PATCHES: Final = (
    Patch(
        "rasa.cli.run:run",
        "rasa.cli.run:add_subparser",
        "`rasa run` with the API token from the environment, its keys checked, its app hardened",
        "rasa",
        RASA,
        "bot.server:harden_rasa_run",
    ),
    Patch(
        "rasa.core.run:configure_app",
        "rasa.core.run:serve_application",
        "the app Rasa builds also serves /metrics, whatever channels are configured",
        "rasa",
        RASA,
        "bot.server:serve_metrics",
    ),
    Patch(
        "rasa.core.agent:MessageProcessor",
        "rasa.core.agent:Agent.load_model",
        "STOP, delete-my-data and safety still answered in a conversation a caseworker holds",
        "rasa",
        RASA,
        "bot.paused:install",
    ),
    Patch(
        "rasa.core.actions.action:RemoteAction._validate_action_result",
        "rasa.core.actions.action:RemoteAction.run",
        "action replies validated without re-checking the constant schema each time",
        "rasa",
        RASA,
        "bot.speed.action_replies:install",
    ),
    Patch(
        "rasa.shared.core.events:Event.resolve_by_type",
        "rasa.shared.core.events:Event.from_parameters",
        "an event's class found in a table, not by walking every Event subclass",
        "rasa",
        RASA,
        "bot.speed.event_types:install",
    ),
    Patch(
        "rasa.core.processor:DaskGraphRunner",
        "rasa.core.processor:MessageProcessor._load_model",
        "the prediction graph run in a precomputed order, without dask",
        "rasa",
        RASA,
        "bot.speed.graph_runner:install",
    ),
    Patch(
        "rasa.utils.endpoints:EndpointConfig.session",
        "rasa.utils.endpoints:EndpointConfig.request",
        "calls to the action server over kept-alive connections",
        "rasa",
        RASA,
        "bot.speed.kept_connections:install",
    ),
    LET_GO_CONNECTION,
)


def found_version(package: str) -> str:
    """The version of ``package`` this process imported."""
    version: str = importlib.import_module(package).__version__
    return version


def check(patch: Patch) -> None:
    """Refuses (``RuntimeError``) when ``patch``'s package is not the version it was written
    against."""
    found = found_version(patch.package)
    if found != patch.version:
        raise RuntimeError(
            f"{patch.package} {found} is installed, but {patch.replaces} is patched for "
            f"{patch.package} {patch.version}: read the patch against {found} and change its "
            "version in bot/patches.py (its docstring says how)"
        )


def install() -> None:
    """Checks every patch's version, then installs them (once per process, before Rasa
    loads its model and starts its server)."""
    for patch in PATCHES:
        check(patch)
    for patch in PATCHES:
        if patch.installer is not None:
            pkgutil.resolve_name(patch.installer)()
