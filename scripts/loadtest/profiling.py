"""Where a turn's CPU time goes: py-spy samples of every process, summed by stage.

py-spy samples a running process from outside (no code change, little overhead); each sample
is one call stack. A sample is put in the stage of its innermost frame that names one, so
"jsonschema validation" inside "action-server call" counts as validation only; failing that,
in the stage of the library its innermost frames belong to.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

from scripts.stack import ACTIONS_BIN

#: (stage, substring of a frame "function (file:line)"), checked from the innermost frame out.
RASA_STAGES = (
    ("action result validation (jsonschema)", "RemoteAction._validate_action_result"),
    ("action result validation (jsonschema)", "validate_action_result (bot/speed/"),
    ("NLU: language identifier", "LanguageIdentifier.process"),
    ("NLU: intent classifier", "CharNgramIntentClassifier.process"),
    ("NLU: entity extractor (CRF)", "CRFEntityExtractor.process"),
    ("NLU: other components, graph runner", "MessageProcessor.parse_message"),
    ("conversation policy: language, topic, details", "ConversationPolicy.turn_events"),
    ("policies, graph runner", "MessageProcessor._predict_next_with_tracker"),
    ("responses (NLG)", "NaturalLanguageGenerator.generate"),
    ("action-server call: tracker to JSON, HTTP", "RemoteAction.run"),
    ("tracker store: load", "MessageProcessor.fetch_tracker_and_update_session"),
    ("tracker store: load", "TrackerStore.get_or_create_tracker"),
    ("tracker store: save", "MessageProcessor.save_tracker"),
    ("lock store", "LockStore."),
    ("applying events to the tracker", "MessageProcessor._run_action"),
    ("applying events to the tracker", "MessageProcessor._handle_message_with_tracker"),
    ("intake: Redis Streams (lease, take, ack, put, the notices' look-ups)", "RedisLine."),
    ("intake: the workers' loop, the notices", "Intake."),
    ("webhook: authenticate, read, parse, de-duplicate", "WebhookInput.receive"),
)
#: Where no stage matched (py-spy cuts very deep stacks, and asyncio runs some work in tasks of
#: their own): the library the innermost frames are in.
RASA_LIBRARIES = (
    ("action result validation (jsonschema)", "jsonschema/"),
    ("action-server call: tracker to JSON, HTTP", "aiohttp/"),
    ("tracker store (SQL)", "sqlalchemy/"),
    ("lock store", "redis/"),
    ("REST channel, Sanic HTTP, event loop", "sanic/"),
    ("REST channel, Sanic HTTP, event loop", "rasa/core/channels/"),
)
ACTION_STAGES = (
    ("content database (SQLAlchemy)", "DatabaseAction.in_session"),
    ("other actions", "ActionExecutor.run"),
    ("request JSON decode", "Request.load_json"),
)
ACTION_LIBRARIES = (
    ("content database (SQLAlchemy)", "sqlalchemy/"),
    ("Sanic HTTP, event loop, threads", "sanic/"),
    ("Sanic HTTP, event loop, threads", "concurrent/futures/"),
    ("Sanic HTTP, event loop, threads", "asyncio/"),
)
ROLES = {"rasa": (RASA_STAGES, RASA_LIBRARIES), "actions": (ACTION_STAGES, ACTION_LIBRARIES)}
#: Custom actions Rasa calls from inside action_extract_slots (custom slot mappings).
SLOT_MAPPING_CALL = "ActionExtractSlots._execute_custom_action"
#: Stages shown apart for the slot-mapping call, which every turn makes besides the answer's.
PER_CALL = {
    "action result validation (jsonschema)",
    "action-server call: tracker to JSON, HTTP",
    "responses (NLG)",
}
#: Samples per second.
RATE = 100
LINE = re.compile(r"^(?P<stack>.*) (?P<count>\d+)$")
OTHER = "other (start-up, logging, timers)"


def py_spy() -> str | None:
    """py-spy from the content runtime's environment or PATH (requirements/actions.lock)."""
    candidate = ACTIONS_BIN / "py-spy"
    return str(candidate) if candidate.exists() else shutil.which("py-spy")


def record(pid: int, seconds: float, output: Path) -> subprocess.Popen[bytes]:
    """Start sampling ``pid`` for ``seconds`` at RATE without stopping it (--nonblocking).

    Only threads holding the GIL (--gil), so that the action server's idle thread pool and
    an idle event loop are not counted. A thread also counts while it waits for a core or
    for a PostgreSQL or Redis reply without releasing the GIL, so samples give each stage's
    share; bench_load.py takes the CPU time itself from /proc.
    """
    executable = py_spy()
    if executable is None:
        raise RuntimeError("py-spy is not installed: run `make setup` (requirements/actions.lock)")
    command = [executable, "record", "--pid", str(pid), "--rate", str(RATE), "--format", "raw"]
    command += ["--gil", "--duration", str(max(1, round(seconds))), "--nonblocking", "--output"]
    return subprocess.Popen(
        [*command, str(output)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def stages(files: list[Path], role: str) -> Counter[str]:
    """Samples per stage in py-spy "raw" (collapsed stack) files of one server."""
    table, libraries = ROLES[role]
    counts: Counter[str] = Counter()
    for path in files:
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            match = LINE.match(line)
            if match:
                frames = match["stack"].split(";")
                counts[_stage(frames, table) or _stage(frames, libraries) or OTHER] += int(
                    match["count"]
                )
    return counts


def _stage(frames: list[str], table: tuple[tuple[str, str], ...]) -> str | None:
    for frame in reversed(frames):
        for name, pattern in table:
            if pattern in frame:
                if name in PER_CALL and any(SLOT_MAPPING_CALL in f for f in frames):
                    return f"{name} — action_track_language call"
                return name
    return None
