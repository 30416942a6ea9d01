"""The schema, as a list of migrations: entry i moves a database from version i to i + 1.

An entry is an SQL script (statements separated by ";"), or a coroutine function given the
connection, for a step SQL alone cannot do (rating every stored result). Either way it runs in
one transaction with the version bump. One list for both backends: the scripts are written in
SQLite's column types, which the PostgreSQL backend maps (bot/storage/postgres.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.storage.connection import Connection
from bot.storage.replay import add_rating_order, add_ratings, rate_again_as_the_mean

Migration = str | Callable[[Connection], Awaitable[None]]

# Each entry moves the schema from version i to i + 1. Never edit a released entry: add one.
MIGRATIONS: tuple[Migration, ...] = (
    """
    CREATE TABLE tables (
        id          INTEGER PRIMARY KEY,
        guild_id    INTEGER NOT NULL,
        channel_id  INTEGER NOT NULL,
        message_id  INTEGER,
        host_id     INTEGER NOT NULL,
        status      TEXT    NOT NULL,
        preset      TEXT    NOT NULL,
        document    TEXT    NOT NULL,
        version     INTEGER NOT NULL DEFAULT 1,
        created_at  REAL    NOT NULL,
        updated_at  REAL    NOT NULL
    );
    CREATE UNIQUE INDEX one_open_table_per_channel
        ON tables (channel_id) WHERE status IN ('lobby', 'playing');
    CREATE INDEX tables_by_status ON tables (status);

    CREATE TABLE events (
        table_id  INTEGER NOT NULL REFERENCES tables (id),
        seq       INTEGER NOT NULL,
        at        REAL    NOT NULL,
        user_id   INTEGER,
        kind      TEXT    NOT NULL,
        payload   TEXT    NOT NULL,
        PRIMARY KEY (table_id, seq)
    );

    CREATE TABLE results (
        table_id     INTEGER NOT NULL REFERENCES tables (id),
        guild_id     INTEGER NOT NULL,
        user_id      INTEGER NOT NULL,
        preset       TEXT    NOT NULL,
        place        INTEGER NOT NULL,
        players      INTEGER NOT NULL,
        points       INTEGER NOT NULL,
        bids_made    INTEGER NOT NULL,
        hands_played INTEGER NOT NULL,
        left_early   INTEGER NOT NULL DEFAULT 0,
        finished_at  REAL    NOT NULL,
        PRIMARY KEY (table_id, user_id)
    );
    CREATE INDEX results_by_guild ON results (guild_id, preset);
    """,
    # Deadlines (turn timers, lobby expiry, abandonment): the scheduler wakes at the earliest.
    # Per-channel defaults for /ohhell start.
    """
    ALTER TABLE tables ADD COLUMN due_at REAL;
    CREATE INDEX tables_by_due ON tables (due_at) WHERE due_at IS NOT NULL;

    CREATE TABLE channel_defaults (
        channel_id  INTEGER PRIMARY KEY,
        guild_id    INTEGER NOT NULL,
        settings    TEXT    NOT NULL,
        set_by      INTEGER NOT NULL,
        updated_at  REAL    NOT NULL
    );
    """,
    # Ratings (docs/ratings.md): results get a seat (computers are stored too, several of one
    # level at a table) and a `removed` flag; the rating tables; past results rated in order.
    add_ratings,
    # Discord's global REST limit, shared by the bot's processes on PostgreSQL
    # (bot/storage/budget.py): one token bucket, one row.
    """
    CREATE TABLE rest_budget (
        id       INTEGER PRIMARY KEY,
        tokens   REAL    NOT NULL,
        at       REAL    NOT NULL,
        granted  INTEGER NOT NULL DEFAULT 0
    );
    INSERT INTO rest_budget (id, tokens, at) VALUES (1, 0, 0)
    """,
    # The rating order (docs/ratings.md): each stored game's place in its server's order, in
    # which the past is rated again.
    add_rating_order,
    # The outbox (bot/storage/outbox.py): the channel posts a change requires, stored with it
    # and deleted once posted. A post is its table, its change's version and its place there.
    """
    CREATE TABLE outbox (
        table_id       INTEGER NOT NULL REFERENCES tables (id),
        version        INTEGER NOT NULL,
        idx            INTEGER NOT NULL,
        guild_id       INTEGER NOT NULL,
        channel_id     INTEGER NOT NULL,
        kind           TEXT    NOT NULL,
        payload        TEXT    NOT NULL,
        created_at     REAL    NOT NULL,
        claimed_until  REAL    NOT NULL,
        refused        INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (table_id, version, idx)
    );
    CREATE INDEX outbox_by_claim ON outbox (claimed_until);
    CREATE INDEX outbox_by_channel ON outbox (channel_id)
    """,
    # Leases (bot/storage/leases.py): what one process at a time may do for a while.
    """
    CREATE TABLE leases (
        kind    TEXT    NOT NULL,
        key     INTEGER NOT NULL,
        holder  TEXT    NOT NULL,
        until   REAL    NOT NULL,
        PRIMARY KEY (kind, key)
    )
    """,
    # The slash commands last synced, by application and scope (a guild's id, 0: global), as a
    # digest of their JSON: a start with the same commands does not sync them again.
    """
    CREATE TABLE command_syncs (
        application_id  INTEGER NOT NULL,
        scope           INTEGER NOT NULL,
        digest          TEXT    NOT NULL,
        synced_at       REAL    NOT NULL,
        PRIMARY KEY (application_id, scope)
    )
    """,
    # Ratings that mean skill (docs/ratings.md): the shown number is the mean, and the stored
    # past is rated again in its rating order to show it.
    rate_again_as_the_mean,
    # Servers the bot left, and when (bot/storage/retention.py): their data is erased once the
    # bot has been gone RETAIN_AFTER_LEAVE days, unless it is added back first.
    """
    CREATE TABLE servers_left (
        guild_id  INTEGER NOT NULL,
        left_at   REAL    NOT NULL,
        PRIMARY KEY (guild_id)
    )
    """,
    # Languages (bot/storage/languages.py): a person's client language, remembered for the DMs
    # the bot sends unasked, and a channel's language for its public messages when one is set.
    """
    CREATE TABLE person_locales (
        user_id     INTEGER NOT NULL,
        locale      TEXT    NOT NULL,
        updated_at  REAL    NOT NULL,
        PRIMARY KEY (user_id)
    );
    CREATE TABLE channel_languages (
        channel_id  INTEGER NOT NULL,
        guild_id    INTEGER NOT NULL,
        language    TEXT    NOT NULL,
        updated_at  REAL    NOT NULL,
        PRIMARY KEY (channel_id)
    )
    """,
    # Keys the bot makes for itself (bot/storage/secrets.py): the web pages' link key.
    """
    CREATE TABLE secrets (
        name        TEXT    NOT NULL,
        value       TEXT    NOT NULL,
        created_at  REAL    NOT NULL,
        PRIMARY KEY (name)
    )
    """,
)
