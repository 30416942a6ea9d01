"""A local Discord stand-in that the real discord.py client logs into (see `server.StandIn`)."""

from standin.driver import DriverError, InteractionResult, Person
from standin.server import Call, Interaction, StandIn
from standin.world import Channel, ChannelKind, Guild, Message, Perm, User, World

__all__ = [
    "Call",
    "Channel",
    "ChannelKind",
    "DriverError",
    "Guild",
    "Interaction",
    "InteractionResult",
    "Message",
    "Perm",
    "Person",
    "StandIn",
    "User",
    "World",
]
