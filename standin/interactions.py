"""The stand-in's side of the bot's answers to interactions: the interaction callback (the
first response, within the deadline), follow-ups, and the interaction webhook's messages
(`InteractionHandlers`, a part of `StandIn`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from standin import payloads
from standin.base import StandInBase
from standin.rest import JSON, ApiError, Request, unknown
from standin.world import (
    ActivityInstance,
    Attachment,
    Channel,
    Interaction,
    Message,
    MessageFlag,
)


class InteractionHandlers(StandInBase):
    """The interaction callback and webhook routes of `StandIn`."""

    # Set in StandIn.__init__.
    ack_deadline: float
    token_lifetime: float

    # Defined by the channel handlers (message bodies) and the gateway.
    if TYPE_CHECKING:

        @staticmethod
        def _require_content(data: JSON, files: list[Attachment]) -> None: ...
        def _fill(self, message: Message, data: JSON, files: list[Attachment]) -> None: ...
        def _apply_edit(self, message: Message, data: JSON, files: list[Attachment]) -> None: ...
        async def _dispatch_message(self, event: str, message: Message) -> None: ...
        def launch_activity(
            self, person: Any, channel: Channel, interaction: Interaction | None = None
        ) -> ActivityInstance: ...

        activities_enabled: bool

    def _alive(self, inter: Interaction) -> None:
        if self.clock() - inter.created_at > self.token_lifetime:
            raise ApiError(401, 50027, "Invalid Webhook Token")

    async def _callback(self, req: Request) -> tuple[int, Any]:
        inter = self.interactions.get(int(req.params["interaction_id"]))
        if inter is None or inter.token != req.params["interaction_token"]:
            raise unknown("interaction", 10062)
        if inter.acknowledged:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        if self.clock() - inter.created_at > self.ack_deadline:
            # Discord: no first response within 3 s and the interaction token is dead.
            raise unknown("interaction", 10062)
        body = req.body or {}
        kind = body.get("type")
        data = body.get("data") or {}
        route = "POST /interactions/{interaction_id}/{interaction_token}/callback"
        if kind in (6, 7) and inter.message is None:
            self._violate(route, "type", f"type {kind} answers only a component interaction")
            raise ApiError(400, 50035, "Invalid Form Body")
        if (kind == 8) != (inter.type == 4):
            self._violate(route, "type", "type 8 answers autocomplete, and only 8 does")
            raise ApiError(400, 50035, "Invalid Form Body")
        if kind == 9 and inter.type == 5:
            self._violate(route, "type", "a modal cannot answer a modal submit")
            raise ApiError(400, 50035, "Invalid Form Body")
        if kind == 12 and not self.activities_enabled:
            # What the bot cannot know from the interaction: not a broken rule, a refusal.
            errors = {"type": {"_errors": [{"message": "Activities are not enabled"}]}}
            raise ApiError(400, 50035, "Invalid Form Body", errors)
        resource: Message | None = None
        if kind == 4:
            self._require_content(data, req.files)
            resource = inter.original = self._interaction_message(inter, data, req.files)
        elif kind == 5:
            flags = MessageFlag.LOADING | (int(data.get("flags", 0)) & MessageFlag.EPHEMERAL)
            resource = inter.original = self._interaction_message(inter, {"flags": flags}, [])
        elif kind == 6:
            inter.original = inter.message
        elif kind == 7:
            assert inter.message is not None
            self._apply_edit(inter.message, data, req.files)
            resource = inter.original = inter.message
            await self._dispatch_message("MESSAGE_UPDATE", inter.message)
        elif kind == 8:
            inter.choices = list(data.get("choices") or [])
        elif kind == 9:
            inter.modal = data
        elif kind == 12:
            inter.activity = self.launch_activity(inter.user, inter.channel, inter)
        else:
            raise ApiError(400, 50035, "Invalid Form Body")
        inter.response_type = int(kind)
        inter.responded_at = self.clock()
        inter.first_response.set()
        if resource is not None and resource is not inter.message:
            await self._dispatch_message("MESSAGE_CREATE", resource)
        if req.query.get("with_response") not in ("1", "true", "True"):
            return 204, None
        answer: JSON = {
            "interaction": {
                "id": str(inter.id),
                "type": inter.type,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(resource and resource.ephemeral),
                "channel_id": str(inter.channel.id),
            }
        }
        if inter.channel.guild is not None:
            answer["interaction"]["guild_id"] = str(inter.channel.guild.id)
        if inter.activity is not None:
            answer["interaction"]["activity_instance_id"] = inter.activity.id
            answer["resource"] = {"type": 12, "activity_instance": {"id": inter.activity.id}}
        if resource is not None:
            answer["interaction"]["response_message_id"] = str(resource.id)
        if resource is not None and kind != 5:
            # The spec lets a callback's resource be a message only for types 4 and 7.
            answer["resource"] = {
                "type": kind,
                "message": payloads.message(resource, self.world, self.base_url),
            }
        return 200, answer

    def _interaction_message(
        self, inter: Interaction, data: JSON, files: list[Attachment]
    ) -> Message:
        flags = int(data.get("flags") or 0)
        message = Message(
            self.world.snowflake(),
            inter.channel,
            self.world.bot,
            type=20 if inter.type == 2 else 0,
            flags=flags & (MessageFlag.EPHEMERAL | MessageFlag.LOADING),
            ephemeral_to=inter.user if flags & MessageFlag.EPHEMERAL else None,
            interaction_id=inter.id,
            interaction_user=inter.user,
            interaction_type=inter.type,
            interacted_message_id=inter.message.id if inter.message else None,
            webhook_id=self.application_id,
        )
        if inter.trigger is not None:
            trigger = inter.trigger
            message.triggered_by = (
                trigger.id,
                trigger.type,
                trigger.message.id if trigger.message else None,
            )
        self._fill(message, data, files)
        self.world.add_message(message)
        return message

    def _webhook_interaction(self, req: Request) -> Interaction:
        if req.params["webhook_id"] != str(self.application_id):
            raise unknown("Webhook", 10015)
        inter = self._tokens.get(req.params["webhook_token"])
        if inter is None or not inter.acknowledged:
            raise unknown("Webhook", 10015)
        self._alive(inter)
        return inter

    def _webhook_target(self, req: Request) -> tuple[Interaction, Message]:
        inter = self._webhook_interaction(req)
        message_id = req.params.get("message_id")
        if message_id is None:
            target = inter.original
        else:
            mine = [inter.original, *inter.followups]
            target = next((m for m in mine if m is not None and str(m.id) == message_id), None)
        if target is None or target.deleted:
            raise unknown("Message", 10008)
        return inter, target

    async def _followup(self, req: Request) -> tuple[int, Any]:
        inter = self._webhook_interaction(req)
        data = req.body or {}
        self._require_content(data, req.files)
        original = inter.original
        if original is not None and original.loading and original is not inter.message:
            # The first follow-up to a deferred reply replaces its "thinking…" message.
            self._apply_edit(original, {k: v for k, v in data.items() if k != "flags"}, req.files)
            original.flags &= ~MessageFlag.LOADING
            original.edited_at = None
            message = original
            await self._dispatch_message("MESSAGE_UPDATE", message)
        else:
            message = self._interaction_message(inter, data, req.files)
            message.type = 0
            inter.followups.append(message)
            await self._dispatch_message("MESSAGE_CREATE", message)
        if req.query.get("wait") in ("1", "true", "True"):
            return 200, payloads.message(message, self.world, self.base_url)
        return 204, None

    async def _get_webhook_message(self, req: Request) -> tuple[int, Any]:
        _, message = self._webhook_target(req)
        return 200, payloads.message(message, self.world, self.base_url)

    async def _edit_webhook_message(self, req: Request) -> tuple[int, Any]:
        _, message = self._webhook_target(req)
        self._apply_edit(message, req.body or {}, req.files)
        message.flags &= ~MessageFlag.LOADING
        await self._dispatch_message("MESSAGE_UPDATE", message)
        return 200, payloads.message(message, self.world, self.base_url)

    async def _delete_webhook_message(self, req: Request) -> tuple[int, Any]:
        _, message = self._webhook_target(req)
        message.deleted = True
        await self._dispatch_message("MESSAGE_DELETE", message)
        return 204, None
