"""/ohhell replay through the real client and the stand-in: after a game played to its end, the
game's replay page attached, in the asker's language, with every trick of the game's record and
a hostile name as text; the refusals exactly as /ohhell record gives them."""

from __future__ import annotations

import json
import re
from html import unescape
from typing import Any

import pytest

from bot.engine.records import replay
from standin.driver import Person
from standin.server import StandIn
from standin.world import Attachment
from tests.cogs.web.pages import HOSTILE, embedded, laid, plays
from tests.end_to_end.conftest import BotFactory
from tests.finished_games import people, store_finished
from tools.simulated_people import add_computer, hand_message, open_table, play_until_over


async def page_of(person: Person, standin: StandIn, **options: Any) -> tuple[str, Attachment]:
    """The text and the one file `/ohhell replay` answers `person` with, once written."""
    answer = await person.slash(standin.channel, "ohhell replay", **options)
    assert answer.ephemeral
    loaded = await answer.wait_until_loaded()
    message = answer.followups[0] if answer.followups else loaded
    (attached,) = message.attachments
    return message.content, attached


async def asked(person: Person, standin: StandIn, command: str, **options: Any) -> Any:
    """What `person` reads back from `/ohhell <command>`: the text and the attachments' names."""
    answer = await person.slash(standin.channel, f"ohhell {command}", **options)
    assert answer.ephemeral
    files = [a.filename for a in answer.reply.attachments] if answer.reply else []
    return answer.content, files


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_a_finished_games_replay_is_attached_as_a_page(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot() as bot:
        ann = standin.person("Ann")
        hostile = standin.person(HOSTILE[0])
        dutch = standin.person("Daan", locale="nl")

        # Before any game: refused as /ohhell record refuses, with no file.
        none_yet = await asked(ann, standin, "replay")
        assert none_yet == await asked(ann, standin, "record") and none_yet[1] == []

        table, table_id = await open_table(standin, [ann, hostile], preset="classic", max_cards=3)
        await add_computer(standin, ann, table, table_id, "easy")
        await ann.click(table, f"oh:start:{table_id}")
        await standin.wait_for(lambda: all(hand_message(p) for p in (ann, hostile)))
        # A game still being played has no replay, as it has no record.
        playing = await asked(ann, standin, "replay", game=table_id)
        assert playing == await asked(ann, standin, "record", game=table_id)
        assert playing[1] == []
        await play_until_over(standin, [ann, hostile], table)
        await bot.presenter.ground.idle()

        recorded = await ann.slash(standin.channel, "ohhell record")
        assert recorded.reply is not None
        record = json.loads(recorded.reply.attachments[0].data)

        text, page = await page_of(ann, standin)
        assert page.filename == f"ohhell-game-{table_id}.html"
        assert f"`ohhell-game-{table_id}.html`" in text
        html = page.data.decode()
        assert html.startswith("<!DOCTYPE html>") and f"Game #{table_id} — replay" in html
        assert HOSTILE[0] not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        data = embedded(html)
        assert data["players"][:2] == ["Ann", HOSTILE[0]]
        assert laid(data) == plays(record)
        winners = [[t["winner"] for t in h["tricks"]] for h in replay(record)["hands"]]
        assert [[t["winner"] for t in h["tricks"]] for h in data["hands"]] == winners

        # The final standings show each rating change worded as the final standings post
        # words it: " · 1,012? (+12)".
        posts = [m.content for m in standin.messages(standin.channel)]
        (final,) = [p for p in posts if p and p.startswith("**Game over")]
        worded = [line.split(" — ", 1)[1] for line in final.splitlines()[1:-1]]
        shown = re.findall(r'<span class="total">([^<]*)</span>(<span class="rating">[^<]*)?', html)
        assert len(shown) == 3 and len(worded) == 3
        assert [total + unescape(rated.split(">", 1)[1]) for total, rated in shown] == worded
        assert all("? (" in line for line in worded)

        # By its number, the same page; in Dutch for a Dutch speaker.
        _, again = await page_of(ann, standin, game=table_id)
        assert again.data == page.data
        dutch_text, hers = await page_of(dutch, standin, game=table_id)
        assert dutch_text.startswith(f"Het verloop van spel #{table_id}")
        dutch_page = hers.data.decode()
        assert f"Spel #{table_id} — verloop" in dutch_page and '<html lang="nl">' in dutch_page

        # Another server's game is no game here, as for the record.
        elsewhere, _ = await store_finished(
            bot.tables.service.db, standin.guild.id + 1, 99, people("Zed", "Yan", "Xi"), 9
        )
        other = await asked(ann, standin, "replay", game=elsewhere)
        assert other == await asked(ann, standin, "record", game=elsewhere)
        assert f"no finished game #{elsewhere}" in other[0] and other[1] == []


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_with_web_pages_the_attached_replay_leads_to_them(
    standin: StandIn, start_bot: BotFactory
) -> None:
    """With PUBLIC_URL set, the file links to the server's leaderboard and each person's page
    at their full addresses (the file is opened from a disk, not from the bot)."""
    web = {"public_url": "https://ohhell.example.org", "web_port": 0}
    async with start_bot(settings=web) as bot:
        assert bot.links is not None
        ann, bob = standin.person("Ann"), standin.person("Bob")
        table, table_id = await open_table(standin, [ann, bob], preset="classic", max_cards=2)
        await add_computer(standin, ann, table, table_id, "easy")
        await ann.click(table, f"oh:start:{table_id}")
        await standin.wait_for(lambda: all(hand_message(p) for p in (ann, bob)))
        await play_until_over(standin, [ann, bob], table)
        await bot.presenter.ground.idle()
        _, page = await page_of(ann, standin)
        html = page.data.decode()
        guild = standin.guild.id
        assert f'href="{bot.links.board(guild)}"' in html
        for person in (ann, bob):
            assert f'href="{bot.links.player(guild, person.id)}"' in html
        assert html.count(f"{bot.links.public_url}/p/") == 2  # the computer has no page
