"""The address book: sealing, rotation, and what a copy of the database gives an attacker."""

from __future__ import annotations

import base64
import logging
import sqlite3
import subprocess
import sys
import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import psycopg2
import pytest
from sqlalchemy import event, text

from bot.channels.addresses import AddressBook, main
from bot.channels.identity import conversation_id
from bot.channels.sealing import (
    KEY_ENV,
    OLD_KEYS_ENV,
    PAD_TO,
    AddressBookError,
    AddressCipher,
    AddressUnreadable,
    key_id,
    new_key,
    parse_key,
)
from bot.channels.settings import AddressKeys
from kernel import settings as bot_settings
from kernel.contentdb.engines import ContentDatabaseError, database_url, dispose_engines
from tests.channels.address_support import OTHER_KEY, ROOT, TEST_KEY

KEY = parse_key(TEST_KEY, KEY_ENV)
OTHER = parse_key(OTHER_KEY, KEY_ENV)
NUMBER = "+93700000101"
LATER = datetime.now(timezone.utc) + timedelta(days=30)
#: One address of each kind the channels store.
ADDRESSES = {
    "telegram": "700000101",
    "whatsapp": "93700000201",
    "twilio_sms": "+93700000001",
    "twilio_whatsapp": "whatsapp:+93700000002",
    "sms_gateway": "+93 700 000 003",
}


def row_of(address: str, channel: str) -> tuple[str, str]:
    return conversation_id(channel, address), channel


# -- sealing ------------------------------------------------------------------------------------


def test_a_sealed_address_opens_with_its_key_in_its_row() -> None:
    cipher = AddressCipher(KEY)
    conversation = conversation_id("twilio_sms", NUMBER)
    sealed_key_id, sealed = cipher.seal(conversation, "twilio_sms", NUMBER)
    assert sealed_key_id == key_id(KEY) == cipher.current_key_id
    raw = base64.urlsafe_b64decode(sealed)
    assert len(raw) == 12 + PAD_TO + 16  # nonce, padded plaintext, tag
    assert cipher.open(conversation, "twilio_sms", sealed_key_id, sealed) == NUMBER
    # A fresh nonce each time: the same number never seals to the same text.
    assert cipher.seal(conversation, "twilio_sms", NUMBER)[1] != sealed


def test_lengths_do_not_tell_a_chat_id_from_a_phone_number() -> None:
    cipher = AddressCipher(KEY)
    lengths = {len(cipher.seal("c", "x", address)[1]) for address in ADDRESSES.values()}
    assert len(lengths) == 1


def test_a_wrong_key_a_tampered_value_or_another_row_do_not_open() -> None:
    cipher = AddressCipher(KEY)
    conversation = conversation_id("telegram", "700000101")
    sealed_key_id, sealed = cipher.seal(conversation, "telegram", "700000101")
    raw = bytearray(base64.urlsafe_b64decode(sealed))
    raw[20] ^= 1
    tampered = base64.urlsafe_b64encode(bytes(raw)).decode()
    impostor = AddressCipher(OTHER)
    attempts = {
        "wrong key (same key id claimed)": lambda: impostor.open(
            conversation, "telegram", impostor.current_key_id, sealed
        ),
        "unknown key id": lambda: impostor.open(conversation, "telegram", sealed_key_id, sealed),
        "tampered": lambda: cipher.open(conversation, "telegram", sealed_key_id, tampered),
        "truncated": lambda: cipher.open(conversation, "telegram", sealed_key_id, sealed[:30]),
        "not base64": lambda: cipher.open(conversation, "telegram", sealed_key_id, "!!!!"),
        "another conversation": lambda: cipher.open(
            conversation_id("telegram", "700000999"), "telegram", sealed_key_id, sealed
        ),
        "another channel": lambda: cipher.open(conversation, "whatsapp", sealed_key_id, sealed),
    }
    for name, attempt in attempts.items():
        try:
            attempt()
        except AddressUnreadable:
            continue
        pytest.fail(f"opened despite: {name}")


@pytest.mark.parametrize(
    "value",
    [
        "",
        "short",
        base64.b64encode(bytes(range(250, 256)) * 5 + b"\xfb\xff").decode(),  # + and /
        base64.urlsafe_b64encode(b"k" * 16).decode(),  # 16 bytes: AES-128
        base64.urlsafe_b64encode(b"k" * 48).decode(),
        TEST_KEY + "A",
    ],
    ids=["empty", "short", "standard-base64", "16-bytes", "48-bytes", "too-long"],
)
def test_keys_other_than_32_url_safe_base64_bytes_are_refused(value: str) -> None:
    with pytest.raises(AddressBookError, match=f"{KEY_ENV} must be 32 random bytes") as error:
        parse_key(value, KEY_ENV)
    assert not value or value not in str(error.value)


def test_keys_parse_with_or_without_padding_and_ids_do_not_reveal_them() -> None:
    assert parse_key(TEST_KEY.rstrip("="), KEY_ENV) == KEY
    assert parse_key(f"  {TEST_KEY}\n", KEY_ENV) == KEY
    assert len(parse_key(new_key(), KEY_ENV)) == 32
    assert len(key_id(KEY)) == 16 and int(key_id(KEY), 16) >= 0
    assert key_id(KEY) != key_id(OTHER)
    assert key_id(KEY) not in KEY.hex()


def cipher_of(environ: dict[str, str]) -> AddressCipher:
    keys = AddressKeys.load(environ)
    return AddressCipher.from_keys(keys.current, keys.old)


def test_the_cipher_comes_from_the_environment() -> None:
    with pytest.raises(AddressBookError, match=f"{KEY_ENV} is not set"):
        cipher_of({})
    with pytest.raises(AddressBookError, match=f"{KEY_ENV} is not set"):
        cipher_of({KEY_ENV: "  ", OLD_KEYS_ENV: OTHER_KEY})
    with pytest.raises(AddressBookError, match=OLD_KEYS_ENV):
        cipher_of({KEY_ENV: TEST_KEY, OLD_KEYS_ENV: f"{OTHER_KEY},nonsense"})
    cipher = cipher_of({KEY_ENV: TEST_KEY, OLD_KEYS_ENV: f" {OTHER_KEY} , "})
    assert cipher.current_key_id == key_id(KEY) and cipher.knows(key_id(OTHER))


def test_the_database_url_is_the_content_runtimes_with_this_runtimes_driver() -> None:
    pg = "postgresql+psycopg://postgres:secret@db:5432/content"
    assert database_url(bot_settings.content_db_url({"CONTENT_DB_URL": pg})) == pg.replace(
        "psycopg", "psycopg2"
    )
    local = database_url(bot_settings.content_db_url({"CONTENT_DB_URL": " "}))
    assert local.startswith("sqlite:///") and local.endswith("content.db")
    with pytest.raises(ContentDatabaseError, match="SQLite or PostgreSQL"):
        database_url(bot_settings.content_db_url({"CONTENT_DB_URL": "mysql://db/content"}))


# -- the book, on SQLite and PostgreSQL -----------------------------------------------------------


async def test_remember_lookup_replace_and_forget(address_book: AddressBook) -> None:
    conversation = conversation_id("sms_gateway", NUMBER)
    assert await address_book.lookup(conversation) is None
    await address_book.remember(conversation, "sms_gateway", NUMBER, LATER)
    assert await address_book.lookup(conversation) == NUMBER
    assert await address_book.lookup(conversation, "sms_gateway") == NUMBER
    # Subscribing again replaces the address and its expiry, not the row's creation time.
    with address_book.engine.connect() as connection:
        created = connection.execute(text("SELECT created_at FROM alert_addresses")).scalar_one()
    await address_book.remember(conversation, "sms_gateway", "+93700000999", LATER + timedelta(1))
    assert await address_book.lookup(conversation) == "+93700000999"
    with address_book.engine.connect() as connection:
        rows = connection.execute(text("SELECT created_at, expires_at FROM alert_addresses")).all()
    assert len(rows) == 1 and rows[0][0] == created
    await address_book.forget(conversation)
    assert await address_book.lookup(conversation) is None


async def test_a_shorter_expiry_never_cuts_a_longer_one(address_book: AddressBook) -> None:
    """A case opened by a subscriber (or a subscription during a case): both need the address,
    so the later expiry is kept."""
    conversation = conversation_id("telegram", "700000555")
    await address_book.remember(conversation, "telegram", "700000555", LATER)
    await address_book.remember(conversation, "telegram", "700000555", LATER - timedelta(20))
    with address_book.engine.connect() as connection:
        kept = connection.execute(text("SELECT expires_at FROM alert_addresses")).scalar_one()
    assert str(kept)[:19] == str(LATER.astimezone(timezone.utc).replace(tzinfo=None))[:19]
    await address_book.remember(conversation, "telegram", "700000555", LATER + timedelta(5))
    with address_book.engine.connect() as connection:
        kept = connection.execute(text("SELECT expires_at FROM alert_addresses")).scalar_one()
    assert str(kept)[:10] == str((LATER + timedelta(5)).date())
    assert await address_book.lookup(conversation) == "700000555"


async def test_times_are_stored_in_utc_as_the_content_runtime_stores_them(
    address_book: AddressBook,
) -> None:
    kabul = timezone(timedelta(hours=4, minutes=30))
    until = datetime(2021, 9, 1, 13, 30, tzinfo=kabul)
    in_2021 = AddressBook(
        address_book.engine,
        address_book.cipher,
        clock=lambda: datetime(2021, 8, 24, 9, 0, tzinfo=timezone.utc),
    )
    await in_2021.remember("telegram-1", "telegram", "700000101", until)
    with address_book.engine.connect() as connection:
        stored = connection.execute(text("SELECT expires_at FROM alert_addresses")).scalar_one()
    if address_book.engine.dialect.name == "sqlite":
        assert str(stored).startswith("2021-09-01 09:00:00")  # naive UTC, as SQLAlchemy writes
    else:
        assert stored == until
    assert await in_2021.lookup("telegram-1") == "700000101"
    assert await address_book.lookup("telegram-1") is None  # expired since


async def test_expired_and_other_channels_addresses_are_not_given_out(
    address_book: AddressBook, caplog: pytest.LogCaptureFixture
) -> None:
    await address_book.remember("whatsapp-1", "whatsapp", "93700000201", LATER)
    afterwards = AddressBook(
        address_book.engine, address_book.cipher, clock=lambda: LATER + timedelta(seconds=1)
    )
    assert await afterwards.lookup("whatsapp-1") is None
    assert await address_book.lookup("whatsapp-1", "telegram") is None
    assert await address_book.lookup("whatsapp-1", "whatsapp") == "93700000201"
    assert "93700000201" not in caplog.text


async def test_an_address_moved_to_another_row_or_sealed_with_an_unknown_key_is_not_read(
    address_book: AddressBook, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    victim, attacker = row_of("700000101", "telegram"), row_of("700000666", "telegram")
    await address_book.remember(*victim, "700000101", LATER)
    await address_book.remember(*attacker, "700000666", LATER)
    with address_book.engine.begin() as connection:
        connection.execute(
            text(
                "UPDATE alert_addresses SET sealed = "
                "(SELECT sealed FROM alert_addresses WHERE conversation_id = :victim) "
                "WHERE conversation_id = :attacker"
            ),
            {"victim": victim[0], "attacker": attacker[0]},
        )
    assert await address_book.lookup(attacker[0]) is None
    stranger = AddressBook(address_book.engine, AddressCipher(OTHER))
    assert await stranger.lookup(victim[0]) is None
    assert "cannot be read" in caplog.text and "700000101" not in caplog.text


async def test_rotation_reseals_under_the_new_key_and_then_the_old_one_can_go(
    address_book: AddressBook,
) -> None:
    engine = address_book.engine
    old_book = AddressBook(engine, AddressCipher(OTHER))
    for channel, address in ADDRESSES.items():
        await old_book.remember(*row_of(address, channel), address, LATER)
    both = AddressBook(engine, AddressCipher(KEY, [OTHER]))
    for channel, address in ADDRESSES.items():  # the old key still reads them
        assert await both.lookup(row_of(address, channel)[0]) == address
    assert both.rotate() == len(ADDRESSES)
    with engine.connect() as connection:
        key_ids = set(connection.execute(text("SELECT key_id FROM alert_addresses")).scalars())
    assert key_ids == {key_id(KEY)}
    assert both.rotate() == 0
    new_only = AddressBook(engine, AddressCipher(KEY))
    for channel, address in ADDRESSES.items():
        assert await new_only.lookup(row_of(address, channel)[0]) == address
        assert await old_book.lookup(row_of(address, channel)[0]) is None


async def test_rotation_leaves_and_counts_what_no_key_opens(address_book: AddressBook) -> None:
    await AddressBook(address_book.engine, AddressCipher(OTHER)).remember(
        "sms_gateway-1", "sms_gateway", NUMBER, LATER
    )
    await address_book.remember("sms_gateway-2", "sms_gateway", "+93700000002", LATER)
    result = address_book.rotate_all()
    assert (result.rotated, result.unreadable) == (0, 1)


async def test_database_work_runs_off_the_event_loop(address_book: AddressBook) -> None:
    threads: list[int] = []

    def record(*_: Any) -> None:
        threads.append(threading.get_ident())

    event.listen(address_book.engine, "before_cursor_execute", record)
    try:
        await address_book.remember("telegram-2", "telegram", "700000102", LATER)
        await address_book.lookup("telegram-2")
        await address_book.forget("telegram-2")
    finally:
        event.remove(address_book.engine, "before_cursor_execute", record)
    assert threads and threading.get_ident() not in threads


async def test_bad_arguments_are_refused(address_book: AddressBook) -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        await address_book.remember("telegram-3", "telegram", "1", datetime(2030, 1, 1))
    with pytest.raises(ValueError, match="non-empty"):
        await address_book.remember("telegram-3", "telegram", "", LATER)


# -- an attacker with a copy of the database but not the key ----------------------------------


def forms(address: str) -> set[bytes]:
    """Every spelling of ``address`` worth looking for in a stolen database."""
    plain = {address, address.removeprefix("whatsapp:"), "".join(filter(str.isdigit, address))}
    spelled: set[bytes] = set()
    for value in plain:
        raw = value.encode()
        spelled |= {raw, raw.hex().encode(), value.encode("utf-16-le")}
        spelled |= {base64.b64encode(raw), base64.urlsafe_b64encode(raw)}
        spelled |= {base64.b64encode(raw).rstrip(b"=")}
    spelled |= {f"{int(d):x}".encode() for d in plain if d.isdigit()}  # as a hex number
    return {form for form in spelled if len(form) >= 6}


def dump(url: str) -> bytes:
    """Every column of every row of ``alert_addresses``, as the attacker's copy holds it."""
    if url.startswith("sqlite"):
        connection = sqlite3.connect(url.removeprefix("sqlite:///"))
        rows = connection.execute("SELECT * FROM alert_addresses").fetchall()
        connection.close()
    else:
        connection = psycopg2.connect(url.replace("+psycopg", ""))
        with connection.cursor() as cursor:
            cursor.execute("SELECT * FROM alert_addresses")
            rows = cursor.fetchall()
        connection.close()
    return repr(rows).encode()


async def test_a_copy_of_the_database_without_the_key_reveals_no_address(
    address_book: AddressBook, content_db_url: str
) -> None:
    for channel, address in ADDRESSES.items():
        await address_book.remember(*row_of(address, channel), address, LATER)
    address_book.engine.dispose()  # everything on disk, nothing in our connections

    stolen = dump(content_db_url)
    if content_db_url.startswith("sqlite"):
        stolen += Path(content_db_url.removeprefix("sqlite:///")).read_bytes()
    assert stolen.count(b"whatsapp") >= 1  # the dump did read the rows (a channel name)
    for address in ADDRESSES.values():
        for form in forms(address):
            assert form not in stolen, f"{form!r} found in the database"
    for secret in (TEST_KEY.encode(), KEY, KEY.hex().encode()):
        assert secret not in stolen

    # What an attacker can try: the sealed values with any key but ours.
    with address_book.engine.connect() as connection:
        rows = connection.execute(
            text("SELECT conversation_id, channel, key_id, sealed FROM alert_addresses")
        ).all()
    assert len(rows) == len(ADDRESSES)
    guess = AddressCipher(OTHER)
    for conversation, channel, _, sealed in rows:
        with pytest.raises(AddressUnreadable):
            guess.open(conversation, channel, guess.current_key_id, sealed)
        raw = base64.urlsafe_b64decode(sealed)
        assert not any(form in raw for a in ADDRESSES.values() for form in forms(a))


# -- operators' commands ------------------------------------------------------------------------


def test_new_key_prints_a_key_from_a_plain_python_process() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot.channels.addresses", "new-key"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert len(parse_key(result.stdout.strip(), KEY_ENV)) == 32


async def test_rotate_command(
    address_book: AddressBook,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    await AddressBook(address_book.engine, AddressCipher(OTHER)).remember(
        "telegram-4", "telegram", "700000104", LATER
    )
    monkeypatch.setenv(OLD_KEYS_ENV, OTHER_KEY)
    assert main(["rotate"]) == 0
    out = capsys.readouterr().out
    assert f"1 stored addresses re-sealed under key {key_id(KEY)}" in out
    assert TEST_KEY not in out and OTHER_KEY not in out
    monkeypatch.delenv(OLD_KEYS_ENV)
    assert await address_book.lookup("telegram-4") == "700000104"
    assert main(["rotate"]) == 0


def test_rotate_command_names_what_is_wrong(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.delenv(KEY_ENV)
    assert main(["rotate"]) == 2
    assert f"{KEY_ENV} is not set" in capsys.readouterr().err
    monkeypatch.setenv(KEY_ENV, TEST_KEY)
    monkeypatch.setenv("CONTENT_DB_URL", f"sqlite:///{tmp_path / 'empty.db'}")
    try:
        assert main(["rotate"]) == 2
    finally:
        dispose_engines()
    assert "actions.content migrate" in capsys.readouterr().err
