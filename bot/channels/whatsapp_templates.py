"""WhatsApp template messages: the only messages Meta lets a business start outside the
24-hour customer-service window, so alerts to users who have not written for a day use them.

The content runtime chooses the (pre-approved) template and its parameters; this turns its
``{"whatsapp_template": {"name", "language", "parameters"}}`` payload into the Cloud API's
message and makes the parameters acceptable to Meta.
"""

import re
from typing import Any

_TEMPLATE_NAME = re.compile(r"[a-z0-9_]{1,512}")
_LANGUAGE_CODE = re.compile(r"[a-z]{2,3}(_[A-Z]{2})?")
_LINE_BREAKS = re.compile(r"\s*[\n\r\v\f\u2028\u2029]+\s*")
_OTHER_SPACE = re.compile(r"[\t\u00a0]")
_SPACES = re.compile(r" {2,}")
#: Meta refuses a long parameter; an alert's text is cut here, with "…" at the cut.
TEMPLATE_PARAMETER_MAX = 900


def template_parameter(text: str) -> str:
    """``text`` as Meta accepts a template parameter: no line breaks or tabs, no more than
    four spaces in a row (error 132018 otherwise), at most ``TEMPLATE_PARAMETER_MAX``
    characters. Lines become " · "-separated."""
    lines = _LINE_BREAKS.sub(" · ", text.strip())
    flat = _SPACES.sub(" ", _OTHER_SPACE.sub(" ", lines))
    if len(flat) <= TEMPLATE_PARAMETER_MAX:
        return flat
    return flat[: TEMPLATE_PARAMETER_MAX - 1].rstrip() + "…"


def template_message(template: object) -> dict[str, Any]:
    """The Cloud API message for a ``whatsapp_template`` payload; ValueError if malformed."""
    if not isinstance(template, dict):
        raise ValueError("whatsapp_template must be an object")
    name, language = template.get("name"), template.get("language")
    parameters = template.get("parameters", [])
    if not isinstance(name, str) or not _TEMPLATE_NAME.fullmatch(name):
        raise ValueError("template name must be lower-case letters, digits and _")
    if not isinstance(language, str) or not _LANGUAGE_CODE.fullmatch(language):
        raise ValueError("template language must be a code such as fa, ps or en_US")
    if not isinstance(parameters, list) or not all(
        isinstance(p, str) and p.strip() for p in parameters
    ):
        raise ValueError("template parameters must be a list of non-empty texts")
    body: dict[str, Any] = {"name": name, "language": {"code": language}}
    if parameters:
        values = [{"type": "text", "text": template_parameter(p)} for p in parameters]
        body["components"] = [{"type": "body", "parameters": values}]
    return {"type": "template", "template": body}
