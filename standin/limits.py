"""Discord's documented message limits, checked always: the OpenAPI description misses some
(the 6000-character embed total, custom_id uniqueness, ...) and disagrees with the
documentation on others (content: 4000 there, 2000 real).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from standin.command_limits import check_commands
from standin.violations import BUILTIN_TABLE, Violation, subfield

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
# Where a bot registers application commands: a bulk overwrite (a list) or one command.
_COMMAND_ROUTES = {
    (method, template)
    for method in ("PUT", "POST")
    for template in (
        "/applications/{application_id}/commands",
        "/applications/{application_id}/guilds/{guild_id}/commands",
    )
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
BUTTON_URL_MAX = 512
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

    def count(self, field: str, number: int, things: str, limit: int) -> None:
        """Check how many of something there are: at most ``limit``."""
        if number > limit:
            self.add(field, f"{number} {things}; Discord allows at most {limit}")

    def text(self, field: str, value: object, limit: int) -> int:
        """Check one string's length; return its length for totals."""
        problem = _too_long(value, limit)
        if problem:
            self.add(field, problem)
        return len(value) if isinstance(value, str) else 0

    def message(self, msg: Mapping[str, Any], prefix: str) -> None:
        self.text(subfield(prefix, "content"), msg.get("content"), CONTENT_MAX)
        embeds = msg.get("embeds")
        if isinstance(embeds, list):
            self.embeds(embeds, subfield(prefix, "embeds"))
        components = msg.get("components")
        if isinstance(components, list):
            flags = msg.get("flags")
            v2 = isinstance(flags, int) and bool(flags & IS_COMPONENTS_V2)
            self.components(components, subfield(prefix, "components"), v2)

    def embeds(self, embeds: list[Any], prefix: str) -> None:
        self.count(prefix, len(embeds), "embeds", EMBEDS_MAX)
        total = 0
        for i, embed in enumerate(embeds):
            if not isinstance(embed, Mapping):
                continue
            at = subfield(prefix, i)
            total += self.text(subfield(at, "title"), embed.get("title"), EMBED_TITLE_MAX)
            total += self.text(
                subfield(at, "description"), embed.get("description"), EMBED_DESCRIPTION_MAX
            )
            footer = embed.get("footer")
            if isinstance(footer, Mapping):
                total += self.text(
                    subfield(subfield(at, "footer"), "text"), footer.get("text"), EMBED_FOOTER_MAX
                )
            author = embed.get("author")
            if isinstance(author, Mapping):
                total += self.text(
                    subfield(subfield(at, "author"), "name"), author.get("name"), EMBED_AUTHOR_MAX
                )
            fields = embed.get("fields")
            if isinstance(fields, list):
                fields_at = subfield(at, "fields")
                self.count(fields_at, len(fields), "fields", EMBED_FIELDS_MAX)
                for j, fld in enumerate(fields):
                    if isinstance(fld, Mapping):
                        field_at = subfield(fields_at, j)
                        total += self.text(
                            subfield(field_at, "name"), fld.get("name"), EMBED_FIELD_NAME_MAX
                        )
                        total += self.text(
                            subfield(field_at, "value"), fld.get("value"), EMBED_FIELD_VALUE_MAX
                        )
        self.count(prefix, total, "characters across all embeds", EMBED_TOTAL_MAX)

    def components(self, components: list[Any], prefix: str, v2: bool) -> None:
        seen_ids: dict[str, str] = {}
        if v2:
            count = sum(1 for _ in _walk_components(components, prefix))
            self.count(prefix, count, "components", V2_COMPONENTS_MAX)
        else:
            self.count(prefix, len(components), "action rows", ACTION_ROWS_MAX)
            for i, row in enumerate(components):
                if isinstance(row, Mapping) and row.get("type") != _ACTION_ROW:
                    self.add(
                        subfield(subfield(prefix, i), "type"),
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
                id_at = subfield(at, "custom_id")
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
        where = subfield(at, "components")
        if not children:
            self.add(where, "empty action row; Discord wants 1-5 buttons or 1 select")
        elif selects and (selects > 1 or buttons):
            self.add(
                where,
                f"{buttons} buttons and {selects} selects in one row; "
                "a row with a select holds exactly that one select",
            )
        else:
            self.count(where, buttons, "buttons in one row", ROW_BUTTONS_MAX)

    def button(self, button: Mapping[str, Any], at: str) -> None:
        self.text(subfield(at, "label"), button.get("label"), BUTTON_LABEL_MAX)
        style = button.get("style")
        has_id = button.get("custom_id") is not None
        if style == _LINK_STYLE:
            if has_id:
                self.add(
                    subfield(at, "custom_id"), "a link button (style 5) cannot have a custom_id"
                )
            if not button.get("url"):
                self.add(subfield(at, "url"), "a link button (style 5) needs a url")
            self.text(subfield(at, "url"), button.get("url"), BUTTON_URL_MAX)
        elif style == _PREMIUM_STYLE:
            if not button.get("sku_id"):
                self.add(subfield(at, "sku_id"), "a premium button (style 6) needs a sku_id")
        elif not has_id:
            self.add(subfield(at, "custom_id"), f"a button of style {style!r} needs a custom_id")

    def select(self, select: Mapping[str, Any], at: str) -> None:
        self.text(subfield(at, "placeholder"), select.get("placeholder"), SELECT_PLACEHOLDER_MAX)
        if select.get("custom_id") is None:
            self.add(subfield(at, "custom_id"), "a select needs a custom_id")
        options = select.get("options")
        if select.get("type") == _STRING_SELECT and isinstance(options, list):
            options_at = subfield(at, "options")
            self.count(options_at, len(options), "options", SELECT_OPTIONS_MAX)
            for j, option in enumerate(options):
                if isinstance(option, Mapping):
                    option_at = subfield(options_at, j)
                    for key in ("label", "value", "description"):
                        self.text(subfield(option_at, key), option.get(key), OPTION_TEXT_MAX)


def _walk_components(components: list[Any], prefix: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Every component, depth first, with its field path (rows, containers, sections)."""
    for i, comp in enumerate(components):
        if not isinstance(comp, Mapping):
            continue
        at = subfield(prefix, i)
        yield at, comp
        children = comp.get("components")
        if isinstance(children, list):
            yield from _walk_components(children, subfield(at, "components"))
        accessory = comp.get("accessory")
        if isinstance(accessory, Mapping):
            yield subfield(at, "accessory"), accessory


def check_limits(method: str, path: str, body: object) -> list[Violation]:
    """Discord's documented message and application command limits; works without the OpenAPI
    description."""
    method = method.upper()
    template = BUILTIN_TABLE.match(method, path)
    if (method, template) in _COMMAND_ROUTES:
        return check_commands(f"{method} {template}", body)
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
