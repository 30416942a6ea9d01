"""Every text people read, and the messages they are shown in: one module per kind of message.
The names are gathered here, so callers write `render.table_message(...)`."""

from cogs.render.common import (
    COLOUR,
    CORRUPT_TABLE,
    FIELD_LIMIT,
    MAX_BID_BUTTONS,
    MAX_BUTTON_CARDS,
    MAX_TRICK_LINES,
    MESSAGE_LIMIT,
    NOT_FOR_YOU,
    NOT_OFFERED,
    SERVER_ONLY,
    SUIT_NAMES,
    UNEXPECTED,
    Rendered,
    button,
    card_text,
    fit,
    jump_url,
    relative_time,
    trump_text,
)
from cogs.render.hand import (
    hand_message,
)
from cogs.render.leaderboard import (
    leaderboard_embed,
)
from cogs.render.lobby import (
    PRESET_DEFAULT,
    RULE_CHOICES,
    RULE_PAGES,
    cancel_confirm,
    computer_level_picker,
    host_panel,
    leave_confirm,
    rules_editor,
)
from cogs.render.notices import (
    NOTICES,
    action_text,
    catch_up_posts,
    notice_text,
)
from cogs.render.reasons import (
    HOST_DOINGS,
    REASONS,
    answer,
    reason_text,
    refusal,
)
from cogs.render.rules import (
    SUIT_SYMBOLS,
    channel_defaults_text,
    describe,
    rules_summary,
)
from cogs.render.table import (
    AWAY_LABELS,
    scores_text,
    table_message,
)

__all__ = [
    "AWAY_LABELS",
    "COLOUR",
    "CORRUPT_TABLE",
    "FIELD_LIMIT",
    "HOST_DOINGS",
    "MAX_BID_BUTTONS",
    "MAX_BUTTON_CARDS",
    "MAX_TRICK_LINES",
    "MESSAGE_LIMIT",
    "NOTICES",
    "NOT_FOR_YOU",
    "NOT_OFFERED",
    "PRESET_DEFAULT",
    "REASONS",
    "RULE_CHOICES",
    "RULE_PAGES",
    "SERVER_ONLY",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "UNEXPECTED",
    "Rendered",
    "action_text",
    "answer",
    "button",
    "cancel_confirm",
    "card_text",
    "catch_up_posts",
    "channel_defaults_text",
    "computer_level_picker",
    "describe",
    "fit",
    "hand_message",
    "host_panel",
    "jump_url",
    "leaderboard_embed",
    "leave_confirm",
    "notice_text",
    "reason_text",
    "refusal",
    "relative_time",
    "rules_editor",
    "rules_summary",
    "scores_text",
    "table_message",
    "trump_text",
]
