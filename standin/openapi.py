"""Request and response bodies checked against Discord's OpenAPI description
(``../shared/discord-api-spec/openapi.json``) when it is present: `SpecValidator`.
"""

from __future__ import annotations

import copy
import functools
import json
import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, relevance
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from standin.limits import CONTENT_MAX
from standin.violations import BUILTIN_TABLE, RouteTable, Violation, field_path, normalise_path

_HTTP_METHODS = ("get", "put", "post", "patch", "delete", "head", "options")
_SPEC_URI = "urn:discord-openapi"
_REPO_ROOT = Path(__file__).resolve().parents[1]


def default_spec_path() -> Path:
    """``$DISCORD_API_SPEC`` if set, else ``<repo>/../shared/discord-api-spec/openapi.json``."""
    env = os.environ.get("DISCORD_API_SPEC")
    if env:
        return Path(env)
    return _REPO_ROOT.parent / "shared" / "discord-api-spec" / "openapi.json"


def _pointer_escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


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
        self.table = RouteTable(
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
        table = self._spec.table if self._spec is not None else BUILTIN_TABLE
        return table.match(method, path)

    def check_request(self, method: str, path: str, body: object) -> list[Violation]:
        """Spec violations in a request body (``None`` = no body); [] when the spec is off."""
        found = self._operation(method, path)
        if isinstance(found, list):
            return found
        spec, route, op, op_pointer = found
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
        found = self._operation(method, path)
        if isinstance(found, list):
            return found
        spec, route, op, op_pointer = found
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

    def _operation(
        self, method: str, path: str
    ) -> tuple[_LoadedSpec, str, dict[str, Any], str] | list[Violation]:
        """The spec, route, operation and its JSON pointer for a call; else what to report:
        nothing when the spec is off, the violation when the spec has no such operation."""
        spec = self._spec
        if spec is None:
            return []
        method = method.upper()
        template = spec.table.match(method, path)
        if template is None:
            where = normalise_path(path)
            return [Violation(f"{method} {where}", "", "no such route in the spec")]
        route = f"{method} {template}"
        op = spec.doc["paths"][template].get(method.lower())
        if not isinstance(op, dict):
            return [Violation(route, "", "the spec defines no such method for this route")]
        pointer = f"/paths/{_pointer_escape(template)}/{method.lower()}"
        return spec, route, op, pointer

    def _validate(
        self, route: str, for_requests: bool, pointer: str, body: object, note: str = ""
    ) -> list[Violation]:
        assert self._spec is not None
        validator = self._spec.validator(for_requests, pointer)
        out = []
        for error in validator.iter_errors(body):
            best = _best_error(error)
            out.append(Violation(route, field_path(best.absolute_path), note + _describe(best)))
        return out
