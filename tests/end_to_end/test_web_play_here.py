"""Play at the table, through the real client and the stand-in: with the Activity on (PUBLIC_URL
and DISCORD_CLIENT_SECRET set) the open table's message carries the button beside Watch, and a
click is answered with Discord's launch-activity response (type 12), which opens the Activity in
the channel; with the application's Activities not enabled Discord refuses it, and the person is
told so privately, in their language, nothing changed. Without the secret there is no button."""

from __future__ import annotations

import pytest

from standin.server import StandIn
from standin.world import Message
from tests.end_to_end.conftest import BotFactory
from tests.end_to_end.test_web_sign_in import sign_in_settings
from tools.simulated_people import open_table

pytestmark = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


def labels(message: Message) -> list[str]:
    return [c.get("label", "") for c in message.iter_components()]


async def test_play_at_the_table_launches_the_activity_in_the_channel(
    standin: StandIn, start_bot: BotFactory
) -> None:
    async with start_bot(settings=sign_in_settings(standin)) as bot:
        ann, bob = standin.person("Ann"), standin.person("Bob", locale="de")
        table, table_id = await open_table(standin, [ann, bob])
        shown = labels(table)
        assert shown.index("Play at the table") + 1 == shown.index("Watch")

        since = len(standin.calls)
        launched = await ann.click(table, f"oh:activity:{table_id}")
        assert launched.response_type == 12
        (launch,) = standin.activity_launches
        assert launch.user == ann.user and launch.interaction is not None
        assert launch.instance.channel.id == standin.channel.id
        await bot.presenter.ground.idle()
        # The answer alone: no other REST call of the bot's.
        assert [c.route for c in standin.calls[since:]] == [
            "POST /interactions/{interaction_id}/{interaction_token}/callback"
        ]

        # Activities not enabled: Discord refuses the answer; Bob is told, in German.
        standin.activities_enabled = False
        refused = await bob.click(table, f"oh:activity:{table_id}")
        assert refused.response_type == 4 and refused.ephemeral
        assert refused.content.startswith("Discord hat den Tisch nicht geöffnet")
        assert len(standin.activity_launches) == 1
        assert "Play at the table" in labels(table)


async def test_no_play_at_the_table_without_the_secret(
    standin: StandIn, start_bot: BotFactory
) -> None:
    settings = sign_in_settings(standin)
    del settings["discord_client_secret"]
    async with start_bot(settings=settings):
        ann = standin.person("Ann")
        table, _table_id = await open_table(standin, [ann])
        assert "Watch" in labels(table) and "Play at the table" not in labels(table)
