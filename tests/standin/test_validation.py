"""Tests for standin/validation.py: Discord's limits and its OpenAPI description."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
import pytest
from discord.http import handle_message_parameters
from discord.webhook.async_ import interaction_message_response_params
from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from standin.validation import (
    SpecValidator,
    Violation,
    _best_error,
    _RouteTable,
    check_limits,
    default_spec_path,
    normalise_path,
)

CHANNEL_POST = "/api/v10/channels/111/messages"
MESSAGE_ROUTE = "POST /channels/{channel_id}/messages"
CALLBACK = "/api/v10/interactions/222/tok-en/callback?with_response=1"
CALLBACK_ROUTE = "POST /interactions/{interaction_id}/{interaction_token}/callback"

_SPEC = SpecValidator(default_spec_path())


@pytest.fixture
def spec() -> SpecValidator:
    """The real description; tests that need it skip, saying why, when it is absent."""
    if not _SPEC.available:
        pytest.skip(f"Discord's OpenAPI description is unavailable: {_SPEC.skip_reason}")
    return _SPEC


def _view() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Bid 0", custom_id="ohhell:bid:0"))
    view.add_item(
        discord.ui.Button(label="Bid 1", custom_id="ohhell:bid:1", style=discord.ButtonStyle.green)
    )
    view.add_item(discord.ui.Button(label="Rules", url="https://example.com/rules"))
    view.add_item(
        discord.ui.Select(
            custom_id="ohhell:play",
            placeholder="Play a card",
            options=[
                discord.SelectOption(label="A♠", value="AS", description="Ace of spades"),
                discord.SelectOption(label="10♥", value="TH", emoji="❤️"),
            ],
        )
    )
    return view


def _embed() -> discord.Embed:
    embed = discord.Embed(title="Round 3 of 10", description="Ann leads.", colour=0x2ECC71)
    embed.add_field(name="Trump", value="♥ hearts", inline=True)
    embed.add_field(name="Bids", value="Ann 1 · Bob 0 · Cy 2", inline=False)
    embed.set_footer(text="Oh Hell · classic")
    embed.set_author(name="Dealer: Bob")
    return embed


async def discord_py_message() -> dict[str, Any]:
    """A channel message body exactly as discord.py 2.7 serialises it."""
    params = handle_message_parameters(
        content="Your turn, <@1>",
        embed=_embed(),
        view=_view(),
        allowed_mentions=discord.AllowedMentions(users=True, everyone=False, roles=False),
    )
    return dict(params.payload or {})


async def discord_py_callback(kind: int = 4) -> dict[str, Any]:
    """An interaction callback body (4: reply, 7: update the message) as discord.py sends it."""
    params = interaction_message_response_params(
        type=kind,
        content="Only you can see your hand.",
        embed=_embed(),
        view=_view(),
        flags=discord.MessageFlags(ephemeral=True) if kind == 4 else discord.utils.MISSING,
        allowed_mentions=discord.AllowedMentions.none(),
    )
    return dict(params.payload or {})


def _fields(found: list[Violation]) -> list[str]:
    return [v.field for v in found]


# ----------------------------------------------------------------------------- basics


def test_violation_names_route_field_and_message() -> None:
    v = Violation(MESSAGE_ROUTE, "components[0].custom_id", "101 characters")
    assert str(v) == f"{MESSAGE_ROUTE}: components[0].custom_id: 101 characters"
    assert str(Violation(MESSAGE_ROUTE, "", "bad")) == f"{MESSAGE_ROUTE}: bad"


def test_default_spec_path_follows_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("DISCORD_API_SPEC", raising=False)
    repo = Path(__file__).resolve().parents[2]
    expected = repo.parent / "shared" / "discord-api-spec" / "openapi.json"
    assert default_spec_path() == expected
    monkeypatch.setenv("DISCORD_API_SPEC", str(tmp_path / "x.json"))
    assert default_spec_path() == tmp_path / "x.json"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("/api/v10/channels/1/messages?x=1", "/channels/1/messages"),
        ("/api/v9/users/@me", "/users/@me"),
        ("/api/users/@me/", "/users/@me"),
        ("http://127.0.0.1:8080/api/v10/gateway/bot?a=b#c", "/gateway/bot"),
        ("/channels/1", "/channels/1"),
    ],
)
def test_normalise_path_strips_prefix_query_and_host(raw: str, expected: str) -> None:
    assert normalise_path(raw) == expected


# ----------------------------------------------------------------- spec absent


def test_absent_spec_turns_spec_checks_off_but_not_limits(tmp_path: Path) -> None:
    off = SpecValidator(None)
    assert off.available is False
    assert off.skip_reason
    missing = SpecValidator(tmp_path / "openapi.json")
    assert missing.available is False
    assert missing.skip_reason is not None and "openapi.json not found" in missing.skip_reason
    body = {"content": "x" * 2001, "components": [{"type": 1, "components": []}]}
    assert missing.check_request("POST", CHANNEL_POST, body) == []
    assert missing.check_response("POST", CHANNEL_POST, 200, {}) == []
    assert _fields(check_limits("POST", CHANNEL_POST, body)) == [
        "content",
        "components[0].components",
    ]


def test_corrupt_spec_is_a_skip_reason_not_a_crash(tmp_path: Path) -> None:
    broken = tmp_path / "openapi.json"
    broken.write_text("{not json")
    validator = SpecValidator(broken)
    assert validator.available is False
    assert validator.skip_reason is not None and "could not be read" in validator.skip_reason


@pytest.mark.parametrize(
    ("method", "path", "template"),
    [
        ("POST", "/api/v10/channels/1/messages?x=1", "/channels/{channel_id}/messages"),
        ("PATCH", "/api/v10/channels/1/messages/2", "/channels/{channel_id}/messages/{message_id}"),
        (
            "PATCH",
            "/api/v10/webhooks/3/tok/messages/@original",
            "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
        ),
        ("POST", CALLBACK, "/interactions/{interaction_id}/{interaction_token}/callback"),
        ("GET", "/api/v10/users/@me", "/users/@me"),
        ("GET", "/api/v10/users/42", "/users/{user_id}"),
        ("GET", "/api/v10/no/such/route", None),
    ],
)
def test_route_template_without_spec_knows_the_bot_routes(
    method: str, path: str, template: str | None
) -> None:
    assert SpecValidator(None).route_template(method, path) == template


def test_route_matching_prefers_literal_segments_then_the_method() -> None:
    table = _RouteTable(
        {
            "/users/{user_id}": ["GET"],
            "/users/@me": ["GET"],
            "/things/{thing_id}": ["GET"],
            "/things/bulk": ["POST"],
        }
    )
    assert table.match("GET", "/api/v10/users/@me") == "/users/@me"
    assert table.match("GET", "/api/v10/users/7") == "/users/{user_id}"
    assert table.match("POST", "/things/bulk") == "/things/bulk"
    assert table.match("GET", "/things/bulk") == "/things/{thing_id}"
    assert table.match("GET", "/users") is None
    assert table.match("GET", "/users//") is None


# ------------------------------------------------------------------------ limits


async def test_discord_py_bodies_are_within_limits() -> None:
    assert check_limits("POST", CHANNEL_POST, await discord_py_message()) == []
    assert check_limits("POST", CALLBACK, await discord_py_callback(4)) == []
    assert check_limits("POST", CALLBACK, await discord_py_callback(7)) == []


def _set(path: str, value: object) -> Callable[[dict[str, Any]], None]:
    """A mutation setting a dotted path (``components.0.components.1.label``); may append."""

    def mutate(body: dict[str, Any]) -> None:
        *head, last = path.split(".")
        node: Any = body
        for key in head:
            node = node[int(key)] if key.isdigit() else node[key]
        if last.isdigit() and int(last) == len(node):
            node.append(value)
        elif last.isdigit():
            node[int(last)] = value
        else:
            node[last] = value

    return mutate


def _many_buttons(n: int) -> list[dict[str, Any]]:
    return [{"type": 2, "style": 2, "label": f"b{i}", "custom_id": f"extra:{i}"} for i in range(n)]


def _rows(n: int) -> list[dict[str, Any]]:
    return [
        {"type": 1, "components": [{"type": 2, "style": 2, "label": "x", "custom_id": f"row:{i}"}]}
        for i in range(n)
    ]


_SELECT = "components.1.components.0"
_OPTION = f"{_SELECT}.options.0"

LIMIT_CASES: list[tuple[str, Callable[[dict[str, Any]], None], str, str]] = [
    (
        "content",
        _set("content", "x" * 2001),
        "content",
        "2001 characters; Discord allows at most 2000",
    ),
    ("embed count", _set("embeds", [{"title": "t"}] * 11), "embeds", "11 embeds"),
    (
        "embed total",
        _set(
            "embeds",
            [{"description": "d" * 4000}, {"description": "d" * 2001}],
        ),
        "embeds",
        "6001 characters across all embeds; Discord allows at most 6000",
    ),
    ("embed title", _set("embeds.0.title", "t" * 257), "embeds[0].title", "257 characters"),
    (
        "embed description",
        _set("embeds.0.description", "d" * 4097),
        "embeds[0].description",
        "4097 characters; Discord allows at most 4096",
    ),
    (
        "embed fields",
        _set("embeds.0.fields", [{"name": "n", "value": "v"}] * 26),
        "embeds[0].fields",
        "26 fields",
    ),
    (
        "field name",
        _set("embeds.0.fields.0.name", "n" * 257),
        "embeds[0].fields[0].name",
        "257 characters",
    ),
    (
        "field value",
        _set("embeds.0.fields.1.value", "v" * 1025),
        "embeds[0].fields[1].value",
        "1025 characters; Discord allows at most 1024",
    ),
    ("footer", _set("embeds.0.footer.text", "f" * 2049), "embeds[0].footer.text", "2049"),
    ("author", _set("embeds.0.author.name", "a" * 257), "embeds[0].author.name", "257"),
    ("action rows", _set("components", _rows(6)), "components", "6 action rows"),
    (
        "buttons per row",
        _set("components.0.components", _many_buttons(6)),
        "components[0].components",
        "6 buttons in one row",
    ),
    (
        "select shares a row",
        _set("components.1.components.1", _many_buttons(1)[0]),
        "components[1].components",
        "a row with a select holds exactly that one select",
    ),
    (
        "empty row",
        _set("components.0.components", []),
        "components[0].components",
        "empty action row",
    ),
    (
        "select options",
        _set(f"{_SELECT}.options", [{"label": f"o{i}", "value": f"v{i}"} for i in range(26)]),
        "components[1].components[0].options",
        "26 options",
    ),
    (
        "custom_id too long",
        _set("components.0.components.1.custom_id", "c" * 101),
        "components[0].components[1].custom_id",
        "101 characters; Discord allows 1-100",
    ),
    (
        "custom_id empty",
        _set("components.0.components.0.custom_id", ""),
        "components[0].components[0].custom_id",
        "0 characters; Discord allows 1-100",
    ),
    (
        "custom_id repeated",
        _set(f"{_SELECT}.custom_id", "ohhell:bid:0"),
        "components[1].components[0].custom_id",
        "already used by components[0].components[0].custom_id",
    ),
    (
        "button without custom_id",
        _set("components.0.components.0.custom_id", None),
        "components[0].components[0].custom_id",
        "needs a custom_id",
    ),
    (
        "button label",
        _set("components.0.components.0.label", "l" * 81),
        "components[0].components[0].label",
        "81 characters; Discord allows at most 80",
    ),
    (
        "placeholder",
        _set(f"{_SELECT}.placeholder", "p" * 151),
        "components[1].components[0].placeholder",
        "151 characters; Discord allows at most 150",
    ),
    ("option label", _set(f"{_OPTION}.label", "l" * 101), f"{_OPTION}.label", "101"),
    ("option value", _set(f"{_OPTION}.value", "v" * 101), f"{_OPTION}.value", "101"),
    (
        "option description",
        _set(f"{_OPTION}.description", "d" * 101),
        f"{_OPTION}.description",
        "101",
    ),
    (
        "top-level button",
        _set("components.1", _many_buttons(1)[0]),
        "components[1].type",
        "action rows",
    ),
]


def _dotted_to_field(field: str) -> str:
    out = ""
    for key in field.split("."):
        out = f"{out}[{key}]" if key.isdigit() else (f"{out}.{key}" if out else key)
    return out


@pytest.mark.parametrize(
    ("mutate", "field", "fragment"),
    [pytest.param(m, _dotted_to_field(f), x, id=name) for name, m, f, x in LIMIT_CASES],
)
async def test_each_limit_is_reported_once_with_its_field(
    mutate: Callable[[dict[str, Any]], None], field: str, fragment: str
) -> None:
    body = await discord_py_message()
    mutate(body)
    found = check_limits("POST", CHANNEL_POST, body)
    assert [v.field for v in found] == [field], found
    assert fragment in found[0].message
    assert found[0].route == MESSAGE_ROUTE


async def test_custom_id_message_reads_like_the_issue_asks() -> None:
    body = await discord_py_message()
    body["components"][0]["components"][1]["custom_id"] = "c" * 101
    (violation,) = check_limits("POST", CHANNEL_POST, body)
    assert str(violation) == (
        f"{MESSAGE_ROUTE}: components[0].components[1].custom_id: "
        "101 characters; Discord allows 1-100"
    )
    assert "custom_id: 101 characters; Discord allows 1-100" in str(violation)


@pytest.mark.parametrize(
    ("method", "path", "route", "wrap"),
    [
        (
            "PATCH",
            "/api/v10/channels/1/messages/2",
            "PATCH /channels/{channel_id}/messages/{message_id}",
            None,
        ),
        (
            "POST",
            "/api/v10/webhooks/3/tok?wait=1",
            "POST /webhooks/{webhook_id}/{webhook_token}",
            None,
        ),
        (
            "PATCH",
            "/api/v10/webhooks/3/tok/messages/@original",
            "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original",
            None,
        ),
        (
            "PATCH",
            "/api/v10/webhooks/3/tok/messages/4",
            "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
            None,
        ),
        ("POST", CALLBACK, CALLBACK_ROUTE, 4),
        ("POST", CALLBACK, CALLBACK_ROUTE, 7),
    ],
)
async def test_limits_apply_to_every_message_route(
    method: str, path: str, route: str, wrap: int | None
) -> None:
    message = await discord_py_message()
    message["content"] = "x" * 2001
    body = message if wrap is None else {"type": wrap, "data": message}
    found = check_limits(method, path, body)
    assert [(v.route, v.field) for v in found] == [
        (route, "content" if wrap is None else "data.content")
    ]


def test_limits_apply_to_a_forum_post_s_first_message() -> None:
    body = {"name": "Game 12", "message": {"content": "x" * 2001}}
    found = check_limits("POST", "/api/v10/channels/5/threads", body)
    assert [(v.route, v.field) for v in found] == [
        ("POST /channels/{channel_id}/threads", "message.content")
    ]


async def test_limits_leave_other_routes_and_callback_types_alone() -> None:
    long = {"content": "x" * 2001}
    assert check_limits("POST", "/api/v10/users/@me/channels", long) == []
    assert check_limits("GET", CHANNEL_POST, long) == []
    assert check_limits("POST", CALLBACK, {"type": 5, "data": {"flags": 64}}) == []
    # Only types 4 and 7 carry a message; a deferral's data is not one.
    assert check_limits("POST", CALLBACK, {"type": 5, "data": long}) == []
    assert check_limits("POST", CALLBACK, {"type": 6}) == []
    assert check_limits("POST", CHANNEL_POST, None) == []


def test_components_v2_messages_may_hold_containers_but_not_41_components() -> None:
    container = {
        "type": 17,
        "components": [
            {"type": 10, "content": "Scores"},
            {"type": 1, "components": _many_buttons(2)},
        ],
    }
    body = {"flags": 1 << 15, "components": [container]}
    assert check_limits("POST", CHANNEL_POST, body) == []
    big = {"flags": 1 << 15, "components": [{"type": 10, "content": "t"}] * 41}
    assert _fields(check_limits("POST", CHANNEL_POST, big)) == ["components"]
    assert _fields(check_limits("POST", CHANNEL_POST, {"components": [container]})) == [
        "components[0].type"
    ]


# --------------------------------------------------------------------- spec checks


async def test_discord_py_bodies_match_the_spec(spec: SpecValidator) -> None:
    message = await discord_py_message()
    assert spec.check_request("POST", CHANNEL_POST, message) == []
    assert spec.check_request("PATCH", "/api/v10/channels/1/messages/2", message) == []
    assert spec.check_request("POST", "/api/v10/webhooks/3/tok?wait=1", message) == []
    assert spec.check_request("PATCH", "/api/v10/webhooks/3/tok/messages/@original", message) == []
    for kind in (4, 7):
        assert spec.check_request("POST", CALLBACK, await discord_py_callback(kind)) == []
    assert spec.check_request("POST", CALLBACK, {"type": 5, "data": {"flags": 64}}) == []
    assert spec.check_request("POST", CALLBACK, {"type": 6}) == []
    assert spec.check_request("GET", "/api/v10/users/@me", None) == []


async def test_spec_reports_its_own_max_length_for_a_long_custom_id(spec: SpecValidator) -> None:
    body = await discord_py_message()
    body["components"][0]["components"][1]["custom_id"] = "c" * 101
    found = spec.check_request("POST", CHANNEL_POST, body)
    assert [(v.route, v.field) for v in found] == [
        (MESSAGE_ROUTE, "components[0].components[1].custom_id")
    ]
    assert "101 characters; spec maxLength 100" in found[0].message
    assert "too long" in found[0].message

    callback = await discord_py_callback(4)
    callback["data"]["components"][1]["components"][0]["custom_id"] = "c" * 101
    found = spec.check_request("POST", CALLBACK, callback)
    assert _fields(found) == ["data.components[1].components[0].custom_id"]
    assert "spec maxLength 100" in found[0].message


@pytest.mark.parametrize(
    ("recipient", "ok"),
    [(1234567890123456789, True), ("1234567890123456789", True), ("abc", False), (-5, False)],
)
def test_integer_snowflakes_count_as_strings(
    spec: SpecValidator, recipient: object, ok: bool
) -> None:
    found = spec.check_request("POST", "/api/v10/users/@me/channels", {"recipient_id": recipient})
    assert (found == []) is ok, found
    if not ok:
        assert _fields(found) == ["recipient_id"]


def test_responses_keep_snowflakes_strict(spec: SpecValidator) -> None:
    user = {
        "id": "5",
        "username": "ann",
        "avatar": None,
        "discriminator": "0",
        "public_flags": 0,
        "flags": 0,
        "global_name": "Ann",
        "primary_guild": None,
    }
    dm = {"id": "9", "type": 1, "flags": 0, "recipients": [user]}
    route = "/api/v10/users/@me/channels"
    assert spec.check_response("POST", route, 200, dm) == []
    bad = copy.deepcopy(dm)
    bad["id"] = 9
    assert _fields(spec.check_response("POST", route, 200, bad)) == ["id"]


async def test_spec_content_limit_is_the_documented_2000(spec: SpecValidator) -> None:
    body = await discord_py_message()
    body["content"] = "x" * 2001
    found = spec.check_request("POST", CHANNEL_POST, body)
    assert _fields(found) == ["content"]
    assert "2001 characters; spec maxLength 2000" in found[0].message


def test_spec_names_the_failing_component_not_the_union(spec: SpecValidator) -> None:
    body = {"components": [{"type": 1, "components": [{"type": 2, "style": 9, "custom_id": "a"}]}]}
    found = spec.check_request("POST", CHANNEL_POST, body)
    assert _fields(found) == ["components[0].components[0].style"]
    body = {"components": [{"type": 42}]}
    found = spec.check_request("POST", CHANNEL_POST, body)
    assert _fields(found) == ["components[0].type"]
    assert "42 is not one of" in found[0].message
    found = spec.check_request("POST", CALLBACK, {"type": 4, "data": {"tts": "yes"}})
    assert _fields(found) == ["data.tts"]


@pytest.mark.parametrize(
    ("method", "path", "template"),
    [
        ("POST", "/api/v10/channels/1/messages?x=1", "/channels/{channel_id}/messages"),
        (
            "POST",
            "/api/v9/channels/1/messages/bulk-delete",
            "/channels/{channel_id}/messages/bulk-delete",
        ),
        (
            "DELETE",
            "/api/v10/channels/1/messages/2",
            "/channels/{channel_id}/messages/{message_id}",
        ),
        (
            "PATCH",
            "/api/v10/webhooks/3/tok/messages/@original?thread_id=5",
            "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
        ),
        ("POST", CALLBACK, "/interactions/{interaction_id}/{interaction_token}/callback"),
        ("GET", "/api/v10/users/@me", "/users/@me"),
        ("GET", "/api/v10/users/42", "/users/{user_id}"),
        ("GET", "/api/v10/guilds/7/widget.json", "/guilds/{guild_id}/widget.json"),
        ("GET", "/api/v10/no/such/route", None),
    ],
)
def test_route_template_with_spec(
    spec: SpecValidator, method: str, path: str, template: str | None
) -> None:
    assert spec.route_template(method, path) == template


def test_unknown_routes_methods_and_missing_bodies_are_reported(spec: SpecValidator) -> None:
    (unknown,) = spec.check_request("POST", "/api/v10/no/such/route", {})
    assert unknown.route == "POST /no/such/route"
    assert "no such route" in unknown.message
    (method,) = spec.check_request("PUT", CHANNEL_POST, {})
    assert method.route == "PUT /channels/{channel_id}/messages"
    (missing,) = spec.check_request("POST", CHANNEL_POST, None)
    assert "required" in missing.message
    (extra,) = spec.check_request("GET", "/api/v10/users/@me", {"x": 1})
    assert "no request body" in extra.message


def test_responses_are_checked_by_status(spec: SpecValidator) -> None:
    limited = {
        "message": "You are being rate limited.",
        "code": 0,
        "retry_after": 1.5,
        "global": False,
    }
    assert spec.check_response("POST", CHANNEL_POST, 429, limited) == []
    del limited["retry_after"]
    (found,) = spec.check_response("POST", CHANNEL_POST, 429, limited)
    assert found.field == "" and "retry_after" in found.message and "response 429" in found.message
    not_found = {"message": "Unknown interaction", "code": 10062}
    assert spec.check_response("POST", CALLBACK, 404, not_found) == []
    assert spec.check_response("POST", CALLBACK, 204, None) == []
    (body_on_204,) = spec.check_response("POST", CALLBACK, 204, {"x": 1})
    assert "no body" in body_on_204.message
    (undocumented,) = spec.check_response("POST", CHANNEL_POST, 503, None)
    assert "503" in undocumented.message
    missing = spec.check_response("POST", CHANNEL_POST, 200, {"id": "1"})
    assert "'channel_id' is a required property" in {v.message.split(": ", 1)[1] for v in missing}


def _raw_validator(pointer: str) -> Draft202012Validator:
    doc = json.loads(default_spec_path().read_text(encoding="utf-8"))
    registry: Registry[Any] = Registry().with_resource("urn:raw", DRAFT202012.create_resource(doc))
    return Draft202012Validator({"$ref": f"urn:raw#{pointer}"}, registry=registry)


async def test_rewritten_unions_accept_and_reject_what_the_raw_spec_does(
    spec: SpecValidator,
) -> None:
    """The validator rewrites oneOf/anyOf for speed and clearer errors; validity must not move."""
    pointer = (
        "/paths/~1channels~1{channel_id}~1messages/post/requestBody/content/"
        "application~1json/schema"
    )
    raw = _raw_validator(pointer)
    good = await discord_py_message()
    bodies: list[object] = [
        good,
        {
            "components": [{"type": 17, "components": [{"type": 10, "content": "hi"}]}],
            "flags": 1 << 15,
        },
    ]
    for name, mutate, _, _ in LIMIT_CASES:
        if name == "content":
            continue  # deliberately 2000 here, 4000 in the raw description
        mutated = copy.deepcopy(good)
        mutate(mutated)
        bodies.append(mutated)
    bodies += [{"components": [{"type": 42}]}, {"embeds": None, "poll": None}, "text", None]
    for candidate in bodies:
        found = spec.check_request("POST", CHANNEL_POST, candidate)
        assert (found == []) == raw.is_valid(candidate), (candidate, found)


async def test_union_errors_descend_into_the_branch_the_body_meant(spec: SpecValidator) -> None:
    """On the raw description (no rewrite), jsonschema's best_match picks another branch's
    discriminator error; _best_error still finds the long custom_id."""
    pointer = (
        "/paths/~1channels~1{channel_id}~1messages/post/requestBody/content/"
        "application~1json/schema"
    )
    body = await discord_py_message()
    body["components"][0]["components"][1]["custom_id"] = "c" * 101
    body["components"][1]["components"][0]["placeholder"] = "p" * 151  # not the first branch
    found = sorted(
        (list(best.absolute_path), best.validator)
        for best in map(_best_error, _raw_validator(pointer).iter_errors(body))
    )
    assert found == [
        (["components", 0, "components", 1, "custom_id"], "maxLength"),
        (["components", 1, "components", 0, "placeholder"], "maxLength"),
    ]
