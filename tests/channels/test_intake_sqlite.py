"""`make run`'s line, kept in a SQLite journal: what the provider was told was taken is answered
after a restart, once and in its order, and two processes cannot keep one channel's line."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.channels.intake.kept_line import JournaledLine, JournalInUse
from bot.channels.intake.worker import Intake, intake_for
from bot.channels.settings import IntakeSettings
from kernel.memory import ProcessMemory
from tests.channels.channel_support import FakeProvider, Serve
from tests.channels.test_intake import (
    EchoBot,
    post,
    put,
    sent_texts,
    settings,
    update,
    with_intake,
)


def kept_intake(journal: Path) -> Intake:
    """One process's intake of Telegram over ``journal``: one worker, one line."""
    line = JournaledLine("telegram", journal, partitions=1)
    return Intake(line, settings(workers=1, partitions=1), ProcessMemory())


async def test_what_waited_when_the_process_stopped_is_answered_after_the_restart_in_order(
    tmp_path: Path, provider: FakeProvider, serve: Serve
) -> None:
    journal = tmp_path / "intake.db"
    first = kept_intake(journal)
    bot = EchoBot(held={"is abbey gate open?"})
    url = await serve(with_intake(provider, first), bot)  # type: ignore[arg-type]
    sent = [(801, "is abbey gate open?"), (802, "when is the next flight?"), (801, "thank you")]
    for number, (chat, text) in enumerate(sent):
        assert await post(url, update(300 + number, chat, text)) == 200  # the provider is told
    await bot.until_started()
    await first.stop(grace=0)  # the process is killed in the middle of the first turn
    assert sent_texts(provider) == []

    second = kept_intake(journal)  # the restarted process
    restarted = with_intake(provider, second)
    bot.held.clear()
    await second.start(restarted, bot, bot.handle_message)
    await second.drained()
    await second.stop()
    await restarted.api.close()
    assert sent_texts(provider) == [f"re: {text}" for _, text in sent]

    third = kept_intake(journal)  # and the next restart has nothing left to answer
    await third.line.open()
    assert await third.line.depth() == 0
    await third.line.close()


async def test_a_message_is_kept_once_however_often_its_delivery_is_put(
    tmp_path: Path, provider: FakeProvider
) -> None:
    intake = kept_intake(tmp_path / "intake.db")
    channel = with_intake(provider, intake)
    await intake.line.open()
    for _ in range(3):  # a put that timed out and reached the line after all, twice
        await put(intake, channel, 803, "is the north gate open?", number=1)
    assert await intake.line.depth() == 1
    await intake.line.close()
    await channel.api.close()


async def test_a_second_process_cannot_keep_the_same_channels_line(tmp_path: Path) -> None:
    journal = tmp_path / "intake.db"
    first = JournaledLine("telegram", journal, partitions=2)
    await first.open()
    with pytest.raises(JournalInUse, match="REDIS_HOST"):
        await JournaledLine("telegram", journal, partitions=2).open()
    other_channel = JournaledLine("whatsapp", journal, partitions=2)
    await other_channel.open()  # each channel keeps its own line in the file
    await other_channel.close()
    await first.close()
    after_it = JournaledLine("telegram", journal, partitions=2)
    await after_it.open()  # the lock goes with the process that held it
    await after_it.close()


def test_a_journal_makes_the_intake_a_line_that_outlives_a_restart(tmp_path: Path) -> None:
    journal = str(tmp_path / "intake.db")
    loaded = IntakeSettings.load({"INTAKE_JOURNAL": journal})
    assert (loaded.mode, loaded.journal) == ("queue", journal)
    assert IntakeSettings.load({"INTAKE_JOURNAL": journal, "CHANNEL_INTAKE": "direct"}).mode == (
        "direct"
    )
    intake = intake_for("telegram", loaded, ProcessMemory(), None)
    assert intake is not None
    assert isinstance(intake.line, JournaledLine)
    assert intake.line.journal == Path(journal)
