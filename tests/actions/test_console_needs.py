"""What needs me now, at scale: the counts and lists the database answers, on SQLite and
PostgreSQL — the same few queries however many facts need an editor, every fact against its own
freshness limit, untranslated texts counted as the full report lists them, and the partial
indexes the page relies on actually usable by the queries it sends.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, event, func, insert, select, text, update
from sqlalchemy.orm import Session

from actions.admin.console.needs import checks, plan
from actions.content.freshness import limit_for
from actions.content.models import Airport, Flight, FlightStatus, GuidanceTopic, Organisation
from actions.content.records import SPECS
from actions.content.review import lacking, missing_translations
from actions.content.revision import RecordKind
from actions.settings import FreshnessLimits
from tests.actions.console_support import Client, invitation, sign_in, visible
from tests.actions.test_console import LATER, client_for

STALE_FLIGHTS = "Past their freshness limit"


@pytest.fixture
async def editor(content_db: Engine) -> AsyncIterator[Client]:
    """A signed-in console at ``LATER`` (an hour after the demo content was checked)."""
    async with await client_for(content_db) as client:
        await sign_in(client, invitation(content_db, "amina", LATER))
        yield client


def add_flights(engine: Engine, count: int, verified: datetime, untranslated: bool = False) -> None:
    """``count`` upcoming flights out of Kabul, last checked at ``verified``."""
    with Session(engine) as session, session.begin():
        org = session.scalars(select(Organisation.id).order_by(Organisation.id)).first()
        kabul = session.scalars(select(Airport.id).where(Airport.iata == "KBL")).one()
        doha = session.scalars(select(Airport.id).where(Airport.iata != "KBL")).first()
        known = session.scalar(select(Flight.id).order_by(Flight.id.desc())) or 0
        rows: list[dict[str, Any]] = [
            {
                "flight_number": f"TST{known + index}",
                "operator_id": org,
                "origin_id": kabul,
                "destination_id": doha,
                "departs_at": LATER + timedelta(days=1, minutes=index),
                "status": FlightStatus.SCHEDULED,
                "eligibility_en": "Passengers on the manifest.",
                "eligibility_prs": "مسافرانی که نام‌شان در فهرست است.",
                "eligibility_ps": "" if untranslated else "هغه مسافر چې نومونه یې په لست کې دي.",
                "assembly_point_en": "North Gate.",
                "assembly_point_prs": "دروازهٔ شمالی.",
                "assembly_point_ps": "شمالي دروازه.",
                "source_id": org,
                "verified_at": verified,
                "valid_until": LATER + timedelta(days=2),
            }
            for index in range(count)
        ]
        session.execute(insert(Flight), rows)


@pytest.fixture
def statements(content_db: Engine) -> Iterator[list[str]]:
    """Every SQL statement sent while the test runs, in order."""
    sent: list[str] = []

    def record(*args: Any) -> None:
        sent.append(args[2])

    event.listen(content_db, "before_cursor_execute", record)
    yield sent
    event.remove(content_db, "before_cursor_execute", record)


async def home_page(client: Client, sent: list[str]) -> tuple[str, int]:
    """The page as a reader sees it, and how many statements it cost."""
    sent.clear()
    response = await client.get("/console/")
    assert response.status == 200
    return visible(await response.text()), len(sent)


async def test_forty_stale_flights_cost_the_page_no_more_queries_than_five(
    content_db: Engine, editor: Client, statements: list[str]
) -> None:
    stale_check = LATER - timedelta(hours=7)  # flights: 6 h limit
    add_flights(content_db, 5, stale_check)
    page, few = await home_page(editor, statements)
    assert f"{STALE_FLIGHTS} (7)" in page  # the demo's two gates and the five flights
    add_flights(content_db, 35, stale_check)
    page, many = await home_page(editor, statements)
    assert f"{STALE_FLIGHTS} (42)" in page
    assert "22 more, not listed: the oldest checks come first." in page
    # 20 listed, furthest past the limit first: the flights (1 h) before the gates (30, 10 min).
    assert page.count("TST") == 20 and "Baron Hotel side" not in page[: page.index("About")]
    assert many == few <= 12, statements


async def test_the_page_shows_a_change_at_once(content_db: Engine, editor: Client) -> None:
    """Nothing is cached: a fact checked again leaves the list on the next request."""
    add_flights(content_db, 3, LATER - timedelta(hours=7))
    page = visible(await (await editor.get("/console/")).text())
    assert f"{STALE_FLIGHTS} (5)" in page
    with Session(content_db) as session, session.begin():
        session.execute(
            update(Flight).where(Flight.flight_number.like("TST%")).values(verified_at=LATER)
        )
    page = visible(await (await editor.get("/console/")).text())
    assert f"{STALE_FLIGHTS} (2)" in page and "TST" not in page


async def test_untranslated_texts_are_counted_all_and_listed_first(
    content_db: Engine, editor: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    from actions.admin.console import needs

    add_flights(content_db, 3, LATER, untranslated=True)
    with Session(content_db) as session, session.begin():
        contact = select(GuidanceTopic.id).where(GuidanceTopic.hours_en.is_not(None)).limit(1)
        session.execute(
            update(GuidanceTopic).where(GuidanceTopic.id.in_(contact)).values(hours_ps="")
        )
    monkeypatch.setattr(needs, "SHOWN", 2)
    page = visible(await (await editor.get("/console/")).text())
    listed = page[page.index("Texts missing a translation") :]
    assert "2 more, not listed" in listed  # 3 flights' eligibility and a contact's hours
    assert listed.count("Who may board: پښتو") == 2 and "Opening hours" not in listed


def test_the_count_of_untranslated_texts_is_what_the_report_lists(content_db: Engine) -> None:
    add_flights(content_db, 4, LATER, untranslated=True)
    with Session(content_db) as session, session.begin():
        session.execute(update(GuidanceTopic).values(body_prs=""))
        contact = select(GuidanceTopic.id).where(GuidanceTopic.hours_en.is_not(None)).limit(1)
        session.execute(
            update(GuidanceTopic).where(GuidanceTopic.id.in_(contact)).values(hours_en="")
        )
    steps = plan(FreshnessLimits())
    with Session(content_db) as session:
        counted = session.execute(steps.counts, steps.parameters(LATER)).one()
        report = missing_translations(session)
        first = missing_translations(session, 3)
    per_kind = dict(zip(steps.texts, counted[len(steps.wanted) :], strict=True))
    with Session(content_db) as session:
        topics = session.scalar(select(func.count()).select_from(GuidanceTopic))
    assert per_kind[RecordKind.FLIGHT] == 4
    assert per_kind[RecordKind.GUIDANCE] == topics + 1  # every body, and one contact's hours
    assert sum(per_kind.values()) == len(report)
    assert first == report[:3]


def test_every_fact_is_checked_against_its_own_freshness_limit(content_db: Engine) -> None:
    limits = FreshnessLimits(contacts=timedelta(days=3), guidance=timedelta(days=10))
    seen: dict[tuple[RecordKind, int], timedelta] = {}
    with Session(content_db) as session:
        for group in checks(limits):
            model = SPECS[group.kind].model
            for row in session.scalars(select(model).where(*group.only)):
                assert (group.kind, row.id) not in seen, "a fact in two groups"
                seen[group.kind, row.id] = group.limit
                assert group.limit == limit_for(row, limits), (group.kind, row.id)
        for kind in {group.kind for group in checks(limits)}:
            everything = session.scalars(select(SPECS[kind].model.id)).all()
            assert {(kind, i) for i in everything} <= seen.keys(), kind
    assert {timedelta(days=3), timedelta(days=10)} <= set(seen.values())


@pytest.mark.parametrize("kind", [RecordKind.FLIGHT, RecordKind.ANNOUNCEMENT])
def test_untranslated_texts_are_found_through_their_partial_index(
    content_db: Engine, kind: RecordKind
) -> None:
    """The index's condition and the query's must match to the letter (migration 0013): a
    database uses a partial index only for a query whose condition implies the index's."""
    spec = SPECS[kind]
    # Compiled as the page sends it: a bound value here would match no partial index.
    compiled = spec.ordered().where(lacking(spec)).compile(content_db)
    postgres = content_db.dialect.name == "postgresql"
    bound: Any = compiled.params
    if not postgres:
        bound = tuple(compiled.params[name] for name in compiled.positiontup or ())
    with content_db.connect() as connection:
        if postgres:  # a few demo rows: without this the planner rightly reads the table
            connection.execute(text("SET enable_seqscan = off"))
        prefix = "EXPLAIN " if postgres else "EXPLAIN QUERY PLAN "
        explained = connection.exec_driver_sql(prefix + str(compiled), bound).all()
    plan_text = " ".join(str(line[0] if postgres else line[-1]) for line in explained)
    assert f"ix_{spec.model.__tablename__}_untranslated" in plan_text, plan_text


async def test_a_flight_is_found_by_any_part_of_its_number(editor: Client) -> None:
    """Through the (departure, number) index on SQLite: the same flights, in the list's order."""
    page = visible(await (await editor.get("/console/records/flight?q=801")).text())
    assert "QR8010" in page and "QR8012" in page and "RCH871" not in page
    assert page.index("QR8010") < page.index("QR8012")  # departure order
    page = visible(await (await editor.get("/console/records/flight?q=qr8010@2021-08-24")).text())
    assert "QR8010" in page and "QR8012" not in page
    wild = await editor.get("/console/records/flight?q=%25_")  # "%_": searched as typed
    assert wild.status == 200 and "QR8010" not in visible(await wild.text())
