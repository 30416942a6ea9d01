"""Simulated people at an Oh Hell table on the local Discord stand-in: they read what the
stand-in shows them (their DMs, ephemeral replies, the table message) and click like a person.
Used by the end-to-end tests, `make demo` and `make bench-bot`."""

from __future__ import annotations

from typing import Any

from standin.driver import Person
from standin.server import StandIn
from standin.world import Channel, Message

GAME_KINDS = ("bid", "play", "trump")


def buttons(message: Message) -> list[dict[str, Any]]:
    return [c for c in message.iter_components() if c.get("type") == 2]


def hand_message(person: Person) -> Message | None:
    """The newest private hand message: the newest ephemeral hand if there is one, else the
    newest hand DM. Looked up from the newest back, so that a long game's many hands do not
    make each look slower (a benchmark's people look at every change)."""
    return person.newest_ephemeral(_is_hand) or person.newest_dm(_is_hand)


TABLE_LINK = "](https://discord.com/channels/"
"""What a hand message's embed links to: its table (the people read no words, so that they play
in every language)."""
YOUR_TURN = "▶"
"""How a hand message's text starts when it is the person's turn, in every language."""


def _is_hand(message: Message) -> bool:
    return any(TABLE_LINK in e.get("description", "") for e in message.embeds)


def my_turn_controls(person: Person) -> tuple[Message, list[str]] | None:
    return turn_controls(hand_message(person))


def turn_controls(message: Message | None) -> tuple[Message, list[str]] | None:
    """A hand message's controls for the move it offers, when it shows its person's turn."""
    if message is None or not (message.content or "").startswith(YOUR_TURN):
        return None
    ids = [
        b["custom_id"]
        for b in buttons(message)
        if not b.get("disabled") and b["custom_id"].split(":")[1] in GAME_KINDS
    ]
    ids += [
        s["custom_id"]
        for s in message.iter_components()
        if s.get("type") == 3 and not s.get("disabled")
    ]
    return (message, ids) if ids else None


async def take_turn(person: Person, message: Message, custom_id: str) -> Any:
    """Click a button, or pick the first option of a select."""
    component = message.component(custom_id)
    if component.get("type") == 3:
        return await person.select(message, custom_id, [component["options"][0]["value"]])
    return await person.click(message, custom_id)


def table_embed(message: Message) -> dict[str, Any]:
    embed: dict[str, Any] = message.embeds[0]
    return embed


def table_id_of(message: Message) -> int:
    """The table id a table message's buttons carry."""
    return int(message.custom_ids()[0].split(":")[2])


async def open_table(
    standin: StandIn, people: list[Person], *, channel: Channel | None = None, **options: Any
) -> tuple[Message, int]:
    """The first person runs /ohhell start with `options` (in `channel`, by default the
    stand-in's #general); the others join."""
    opened = await people[0].slash(channel or standin.channel, "ohhell start", **options)
    table = opened.reply
    if table is None or opened.ephemeral:
        raise RuntimeError(f"/ohhell start was refused: {opened.content}")
    table_id = table_id_of(table)
    for person in people[1:]:
        joined = await person.click(table, f"oh:join:{table_id}")
        if joined.response_type != 7:
            raise RuntimeError(f"{person.name} could not join: {joined.content}")
    return table, table_id


async def add_computer(
    standin: StandIn, host: Person, table: Message, table_id: int, level: str
) -> None:
    """Add a computer player through the lobby's button and level picker."""
    picker = await host.click(table, f"oh:addcpu:{table_id}")
    if picker.reply is None:
        raise RuntimeError(f"no level picker: {picker.content}")
    chosen = await host.select(picker.reply, f"os:cpulevel:{table_id}", [level])
    if chosen.response_type != 7:
        raise RuntimeError(f"could not add a computer: {chosen.content}")
    seats = sum(1 for _ in table_embed(table)["fields"][0]["value"].splitlines())
    await standin.wait_for(
        lambda: sum(1 for _ in table_embed(table)["fields"][0]["value"].splitlines()) > seats
    )


def game_over(table_message: Message) -> bool:
    """The game is over: the table message offers a rematch."""
    return any(cid.startswith("oh:rematch:") for cid in table_message.custom_ids())


async def play_until_over(
    standin: StandIn, people: list[Person], table_message: Message, max_clicks: int = 2000
) -> int:
    """Each person, on their turn, clicks their first allowed control. Returns the clicks made."""
    clicks = 0
    while clicks < max_clicks:
        found = await standin.wait_for(
            lambda: (
                game_over(table_message) or next((p for p in people if my_turn_controls(p)), None)
            ),
            timeout=10,
        )
        if found is True:
            return clicks
        person = found
        controls = my_turn_controls(person)
        if controls is None:
            continue
        message, ids = controls
        result = await take_turn(person, message, ids[0])
        if result.response_type != 7:
            raise AssertionError(f"{person.name} was refused: {result.content}")
        clicks += 1
    raise AssertionError("the game did not finish")
