"""``python -m actions.admin``: editors' tokens, and serving the admin HTTP API.

Run by whoever operates the server (tokens give the power to change what evacuees are told):
``token add NAME`` shows a new token once, ``token list`` shows who has access and never a
token, ``token revoke NAME`` ends it at once (and the console sessions it opened), ``invite
NAME`` prints a one-time sign-in link for the web console (``--role caseworker --organisation
SLUG`` for a caseworker, who answers that organisation's cases only), ``organisation NAME
SLUG`` names a signed-in caseworker's organisation, ``signout NAME`` ends someone's console
sessions and unused invitations, ``sessions`` lists those still open, ``serve`` starts the API
and the console.
"""

from __future__ import annotations

import argparse
import dataclasses
import errno
import logging
import shlex
import socket
import sys
from typing import TYPE_CHECKING

from sqlalchemy import Engine, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from actions.admin import tokens
from actions.admin.settings import AdminSettings
from actions.cases import hours
from actions.common.clock import utc_now_to_second
from actions.common.kabul_time import kabul
from actions.content.db import URL_ENV, get_engine
from actions.content.editors import CASEWORKER_ROLE, EDITOR_ROLE, ROLES
from actions.content.models import Organisation
from actions.content.validation import ContentError
from actions.content_cli.common import CommandError, require_migrated
from actions.settings import SettingsError

if TYPE_CHECKING:  # the console's modules load its web server, which the token commands need not
    from actions.admin.console.access import Access

#: What a token list shows for a time that has not come (never used, never revoked).
NEVER = "never"

logger = logging.getLogger(__name__)


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(
        prog="python -m actions.admin",
        description=f"Editor tokens and the admin HTTP API (database: {URL_ENV}).",
        allow_abbrev=False,
    )
    commands = root.add_subparsers(dest="command", required=True, metavar="COMMAND")
    token = commands.add_parser("token", help="add, list or revoke editors' tokens")
    actions = token.add_subparsers(dest="action", required=True, metavar="ACTION")
    add = actions.add_parser("add", help="a new token for an editor, shown only once")
    add.add_argument("name", help="the editor, as revisions will name them, e.g. amina")
    actions.add_parser("list", help="every token: editor, created, last used, revoked")
    revoke = actions.add_parser("revoke", help="revoke an editor's tokens at once")
    revoke.add_argument("name")
    revoke.add_argument("--id", type=int, help="only this token (see `token list`)")
    invite = commands.add_parser(
        "invite", help="a one-time sign-in link and code for the web console (valid 24 h)"
    )
    invite.add_argument("name", help="the editor, as revisions will name them, e.g. amina")
    invite.add_argument(
        "--role",
        choices=ROLES,
        default=EDITOR_ROLE,
        help="editor (changes the content; default) or caseworker (answers people's cases)",
    )
    invite.add_argument(
        "--organisation",
        metavar="SLUG",
        help="required for a caseworker: the organisation whose cases she answers, e.g. "
        "kabul-aid-network (she sees no other organisation's); refused for an editor",
    )
    organisation = commands.add_parser(
        "organisation",
        help="name the organisation whose cases a signed-in or invited caseworker answers",
    )
    organisation.add_argument("name", help="as `sessions` lists them, e.g. farida")
    organisation.add_argument("slug", help="the organisation's slug, e.g. kabul-aid-network")
    signout = commands.add_parser(
        "signout",
        help="end every console session and unused invitation of an editor or caseworker",
    )
    signout.add_argument("name", help="as `sessions` lists them, e.g. amina")
    commands.add_parser(
        "sessions", help="open console sessions and unused invitations: who, role, until when"
    )
    defaults = AdminSettings.from_env()
    serve = commands.add_parser("serve", help="run the admin HTTP API until Ctrl-C")
    serve.add_argument("--host", default=defaults.host, help=f"default {defaults.host}")
    serve.add_argument("--port", type=int, default=defaults.port, help=f"default {defaults.port}")
    return root


def add_token(engine: Engine, name: str) -> str:
    with Session(engine) as session, session.begin():
        issued = tokens.issue(session, name, utc_now_to_second())
    return (
        f"Token {issued.id} for {issued.editor}. It is shown only this once: store it now "
        f"(a password manager), it cannot be shown again.\n\n{issued.token}\n\n"
        "Send it as 'Authorization: Bearer <token>'. If it is lost or leaked: "
        f"python -m actions.admin token revoke {shlex.quote(issued.editor)}"
    )


def organisation_named(session: Session, slug: str) -> Organisation:
    """The current organisation ``slug`` names; else an error naming those that take cases."""
    found = session.scalars(select(Organisation).where(Organisation.slug == slug.strip())).first()
    if found is not None and found.withdrawn_at is None:
        return found
    problem = "is withdrawn" if found is not None else "is no organisation of the content"
    raise CommandError(f"{slug!r} {problem}; {_taking_cases(session)}")


def _taking_cases(session: Session) -> str:
    slugs = [org.slug for org in hours.taking_cases(session)]
    if not slugs:
        return "no organisation takes cases yet (an editor sets its case hours)"
    return f"organisations that take cases: {', '.join(slugs)}"


def invite_editor(
    engine: Engine, name: str, role: str = EDITOR_ROLE, organisation: str | None = None
) -> str:
    """The sign-in link for ``name``; a caseworker must name her organisation, whose cases
    alone she answers (an editor must not: ``sessions.invite`` refuses it)."""
    from actions.admin.console.sessions import invite  # the console's, not the API's

    with Session(engine) as session, session.begin():
        if role == CASEWORKER_ROLE and organisation is None:
            raise CommandError(
                "a caseworker answers the cases of one organisation: add --organisation SLUG; "
                + _taking_cases(session)
            )
        answers = None if organisation is None else organisation_named(session, organisation)
        invitation = invite(session, name, utc_now_to_second(), role, answers)
    base = AdminSettings.from_env().public_url
    return (
        f"Sign-in for {invitation.editor}, once, until {kabul(invitation.expires_at, NEVER)} Kabul "
        f"time. Send the link (or read out the code) to them only.\n\n"
        f"{base}/console/signin?code={invitation.code}\n\ncode: {invitation.code}"
    )


def assign_organisation(engine: Engine, name: str, slug: str) -> str:
    """``name`` answers the cases of ``slug`` from her next page (a caseworker signed in
    before caseworkers had organisations sees only the cases no organisation answers)."""
    from actions.admin.console import access

    with Session(engine) as session, session.begin():
        organisation = organisation_named(session, slug)
        changed = access.assign_organisation(session, name, organisation.id, utc_now_to_second())
        answered = organisation.slug
    if not (changed.sessions or changed.invitations):
        raise CommandError(
            f"{name.strip()} has no open caseworker session and no unused caseworker "
            "invitation; see `sessions`, or invite them: python -m actions.admin invite "
            f"{shlex.quote(name.strip())} --role caseworker --organisation {answered}"
        )
    return (
        f"{name.strip()} answers the cases of {answered} from their next page: "
        f"{changed.sessions} console session(s) and {changed.invitations} unused "
        "invitation(s) changed."
    )


def list_tokens(engine: Engine) -> str:
    with Session(engine) as session:
        rows = tokens.listing(session)
        lines = [
            f"{row.id:>4}  {row.editor:<20}  created {kabul(row.created_at, NEVER)}  "
            f"last used {kabul(row.last_used_at, NEVER)}  "
            + (f"REVOKED {kabul(row.revoked_at, NEVER)}" if row.revoked_at else "active")
            for row in rows
        ]
    return "\n".join(lines) if lines else "No tokens yet: python -m actions.admin token add NAME"


def revoke_tokens(engine: Engine, name: str, token_id: int | None) -> str:
    from actions.admin.console import access

    with Session(engine) as session, session.begin():
        moment = utc_now_to_second()
        revoked = tokens.revoke(session, name, moment, token_id)
        ended = access.end_token_sessions(session, revoked, moment)
    if not revoked:
        which = f"token {token_id} of {name}" if token_id is not None else name
        raise CommandError(f"{which} has no active token; see `token list`")
    return (
        f"Revoked token(s) {', '.join(map(str, revoked))} of {name.strip()}: refused from now on"
        f"; {ended} console session(s) opened with them ended."
    )


def sign_out(engine: Engine, name: str) -> str:
    from actions.admin.console import access

    with Session(engine) as session, session.begin():
        ended = access.sign_out(session, name, utc_now_to_second())
        still = access.active_tokens(session, name)
    if not (ended.sessions or ended.invitations):
        raise CommandError(
            f"{name.strip()} has no open console session and no unused invitation; see `sessions`"
        )
    message = (
        f"Signed out {name.strip()}: {ended.sessions} console session(s) ended, "
        f"{ended.invitations} unused invitation(s) cancelled."
    )
    if still:
        message += (
            f" Their token(s) {', '.join(map(str, still))} can still sign in: "
            f"python -m actions.admin token revoke {shlex.quote(name.strip())}"
        )
    return message


def list_sessions(engine: Engine) -> str:
    from actions.admin.console import access

    moment = utc_now_to_second()
    with Session(engine) as session:
        open_ = access.open_sessions(session, moment)
        invited = access.unused_invitations(session, moment)
    lines = [f"Open console sessions ({len(open_)}):"]
    lines += [
        f"  {row.name:<20}  {row.role:<10}  opened {kabul(row.opened)}  "
        f"expires {kabul(row.expires)}  "
        + ("with a code" if row.token_id is None else f"with token {row.token_id}")
        + _answering(row)
        for row in open_
    ]
    lines.append(f"Unused invitations ({len(invited)}):")
    lines += [
        f"  {row.name:<20}  {row.role:<10}  issued {kabul(row.opened)}  "
        f"expires {kabul(row.expires)}" + _answering(row)
        for row in invited
    ]
    if open_ or invited:
        lines.append("End someone's access: python -m actions.admin signout NAME")
    if any(row.role == CASEWORKER_ROLE and row.organisation is None for row in open_ + invited):
        lines.append(
            "A caseworker of no organisation sees only the cases no organisation answers: "
            "python -m actions.admin organisation NAME SLUG"
        )
    return "\n".join(lines)


def _answering(row: Access) -> str:
    """Whose cases a caseworker's sign-in answers, for the ``sessions`` listing."""
    if row.role != CASEWORKER_ROLE:
        return ""
    return f"  organisation {row.organisation or 'none'}"


def serve(host: str, port: int) -> None:
    from aiohttp import web  # only here: the token commands need no web server

    from actions.admin.app import AccessLog, create_app

    settings = dataclasses.replace(AdminSettings.from_env(), host=host, port=port)
    listening = _listening_socket(host, port)
    logger.info("admin API on http://%s:%s (OpenAPI: /openapi.json)", host, port)
    logger.info("editors' console on http://%s:%s/console/", host, port)
    web.run_app(
        create_app(settings=settings), sock=listening, access_log_class=AccessLog, print=None
    )


def _listening_socket(host: str, port: int) -> socket.socket:
    """The server's socket, bound here so that a taken port is one sentence, not a traceback
    (`make run` already serves the API and the console on 5056)."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        listening = socket.socket(family, socket.SOCK_STREAM)
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind((host, port))
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise CommandError(
                f"{host}:{port} is already in use; if `make run` is running, it serves the "
                "admin API and the console there already (or choose another --port)"
            ) from None
        raise CommandError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    listening.listen(128)
    listening.set_inheritable(False)
    return listening


def main(argv: list[str] | None = None) -> int:
    try:
        args = parser().parse_args(argv)
        # The server logs each request (AccessLog); a token command prints one message only.
        level = logging.INFO if args.command == "serve" else logging.WARNING
        logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        logging.getLogger("alembic").setLevel(logging.WARNING)  # its dialect, at every check
        engine = get_engine()
        require_migrated(engine)
        if args.command == "serve":
            serve(args.host, args.port)
            return 0
        if args.command == "invite":
            message = invite_editor(engine, args.name, args.role, args.organisation)
        elif args.command == "organisation":
            message = assign_organisation(engine, args.name, args.slug)
        elif args.command == "signout":
            message = sign_out(engine, args.name)
        elif args.command == "sessions":
            message = list_sessions(engine)
        elif args.action == "add":
            message = add_token(engine, args.name)
        elif args.action == "list":
            message = list_tokens(engine)
        else:
            message = revoke_tokens(engine, args.name, args.id)
    except (CommandError, ContentError, SettingsError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except SQLAlchemyError as error:
        reason = str(getattr(error, "orig", None) or error).splitlines()[0]
        print(
            f"error: cannot use the content database ({reason}); check {URL_ENV}", file=sys.stderr
        )
        return 1
    print(message)
    return 0
