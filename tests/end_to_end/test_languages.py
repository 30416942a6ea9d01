"""Each person reads the bot in their own language, each channel's messages in the channel's;
and no text reaches anyone that did not come through a catalog (the pseudo-language played end
to end: every word it gives is wrapped and accented, so an English word left shows)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from cogs.render.language import language
from standin.server import StandIn
from standin.world import PSEUDO_LOCALE, Message, Perm
from tests.end_to_end.conftest import BotFactory
from tools.catalogs import PSEUDO, english_words, install_pseudo_language
from tools.simulated_people import (
    add_computer,
    hand_message,
    open_table,
    play_until_over,
)

NOT_WORDS = re.compile(r"<[@#][!&]?\d+>|<t:\d+(:\w)?>|https?://[^\s)]+|[\w.-]+\.(png|json|zip)")


def texts(message: Message) -> Iterator[str]:
    """Every text of a message a person reads, as it is and as it was before each edit."""
    for content, embeds, components in [
        (message.content, message.embeds, message.components),
        *((r.content, r.embeds, r.components) for r in message.history),
    ]:
        yield content or ""
        for embed in embeds:
            yield embed.get("title", "")
            yield embed.get("description", "")
            yield embed.get("footer", {}).get("text", "")
            for field in embed.get("fields", []):
                yield field.get("name", "")
                yield field.get("value", "")
        stack = list(components)
        while stack:
            item = stack.pop()
            stack.extend(item.get("components", []))
            yield item.get("label", "")
            yield item.get("placeholder", "")
            for option in item.get("options", []):
                yield option.get("label", "")
                yield option.get("description", "")


def not_from_a_catalog(text: str, names: tuple[str, ...]) -> list[str]:
    """The words of `text` the pseudo-language did not give (in its segments too: a value
    filled into a placeholder in English), once names, mentions, timestamps, links and file
    names are taken out."""
    for name in names:
        text = text.replace(name, " ")
    return english_words(NOT_WORDS.sub(" ", text))


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_no_text_reaches_a_person_that_no_catalog_gave(
    standin: StandIn, start_bot: BotFactory
) -> None:
    install_pseudo_language()
    standin.world.set_guild_locale(standin.guild, PSEUDO_LOCALE)
    async with start_bot():
        ann, bob, mod = (standin.person(n, locale=PSEUDO_LOCALE) for n in ("Ann", "Bob", "Mod"))
        standin.guild.members[mod.id].granted = Perm.MANAGE_CHANNELS
        await mod.slash(standin.channel, "ohhell settings")
        await ann.slash(standin.channel, "ohhell scores")  # a refusal: no table here
        table, table_id = await open_table(standin, [ann, bob], preset="classic", max_cards=2)
        await add_computer(standin, ann, table, table_id, "easy")
        for kind in ("rules", "hostctl", "addcpu"):
            await ann.click(table, f"oh:{kind}:{table_id}")
        await ann.click_forged(table, f"oh:join:{table_id + 99}")
        await ann.click(table, f"oh:start:{table_id}")
        await standin.wait_for(lambda: all(hand_message(p) for p in (ann, bob)))
        await ann.slash(standin.channel, "ohhell rules")
        await play_until_over(standin, [ann, bob], table)
        await bob.slash(standin.channel, "ohhell hand")  # no table now: a refusal
        for command in (
            "scores",
            "history",
            "record",
            "stats",
            "ratings",
            "review",
            "my-data",
            "forget-me",
        ):
            answered = await ann.slash(standin.channel, f"ohhell {command}")
            if answered.response_type == 5:  # deferred: the answer follows
                await answered.wait_until_loaded()
        await bob.slash(standin.channel, "leaderboard")
        await standin.wait_for(
            lambda: any(m.attachments for m in ann.visible_messages(standin.channel))
        )
    seen = [
        *standin.world.channel_messages(standin.channel, include_deleted=True),
        *(m for person in (ann, bob) for m in person.dms() + person.ephemerals()),
    ]
    # The pseudo-language has no name of its own: /ohhell settings names it by its code.
    names = ("Ann", "Bob", "Mod", standin.guild.name, standin.channel.name, PSEUDO)
    leaks = {
        text: words
        for message in seen
        for text in texts(message)
        if (words := not_from_a_catalog(text, names))
    }
    assert len(seen) > 40
    assert not leaks, leaks


def shown(code: str, message: str, context: str | None = None) -> str:
    """`message` as the catalog `code` writes it (and not as English does)."""
    spoken = language(code)
    text = spoken.pgettext(context, message) if context else spoken.gettext(message)
    assert text != message, f"{code} has no translation of {message!r}"
    return text


def labels(message: Message) -> set[str]:
    return {str(c.get("label")) for c in message.iter_components() if c.get("label")}


async def test_each_person_reads_their_language_and_the_table_its_channels(
    standin: StandIn, start_bot: BotFactory
) -> None:
    """Ann's client is Dutch, Bob's German, the server French: each reads their own DMs and
    replies in their language, and the table in French, until the channel is set to Spanish."""
    standin.world.set_guild_locale(standin.guild, "fr")
    async with start_bot():
        ann = standin.person("Ann", locale="nl")
        bob = standin.person("Bob", locale="de")
        mod = standin.person("Mod", locale="pt-BR")
        standin.guild.members[mod.id].granted = Perm.MANAGE_CHANNELS
        table, table_id = await open_table(standin, [ann, bob], preset="classic", max_cards=2)
        assert shown("fr", "Join", "button") in labels(table)
        await add_computer(standin, ann, table, table_id, "easy")
        await ann.click(table, f"oh:start:{table_id}")
        await standin.wait_for(lambda: all(hand_message(p) for p in (ann, bob)))
        for person, code in ((ann, "nl"), (bob, "de")):
            hand = hand_message(person)
            assert hand is not None
            title = shown(code, "Your hand — hand {hand}").format(hand=1)
            assert hand.embeds[0]["title"] == title, (person.name, hand.embeds[0]["title"])
        scores = await ann.slash(standin.channel, "ohhell scores")
        assert scores.ephemeral
        dutch = language("nl").ngettext(
            "Scores after {count} hand", "Scores after {count} hands", 0
        )
        assert dutch != "Scores after {count} hands"
        assert (scores.content or "").splitlines()[0] == f"**{dutch.format(count=0)}**"
        assert shown("fr", "My hand", "button") in labels(table)
        await play_until_over(standin, [ann, bob], table)

        def posts(word: str) -> list[str]:
            return [m.content for m in ann.visible_messages(standin.channel) if word in m.content]

        await standin.wait_for(lambda: posts(shown("fr", "Hand {hand} scored").split("{")[0]))
        refused = await bob.slash(standin.channel, "ohhell settings", language="es")
        german = shown("de", "only someone with Manage Channels can set this channel's defaults")
        assert refused.ephemeral and refused.content == german[:1].upper() + german[1:]
        answered = await mod.slash(standin.channel, "ohhell settings", language="es")
        said = shown("pt_BR", "Tables and posts in this channel are in {language}.")
        assert answered.content == said.format(language="Español")
        rematch = await ann.click(table, f"oh:rematch:{table_id}")
        assert rematch.response_type in (4, 7), rematch.content
        newest = await standin.wait_for(
            lambda: standin.world.newest_in(
                standin.channel, lambda m: bool(m.embeds) and m.id != table.id
            )
        )
        assert shown("es", "Join", "button") in labels(newest)
        ann.set_locale("de")
        hand = await ann.slash(standin.channel, "ohhell ratings")
        assert hand.ephemeral and hand.reply is not None
        assert hand.reply.embeds[0]["title"] == shown("de", "How ratings work")
