"""Activities as Discord runs them (`ActivityHandlers`, a part of `StandIn`): a person launches
the application's Activity in a channel — from the App Launcher, or by an interaction the bot
answers with LAUNCH_ACTIVITY (type 12) — and joins the instance already running there, if any.
Each launch is kept for a test to see (`activity_launches`); the page Discord would show the
person is `standin.activity_client` (standin/activity_client.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from standin.base import StandInBase
from standin.rest import JSON, ApiError, Request
from standin.world import ActivityInstance, Channel, Interaction, User, location_of


@dataclass(frozen=True)
class ActivityLaunch:
    """One person taken into an Activity: by which interaction (None: the App Launcher)."""

    user: User
    instance: ActivityInstance
    interaction: Interaction | None


class ActivityHandlers(StandInBase):
    """Where the Activity runs, and who launched it."""

    activity_instances: dict[int, ActivityInstance]
    activity_launches: list[ActivityLaunch]
    activities_enabled: bool

    def _init_activities(self) -> None:
        self.activity_instances = {}
        """The running instance of each channel, by channel id."""
        self.activity_launches = []
        """Every launch, in order."""
        self.activities_enabled = True
        """The Developer Portal's "Enable Activities" switch: off, a LAUNCH_ACTIVITY answer is
        refused (400) and the App Launcher does not offer the application."""

    def launch_activity(
        self, person: Any, channel: Channel, interaction: Interaction | None = None
    ) -> ActivityInstance:
        """`person` (a `Person` or `User`) opens the Activity in `channel`, as from the App
        Launcher (or, with `interaction`, by the bot's answer to it): the channel's running
        instance, joined, or a new one. Raises `ValueError` when Activities are off or the
        person cannot see the channel."""
        user: User = getattr(person, "user", person)
        if not self.activities_enabled:
            raise ValueError("the application's Activities are not enabled")
        if channel.guild is not None and user.id not in channel.guild.members:
            raise ValueError(f"{user!r} is not a member of {channel.guild!r}")
        instance = self.activity_instances.get(channel.id)
        if instance is None:
            launch = str(self.world.snowflake())
            instance = ActivityInstance(f"i-{launch}-{location_of(channel)}", launch, channel)
            self.activity_instances[channel.id] = instance
        if user not in instance.users:
            instance.users.append(user)
        self.activity_launches.append(ActivityLaunch(user, instance, interaction))
        self._notify()
        return instance

    def leave_activity(self, person: Any, instance: ActivityInstance) -> None:
        """`person` closes the Activity; the last one out ends the instance."""
        user: User = getattr(person, "user", person)
        if user in instance.users:
            instance.users.remove(user)
        if not instance.users and self.activity_instances.get(instance.channel.id) is instance:
            del self.activity_instances[instance.channel.id]
        self._notify()

    async def _get_activity_instance(self, req: Request) -> tuple[int, Any]:
        """GET /applications/{application_id}/activity-instances/{instance_id}: a running
        instance of the bot's own application, where it runs and who is in it."""
        if int(req.params["application_id"]) != self.application_id:
            raise ApiError(403, 50001, "Missing Access")
        wanted = req.params["instance_id"]
        instance = next((i for i in self.activity_instances.values() if i.id == wanted), None)
        if instance is None:
            raise ApiError(404, 0, "404: Not Found")
        return 200, activity_instance(instance, self.application_id)


def activity_instance(instance: ActivityInstance, application_id: int) -> JSON:
    """An `EmbeddedActivityInstance`, as Discord's API gives it."""
    channel = instance.channel
    location: JSON = {
        "id": instance.location_id,
        "kind": "gc" if channel.guild is not None else "pc",
        "channel_id": str(channel.id),
    }
    if channel.guild is not None:
        location["guild_id"] = str(channel.guild.id)
    return {
        "application_id": str(application_id),
        "instance_id": instance.id,
        "launch_id": instance.launch_id,
        "location": location,
        "users": [str(user.id) for user in instance.users],
    }
