"""The engine a headless command searches: started from the verified cache, like the app, and
the cache written back after the output, in a detached child.

`rank`, `list` and `health` read each root's cache with the app's checks (each file's stat, a
digest when the stat is ambiguous; a corrupt or foreign cache is ignored with a warning) and
read only the files that changed. When they had to read files, the cache is written again, but
never while the caller waits: the output is flushed first and the write (with the index built
first, so the next `rank` starts warm too) runs in a grandchild that outlives the command
(`core.live.fork.run_detached`). The command waits only for a fork, a few milliseconds, however
large the corpus; writing inline would cost a warm start that changed one file the whole
encode (~0.3 s at 50,000 entries) for a read that took a millisecond. Two commands that write at
once each replace the file by rename, so a reader sees one whole cache or the other.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress

from memtui.core.cache.folder import CacheFolder
from memtui.core.live.engine import Engine
from memtui.core.live.fork import run_detached
from memtui.startup import Startup


def open_engine(startup: Startup) -> Engine:
    """The engine on the startup's roots (not loaded yet), with the cache unless it is off
    (`--no-cache`, `cache = false`). One query is asked of it: typo buckets and prefix sums
    are made only if that query needs them."""
    return Engine(
        startup.require_roots(),
        startup.config,
        today=startup.today,
        days=startup.days,
        cache=CacheFolder() if startup.config.cache else None,
        prepare=False,
    )


@contextmanager
def cache_saved_after(engine: Engine) -> Iterator[None]:
    """Print the output inside; then, if what is loaded differs from the cache, write it once
    everything printed has reached the caller, in a detached child where one can be started.

    Also when the reader left mid-output (`memtui rank … | head`): the next call should start
    warm all the same, and the cache is not the output's to lose."""
    try:
        yield
    finally:
        if engine.cache_stale:
            with suppress(BrokenPipeError):  # the reader left: what it read has reached it
                sys.stdout.flush()
            sys.stderr.flush()
            if not run_detached(lambda: _save(engine)):
                _save(engine)


def _save(engine: Engine) -> None:
    engine.build_index()
    engine.save_cache()
