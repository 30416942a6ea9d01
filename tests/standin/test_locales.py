"""People's and servers' languages: each interaction carries its person's client locale and,
in a server, the server's preferred locale, which GUILD_CREATE and GUILD_UPDATE carry too."""

from __future__ import annotations

import discord
import pytest

from standin.server import StandIn
from standin.testing import run_bot, running_standin
from standin.world import World
from tests.standin.sample_bot import SampleBot


async def test_an_interaction_carries_its_persons_locale_and_its_guilds(
    standin: StandIn, sample: SampleBot
) -> None:
    ann = standin.person("Ann", locale="nl")
    bob = standin.person("Bob")
    assert (ann.locale, bob.locale, standin.guild.preferred_locale) == ("nl", "en-US", "en-US")
    await ann.slash(standin.channel, "sample hello", name="Ann")
    assert sample.last_interaction is not None
    assert sample.last_interaction.locale is discord.Locale.dutch
    assert sample.last_interaction.guild_locale is discord.Locale.american_english
    await bob.slash(standin.channel, "sample hello", name="Bob")
    assert sample.last_interaction.locale is discord.Locale.american_english


async def test_a_person_who_switches_language_interacts_in_the_new_one(
    standin: StandIn, sample: SampleBot
) -> None:
    ann = standin.person("Ann", locale="de")
    panel = await ann.slash(standin.channel, "sample panel")
    assert panel.reply is not None
    ann.set_locale("pt-BR")
    await ann.click(panel.reply, "sample:yes")
    assert sample.last_interaction is not None
    assert sample.last_interaction.locale is discord.Locale.brazil_portuguese
    # In a DM there is no guild: the person's locale only.
    await ann.slash(standin.world.dm_channel(ann.user), "sample hello", name="Ann")
    assert sample.last_interaction.locale is discord.Locale.brazil_portuguese
    assert sample.last_interaction.guild_locale is None


async def test_a_guild_s_locale_reaches_the_bot_when_it_joins_and_when_it_changes() -> None:
    world = World()
    guild = world.add_guild("Gilde", locale="nl")
    world.add_text_channel(guild, "algemeen")
    async with running_standin(world=world) as standin, run_bot(standin, SampleBot()) as bot:
        seen = bot.get_guild(guild.id)
        assert seen is not None and seen.preferred_locale is discord.Locale.dutch
        await standin.set_guild_locale(guild, "fr")
        await standin.wait_for(lambda: seen.preferred_locale is discord.Locale.french)
        assert seen.name == "Gilde" and [c.name for c in seen.text_channels] == ["algemeen"]
        await standin.person("Ann").slash(guild.channel("algemeen"), "sample hello", name="A")
        assert bot.last_interaction is not None
        assert bot.last_interaction.guild_locale is discord.Locale.french
        assert standin.violations == []


def test_a_locale_discord_does_not_have_is_a_mistake_in_the_test() -> None:
    world = World()
    with pytest.raises(ValueError, match="not one of Discord's locales"):
        world.add_user("Ann", locale="nl-NL")
    with pytest.raises(ValueError, match="not one of Discord's locales"):
        world.add_guild(locale="english")
    ann = world.add_user("Ann")
    with pytest.raises(ValueError):
        world.set_locale(ann, "pt")
    assert ann.locale == "en-US"
