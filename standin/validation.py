"""Checks on what the bot sends to the stand-in and what the stand-in answers.

Two layers:

- ``SpecValidator`` validates request and response bodies against Discord's OpenAPI
  description (``../shared/discord-api-spec/openapi.json``) when it is present.
- ``check_limits`` applies Discord's documented message limits, always, because the
  description misses some (the 6000-character embed total, custom_id uniqueness, ...)
  and disagrees with the documentation on others (content: 4000 there, 2000 real).
"""

from __future__ import annotations

import copy
import functools
import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, relevance
from referencing import Registry
from referencing.jsonschema import DRAFT202012

__all__ = [
    "SpecValidator",
    "Violation",
    "check_limits",
    "default_spec_path",
]

_HTTP_METHODS = ("get", "put", "post", "patch", "delete", "head", "options")
_SPEC_URI = "urn:discord-openapi"
_REPO_ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Violation:
    """One broken rule in one body."""

    route: str  # "POST /channels/{channel_id}/messages"
    field: str  # "components[0].components[1].custom_id"; "" for the whole body
    message: str

    def __str__(self) -> str:
        if self.field:
            return f"{self.route}: {self.field}: {self.message}"
        return f"{self.route}: {self.message}"


def default_spec_path() -> Path:
    """``$DISCORD_API_SPEC`` if set, else ``<repo>/../shared/discord-api-spec/openapi.json``."""
    env = os.environ.get("DISCORD_API_SPEC")
    if env:
        return Path(env)
    return _REPO_ROOT.parent / "shared" / "discord-api-spec" / "openapi.json"


# --------------------------------------------------------------------------- paths

_API_PREFIX = re.compile(r"^/api(?:/v\d+)?(?=/|$)")


def normalise_path(path: str) -> str:
    """``http://h/api/v10/channels/1/messages?wait=1`` -> ``/channels/1/messages``."""
    if "://" in path:
        path = urlsplit(path).path
    path = path.split("?", 1)[0].split("#", 1)[0]
    path = _API_PREFIX.sub("", path)
    if not path.startswith("/"):
        path = "/" + path
    if len(path) > 1:
        path = path.rstrip("/")
    return path


class _RouteTable:
    """Matches concrete paths to OpenAPI path templates; literal segments beat parameters."""

    def __init__(self, templates: Mapping[str, Iterable[str]]) -> None:
        self._by_len: dict[int, list[tuple[str, tuple[str | None, ...], frozenset[str]]]] = {}
        for template, methods in templates.items():
            segments = tuple(None if "{" in seg else seg for seg in template.strip("/").split("/"))
            entry = (template, segments, frozenset(m.upper() for m in methods))
            self._by_len.setdefault(len(segments), []).append(entry)

    def match(self, method: str, path: str) -> str | None:
        parts = normalise_path(path).strip("/").split("/")
        if not all(parts):
            return None
        method = method.upper()
        best: tuple[tuple[bool, tuple[bool, ...]], str] | None = None
        for template, segments, methods in self._by_len.get(len(parts), ()):
            if all(seg is None or seg == part for seg, part in zip(segments, parts, strict=True)):
                # Prefer a template that defines the method, then literals earliest.
                key = (method in methods, tuple(seg is not None for seg in segments))
                if best is None or key > best[0]:
                    best = (key, template)
        return None if best is None else best[1]


# Routes a bot uses, for route names when the spec is absent (and for check_limits).
_BUILTIN_ROUTES: dict[str, tuple[str, ...]] = {
    "/gateway": ("GET",),
    "/gateway/bot": ("GET",),
    "/users/@me": ("GET", "PATCH"),
    "/users/{user_id}": ("GET",),
    "/users/@me/channels": ("POST",),
    "/oauth2/applications/@me": ("GET",),
    "/applications/@me": ("GET", "PATCH"),
    "/applications/{application_id}/commands": ("GET", "PUT", "POST"),
    "/applications/{application_id}/commands/{command_id}": ("GET", "DELETE", "PATCH"),
    "/applications/{application_id}/guilds/{guild_id}/commands": ("GET", "PUT", "POST"),
    "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}": (
        "GET",
        "DELETE",
        "PATCH",
    ),
    "/channels/{channel_id}": ("GET", "DELETE", "PATCH"),
    "/channels/{channel_id}/messages": ("GET", "POST"),
    "/channels/{channel_id}/messages/bulk-delete": ("POST",),
    "/channels/{channel_id}/messages/{message_id}": ("GET", "DELETE", "PATCH"),
    "/channels/{channel_id}/messages/{message_id}/threads": ("POST",),
    "/channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}/@me": ("PUT", "DELETE"),
    "/channels/{channel_id}/pins/{message_id}": ("PUT", "DELETE"),
    "/channels/{channel_id}/threads": ("POST",),
    "/channels/{channel_id}/typing": ("POST",),
    "/guilds/{guild_id}": ("GET", "PATCH"),
    "/guilds/{guild_id}/channels": ("GET", "POST", "PATCH"),
    "/guilds/{guild_id}/members/{user_id}": ("GET", "PUT", "DELETE", "PATCH"),
    "/interactions/{interaction_id}/{interaction_token}/callback": ("POST",),
    "/webhooks/{webhook_id}/{webhook_token}": ("GET", "POST", "DELETE", "PATCH"),
    "/webhooks/{webhook_id}/{webhook_token}/messages/@original": ("GET", "DELETE", "PATCH"),
    "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": ("GET", "DELETE", "PATCH"),
}
_BUILTIN_TABLE = _RouteTable(_BUILTIN_ROUTES)


# ---------------------------------------------------------------------- Discord limits

# (method, template) -> where the message payload sits in the body ("" = the body itself).
_MESSAGE_ROUTES: dict[tuple[str, str], str] = {
    ("POST", "/channels/{channel_id}/messages"): "",
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): "",
    ("POST", "/webhooks/{webhook_id}/{webhook_token}"): "",
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"): "",
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"): "",
    ("POST", "/interactions/{interaction_id}/{interaction_token}/callback"): "data",
    ("POST", "/channels/{channel_id}/threads"): "message",  # forum/media posts
}
# Interaction callback types whose `data` is a message: CHANNEL_MESSAGE_WITH_SOURCE, UPDATE_MESSAGE.
_MESSAGE_CALLBACK_TYPES = (4, 7)

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_MAX = 256
ACTION_ROWS_MAX = 5
ROW_BUTTONS_MAX = 5
SELECT_OPTIONS_MAX = 25
CUSTOM_ID_MAX = 100
BUTTON_LABEL_MAX = 80
SELECT_PLACEHOLDER_MAX = 150
OPTION_TEXT_MAX = 100
V2_COMPONENTS_MAX = 40
IS_COMPONENTS_V2 = 1 << 15

_ACTION_ROW = 1
_BUTTON = 2
_SELECT_TYPES = frozenset({3, 5, 6, 7, 8})  # string, user, role, mentionable, channel
_STRING_SELECT = 3
_LINK_STYLE = 5
_PREMIUM_STYLE = 6


def _join(prefix: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{prefix}[{key}]"
    return f"{prefix}.{key}" if prefix else key


def _too_long(value: object, limit: int) -> str | None:
    if isinstance(value, str) and len(value) > limit:
        return f"{len(value)} characters; Discord allows at most {limit}"
    return None


class _LimitChecker:
    def __init__(self, route: str) -> None:
        self.route = route
        self.found: list[Violation] = []

    def add(self, field: str, message: str) -> None:
        self.found.append(Violation(self.route, field, message))

    def text(self, field: str, value: object, limit: int) -> int:
        """Check one string's length; return its length for totals."""
        problem = _too_long(value, limit)
        if problem:
            self.add(field, problem)
        return len(value) if isinstance(value, str) else 0

    def message(self, msg: Mapping[str, Any], prefix: str) -> None:
        self.text(_join(prefix, "content"), msg.get("content"), CONTENT_MAX)
        embeds = msg.get("embeds")
        if isinstance(embeds, list):
            self.embeds(embeds, _join(prefix, "embeds"))
        components = msg.get("components")
        if isinstance(components, list):
            flags = msg.get("flags")
            v2 = isinstance(flags, int) and bool(flags & IS_COMPONENTS_V2)
            self.components(components, _join(prefix, "components"), v2)

    def embeds(self, embeds: list[Any], prefix: str) -> None:
        if len(embeds) > EMBEDS_MAX:
            self.add(prefix, f"{len(embeds)} embeds; Discord allows at most {EMBEDS_MAX}")
        total = 0
        for i, embed in enumerate(embeds):
            if not isinstance(embed, Mapping):
                continue
            at = _join(prefix, i)
            total += self.text(_join(at, "title"), embed.get("title"), EMBED_TITLE_MAX)
            total += self.text(
                _join(at, "description"), embed.get("description"), EMBED_DESCRIPTION_MAX
            )
            footer = embed.get("footer")
            if isinstance(footer, Mapping):
                total += self.text(
                    _join(_join(at, "footer"), "text"), footer.get("text"), EMBED_FOOTER_MAX
                )
            author = embed.get("author")
            if isinstance(author, Mapping):
                total += self.text(
                    _join(_join(at, "author"), "name"), author.get("name"), EMBED_AUTHOR_MAX
                )
            fields = embed.get("fields")
            if isinstance(fields, list):
                fields_at = _join(at, "fields")
                if len(fields) > EMBED_FIELDS_MAX:
                    self.add(
                        fields_at,
                        f"{len(fields)} fields; Discord allows at most {EMBED_FIELDS_MAX}",
                    )
                for j, fld in enumerate(fields):
                    if isinstance(fld, Mapping):
                        field_at = _join(fields_at, j)
                        total += self.text(
                            _join(field_at, "name"), fld.get("name"), EMBED_FIELD_NAME_MAX
                        )
                        total += self.text(
                            _join(field_at, "value"), fld.get("value"), EMBED_FIELD_VALUE_MAX
                        )
        if total > EMBED_TOTAL_MAX:
            self.add(
                prefix,
                f"{total} characters across all embeds; Discord allows at most {EMBED_TOTAL_MAX}",
            )

    def components(self, components: list[Any], prefix: str, v2: bool) -> None:
        seen_ids: dict[str, str] = {}
        if v2:
            count = sum(1 for _ in _walk_components(components, prefix))
            if count > V2_COMPONENTS_MAX:
                self.add(prefix, f"{count} components; Discord allows at most {V2_COMPONENTS_MAX}")
        else:
            if len(components) > ACTION_ROWS_MAX:
                self.add(
                    prefix,
                    f"{len(components)} action rows; Discord allows at most {ACTION_ROWS_MAX}",
                )
            for i, row in enumerate(components):
                if isinstance(row, Mapping) and row.get("type") != _ACTION_ROW:
                    self.add(
                        _join(_join(prefix, i), "type"),
                        f"top-level component of type {row.get('type')!r}; without the "
                        "IS_COMPONENTS_V2 flag Discord wants action rows (type 1)",
                    )
        for at, comp in _walk_components(components, prefix):
            ctype = comp.get("type")
            if ctype == _ACTION_ROW:
                self.action_row(comp, at)
            elif ctype == _BUTTON:
                self.button(comp, at)
            elif ctype in _SELECT_TYPES:
                self.select(comp, at)
            custom_id = comp.get("custom_id")
            if isinstance(custom_id, str):
                id_at = _join(at, "custom_id")
                if not 1 <= len(custom_id) <= CUSTOM_ID_MAX:
                    self.add(
                        id_at,
                        f"{len(custom_id)} characters; Discord allows 1-{CUSTOM_ID_MAX}",
                    )
                if custom_id in seen_ids:
                    self.add(
                        id_at,
                        f"{custom_id!r} is already used by {seen_ids[custom_id]}; "
                        "custom_id must be unique within a message",
                    )
                else:
                    seen_ids[custom_id] = id_at

    def action_row(self, row: Mapping[str, Any], at: str) -> None:
        children = row.get("components")
        if not isinstance(children, list):
            return
        kinds = [c.get("type") for c in children if isinstance(c, Mapping)]
        buttons = sum(1 for k in kinds if k == _BUTTON)
        selects = sum(1 for k in kinds if k in _SELECT_TYPES)
        where = _join(at, "components")
        if not children:
            self.add(where, "empty action row; Discord wants 1-5 buttons or 1 select")
        elif selects and (selects > 1 or buttons):
            self.add(
                where,
                f"{buttons} buttons and {selects} selects in one row; "
                "a row with a select holds exactly that one select",
            )
        elif buttons > ROW_BUTTONS_MAX:
            self.add(where, f"{buttons} buttons in one row; Discord allows at most 5")

    def button(self, button: Mapping[str, Any], at: str) -> None:
        self.text(_join(at, "label"), button.get("label"), BUTTON_LABEL_MAX)
        style = button.get("style")
        has_id = button.get("custom_id") is not None
        if style == _LINK_STYLE:
            if has_id:
                self.add(_join(at, "custom_id"), "a link button (style 5) cannot have a custom_id")
            if not button.get("url"):
                self.add(_join(at, "url"), "a link button (style 5) needs a url")
        elif style == _PREMIUM_STYLE:
            if not button.get("sku_id"):
                self.add(_join(at, "sku_id"), "a premium button (style 6) needs a sku_id")
        elif not has_id:
            self.add(_join(at, "custom_id"), f"a button of style {style!r} needs a custom_id")

    def select(self, select: Mapping[str, Any], at: str) -> None:
        self.text(_join(at, "placeholder"), select.get("placeholder"), SELECT_PLACEHOLDER_MAX)
        if select.get("custom_id") is None:
            self.add(_join(at, "custom_id"), "a select needs a custom_id")
        options = select.get("options")
        if select.get("type") == _STRING_SELECT and isinstance(options, list):
            options_at = _join(at, "options")
            if len(options) > SELECT_OPTIONS_MAX:
                self.add(
                    options_at,
                    f"{len(options)} options; Discord allows at most {SELECT_OPTIONS_MAX}",
                )
            for j, option in enumerate(options):
                if isinstance(option, Mapping):
                    option_at = _join(options_at, j)
                    for key in ("label", "value", "description"):
                        self.text(_join(option_at, key), option.get(key), OPTION_TEXT_MAX)


def _walk_components(components: list[Any], prefix: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Every component, depth first, with its field path (rows, containers, sections)."""
    for i, comp in enumerate(components):
        if not isinstance(comp, Mapping):
            continue
        at = _join(prefix, i)
        yield at, comp
        children = comp.get("components")
        if isinstance(children, list):
            yield from _walk_components(children, _join(at, "components"))
        accessory = comp.get("accessory")
        if isinstance(accessory, Mapping):
            yield _join(at, "accessory"), accessory


def check_limits(method: str, path: str, body: object) -> list[Violation]:
    """Discord's documented message limits; works without the OpenAPI description."""
    method = method.upper()
    template = _BUILTIN_TABLE.match(method, path)
    if template is None or not isinstance(body, Mapping):
        return []
    where = _MESSAGE_ROUTES.get((method, template))
    if where is None:
        return []
    checker = _LimitChecker(f"{method} {template}")
    if where == "":
        checker.message(body, "")
    elif where == "data":
        data = body.get("data")
        if body.get("type") in _MESSAGE_CALLBACK_TYPES and isinstance(data, Mapping):
            checker.message(data, "data")
    else:
        inner = body.get(where)
        if isinstance(inner, Mapping):
            checker.message(inner, where)
    return checker.found


# ------------------------------------------------------------------------ spec checks


def _pointer_escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _field_path(path: Iterable[str | int]) -> str:
    out = ""
    for key in path:
        out = _join(out, key)
    return out


def _short(value: object, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _describe(error: ValidationError) -> str:
    """The JSON-schema message, with long instances shortened and sizes spelled out."""
    keyword, inst, bound = error.validator, error.instance, error.validator_value
    if keyword in ("maxLength", "minLength") and isinstance(inst, str):
        kind = "too long" if keyword == "maxLength" else "too short"
        return f"{_short(inst)} is {kind}: {len(inst)} characters; spec {keyword} {bound}"
    if keyword in ("maxItems", "minItems") and isinstance(inst, list):
        kind = "too long" if keyword == "maxItems" else "too short"
        return f"array is {kind}: {len(inst)} items; spec {keyword} {bound}"
    message = error.message
    full = repr(inst)
    if len(full) > 60:
        message = message.replace(full, _short(inst))
    return message


def _branch_key(errors: Sequence[ValidationError]) -> tuple[bool, bool, int, int]:
    """How well a failed oneOf/anyOf branch fits: the higher, the likelier it was meant."""
    wrong_type = any(not e.relative_path and e.validator == "type" for e in errors)
    wrong_kind = any(
        list(e.relative_path) == ["type"] and e.validator in ("enum", "const") for e in errors
    )
    depth = max(len(e.relative_path) for e in errors)
    return (not wrong_type, not wrong_kind, depth, -len(errors))


def _best_error(error: ValidationError) -> ValidationError:
    """Descend through oneOf/anyOf into the branch the body most likely meant."""
    while error.context:
        branches: dict[object, list[ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        chosen = max(branches.values(), key=_branch_key)
        error = max(chosen, key=relevance)
    return error


_CONST_ONLY = frozenset({"const", "title", "description"})
_DISPATCH = "x-standin-dispatch"


def _dispatch(
    validator: Any, spec: Mapping[str, Any], instance: object, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    """Validate against the one union branch named by the instance's `type`."""
    if not isinstance(instance, dict):
        yield ValidationError(f"{instance!r} is not of type 'object'", validator="type")
        return
    if "type" not in instance:
        yield ValidationError("'type' is a required property", validator="required")
        return
    kind = instance["type"]
    if isinstance(kind, float) and kind.is_integer():
        kind = int(kind)  # JSON Schema treats 4.0 as 4
    branch = spec["cases"].get(json.dumps(kind))
    if branch is None:
        yield ValidationError(
            f"{kind!r} is not one of {spec['values']!r}",
            validator="enum",
            path=("type",),
            instance=kind,
            validator_value=spec["values"],
        )
        return
    yield from validator.descend(instance, branch, schema_path="cases")


_Validator = validators.extend(Draft202012Validator, {_DISPATCH: _dispatch})


def _rewrite(doc: dict[str, Any]) -> None:
    """Rewrite unions into equivalent, faster and better-reporting forms (in place).

    - oneOf of bare consts -> enum;
    - oneOf [null, $ref to a non-null schema] -> if null / else $ref;
    - oneOf/anyOf of $refs whose required `type` property tells them apart (components,
      interaction callbacks) -> a dispatch on `type` straight to the one branch.
    The last two report the failing branch's own errors instead of an opaque union error.
    """
    schemas: dict[str, Any] = doc["components"]["schemas"]

    def target(branch: object) -> dict[str, Any] | None:
        if isinstance(branch, dict) and set(branch) == {"$ref"}:
            ref = branch["$ref"]
            if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
                found = schemas.get(ref.rsplit("/", 1)[1])
                return found if isinstance(found, dict) else None
        return None

    def non_null_object(schema: dict[str, Any]) -> bool:
        kind = schema.get("type")
        return kind == "object" or (isinstance(kind, list) and "null" not in kind and bool(kind))

    def discriminator(schema: dict[str, Any]) -> list[Any] | None:
        if schema.get("type") != "object" or "type" not in schema.get("required", ()):
            return None
        prop = schema.get("properties", {}).get("type")
        if not isinstance(prop, dict):
            return None
        if "const" in prop:
            return [prop["const"]]
        enum = prop.get("enum")
        return list(enum) if isinstance(enum, list) else None

    def replacement(branches: list[Any]) -> dict[str, Any] | None:
        if branches and all(
            isinstance(b, dict) and "const" in b and set(b) <= _CONST_ONLY for b in branches
        ):
            consts = [b["const"] for b in branches]
            if len({json.dumps(v) for v in consts}) == len(consts):
                return {"enum": consts}
        if len(branches) == 2 and {"type": "null"} in branches:
            other = branches[1] if branches[0] == {"type": "null"} else branches[0]
            found = target(other)
            if found is not None and non_null_object(found):
                return {"if": {"type": "null"}, "else": other}
        targets = [target(b) for b in branches]
        if len(branches) > 1 and all(t is not None for t in targets):
            kinds = [discriminator(t) for t in targets if t is not None]
            if all(kinds):
                cases: dict[str, Any] = {}
                values: list[Any] = []
                for branch, kind in zip(branches, kinds, strict=True):
                    for value in kind or ():
                        cases[json.dumps(value)] = branch
                        values.append(value)
                if len(cases) == len(values):
                    numeric = all(type(x) is int for x in values)
                    shown = sorted(values) if numeric else values
                    return {_DISPATCH: {"cases": cases, "values": shown}}
        return None

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for value in node.values():
                walk(value)
            for keyword in ("oneOf", "anyOf"):
                branches = node.get(keyword)
                if isinstance(branches, list):
                    new = replacement(branches)
                    if new is not None:
                        del node[keyword]
                        node.setdefault("allOf", []).append(new)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(doc)


def _prepare(doc: dict[str, Any], for_requests: bool) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    schemas = doc["components"]["schemas"]
    if for_requests:
        # SOURCE.md: discord.py sends some snowflakes (recipient_id) as integers and Discord
        # accepts them; treat a non-negative integer like its decimal string.
        snowflake = schemas["SnowflakeType"]
        schemas["SnowflakeType"] = {
            "anyOf": [snowflake, {"type": "integer", "minimum": 0}],
        }
        # SOURCE.md: the description allows 4000 characters of content; the documented
        # limit for a bot message is 2000.
        for name in (
            "MessageCreateRequest",
            "MessageEditRequestPartial",
            "BaseCreateMessageCreateRequest",
        ):
            content = schemas.get(name, {}).get("properties", {}).get("content")
            if isinstance(content, dict) and content.get("maxLength", 0) > CONTENT_MAX:
                content["maxLength"] = CONTENT_MAX
    _rewrite(doc)
    return _inline(doc)


_ANNOTATIONS = frozenset({"title", "description", "format", "example", "deprecated"})


def _inline(doc: dict[str, Any]) -> dict[str, Any]:
    """Replace non-recursive schema $refs by the (shared) schema itself and drop annotations.

    Saves a registry lookup per $ref and a call per `format` (no format checker is used).
    Recursive $refs stay and resolve through the registry.
    """
    schemas: dict[str, Any] = doc["components"]["schemas"]
    done: dict[str, Any] = {}

    def walk(node: Any, stack: frozenset[str]) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if len(node) == 1 and isinstance(ref, str) and ref.startswith("#/components/schemas/"):
                name = ref.rsplit("/", 1)[1]
                if name in stack or name not in schemas:
                    return node
                if name not in done:
                    done[name] = walk(schemas[name], stack | {name})
                return done[name]
            return {
                key: walk(value, stack)
                for key, value in node.items()
                if not (key in _ANNOTATIONS and isinstance(value, str))
            }
        if isinstance(node, list):
            return [walk(value, stack) for value in node]
        return node

    inlined: dict[str, Any] = {"paths": walk(doc["paths"], frozenset())}
    inlined["components"] = {
        "schemas": {name: walk(schema, frozenset({name})) for name, schema in schemas.items()},
        **{k: walk(v, frozenset()) for k, v in doc["components"].items() if k != "schemas"},
    }
    return inlined


class _LoadedSpec:
    """The parsed description, two prepared copies (requests, responses) and validators."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        paths = doc.get("paths", {})
        self.table = _RouteTable(
            {t: [m for m in ops if m in _HTTP_METHODS] for t, ops in paths.items()}
        )
        self._docs: dict[bool, dict[str, Any]] = {}
        self._registries: dict[bool, Registry[Any]] = {}
        self._validators: dict[tuple[bool, str], Draft202012Validator] = {}

    def prepared(self, for_requests: bool) -> dict[str, Any]:
        if for_requests not in self._docs:
            self._docs[for_requests] = _prepare(self.doc, for_requests)
        return self._docs[for_requests]

    def validator(self, for_requests: bool, pointer: str) -> Draft202012Validator:
        key = (for_requests, pointer)
        found = self._validators.get(key)
        if found is None:
            registry = self._registries.get(for_requests)
            if registry is None:
                resource = DRAFT202012.create_resource(self.prepared(for_requests))
                # No crawl: the description has no $id/$anchor, and inlined schemas are shared.
                registry = Registry().with_resource(_SPEC_URI, resource)
                self._registries[for_requests] = registry
            found = _Validator({"$ref": f"{_SPEC_URI}#{pointer}"}, registry=registry)
            self._validators[key] = found
        return found

    def resolve(self, node: Any, pointer: str) -> tuple[Any, str]:
        """Follow a local $ref (e.g. to #/components/responses/X); return (node, its pointer)."""
        while isinstance(node, dict) and isinstance(node.get("$ref"), str):
            ref: str = node["$ref"]
            if not ref.startswith("#/"):
                break
            pointer = ref[1:]
            node = self.doc
            for token in pointer.lstrip("/").split("/"):
                node = node[token.replace("~1", "/").replace("~0", "~")]
        return node, pointer


@functools.lru_cache(maxsize=4)
def _load(path: str, mtime_ns: int, size: int) -> _LoadedSpec:
    with open(path, encoding="utf-8") as handle:
        return _LoadedSpec(json.load(handle))


def _json_schema(content: object) -> tuple[str, Any] | None:
    """The JSON media type of a content map (payload_json for multipart is JSON too)."""
    if not isinstance(content, dict):
        return None
    for media in ("application/json", *content):
        entry = content.get(media)
        if isinstance(entry, dict) and "schema" in entry:
            return media, entry
    return None


class SpecValidator:
    """Validates bodies against Discord's OpenAPI description, if it could be loaded.

    Loading is cached per process (keyed by path and mtime) and each route's validator is
    compiled once, so creating one per stand-in is cheap.
    """

    def __init__(self, spec_path: Path | None) -> None:
        self.spec_path = spec_path
        self.available = False
        self.skip_reason: str | None = None
        self._spec: _LoadedSpec | None = None
        if spec_path is None:
            self.skip_reason = "no OpenAPI description path given"
            return
        try:
            stat = Path(spec_path).stat()
        except OSError:
            self.skip_reason = f"{spec_path} not found"
            return
        try:
            self._spec = _load(str(Path(spec_path).resolve()), stat.st_mtime_ns, stat.st_size)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            self.skip_reason = f"{spec_path} could not be read: {exc}"
            return
        self.available = True

    def route_template(self, method: str, path: str) -> str | None:
        """``/api/v10/channels/1/messages?x=1`` -> ``/channels/{channel_id}/messages``."""
        table = self._spec.table if self._spec is not None else _BUILTIN_TABLE
        return table.match(method, path)

    def check_request(self, method: str, path: str, body: object) -> list[Violation]:
        """Spec violations in a request body (``None`` = no body); [] when the spec is off."""
        spec = self._spec
        if spec is None:
            return []
        found = self._operation(method, path)
        if isinstance(found, Violation):
            return [found]
        route, op, op_pointer = found
        request, pointer = spec.resolve(op.get("requestBody"), f"{op_pointer}/requestBody")
        if request is None:
            if body is None:
                return []
            return [Violation(route, "", "the spec defines no request body for this route")]
        if body is None:
            if request.get("required"):
                return [Violation(route, "", "a request body is required")]
            return []
        schema = _json_schema(request.get("content"))
        if schema is None:
            return []
        media, _ = schema
        pointer = f"{pointer}/content/{_pointer_escape(media)}/schema"
        return self._validate(route, True, pointer, body)

    def check_response(self, method: str, path: str, status: int, body: object) -> list[Violation]:
        """Spec violations in a response the stand-in sends; [] when the spec is off."""
        spec = self._spec
        if spec is None:
            return []
        found = self._operation(method, path)
        if isinstance(found, Violation):
            return [found]
        route, op, op_pointer = found
        responses = op.get("responses", {})
        code = next(
            (c for c in (str(status), f"{status // 100}XX", "default") if c in responses), None
        )
        if code is None:
            return [Violation(route, "", f"status {status} is not documented for this route")]
        response, pointer = spec.resolve(
            responses[code], f"{op_pointer}/responses/{_pointer_escape(code)}"
        )
        schema = _json_schema(response.get("content") if isinstance(response, dict) else None)
        if schema is None:
            if body is None or body == b"" or body == "":
                return []
            return [Violation(route, "", f"response {status}: the spec defines no body")]
        if body is None:
            return [Violation(route, "", f"response {status}: the spec wants a JSON body")]
        media, _ = schema
        pointer = f"{pointer}/content/{_pointer_escape(media)}/schema"
        return self._validate(route, False, pointer, body, f"response {status}: ")

    def _operation(self, method: str, path: str) -> tuple[str, dict[str, Any], str] | Violation:
        assert self._spec is not None
        method = method.upper()
        template = self._spec.table.match(method, path)
        if template is None:
            where = normalise_path(path)
            return Violation(f"{method} {where}", "", "no such route in the spec")
        route = f"{method} {template}"
        op = self._spec.doc["paths"][template].get(method.lower())
        if not isinstance(op, dict):
            return Violation(route, "", "the spec defines no such method for this route")
        pointer = f"/paths/{_pointer_escape(template)}/{method.lower()}"
        return route, op, pointer

    def _validate(
        self, route: str, for_requests: bool, pointer: str, body: object, note: str = ""
    ) -> list[Violation]:
        assert self._spec is not None
        validator = self._spec.validator(for_requests, pointer)
        out = []
        for error in validator.iter_errors(body):
            best = _best_error(error)
            out.append(Violation(route, _field_path(best.absolute_path), note + _describe(best)))
        return out
