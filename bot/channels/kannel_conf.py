"""The two groups of an operator's ``kannel.conf`` that connect Kannel to the assistant.

``python -m bot.channels.kannel conf`` prints them, filled from the same settings the channel
reads (``KANNEL_SECRET``, ``KANNEL_USERNAME``, ``KANNEL_PASSWORD``, ``KANNEL_FROM``,
``KANNEL_WEBHOOK_BASE_URL``), so that what Kannel calls is what the channel expects:

- ``sms-service``: every incoming SMS goes to ``/webhooks/kannel/receive`` as a GET, with the
  message's raw bytes (``%b``), its coding and charset (UCS-2 arrives as UTF-16BE bytes) and
  Kannel's message id for de-duplication. ``max-messages = 0``: the answer does not come back
  in the HTTP response but through ``sendsms``, like every other connector's replies.
  ``conf --post`` prints a ``post-url`` instead, for operators whose policy keeps message text
  out of URLs (and so out of proxies' access logs): the text is the request's body, its charset
  in ``Content-Type`` and its coding in ``X-Kannel-Coding``; the URL keeps the secret, the
  numbers and the id.
- ``sendsms-user``: the account the replies use; Kannel cuts a reply into at most three
  concatenated parts (the assistant never sends more, ``sms_segments.MAX_SEGMENTS``).
"""

from __future__ import annotations

from typing import Final

from bot.channels.settings import KannelSettings
from kernel.sms_segments import MAX_SEGMENTS

RECEIVE_PATH: Final = "/webhooks/kannel/receive"
DELIVERED_PATH: Final = "/webhooks/kannel/delivered"
#: Kannel's placeholders for the fields the channel reads (``kannel.parse_incoming``).
INCOMING_FIELDS: Final = (
    ("from", "%p"),
    ("to", "%P"),
    ("text", "%b"),
    ("coding", "%c"),
    ("charset", "%C"),
    ("id", "%I"),
)


#: What a ``post-url`` keeps in its URL: the text and its coding travel in the body and headers.
POSTED_FIELDS: Final = tuple((n, p) for n, p in INCOMING_FIELDS if n in ("from", "to", "id"))


def receive_url(settings: KannelSettings, post: bool = False) -> str:
    """The ``get-url`` (or ``post-url``) of the ``sms-service`` group: the secret first, then
    Kannel's fields."""
    named = POSTED_FIELDS if post else INCOMING_FIELDS
    fields = "".join(f"&{name}={placeholder}" for name, placeholder in named)
    return f"{settings.webhook_base_url}{RECEIVE_PATH}?secret={settings.secret}{fields}"


def _quoted(value: str) -> str:
    """A kannel.conf string value (the parser reads ``\\"`` and ``\\\\`` inside quotes)."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def conf_groups(settings: KannelSettings, post: bool = False) -> str:
    """The ``sms-service`` and ``sendsms-user`` groups, ready to paste into kannel.conf;
    ``post``: the service POSTs the text as its body (``post-url``, the sender named too)."""
    service = (
        [f"post-url = {_quoted(receive_url(settings, post=True))}", "send-sender = true"]
        if post
        else [f"get-url = {_quoted(receive_url(settings))}"]
    )
    lines = [
        "# The assistant's groups (python -m bot.channels.kannel conf): every incoming SMS",
        "# goes to the assistant, which answers through sendsms with the account below.",
        "group = sms-service",
        "keyword = default",
        "catch-all = true",
        "max-messages = 0",
        *service,
        "",
        "group = sendsms-user",
        f"username = {_quoted(settings.username)}",
        f"password = {_quoted(settings.password)}",
        f"max-messages = {MAX_SEGMENTS}",
        "concatenation = true",
    ]
    if settings.sender:
        lines.append(f"default-sender = {_quoted(settings.sender)}")
    return "\n".join(lines) + "\n"
