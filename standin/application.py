"""The stand-in's login and application routes: where the gateway is, the bot's user and
application, users and members it looks up, DMs it opens, the application commands it
registers and the invocations of them Discord refuses (`ApplicationHandlers`, a part of
`StandIn`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from standin import invocations, payloads
from standin.base import StandInBase
from standin.rest import JSON, ApiError, Request, unknown
from standin.shards import recommended_shards
from standin.world import Channel, Interaction, User


class ApplicationHandlers(StandInBase):
    """The login, user and application-command routes of `StandIn`."""

    # What the bot registered, by guild id (None: global); set in StandIn.__init__.
    commands: dict[int | None, dict[tuple[str, int], JSON]]
    command_syncs: list[int | None]
    """The scope of each bulk overwrite (PUT) of the commands, in order (None: global)."""

    async def _get_gateway(self, req: Request) -> tuple[int, Any]:
        return 200, {"url": self.gateway_url}

    async def _get_gateway_bot(self, req: Request) -> tuple[int, Any]:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        shards = recommended_shards(len(self.world.guilds), self.max_guilds_per_shard)
        return 200, {"url": self.gateway_url, "shards": shards, "session_start_limit": limit}

    # Defined by the OAuth2 part: the person a request's Bearer token is for.
    if TYPE_CHECKING:

        def _bearer_user(self, req: Request) -> User | None: ...
        @staticmethod
        def _person_me(user: User) -> JSON: ...

    async def _get_me(self, req: Request) -> tuple[int, Any]:
        person = self._bearer_user(req)
        if person is not None:
            return 200, self._person_me(person)
        return 200, payloads.self_user(self.world.bot)

    async def _get_application(self, req: Request) -> tuple[int, Any]:
        return 200, payloads.application(self.world)

    async def _get_user(self, req: Request) -> tuple[int, Any]:
        return 200, payloads.user(self._user(req.params["user_id"]))

    def _user(self, raw: Any) -> User:
        try:
            return self.world.users[int(raw)]
        except (KeyError, ValueError, TypeError):
            raise unknown("User", 10013) from None

    async def _get_member(self, req: Request) -> tuple[int, Any]:
        guild = self.world.guilds.get(int(req.params["guild_id"]))
        if guild is None:
            raise unknown("Guild", 10004)
        member = guild.members.get(int(req.params["user_id"]))
        if member is None:
            raise unknown("Member", 10007)
        return 200, payloads.member(member)

    async def _open_dm(self, req: Request) -> tuple[int, Any]:
        body = req.body or {}
        recipient: Any = body.get("recipient_id")
        try:
            user = self.world.users[int(recipient)]
        except (KeyError, ValueError, TypeError):
            raise ApiError(400, 50035, "Invalid Form Body") from None
        # The DM channel opens even when the user's DMs are closed; sending to it is refused.
        return 200, payloads.channel(self.world.dm_channel(user), self.world)

    # --- application commands -------------------------------------------------------------

    def _command_scope(self, req: Request) -> int | None:
        if int(req.params["application_id"]) != self.application_id:
            raise ApiError(403, 50001, "Missing Access")
        guild_id = req.params.get("guild_id")
        if guild_id is None:
            return None
        if int(guild_id) not in self.world.guilds:
            raise ApiError(403, 50001, "Missing Access")
        return int(guild_id)

    def _command_list(self, scope: int | None) -> list[JSON]:
        stored = self.commands.get(scope, {})
        return [payloads.command(c, self.application_id, scope) for c in stored.values()]

    async def _get_commands(self, req: Request) -> tuple[int, Any]:
        return 200, self._command_list(self._command_scope(req))

    def _store_command(
        self, scope: int | None, spec: JSON, into: dict[tuple[str, int], JSON]
    ) -> None:
        key = (str(spec["name"]), int(spec.get("type") or 1))
        previous = self.commands.get(scope, {}).get(key)
        into[key] = {
            **spec,
            "id": previous["id"] if previous else self.world.snowflake(),
            "version": self.world.snowflake(),
        }

    async def _put_commands(self, req: Request) -> tuple[int, Any]:
        scope = self._command_scope(req)
        self.command_syncs.append(scope)
        fresh: dict[tuple[str, int], JSON] = {}
        for spec in req.body or []:
            self._store_command(scope, spec, fresh)
        self.commands[scope] = fresh
        return 200, self._command_list(scope)

    async def _post_command(self, req: Request) -> tuple[int, Any]:
        scope = self._command_scope(req)
        stored = self.commands.setdefault(scope, {})
        self._store_command(scope, req.body, stored)
        key = (str(req.body["name"]), int(req.body.get("type") or 1))
        return 200, payloads.command(stored[key], self.application_id, scope)

    def _scopes(self, channel: Channel) -> list[dict[tuple[str, int], JSON]]:
        """The registrations that reach `channel`: its guild's first, then the global ones."""
        scopes = [channel.guild.id, None] if channel.guild else [None]
        return [self.commands.get(scope, {}) for scope in scopes]

    def find_command(self, name: str, channel: Channel) -> JSON:
        """The registered chat-input command `name` that reaches `channel` (guild first),
        whether or not Discord offers it there (`invocations.offered_in`)."""
        for stored in self._scopes(channel):
            found = stored.get((name, 1))
            if found is not None:
                return found
        raise LookupError(f"the bot registered no slash command /{name}")

    def _check_invocation(self, inter: Interaction) -> None:
        """Refuse (`InvocationRefused`) a slash command or an autocomplete interaction that
        Discord would not pass on to the bot, checked against the command it names by id."""
        if inter.type not in (2, 4):
            return
        data = inter.data
        command = next(
            (
                c
                for stored in self._scopes(inter.channel)
                for c in stored.values()
                if str(c["id"]) == str(data.get("id")) and c.get("type", 1) == 1
            ),
            None,
        )
        if command is None:
            raise invocations.InvocationRefused(
                str(data.get("name")), "data.id", "unknown application command", code=10063
            )
        invocations.check_invocation(
            command, data, inter.channel, self.world, autocomplete=inter.type == 4
        )
