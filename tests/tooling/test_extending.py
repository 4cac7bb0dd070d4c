"""The lists of docs/EXTENDING.md, enforced: each step of adding a channel, a content kind, an
intent, a console page or a metric that no other test catches when it is skipped.

Each check names what is missing and where it goes. The steps other tests already catch are
named in docs/EXTENDING.md beside these. The bot runtime's modules that import Rasa or Sanic
are read with ``ast`` (this file runs in the content runtime's venv); the rest is imported.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, fields
from pathlib import Path

import yaml
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import create_engine

from actions import settings as content_settings
from actions.admin.app import create_app
from actions.admin.console import words
from actions.admin.settings import AdminSettings
from actions.alerts.models import Topic
from actions.content.models import RecordKind
from actions.content.records import SPECS
from actions.content.seed import loader
from actions.settings import FRESHNESS_PREFIX, FreshnessLimits
from kernel import contract
from kernel.contract import ALERT_CHANNELS
from kernel.lang import texts
from kernel.lang.codes import LATIN
from kernel.lang.letters import script_of

ROOT = Path(__file__).resolve().parents[2]
CHANNELS = ROOT / "bot" / "channels"


def parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _assigned(node: ast.stmt) -> tuple[str, ast.expr] | None:
    """``(name, value)`` of a top-level ``NAME = value`` or ``NAME: T = value``."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target, value = node.targets[0], node.value
    elif isinstance(node, ast.AnnAssign) and node.value is not None:
        target, value = node.target, node.value
    else:
        return None
    return (target.id, value) if isinstance(target, ast.Name) else None


# -- A channel ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Connector:
    """An input channel class in ``bot/channels/<module>.py``, read without importing it."""

    module: str
    cls: str
    #: What ``name()`` returns (None: it inherits Rasa's).
    name: str | None
    bases: str
    sms: bool

    @property
    def dotted(self) -> str:
        return f"bot.channels.{self.module}.{self.cls}"

    @property
    def webhook(self) -> bool:
        return "WebhookInput" in self.bases or "QueuedInput" in self.bases

    @property
    def queued(self) -> bool:
        return "QueuedInput" in self.bases


#: The base classes a connector derives from; they are no connector themselves.
CONNECTOR_BASES = {"WebhookInput", "QueuedInput"}


def _constants(tree: ast.Module, known: dict[str, str]) -> dict[str, str]:
    """The module's string constants, ``known`` ones (``bot/channels/settings.py``) included:
    ``CHANNEL: Final = "kannel"``, or ``= KANNEL_CHANNEL`` imported from there."""
    found = dict(known)
    for node in tree.body:
        assigned = _assigned(node)
        if assigned is None:
            continue
        name, value = assigned
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            found[name] = value.value
        elif isinstance(value, ast.Name) and value.id in found:
            found[name] = found[value.id]
    return found


def _name_of(cls: ast.ClassDef, constants: dict[str, str]) -> str | None:
    for node in cls.body:
        if isinstance(node, ast.FunctionDef) and node.name == "name":
            returned = next(n.value for n in ast.walk(node) if isinstance(n, ast.Return))
            if isinstance(returned, ast.Constant) and isinstance(returned.value, str):
                return returned.value
            if isinstance(returned, ast.Name):
                return constants[returned.id]
    return None


def connectors() -> list[Connector]:
    """Every class of ``bot/channels/*.py`` that derives from an input channel."""
    found = []
    shared = _constants(parsed(CHANNELS / "settings.py"), {})
    for path in sorted(CHANNELS.glob("*.py")):
        tree = parsed(path)
        constants = _constants(tree, shared)
        sms = "bot.channels.sms_base" in path.read_text(encoding="utf-8")
        for node in tree.body:
            if not isinstance(node, ast.ClassDef) or node.name in CONNECTOR_BASES:
                continue
            bases = " ".join(ast.unparse(base) for base in node.bases)
            if "Input" in bases and "Protocol" not in bases:
                found.append(Connector(path.stem, node.name, _name_of(node, constants), bases, sms))
    return found


def credentials() -> dict[str, set[str]]:
    """The connectors each credentials file makes Rasa load."""
    return {
        name: set(yaml.safe_load((ROOT / name).read_text(encoding="utf-8")) or {})
        for name in ("credentials.channels.yml", "credentials.yml")
    }


CONNECTORS = connectors()
SHIPPED = credentials()["credentials.channels.yml"]
#: Connectors without a row in README's "Channels" table, and why.
NO_README_ROW = {"webchat": "no provider and no secrets: README, 'Talk to it'"}


def test_the_channel_checks_see_every_connector() -> None:
    """What the checks below read is whole: a change in how connectors are written fails here."""
    names = {c.name for c in CONNECTORS if c.webhook}
    assert names >= {"telegram", "whatsapp", "twilio_sms", "sms_gateway", "kannel", "webchat"}
    assert {c.name for c in CONNECTORS if c.sms} >= {"twilio_sms", "sms_gateway", "kannel"}
    assert {c.name for c in CONNECTORS if c.queued} >= {"telegram", "whatsapp", "kannel"}


def test_every_connector_is_in_a_credentials_file() -> None:
    loaded = set().union(*credentials().values())
    for connector in CONNECTORS:
        assert connector.dotted in loaded, (
            f"{connector.dotted} is in neither credentials.channels.yml nor credentials.yml: "
            "Rasa never loads it"
        )


def test_every_webhook_connector_is_in_the_channel_table() -> None:
    """Its family, body limit and alert rate; every list of channels is read from the table."""
    webhooks = {c.name for c in CONNECTORS if c.webhook}
    for name in sorted(webhooks):
        assert name in contract.CHANNELS, (
            f"'{name}' is not in CHANNELS of kernel/contract.py: give it its family, body limit "
            "and alert rate there"
        )
    unknown = sorted(set(contract.CHANNELS) - webhooks)
    assert not unknown, (
        f"{unknown} in CHANNELS of kernel/contract.py, but no connector has the name"
    )


def test_every_connector_that_replies_by_api_carries_alerts_at_a_rate() -> None:
    queued = {c.name for c in CONNECTORS if c.queued and c.name is not None}
    for name in sorted(queued):
        assert name in ALERT_CHANNELS, (
            f"'{name}' replies by API but has no alert_rate in CHANNELS of kernel/contract.py"
        )
    for name in sorted(ALERT_CHANNELS):
        assert name in queued, (
            f"'{name}' is an alert channel, but no connector that replies by API is called so"
        )


def test_every_sms_connector_has_sms_forms_and_short_alerts() -> None:
    domain = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "bot/domain").glob("*.yml"))
    assert re.search(rf"channel:\s*{contract.SMS}\b", domain), "bot/domain has no SMS forms"
    for connector in CONNECTORS:
        if connector.sms:
            assert connector.name in contract.SMS_CHANNELS, (
                f"'{connector.name}' is not of the SMS family in CHANNELS of kernel/contract.py: "
                "it would answer with the chat's long forms and send alerts uncut"
            )


def test_every_connector_has_its_tests_and_is_documented() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    docs = readme + "".join(p.read_text(encoding="utf-8") for p in (ROOT / "docs").glob("*.md"))
    for connector in CONNECTORS:
        tests = ROOT / "tests" / "channels" / f"test_{connector.module}.py"
        assert tests.exists(), (
            f"{connector.dotted} has no tests/channels/test_{connector.module}.py"
        )
        if connector.dotted not in SHIPPED:
            continue
        module = f"bot/channels/{connector.module}.py"
        assert module in docs, f"{module} is named in neither README.md nor docs/*.md"
        if connector.name not in NO_README_ROW:
            assert f"(`{connector.name}`)" in readme, (
                f"'{connector.name}' has no row in README.md's 'Channels' table "
                "(where to register it, its environment)"
            )


# -- A content kind -----------------------------------------------------------------------------
# tests/actions/test_content_kinds.py checks the KindSpec, its freshness setting and its console
# label (console.kind.<kind>); tests/actions/test_content_import.py the exporter.

#: Kinds a load's summary does not count, and why.
NOT_COUNTED = {RecordKind.AIRPORT: "a status is part of its airport's entry in the file"}


def test_every_kind_is_in_the_seed_loaders_lists() -> None:
    for kind in RecordKind:
        assert kind in loader.WITHDRAW_ORDER, (
            f"{kind} is not in WITHDRAW_ORDER of actions/content/seed/loader.py: an import with "
            "--replace would keep the records its file leaves out"
        )
        assert kind in loader._NAMES or kind in NOT_COUNTED, (
            f"{kind} has no name in _NAMES of actions/content/seed/loader.py: a load's summary "
            "would not count it"
        )
        assert SPECS[kind].model in loader.CONTENT_MODELS, (
            f"{kind}'s model {SPECS[kind].model.__name__} is not in CONTENT_MODELS of "
            "actions/content/seed/loader.py: seed --reset would leave its rows"
        )


def test_every_connector_has_a_name_caseworkers_read() -> None:
    for connector in CONNECTORS:
        if not connector.webhook:
            continue
        assert f"console.channel.{connector.name}" in texts.CATALOGUE, (
            f"'{connector.name}' has no console label: caseworkers would read '{connector.name}'; "
            "add it to the 'channel' group of kernel/lang/texts/console.py"
        )


def test_every_field_of_every_kind_has_a_console_label() -> None:
    for kind, spec in SPECS.items():
        for field in spec.fields:
            labelled = f"console.field.{field.name}" in texts.CATALOGUE
            assert labelled, (
                f"{kind} field '{field.name}' has no console label: add it to the 'field' group "
                "of kernel/lang/texts/console.py"
            )


def test_every_alert_topic_has_a_console_label() -> None:
    for topic in Topic:
        assert f"console.topic.{topic.value}" in texts.CATALOGUE, (
            f"{topic} has no console label: add it to the 'topic' group of "
            "kernel/lang/texts/console.py"
        )


def test_every_freshness_limit_is_documented() -> None:
    documented = content_settings.__doc__ or ""
    for setting in fields(FreshnessLimits):
        variable = f"{FRESHNESS_PREFIX}{setting.name.upper()}"
        assert f"``{variable}``" in documented, (
            f"FreshnessLimits.{setting.name} is not documented: add ``{variable}`` and its "
            "default to the docstring of actions/settings.py"
        )


# -- An intent ----------------------------------------------------------------------------------
# tests/bot/test_domain.py checks that each taught intent is in the domain and in en, prs and ps;
# `rasa data validate --fail-on-warnings` that it is in a rule or story.

NLU = ROOT / "data" / "nlu"
HELD_OUT = ROOT / "tests" / "nlu" / "heldout"
SLICES = ("en", "prs", "prs-Latn", "ps", "ps-Latn")
#: ``[text](entity)`` and ``[text]{"entity": …}``: the text is what people type.
_ANNOTATION = re.compile(r"\[([^\]]*)\](?:\([^)]*\)|\{[^}]*\})")


def examples(path: Path) -> Iterator[tuple[str, str]]:
    """Each (intent, text) of an NLU file, without entity annotations."""
    for item in yaml.safe_load(path.read_text(encoding="utf-8")).get("nlu") or []:
        if "intent" not in item:
            continue
        for line in str(item.get("examples", "")).splitlines():
            if line.strip().startswith("- "):
                yield item["intent"], _ANNOTATION.sub(r"\1", line.strip()[2:])


def slice_of(language: str, text: str) -> str | None:
    """``prs-Latn`` for Dari in Latin letters, ``prs`` in Arabic script; English is ``en``."""
    script = script_of(text)
    if language == "en" or script is None:
        return language if script is not None else None
    return f"{language}-Latn" if script == LATIN else language


def taught_slices() -> dict[str, set[str]]:
    taught: dict[str, set[str]] = defaultdict(set)
    for path in NLU.glob("*/*.yml"):
        for intent, text in examples(path):
            found = slice_of(path.parent.name, text)
            if found is not None:
                taught[intent].add(found)
    return taught


def test_every_taught_intent_has_examples_in_all_five_slices() -> None:
    for intent, found in sorted(taught_slices().items()):
        for name in SLICES:
            language, _, latin = name.partition("-")
            script = "in Latin letters" if latin else "in its own script"
            assert name in found, (
                f"intent '{intent}' has no training examples in '{name}' "
                f"(data/nlu/{language}/, {script})"
            )


def test_every_taught_intent_has_held_out_messages_in_every_slice() -> None:
    taught = set(taught_slices())
    for path in sorted(HELD_OUT.glob("*.yml")):
        held = {intent for intent, _ in examples(path)}
        missing = sorted(taught - held)
        assert not missing, f"no held-out messages in tests/nlu/heldout/{path.name} for {missing}"
    assert {p.stem for p in HELD_OUT.glob("*.yml")} == {
        "en", "prs_arab", "prs_latn", "ps_arab", "ps_latn",
    }  # fmt: skip


def test_every_taught_intent_has_a_label_on_the_questions_page() -> None:
    for intent in sorted(taught_slices()):
        labelled = f"{words.INTENT}.{intent}" in texts.CATALOGUE
        assert labelled, (
            f"intent '{intent}' has no label for the editors' questions page: add it to the "
            "'intent' group of kernel/lang/texts/questions.py"
        )


# -- A console page -----------------------------------------------------------------------------
# tests/bot/test_texts.py checks every catalogue entry (the console's words) in every language.

TEMPLATES = ROOT / "actions" / "admin" / "console" / "templates"
CONSOLE = ROOT / "actions" / "admin" / "console"
#: Console addresses that are no page of their own: Rasa-free redirects, files, sign-in.
NOT_PAGES = {"/console", "/console/static", "/console/signin", "/console/{anything}"}
#: Pages no browser test opens yet (the list only shrinks).
NOT_IN_A_BROWSER = {"/console/data", "/console/export", "/console/new/{kind}", "/console/records"}
#: The playwright tests of the console.
BROWSER_TESTS = ("test_console_browser.py", "test_claims_browser.py", "test_questions_browser.py")
_PARAMETER = {
    "kind": "gate",
    "key": "KBL/abbey-gate",
    "case": "1",
    "revision": "1",
}


def address(pattern: str) -> str:
    return re.sub(r"\{(\w+)[^}]*\}", lambda m: _PARAMETER[m.group(1)], pattern)


def console_routes() -> list[tuple[str, str]]:
    """(method, pattern) of every console route, as the admin server mounts them."""
    app = create_app(create_engine("sqlite://"), AdminSettings())
    return [
        (route.method, resource.canonical)
        for resource in app.router.resources()
        if resource.canonical.startswith("/console") and resource.canonical not in NOT_PAGES
        for route in resource
        if route.method != "HEAD"
    ]


async def test_every_console_route_sends_a_signed_out_browser_to_sign_in() -> None:
    """Before it reads anything: the database here is empty, and no page may reach it."""
    app = create_app(create_engine("sqlite://"), AdminSettings())
    async with TestClient(TestServer(app)) as client:
        for method, pattern in console_routes():
            response = await client.request(method, address(pattern), allow_redirects=False)
            location = response.headers.get("Location", "")
            assert response.status == 303 and location.startswith("/console/signin"), (
                f"{method} {pattern} answers a signed-out browser {response.status}: start its "
                "handler with editor_or_sign_in or caseworker_or_sign_in (console/guard.py)"
            )


def test_every_console_module_with_routes_is_mounted() -> None:
    app = create_app(create_engine("sqlite://"), AdminSettings())
    mounted = {
        (route.method, route.handler) for resource in app.router.resources() for route in resource
    }
    for path in sorted(CONSOLE.glob("*.py")):
        module = importlib.import_module(f"actions.admin.console.{path.stem}")
        table = getattr(module, "routes", None)
        if not isinstance(table, web.RouteTableDef):
            continue
        for route in table:
            assert isinstance(route, web.RouteDef)
            assert (route.method, route.handler) in mounted, (
                f"{route.method} {route.path} of actions/admin/console/{path.name} is not mounted: "
                "add the module to the list in setup() of actions/admin/console/__init__.py"
            )


#: A page's words by key: ``t('key')`` in a template, ``say("key", …)`` in a page's module.
_WORD_KEYS = {
    "html": re.compile(r"""\bt\(\s*['"]([\w.]+)['"]\s*[,)]"""),
    "py": re.compile(r"""\bsay\(\s*['"]([\w.]+)['"]\s*[,)]"""),
}


def test_every_word_a_console_page_names_is_in_the_catalogue() -> None:
    """``say`` finds a key in kernel/lang/texts/{console,cases,questions}.py; the catalogue checks
    that each entry has every language (tests/bot/test_texts.py)."""
    for path in sorted([*TEMPLATES.glob("*.html"), *CONSOLE.glob("*.py")]):
        for key in _WORD_KEYS[path.suffix[1:]].findall(path.read_text(encoding="utf-8")):
            assert words.has(key), (
                f"{path.relative_to(ROOT)} names the word '{key}', which is in none of "
                "kernel/lang/texts/console.py, cases.py or questions.py"
            )


def handlers() -> dict[str, tuple[str, set[str]]]:
    """Each console function: its module and the names it calls."""
    found: dict[str, tuple[str, set[str]]] = {}
    for path in CONSOLE.glob("*.py"):
        for node in parsed(path).body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                calls = {
                    call.func.id if isinstance(call.func, ast.Name) else call.func.attr
                    for call in ast.walk(node)
                    if isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Name | ast.Attribute)
                }
                found[node.name] = (path.name, calls)
    return found


def posted_handlers() -> Iterator[tuple[str, str]]:
    """(module, function) of every ``@routes.post`` handler of the console."""
    for path in CONSOLE.glob("*.py"):
        for node in parsed(path).body:
            if isinstance(node, ast.AsyncFunctionDef) and any(
                ast.unparse(d).startswith("routes.post(") for d in node.decorator_list
            ):
                yield path.name, node.name


def reaches(start: str, goal: str, graph: dict[str, tuple[str, set[str]]]) -> bool:
    seen, todo = set(), [start]
    while todo:
        name = todo.pop()
        if name == goal:
            return True
        if name in seen or name not in graph:
            continue
        seen.add(name)
        todo.extend(graph[name][1])
    return False


def test_every_console_form_checks_its_csrf_token() -> None:
    graph = handlers()
    posted = list(posted_handlers())
    assert len(posted) >= 15, "the console's POST handlers are no longer found"
    for module, name in posted:
        assert reaches(name, "checked_form", graph), (
            f"POST handler {name} (actions/admin/console/{module}) never checks the form's CSRF "
            "token: read the form with checked_form (console/guard.py)"
        )


def test_every_console_page_is_linked_and_opened_in_a_browser_test() -> None:
    links = "".join(p.read_text(encoding="utf-8") for p in TEMPLATES.glob("*.html"))
    browsers = "".join(
        (ROOT / "tests" / "integration" / name).read_text(encoding="utf-8")
        for name in BROWSER_TESTS
    )
    for method, pattern in console_routes():
        if method != "GET":
            continue
        fixed = pattern.split("{", 1)[0]
        if "{" not in pattern:
            assert f'href="{pattern}"' in links, (
                f"no template links to {pattern}: add it to the menu of templates/base.html or "
                "to the page it belongs to"
            )
        opened = re.search(re.escape(fixed) + (r"" if "{" in pattern else r"[?\"'#]"), browsers)
        if pattern in NOT_IN_A_BROWSER:
            assert not opened, (
                f"{pattern} is opened in a browser test now: drop it from NOT_IN_A_BROWSER"
            )
            continue
        assert opened, (
            f"no browser test opens {pattern}: visit it in tests/integration/"
            "test_console_browser.py (phone width, each language, axe)"
        )


def test_every_console_page_is_in_the_route_table_of_docs_console() -> None:
    table = [
        line
        for line in (ROOT / "docs" / "CONSOLE.md").read_text(encoding="utf-8").splitlines()
        if line.startswith("| `")
    ]
    for method, pattern in console_routes():
        if method != "GET" or "{" in pattern:
            continue
        named = any(re.search(re.escape(pattern) + r"[`\[ ,]", line) for line in table)
        assert named, f"GET {pattern} is not in the route table of docs/CONSOLE.md"


# -- A metric -----------------------------------------------------------------------------------
# tests/channels/test_metrics.py and tests/actions/test_action_server_metrics.py check the values.

METRIC_TYPES = {
    "Counter": "_total",
    "CounterMetricFamily": "_total",
    "Gauge": "",
    "GaugeMetricFamily": "",
    "Histogram": "",
    "Summary": "",
}
_DOCUMENTED = re.compile(r"^\| [^|]+ \| `(eia_\w+)` \|", re.MULTILINE)


#: The labels docs/OPERATIONS.md, "Metrics" promises: never a conversation, a number or a text.
ALLOWED_LABELS = {"channel", "outcome", "language", "reason", "fate", "action", "kind", "route"}
ALLOWED_LABELS |= {"method", "status"}


def labels_of(call: ast.Call) -> list[str]:
    """The label names of a metric's definition: its third argument or ``labels``/``labelnames``."""
    given = call.args[2] if len(call.args) > 2 else None
    for keyword in call.keywords:
        if keyword.arg in ("labels", "labelnames"):
            given = keyword.value
    if not isinstance(given, ast.List | ast.Tuple):
        return []
    return [str(e.value) for e in given.elts if isinstance(e, ast.Constant)]


def defined_metrics() -> dict[str, str]:
    """Every ``eia_`` metric either runtime defines (``kernel.metrics.name``), by the module."""
    found: dict[str, str] = {}
    for package in ("bot", "kernel", "actions"):
        for path in (ROOT / package).rglob("*.py"):
            for call in ast.walk(parsed(path)):
                if not (isinstance(call, ast.Call) and call.args):
                    continue
                kind = call.func.id if isinstance(call.func, ast.Name) else None
                first = call.args[0]
                if kind not in METRIC_TYPES or not isinstance(first, ast.Call):
                    continue
                called = first.func
                if not (isinstance(called, ast.Name) and called.id == "name"):
                    continue
                parts = [arg.value for arg in first.args if isinstance(arg, ast.Constant)]
                metric = "eia_" + "_".join(str(part) for part in parts)
                suffix = METRIC_TYPES[kind]
                if suffix and not metric.endswith(suffix):
                    metric += suffix
                found[metric] = str(path.relative_to(ROOT))
                for label in labels_of(call):
                    assert label in ALLOWED_LABELS, (
                        f"{metric} ({found[metric]}) has the label '{label}': labels are "
                        f"{sorted(ALLOWED_LABELS)} only, never a conversation, a number or a text"
                    )
    return found


def documented_metrics() -> set[str]:
    text = (ROOT / "docs" / "OPERATIONS.md").read_text(encoding="utf-8")
    start = text.index("\n## Metrics")
    return set(_DOCUMENTED.findall(text[start : text.index("\n## ", start + 1)]))


def test_every_metric_is_documented_and_every_documented_metric_exists() -> None:
    defined, documented = defined_metrics(), documented_metrics()
    assert len(defined) >= 10, "the metrics are no longer found where they are defined"
    for metric, module in sorted(defined.items()):
        assert metric in documented, (
            f"{metric} ({module}) is not in the table of docs/OPERATIONS.md, 'Metrics'"
        )
    stale = sorted(documented - set(defined))
    assert not stale, f"docs/OPERATIONS.md, 'Metrics' documents {stale}, which no process defines"
