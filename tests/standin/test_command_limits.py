"""What Discord checks of the application commands a bot registers (standin/command_limits.py):
names, descriptions and choice names, and each of their localizations."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from standin.command_limits import check_commands, name_problem
from standin.testing import running_standin
from standin.validation import check_limits

GLOBAL = "/api/v10/applications/1/commands"
ROUTE = "PUT /applications/{application_id}/commands"
OPTION = "[0].options[0].options[0]"
CHOICE = OPTION + ".choices[0]"


def command() -> dict[str, Any]:
    """A command with a subcommand, an option with choices, and localizations throughout."""
    return {
        "name": "ohhell",
        "type": 1,
        "description": "Play Oh Hell",
        "description_localizations": {"nl": "Speel Oh Hell", "pt-BR": "Jogue Oh Hell"},
        "options": [
            {
                "type": 1,
                "name": "start",
                "description": "Open a table",
                "description_localizations": {"de": "Einen Tisch eröffnen"},
                "options": [
                    {
                        "type": 3,
                        "name": "bidding",
                        "description": "How bids are made",
                        "choices": [
                            {
                                "name": "hook",
                                "value": "hook",
                                "name_localizations": {"fr": "crochet", "ro": "cârlig"},
                            }
                        ],
                    }
                ],
            }
        ],
    }


def fields(body: Any) -> list[str]:
    return [v.field for v in check_commands(ROUTE, body)]


def test_a_localized_command_is_within_the_rules() -> None:
    assert fields([command()]) == []
    assert check_limits("PUT", GLOBAL, [command()]) == []
    assert check_limits("POST", "/api/v10/applications/1/guilds/2/commands", command()) == []


@pytest.mark.parametrize(
    ("where", "change", "field"),
    [
        ((), {"name": "OhHell"}, "[0].name"),
        ((), {"name": "oh hell"}, "[0].name"),
        ((), {"name": "x" * 33}, "[0].name"),
        ((), {"name_localizations": {"nl": "Speel"}}, "[0].name_localizations.nl"),
        ((), {"description": ""}, "[0].description"),
        ((), {"description_localizations": {"nl": "x" * 101}}, "[0].description_localizations.nl"),
        ((), {"description_localizations": {"nl": ""}}, "[0].description_localizations.nl"),
        ((), {"description_localizations": {"xx": "x"}}, "[0].description_localizations.xx"),
        ((0,), {"name": "Start"}, "[0].options[0].name"),
        ((0,), {"description": "x" * 101}, "[0].options[0].description"),
        (
            (0, 0),
            {"description_localizations": {"fr": "x" * 101}},
            OPTION + ".description_localizations.fr",
        ),
        ((0, 0, "choice"), {"name": "x" * 101}, CHOICE + ".name"),
        ((0, 0, "choice"), {"name_localizations": {"ro": ""}}, CHOICE + ".name_localizations.ro"),
        (
            (0, 0, "choice"),
            {"name_localizations": {"fr": "x" * 101}},
            CHOICE + ".name_localizations.fr",
        ),
    ],
)
def test_each_broken_rule_is_named_by_its_field(
    where: tuple[Any, ...], change: dict[str, Any], field: str
) -> None:
    body = command()
    target = body
    for step in where:
        target = target["choices"][0] if step == "choice" else target["options"][step]
    target.update(change)
    [found] = fields([body])
    assert found == field


def test_names_may_be_any_script_in_lower_case() -> None:
    for name in ("jouer", "spielen-2", "juga_r", "jogar's", "играть", "खेलें", "เล่น", "遊ぶ"):
        assert name_problem(name) is None, name
    for name in ("Играть", "jouer!", "", "a b"):
        assert name_problem(name) is not None, name


def test_a_user_or_message_command_may_have_a_spaced_capitalised_name_and_no_description() -> None:
    assert fields([{"name": "Show Stats", "type": 2}]) == []
    assert fields([{"name": "Show Stats", "type": 3, "description": "no"}]) == ["[0].description"]


def test_too_many_options_and_choices() -> None:
    body = command()
    option = body["options"][0]["options"][0]
    option["choices"] = [{"name": f"c{i}", "value": f"c{i}"} for i in range(26)]
    body["options"] = [copy.deepcopy(body["options"][0]) for _ in range(26)]
    found = fields([body])
    assert "[0].options" in found
    assert found.count("[0].options[0].options[0].choices") == 1


def big(options: int, *, localized: bool) -> dict[str, Any]:
    """A command of 4 + `options` × 603 characters toward Discord's 8000 (504 without the
    100-character localizations)."""
    choices = [{"name": f"{i:02}" + "n" * 8, "value": f"{i:02}" + "v" * 8} for i in range(25)]
    option = {"type": 3, "description": "d", "choices": choices}
    if localized:
        option["description_localizations"] = {"de": "x" * 99, "fr": "x" * 100}
    listed = [{**option, "name": f"o{i:02}"} for i in range(options)]
    return {"name": "big", "description": "d", "options": listed}


def test_a_command_counts_each_fields_longest_localization_toward_8000_characters() -> None:
    assert fields([big(13, localized=True)]) == []  # 7,843
    [problem] = check_commands(ROUTE, [big(14, localized=True)])  # 8,446
    assert problem.field == "[0]" and problem.message.startswith("8446 characters")
    assert fields([big(14, localized=False)]) == []  # 7,060


async def test_a_sync_past_the_rules_is_refused_and_changes_nothing() -> None:
    async with running_standin(spec_path=Path("/nonexistent/openapi.json")) as standin:
        headers = {"Authorization": f"Bot {standin.token}"}
        path = f"/api/v10/applications/{standin.application_id}/commands"
        broken = command()
        broken["description_localizations"]["fr"] = "x" * 101
        async with aiohttp.ClientSession(base_url=standin.base_url, headers=headers) as http:
            async with http.put(path, json=[broken]) as response:
                assert response.status == 400
                assert (await response.json())["code"] == 50035
            assert standin.commands.get(None, {}) == {}
            [violation] = standin.take_violations()
            assert violation.field == "[0].description_localizations.fr"
            async with http.put(path, json=[command()]) as response:
                assert response.status == 200
        stored = standin.find_command("ohhell", standin.channel)
        assert stored["description_localizations"]["nl"] == "Speel Oh Hell"
