"""`python -m bot my-data USER_ID` and `python -m bot forget USER_ID`: what the operator runs
for a person who cannot reach the bot (PRIVACY.md), on the database alone."""

from __future__ import annotations

import json
from pathlib import Path

from bot.storage import Database
from tests.end_to_end.test_start_up import run_bot_process
from tests.finished_games import people, store_finished
from tests.privacy_scan import places_holding

ANN = 412_345_678_901_234_567


async def test_the_operator_gives_a_person_their_data_then_erases_them(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    database = await Database.open(url)
    seats = people("Annabel", "Bob", "Cat")
    seats[0].user_id = ANN
    game, _ = await store_finished(database, 1, 2, seats, seed=3)
    await database.close()
    env = {"DATABASE_URL": url}

    code, output = run_bot_process(env, tmp_path, "my-data", str(ANN))
    assert code == 0, output
    data = json.loads(output)
    assert data["user_id"] == str(ANN) and [g["game"] for g in data["games"]] == [game]

    code, output = run_bot_process(env, tmp_path, "forget", str(ANN))
    assert code == 0 and output.startswith(f"User {ANN} is erased. Tables rewritten: 1;"), output
    assert await places_holding(url, [str(ANN), "Annabel"]) == {}

    code, output = run_bot_process(env, tmp_path, "forget")
    assert code == 2 and "take a user id" in output, output
