"""Everything the console, the outbox and the SMS briefs know about a kind of record is in its
spec: each kind states all of it, and a kind made up here shows up in the console's menu, on
the needs page, in titles, in the preview and in alerts without a line changed there."""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import fields, replace
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, Integer, String, select
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from actions.admin.console import needs, pages
from actions.admin.console.preview import Answers, content_actions
from actions.admin.console.titles import shown_with, title
from actions.alerts.models import EVERYWHERE, Topic
from actions.alerts.outbox import Subject, subject_of
from actions.content import briefs, freshness, kinds
from actions.content.models import (
    GuidanceKind,
    GuidanceTopic,
    Provenance,
    RecordKind,
    Revision,
    RevisionAction,
    UTCDateTime,
    VolatileFact,
)
from actions.content.records import SPECS, KindSpec
from actions.settings import FreshnessLimits
from kernel.lang import texts
from tests.actions.console_support import invitation, sign_in, visible
from tests.actions.content_support import NOW
from tests.actions.test_console import client_for

LIMITS = FreshnessLimits()
#: Kinds with facts that no chat answer shows yet, so the console previews no answer: a
#: claim's verdict reaches people through an answer of its own, still to come.
NOT_ANSWERED_YET: set[RecordKind] = set()
SETTINGS = {field.name for field in fields(FreshnessLimits)}


def columns_exist(model: type[Any], names: tuple[str, ...]) -> bool:
    """A name is a column, or a text's three language columns."""
    return all(
        hasattr(model, name)
        or all(hasattr(model, f"{name}_{lang}") for lang in ("en", "prs", "ps"))
        for name in names
    )


def test_every_kind_has_a_spec_that_states_everything() -> None:
    assert set(SPECS) == set(RecordKind)
    menu = [spec.menu for spec in SPECS.values()]
    assert len(set(menu)) == len(menu), "two kinds in one place of the menu"
    for kind, spec in SPECS.items():
        has_provenance = issubclass(spec.model, Provenance)
        assert bool(spec.freshness) == has_provenance, kind
        assert {rule.setting for rule in spec.freshness} <= SETTINGS, kind
        if spec.freshness:
            assert [rule.only for rule in spec.freshness].count(None) == 1, kind
        assert all(hasattr(spec.model, rule.only[0]) for rule in spec.freshness if rule.only)
        assert spec.volatile == issubclass(spec.model, VolatileFact), kind
        assert (spec.sms_label is not None) == has_provenance, kind
        reads = spec.title_reads
        assert columns_exist(spec.model, reads.own), kind
        if reads.through is not None:
            named = getattr(spec.model, reads.through).property.mapper.class_
            assert columns_exist(named, reads.its), kind
        if spec.alert is not None:
            assert spec.alert.topic in {topic.value for topic in Topic}, kind
            assert spec.alert.newsworthy <= {field.name for field in spec.fields}, kind
        assert f"console.kind.{kind.value}" in texts.CATALOGUE, kind


def test_every_record_has_a_title_an_sms_label_a_limit_and_answering_actions(
    content_db: Engine,
) -> None:
    actions = content_actions(LIMITS)
    previewed = set()
    with Session(content_db) as session:
        for kind, spec in SPECS.items():
            rows = session.scalars(spec.ordered()).all()
            assert rows, kind
            for row in rows:
                assert title(row, "prs").strip(), (kind, spec.key_of(row))
                if spec.sms_label is not None:
                    assert spec.sms_label(row, "ps").strip(), (kind, spec.key_of(row))
                    assert freshness.limit_for(row, LIMITS) > timedelta(0)
                for asked in spec.asked(spec.key_of(row), row):
                    assert asked.action in actions, (kind, asked.action)
                    previewed.add(kind)
    answered = {kind for kind, spec in SPECS.items() if spec.freshness} - NOT_ANSWERED_YET
    assert answered <= previewed
    assert not NOT_ANSWERED_YET & previewed, "answered now: drop it from NOT_ANSWERED_YET"


# A kind that does not exist: rumours with a verdict, in a table of their own.


class MadeUpBase(DeclarativeBase):
    pass


class Rumour(MadeUpBase):
    __tablename__ = "made_up_rumours"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    slug: Mapped[str] = mapped_column(String(64))
    claim_en: Mapped[str] = mapped_column(String(200))
    claim_prs: Mapped[str] = mapped_column(String(200))
    claim_ps: Mapped[str] = mapped_column(String(200))
    verdict: Mapped[str] = mapped_column(String(16))
    source_id: Mapped[int] = mapped_column(Integer)
    verified_at: Mapped[datetime] = mapped_column(UTCDateTime)
    valid_until: Mapped[datetime] = mapped_column(UTCDateTime)
    withdrawn_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class MadeUpKind(str, enum.Enum):
    RUMOUR = "rumour"


def rumour_title(row: Rumour, language: str) -> str:
    return f"{getattr(row, f'claim_{language}')} ({row.verdict})"


#: Built from an existing spec with every part the readers above content ask for replaced.
RUMOURS = replace(
    SPECS[RecordKind.ANNOUNCEMENT],
    kind=MadeUpKind.RUMOUR,  # type: ignore[arg-type]
    model=Rumour,
    fields=(),
    key_of=lambda row: str(row.slug),
    ordered=lambda: select(Rumour).order_by(Rumour.slug),
    freshness=(kinds.Freshness("announcements"),),
    volatile=True,
    title=rumour_title,
    title_reads=kinds.TitleReads(("slug", "claim", "verdict")),
    menu=0,
    preview=kinds.Preview(
        lambda key, row: (kinds.Asked("action_answer_announcements", {"rumour": key}),),
        lambda row, language: "is it true?",
    ),
    alert=kinds.Alert("announcements", frozenset({"verdict"}), kinds.everyone),
    sms_label=lambda row, language: row.verdict,
)


@pytest.fixture
def made_up_kind(content_db: Engine, monkeypatch: pytest.MonkeyPatch) -> Iterator[Engine]:
    """The made-up kind registered, its table empty."""
    MadeUpBase.metadata.create_all(content_db)
    monkeypatch.setitem(SPECS, MadeUpKind.RUMOUR, RUMOURS)  # type: ignore[call-overload]
    needs.plan.cache_clear()
    yield content_db
    needs.plan.cache_clear()
    MadeUpBase.metadata.drop_all(content_db)


@pytest.fixture
def rumours(made_up_kind: Engine) -> Engine:
    """One rumour checked four days ago (past its limit), and one that lapsed just now."""
    checked = NOW - timedelta(days=4)
    with Session(made_up_kind) as session, session.begin():
        for slug, until in (("no-more-flights", NOW + timedelta(days=1)), ("gates-shut", NOW)):
            session.add(
                Rumour(
                    slug=slug,
                    claim_en="No more flights",
                    claim_prs="دیگر پروازی نیست",
                    claim_ps="نور الوتنې نشته",
                    verdict="false",
                    source_id=1,
                    verified_at=checked,
                    valid_until=until,
                )
            )
    return made_up_kind


def one_rumour(engine: Engine, slug: str) -> Rumour:
    with Session(engine, expire_on_commit=False) as session:
        return session.scalars(select(Rumour).where(Rumour.slug == slug)).one()


async def test_a_new_kind_shows_up_in_the_console_menu_first(made_up_kind: Engine) -> None:
    assert pages.menu()[0] == "rumour"
    async with await client_for(made_up_kind) as client:
        await sign_in(client, invitation(made_up_kind, "amina", NOW))
        page = await (await client.get("/console/records")).text()
    assert 'href="/console/records/rumour"' in page
    assert visible(page).index("rumour") < visible(page).index("Airport status")


def test_a_new_kind_is_listed_by_its_title_and_needs_an_editor(rumours: Engine) -> None:
    with Session(rumours) as session:
        found = needs.what_needs_me(session, NOW, LIMITS)
        stale = [need for need in found.stale if need.kind == "rumour"]
        expired = [need for need in found.expired if need.kind == "rumour"]
        assert [need.key for need in stale] == ["no-more-flights"]
        assert [need.key for need in expired] == ["gates-shut"]
        assert stale[0].limit == LIMITS.announcements
        assert title(stale[0].row, "prs") == "دیگر پروازی نیست (false)"
        listed = session.scalars(select(Rumour).options(*shown_with(Rumour))).all()
        assert sorted(title(row, "ps") for row in listed) == ["نور الوتنې نشته (false)"] * 2


def test_a_new_kind_is_checked_previewed_and_briefed_as_its_spec_says(rumours: Engine) -> None:
    rumour = one_rumour(rumours, "no-more-flights")
    assert freshness.limit_for(rumour, LIMITS) == LIMITS.announcements
    assert briefs.label(rumour, "en") == "false"
    (question,) = Answers(LIMITS).questions(MadeUpKind.RUMOUR, "no-more-flights", rumour)  # type: ignore[arg-type]
    assert question.action.name() == "action_answer_announcements"
    assert question.entities == {"rumour": "no-more-flights"}


def test_a_new_kind_alerts_its_topic_when_its_news_changes(rumours: Engine) -> None:
    rumour = one_rumour(rumours, "no-more-flights")

    def revision(before: dict[str, Any] | None, after: dict[str, Any]) -> Revision:
        action = RevisionAction.CREATE if before is None else RevisionAction.UPDATE
        return Revision(
            kind=MadeUpKind.RUMOUR, record_key="no-more-flights", action=action,
            before=before, after=after,
        )  # fmt: skip

    news = Subject(Topic.ANNOUNCEMENTS, EVERYWHERE)
    assert subject_of(revision(None, {"verdict": "false"}), rumour) == news
    assert subject_of(revision({"verdict": "open"}, {"verdict": "false"}), rumour) == news
    rechecked = revision({"verdict": "false", "seen": 1}, {"verdict": "false", "seen": 2})
    assert subject_of(rechecked, rumour) is None


def test_the_guidance_split_is_the_same_in_sql_and_for_a_row() -> None:
    """Contacts have their own limit: the row's rule and the needs page's SQL agree."""
    limits = FreshnessLimits(contacts=timedelta(days=3), guidance=timedelta(days=10))
    spec: KindSpec = SPECS[RecordKind.GUIDANCE]
    assert spec.limit(limits, GuidanceTopic(kind=GuidanceKind.CONTACTS)) == timedelta(days=3)
    assert spec.limit(limits, GuidanceTopic(kind=GuidanceKind.DOCUMENTS)) == timedelta(days=10)
    groups = [group for group in needs.checks(limits) if group.kind is RecordKind.GUIDANCE]
    assert [group.limit for group in groups] == [timedelta(days=3), timedelta(days=10)]
    assert [str(group.only[0]) for group in groups] == [
        "guidance_topics.kind = :kind_1",
        "guidance_topics.kind != :kind_1",
    ]
