"""`python -m bot.storage.backup`: a backup taken while the database is written to is whole,
and the bot restored from it plays on."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from pathlib import Path

import pytest

from bot.storage.backup import BackupError, back_up, main
from tests.played import every_row, play_everything, play_on


async def test_a_backup_taken_during_a_write_is_whole_and_the_bot_plays_on_from_it(
    tmp_path: Path,
) -> None:
    database, backup = tmp_path / "ohhell.sqlite3", tmp_path / "backup.sqlite3"
    open_game = await play_everything(f"sqlite:///{database}")
    bot = sqlite3.connect(database, isolation_level=None)  # the running bot's connection
    steps: list[tuple[int, int]] = []

    def write_once(done: int, total: int) -> None:
        if not steps:
            bot.execute(
                "INSERT INTO channel_defaults (channel_id, guild_id, settings, set_by, updated_at)"
                ' VALUES (77, 1, \'{"preset":"classic"}\', 101, 5.0)'
            )
        steps.append((done, total))

    done = back_up(str(database), backup, step=1, progress=write_once)
    bot.close()
    assert done.restarted and steps[0][0] < steps[0][1] and steps[-1][0] == steps[-1][1]
    assert done.pages == steps[-1][1] and done.bytes == backup.stat().st_size
    assert every_row(backup) == every_row(database)
    assert (77, 1, '{"preset":"classic"}', 101, 5.0) in every_row(backup)["channel_defaults"]
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("backup")) == [
        "backup.sqlite3"
    ]

    restored = tmp_path / "restored" / "ohhell.sqlite3"
    restored.parent.mkdir()
    shutil.copyfile(backup, restored)
    await play_on(f"sqlite:///{restored}", open_game)


async def test_a_backup_not_overtaken_is_copied_a_step_at_a_time(tmp_path: Path) -> None:
    database, backup = tmp_path / "ohhell.sqlite3", tmp_path / "backup.sqlite3"
    await play_everything(f"sqlite:///{database}")
    steps: list[int] = []
    done = back_up(f"sqlite:///{database}", backup, step=3, progress=lambda d, t: steps.append(d))
    assert not done.restarted
    assert steps == [*range(3, done.pages, 3), done.pages]
    assert every_row(backup) == every_row(database)


async def test_the_command_backs_up_the_bots_database_and_refuses_clearly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    database, backup = tmp_path / "ohhell.sqlite3", tmp_path / "backup.sqlite3"
    await play_everything(f"sqlite:///{database}")
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{database}")

    async def command(*arguments: str) -> int:
        return await asyncio.to_thread(main, list(arguments))

    assert await command(str(backup)) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"backing up sqlite:///{database} to {backup}\n")
    assert f"pages ({backup.stat().st_size / 1e6:.1f} MB, schema version" in out
    assert every_row(backup) == every_row(database)

    before = backup.read_bytes()
    assert await command(str(backup)) == 1
    assert capsys.readouterr().err == f"backup: {backup} exists: give --replace to replace it\n"
    assert backup.read_bytes() == before
    assert await command(str(backup), "--replace") == 0

    missing = tmp_path / "missing.sqlite3"
    assert await command(str(tmp_path / "b2"), "--database", str(missing)) == 1
    assert capsys.readouterr().err == f"backup: {missing}: no such database file\n"
    assert not missing.exists()

    postgres = "postgresql://ohhell:s3cret@db/ohhell"
    assert await command(str(tmp_path / "b3"), "--database", postgres) == 1
    out, err = capsys.readouterr()
    assert "s3cret" not in out + err
    assert err == (
        "backup: postgresql://ohhell:***@db/ohhell is PostgreSQL: back it up with pg_dump"
        " (docs/deploy.md)\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("b")) == [
        "backup.sqlite3"
    ]


def test_a_file_that_is_not_a_database_is_named(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_text("not a database " * 100)
    with pytest.raises(BackupError, match=f"^{garbage}: file is not a database$"):
        back_up(str(garbage), tmp_path / "backup.sqlite3")
    assert not (tmp_path / "backup.sqlite3").exists()


async def test_a_backup_onto_the_database_itself_is_refused_by_any_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "data" / "ohhell.sqlite3"
    database.parent.mkdir()
    await play_everything(f"sqlite:///{database}")
    bot = sqlite3.connect(database, isolation_level=None)  # the running bot, in WAL mode
    bot.execute("PRAGMA journal_mode=WAL")
    bot.execute("INSERT INTO channel_defaults VALUES (77, 1, '{}', 101, 5.0)")
    before = every_row(database)
    (tmp_path / "link.sqlite3").symlink_to(database)
    (tmp_path / "hard.sqlite3").hardlink_to(database)
    monkeypatch.chdir(tmp_path / "data")
    onto = [
        str(database),
        "ohhell.sqlite3",
        "./ohhell.sqlite3",
        str(tmp_path / "data" / ".." / "data" / "ohhell.sqlite3"),
        str(tmp_path / "link.sqlite3"),
        str(tmp_path / "hard.sqlite3"),
        f"{database}-wal",
        f"{database}-shm",
        f"{database}-journal",
    ]
    for path in onto:
        for replace in ([], ["--replace"]):
            code = await asyncio.to_thread(
                main, [path, "--database", f"sqlite:///{database}", *replace]
            )
            err = capsys.readouterr().err
            assert code == 1, path
            assert err.startswith(f"backup: {Path(path)} is the database being backed up"), err
            assert "--replace" not in err, err
    bot.close()
    assert every_row(database) == before
    assert sorted(p.name for p in database.parent.iterdir()) == ["ohhell.sqlite3"]


async def test_a_backup_onto_a_folder_or_where_it_cannot_write_says_so_and_copies_nothing(
    tmp_path: Path,
) -> None:
    database = tmp_path / "ohhell.sqlite3"
    await play_everything(f"sqlite:///{database}")
    folder = tmp_path / "backups"
    folder.mkdir()
    steps: list[int] = []
    with pytest.raises(BackupError, match=f"^{folder} is a folder: give the path of the backup"):
        back_up(str(database), folder, replace=True, progress=lambda d, t: steps.append(d))
    assert steps == [] and list(folder.iterdir()) == []
    # /proc takes no new file, whoever runs the tests (root too).
    with pytest.raises(BackupError, match=r"^/proc: the backup cannot be written there \("):
        back_up(str(database), Path("/proc/ohhell-backup.sqlite3"))
