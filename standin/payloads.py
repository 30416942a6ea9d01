"""JSON payloads in Discord's shapes (REST responses and gateway events) built from the world.

Every response body here is checked against the OpenAPI description when it is present, so the
required fields of its `*Response` schemas are all filled in.
"""

from __future__ import annotations

import copy
from typing import Any

from standin.world import (
    TEXT_PERMISSIONS,
    Attachment,
    Channel,
    ChannelKind,
    Guild,
    Member,
    Message,
    User,
    World,
    iso,
    utcnow,
)

JSON = dict[str, Any]

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


def user(u: User) -> JSON:
    return {
        "id": str(u.id),
        "username": u.name,
        "global_name": u.display_name,
        "discriminator": "0",
        "avatar": None,
        "public_flags": 0,
        "flags": 0,
        "bot": u.bot,
        "primary_guild": None,
    }


def self_user(u: User) -> JSON:
    return {**user(u), "mfa_enabled": False, "locale": "en-US", "verified": True}


def member(m: Member, *, with_user: bool = True, permissions: int | None = None) -> JSON:
    roles = [str(m.guild.bot_role_id)] if m.user.bot else []
    body: JSON = {
        "avatar": None,
        "banner": None,
        "communication_disabled_until": None,
        "flags": 0,
        "joined_at": iso(m.joined_at),
        "nick": m.nick,
        "pending": False,
        "premium_since": None,
        "roles": roles,
        "mute": False,
        "deaf": False,
    }
    if with_user:
        body["user"] = user(m.user)
    if permissions is not None:
        body["permissions"] = str(permissions)
    return body


def roles(guild: Guild) -> list[JSON]:
    from standin.world import BOT_PERMISSIONS

    def role(role_id: int, name: str, perms: int, position: int, managed: bool) -> JSON:
        return {
            "id": str(role_id),
            "name": name,
            "permissions": str(perms),
            "position": position,
            "color": 0,
            "hoist": False,
            "managed": managed,
            "mentionable": False,
            "flags": 0,
            "description": None,
            "icon": None,
            "unicode_emoji": None,
        }

    return [
        role(guild.id, "@everyone", int(TEXT_PERMISSIONS), 0, False),
        role(guild.bot_role_id, "Oh Hell Bot", int(BOT_PERMISSIONS), 1, True),
    ]


def channel(c: Channel, world: World) -> JSON:
    if c.kind is ChannelKind.DM:
        assert c.recipient is not None
        return {
            "id": str(c.id),
            "type": int(c.kind),
            "flags": 0,
            "last_message_id": None,
            "recipients": [user(c.recipient)],
        }
    assert c.guild is not None
    body: JSON = {
        "id": str(c.id),
        "type": int(c.kind),
        "flags": 0,
        "guild_id": str(c.guild.id),
        "name": c.name,
        "last_message_id": None,
        "rate_limit_per_user": 0,
    }
    if c.is_thread:
        assert c.parent is not None
        body.update(
            parent_id=str(c.parent.id),
            owner_id=str(c.owner_id or world.bot.id),
            message_count=len(world.channel_messages(c)),
            member_count=1,
            total_message_sent=len(world.channel_messages(c, include_deleted=True)),
            thread_metadata={
                "archived": False,
                "archive_timestamp": iso(utcnow()),
                "auto_archive_duration": 1440,
                "locked": False,
            },
        )
    else:
        overwrites = []
        if c.bot_denied:
            overwrites.append(
                {"id": str(world.bot.id), "type": 1, "allow": "0", "deny": str(c.bot_denied)}
            )
        body.update(
            position=c.position,
            parent_id=None,
            topic=None,
            nsfw=False,
            permission_overwrites=overwrites,
        )
    return body


def guild_create(guild: Guild, world: World) -> JSON:
    channels = [c for c in guild.channels if not c.is_thread]
    threads = [c for c in guild.channels if c.is_thread]
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "owner_id": str(guild.owner_id),
        "unavailable": False,
        "large": False,
        "member_count": len(guild.members),
        "members": [member(m) for m in guild.members.values()],
        "channels": [channel(c, world) for c in channels],
        "threads": [channel(c, world) for c in threads],
        "roles": roles(guild),
        "emojis": [],
        "stickers": [],
        "features": [],
        "presences": [],
        "voice_states": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "joined_at": iso(guild.members[world.bot.id].joined_at),
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "premium_tier": 0,
        "preferred_locale": guild.preferred_locale,
        "system_channel_flags": 0,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
    }


_CREATE_ONLY = (
    "unavailable",
    "large",
    "member_count",
    "members",
    "channels",
    "threads",
    "presences",
    "voice_states",
    "stage_instances",
    "guild_scheduled_events",
    "soundboard_sounds",
    "joined_at",
)


def guild_update(guild: Guild, world: World) -> JSON:
    """GUILD_UPDATE's guild: GUILD_CREATE's without what only a create carries (its members,
    channels, threads, ...)."""
    return {k: v for k, v in guild_create(guild, world).items() if k not in _CREATE_ONLY}


def components(raw: list[dict[str, Any]]) -> list[JSON]:
    """The bot's components as Discord answers them: every component gets a numeric `id` (in
    tree order, as Discord assigns missing ones) and a select its default value counts."""
    counter = 0
    taken = {c.get("id") for c in _walk(raw)}

    def fix(item: dict[str, Any]) -> JSON:
        nonlocal counter
        out = copy.deepcopy({k: v for k, v in item.items() if k != "components"})
        if not isinstance(out.get("id"), int):
            counter += 1
            while counter in taken:
                counter += 1
            out["id"] = counter
        if out.get("type") in (3, 5, 6, 7, 8):
            out.setdefault("min_values", 1)
            out.setdefault("max_values", 1)
        if out.get("type") == 3:
            out.setdefault("options", [])
        if isinstance(item.get("components"), list):
            out["components"] = [fix(child) for child in item["components"]]
        return out

    return [fix(row) for row in raw]


def _walk(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = []
    for item in items:
        found.append(item)
        children = item.get("components")
        if isinstance(children, list):
            found.extend(_walk(children))
    return found


def embeds(raw: list[dict[str, Any]]) -> list[JSON]:
    out = []
    for embed in raw:
        e = copy.deepcopy(embed)
        e.setdefault("type", "rich")
        for f in e.get("fields") or []:
            f.setdefault("inline", False)
        out.append({k: v for k, v in e.items() if v is not None})
    return out


def attachment(a: Attachment, base_url: str) -> JSON:
    url = f"{base_url}/attachments/{a.id}/{a.filename}"
    body: JSON = {
        "id": str(a.id),
        "filename": a.filename,
        "size": a.size,
        "url": url,
        "proxy_url": url,
    }
    if a.content_type:
        body["content_type"] = a.content_type
    if a.description:
        body["description"] = a.description
    return body


def message(m: Message, world: World, base_url: str) -> JSON:
    body: JSON = {
        "id": str(m.id),
        "channel_id": str(m.channel.id),
        "type": m.type,
        "content": m.content,
        "author": user(m.author),
        "mentions": [],
        "mention_roles": [],
        "mention_everyone": False,
        "attachments": [attachment(a, base_url) for a in m.attachments],
        "embeds": embeds(m.embeds),
        "components": components(m.components),
        "timestamp": iso(m.created_at),
        "edited_timestamp": iso(m.edited_at),
        "flags": m.flags,
        "pinned": False,
        "tts": False,
    }
    if m.webhook_id is not None:
        body["webhook_id"] = str(m.webhook_id)
        body["application_id"] = str(world.application_id)
    if m.interaction_id is not None and m.interaction_user is not None:
        owners = {"0": str(m.channel.guild.id)} if m.channel.guild else {"1": str(world.owner.id)}
        metadata: JSON = {
            "id": str(m.interaction_id),
            "type": m.interaction_type or 2,
            "user": user(m.interaction_user),
            "authorizing_integration_owners": owners,
        }
        if m.interacted_message_id is not None and metadata["type"] == 3:
            metadata["interacted_message_id"] = str(m.interacted_message_id)
        if m.triggered_by is not None:
            trigger_id, trigger_type, trigger_message = m.triggered_by
            trigger: JSON = {
                "id": str(trigger_id),
                "type": trigger_type,
                "user": user(m.interaction_user),
                "authorizing_integration_owners": owners,
            }
            if trigger_message is not None and trigger_type == 3:
                trigger["interacted_message_id"] = str(trigger_message)
            metadata["triggering_interaction_metadata"] = trigger
        body["interaction_metadata"] = metadata
    if m.reference_id is not None:
        body["message_reference"] = {
            "type": 0,
            "message_id": str(m.reference_id),
            "channel_id": str(m.channel.id),
        }
    return body


def gateway_message(m: Message, world: World, base_url: str) -> JSON:
    """MESSAGE_CREATE / MESSAGE_UPDATE data: the REST shape plus guild_id and member."""
    body = message(m, world, base_url)
    guild = m.channel.guild
    if guild is not None:
        body["guild_id"] = str(guild.id)
        author = guild.members.get(m.author.id)
        if author is not None:
            body["member"] = member(author, with_user=False)
    return body


def application(world: World) -> JSON:
    return {
        "id": str(world.application_id),
        "name": world.bot.display_name,
        "icon": None,
        "description": "",
        "type": None,
        "bot": user(world.bot),
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": "0" * 64,
        "flags": 0,
        "flags_new": "0",
        "redirect_uris": [],
        "interactions_endpoint_url": None,
        "role_connections_verification_url": None,
        "owner": user(world.owner),
        "approximate_guild_count": len(world.guilds),
        "approximate_user_install_count": 0,
        "approximate_user_authorization_count": 0,
        "explicit_content_filter": 0,
        "team": None,
        "eligible_oauth2_scopes": [],
        "rpc_origins": [],
        "tags": [],
    }


def command(stored: dict[str, Any], application_id: int, guild_id: int | None) -> JSON:
    body: JSON = {k: v for k, v in stored.items() if v is not None}
    body["id"] = str(stored["id"])
    body["application_id"] = str(application_id)
    body["version"] = str(stored["version"])
    body["type"] = stored.get("type") or 1
    body["description"] = stored.get("description") or ""
    perms = stored.get("default_member_permissions")
    body["default_member_permissions"] = None if perms is None else str(perms)
    if guild_id is not None:
        body["guild_id"] = str(guild_id)
    body.setdefault("options", [])
    body.pop("name_localizations", None)
    body.pop("description_localizations", None)
    return body
