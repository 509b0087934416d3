"""Work that waits for a pause in typing: settling the heap, the load-line check.

Run beside the first keystrokes after a start, they delayed the first word: settling the heap
(a full collection and giving memory back, 10–50 ms at 50,000 entries) and the load-line check
(~40 ms in a thread, holding the GIL) landed on the first word typed after a warm start. The
main screen owns one `IdleJobs` and lends it its timer.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.timer import Timer

IDLE_S = 0.3
"""How long no key must come before the waiting jobs run."""

SetTimer = Callable[[float, Callable[[], object]], Timer]
"""`set_timer` of the widget that owns the jobs (its timers stop with it)."""


class IdleJobs:
    """Jobs by name, run once no key came for IDLE_S: a job asked for twice runs once."""

    def __init__(self, set_timer: SetTimer) -> None:
        self._set_timer = set_timer
        self._timer: Timer | None = None
        self._jobs: dict[str, Callable[[], object]] = {}

    def add(self, name: str, job: Callable[[], object]) -> None:
        """Run `job` once typing pauses (replacing a waiting job of the same name)."""
        self._jobs[name] = job
        self._restart()

    def key_pressed(self) -> None:
        """A key came: waiting jobs wait for the next pause (not between a key and its paint)."""
        if self._timer is not None:
            self._restart()

    def stop(self) -> None:
        """Drop every waiting job (a closed screen's jobs would keep it, and its engine, alive)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self._jobs = {}

    def _restart(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._timer = self._set_timer(IDLE_S, self._run)

    def _run(self) -> None:
        self._timer = None
        jobs, self._jobs = self._jobs, {}
        for job in jobs.values():
            job()
