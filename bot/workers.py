"""The processes computer players think in: they hold none of the bot's sockets or files, and
they die with the bot however it dies (SIGKILL included), so a restarted bot finds its port
and its database free.

They are forked by multiprocessing's fork server, not by the bot: the fork server is started
with a fresh `exec` that passes it only its own pipe (every other descriptor closed), so its
workers never hold the metrics' listening socket, a gateway connection, a PostgreSQL
connection or the SQLite file, whenever the pool starts its first worker. A process forked
from the bot itself would hold whatever the bot had open at that moment. The fork server
imports the computer players' code once (`PRELOAD`), and the bot starts every worker while it
logs in (`start_workers`), so the first move waits for none of it, and a decision costs what
it did.

A worker exits when the bot is gone: the fork server exits when its pipe from the bot closes,
and each worker asks Linux for SIGKILL when its parent dies (prctl PR_SET_PDEATHSIG); a thread
in each worker also checks once a second that it still has the same parent and the bot is
alive (elsewhere than Linux, and for a death between the fork and the prctl).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import ctypes
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time

PRELOAD = ["bot.app", "bot.ai"]
"""What the fork server imports before forking workers (the decision and its players)."""
WATCH_EVERY = 1.0
"""Seconds between a worker's looks at whether the bot is still there."""
PR_SET_PDEATHSIG = 1


def worker_pool(workers: int, log_level: str = "WARNING") -> concurrent.futures.Executor:
    """A pool of `workers` processes for the computer players (see above)."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    return concurrent.futures.ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=die_with,
        initargs=(os.getpid(), log_level),
    )


def start_workers(pool: concurrent.futures.Executor, workers: int) -> None:
    """Start every worker now (blocking: run it in a thread while the bot logs in), so that
    the first computer move does not wait for the fork server to import the players' code."""
    for ready in [pool.submit(os.getpid) for _ in range(workers)]:
        ready.result()


def die_with(bot_pid: int, log_level: str = "WARNING") -> None:
    """In a new worker: exit when the bot (`bot_pid`) or this worker's parent is gone."""
    logging.basicConfig(level=log_level, format="%(asctime)s %(levelname)-7s %(name)s: %(message)s")
    parent = os.getppid()
    if sys.platform == "linux":
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if not _alive(bot_pid, parent):  # it died before the prctl
        os._exit(1)
    threading.Thread(target=_watch, args=(bot_pid, parent), daemon=True).start()


def _watch(bot_pid: int, parent: int) -> None:
    while _alive(bot_pid, parent):
        time.sleep(WATCH_EVERY)
    os._exit(1)


def _alive(bot_pid: int, parent: int) -> bool:
    if os.getppid() != parent:  # the parent died: this worker was handed to another
        return False
    try:
        os.kill(bot_pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process now has the bot's pid
        return False
    return not _zombie(bot_pid)


def _zombie(pid: int) -> bool:
    """Whether `pid` has died and waits for its parent to read its exit (Linux; else False)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[0] == b"Z"
    except (OSError, IndexError):
        return False
