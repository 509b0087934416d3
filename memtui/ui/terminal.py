"""The terminal the app runs on: the controlling terminal whatever stdin and stdout are, and an
end that is orderly and bounded, so a terminal that goes away never leaves memtui behind.

Like fzf, the app draws on `/dev/tty`: `memtui pick > out.md` and `"$(memtui pick)"` get the
real window, at its real size, following resizes, and only what is printed after the app has
ended reaches the real stdout. Textual's Linux driver reads fd 0, writes fd 2 and takes the size
from fd 1; for the app's run all three are the terminal, and the real ones come back after.

SIGHUP, SIGTERM, SIGINT and SIGQUIT end the app the orderly way (the terminal restored, exit
128 + the signal), and a watchdog ends the process `GRACE_S` after the signal whatever the
orderly way is waiting for (a writer on a vanished terminal, a worker blocked in `open()`):
it restores the terminal itself when one is still there, then `os._exit`. While a program
memtui started has the terminal (the editor, see `running_on_the_terminal`), SIGHUP and
SIGTERM are passed on to it, so it is not left running on a terminal that is gone or that the
shell takes back; SIGINT and SIGQUIT are ignored meanwhile, as `system(3)` does: they are
ctrl+c and ctrl+\\ typed in that program, which gets them itself.

Why a hangup used to hang (Textual 8.2): when a terminal goes away the kernel sends its session
leader SIGHUP *and SIGCONT*. Textual's driver takes every SIGCONT for the end of a ctrl+z and
starts its terminal mode again: a second writer thread, whose first write to the dead terminal
fails (EIO) and kills it. Its queue holds 30 writes; the next ones block the event loop in
`Queue.put` for good, the first writer idles in `Queue.get`, and signal handlers that run on
the event loop never run. `TerminalDriver` resumes only after a stop it saw, on a terminal
still there; drops writes to a terminal that is gone; and waits for the writer a bounded time.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import termios
import threading
from collections.abc import Callable, Iterator
from types import FrameType, TracebackType
from typing import Any

from textual.app import App
from textual.drivers.linux_driver import LinuxDriver

from memtui.errors import UsageError
from memtui.standard_streams import null_device_on

ENDING_SIGNALS = (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGTERM)
"""Signals that end the app with 128 + their number, the terminal restored."""

GRACE_S = 1.2
"""How long the orderly end may take after a signal before the process ends regardless."""

MOUNT_POLL_S = 0.02
"""How often an exit asked for during start-up checks whether the first screen has mounted."""

CLOSE_S = 0.5
"""How long closing the driver waits for its writer thread to write what is queued."""

RESTORE = (
    b"\x1b[<u"  # kitty keyboard protocol off
    b"\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?1016l"  # mouse reporting off
    b"\x1b[?2004l"  # bracketed paste off
    b"\x1b[?1004l"  # focus reports off
    b"\x1b[?7h"  # line wrap on
    b"\x1b[?1049l"  # the main screen back
    b"\x1b[?25h"  # cursor shown
)
"""What the watchdog writes to a terminal still there: what Textual's orderly end writes."""

PASSED_ON = (signal.SIGHUP, signal.SIGTERM)
"""Ending signals passed on to a program running on the terminal before the app ends."""

Handler = Callable[[int, FrameType | None], Any]

_programs: set[int] = set()
"""Process ids of the programs memtui runs on the terminal now (`running_on_the_terminal`)."""


@contextlib.contextmanager
def running_on_the_terminal(pid: int) -> Iterator[None]:
    """While the program `pid` has the terminal (the app suspended for it), an ending signal
    is its first: SIGHUP and SIGTERM are passed on to it, SIGINT and SIGQUIT are left to it."""
    _programs.add(pid)
    try:
        yield
    finally:
        _programs.discard(pid)


def gate_resume(present: Callable[[], bool]) -> None:
    """Let Textual's SIGCONT handler restart the terminal mode only after its SIGTSTP handler
    stopped it (ctrl+z), and only on a terminal that is still there (see the module docstring).
    """
    on_stop = signal.getsignal(signal.SIGTSTP)
    on_continue = signal.getsignal(signal.SIGCONT)
    if not callable(on_stop) or not callable(on_continue):
        return
    stopped = threading.Event()

    def stop(number: int, frame: FrameType | None) -> None:
        stopped.set()
        on_stop(number, frame)

    def resume(number: int, frame: FrameType | None) -> None:
        if stopped.is_set():
            stopped.clear()
            if present():
                on_continue(number, frame)

    signal.signal(signal.SIGTSTP, stop)
    signal.signal(signal.SIGCONT, resume)


class TerminalDriver(LinuxDriver):
    """Textual's Linux driver, kept from hanging when its terminal goes away."""

    def __init__(
        self,
        app: App[Any],
        *,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size)
        gate_resume(self.terminal_present)

    def terminal_present(self) -> bool:
        """False once the terminal hung up (every call on a hung-up terminal fails)."""
        return os.isatty(self.fileno)

    def write(self, data: str) -> None:
        """Queue `data` for the writer thread, unless the terminal is gone: the writer died on
        its first write to it, and a full queue would block the event loop."""
        if self.terminal_present():
            super().write(data)

    def close(self) -> None:
        """Stop the writer thread, waiting at most CLOSE_S (a dead writer never ends)."""
        closing = threading.Thread(target=super().close, name="memtui-close", daemon=True)
        closing.start()
        closing.join(CLOSE_S)


def restore_terminal(attributes: list[Any] | None) -> None:
    """The terminal as it was before the app, if it is still there: written without blocking
    (a stalled terminal must not stall the exit), on a descriptor of its own."""
    try:
        fd = os.open("/dev/tty", os.O_WRONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.write(fd, RESTORE)
        if attributes is not None:
            with contextlib.suppress(OSError, termios.error):
                termios.tcsetattr(fd, termios.TCSANOW, attributes)
    finally:
        os.close(fd)


class Watchdog:
    """Ends the process GRACE_S after it is armed, restoring the terminal first if the app has
    not. Its thread starts idle, before any signal: a signal handler must not start a thread
    (it may interrupt the main thread while that holds threading's own locks)."""

    def __init__(self, attributes: list[Any] | None) -> None:
        self.attributes = attributes
        self.exit_code: int | None = None
        self.restored = False
        """The app ended the orderly way, so the terminal is already restored (or gone)."""
        self._armed = threading.Event()
        self._thread = threading.Thread(target=self._wait, name="memtui-watchdog", daemon=True)
        self._thread.start()

    def arm(self, exit_code: int) -> None:
        if self.exit_code is None:
            self.exit_code = exit_code
        self._armed.set()

    def disarm(self) -> None:
        """No signal came: let the thread end."""
        self._armed.set()

    def _wait(self) -> None:
        self._armed.wait()
        if self.exit_code is None:
            return
        threading.Event().wait(GRACE_S)
        if not self.restored:
            restore_terminal(self.attributes)
        os._exit(self.exit_code)


class OnTheTerminal:
    """`with OnTheTerminal(app): app.run()`: the app on the controlling terminal, ended by the
    ENDING_SIGNALS within GRACE_S. Raises UsageError when there is no terminal to draw on."""

    def __init__(self, app: App[Any]) -> None:
        self.app = app
        self._tty = -1
        self._saved: list[int] = []
        self._terminals: set[int] = set()
        """Which of fds 0-2 were a terminal before the app (after a hangup: that one)."""
        self._handlers: dict[int, Any] = {}
        self._watchdog: Watchdog | None = None

    def __enter__(self) -> OnTheTerminal:
        try:
            self._tty = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY | os.O_CLOEXEC)
        except OSError as exc:
            raise UsageError(
                f"no terminal to draw on (/dev/tty: {exc.strerror or exc}); "
                "memtui needs one, even when stdin and stdout are redirected"
            ) from None
        attributes: list[Any] | None
        try:
            attributes = termios.tcgetattr(self._tty)
        except termios.error:
            attributes = None
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                with contextlib.suppress(OSError, ValueError):
                    stream.flush()
        for fd in (0, 1, 2):  # all open: `cli.entry` opened a closed one on the null device
            self._saved.append(os.dup(fd))
            if os.isatty(fd):
                self._terminals.add(fd)
            os.dup2(self._tty, fd)
        self._watchdog = Watchdog(attributes)
        for number in ENDING_SIGNALS:
            self._handlers[number] = signal.signal(number, self._on_signal)
        self.app.driver_class = TerminalDriver
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> bool:
        """Put the real stdin, stdout and stderr back (those that were the terminal become
        /dev/null if it hung up). An OSError after a hangup (Textual printing to the vanished
        terminal) is the hangup, not an error: it is swallowed."""
        gone = not os.isatty(self._tty)
        watchdog = self._watchdog
        if watchdog is not None:
            watchdog.restored = True
            if watchdog.exit_code is None:
                watchdog.disarm()
        for number, handler in self._handlers.items():
            signal.signal(number, handler)
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                with contextlib.suppress(OSError, ValueError):
                    stream.flush()
        for fd, saved in enumerate(self._saved):
            if gone and fd in self._terminals and not os.isatty(saved):
                # The vanished terminal: /dev/null instead, so that what is still buffered
                # (a dying thread's traceback) cannot fail the exit with code 120.
                null_device_on(fd)
            else:
                os.dup2(saved, fd)
            os.close(saved)
        os.close(self._tty)
        return isinstance(error, OSError) and gone and self.signalled is not None

    @property
    def signalled(self) -> int | None:
        """128 + the signal that ended the app, if one did."""
        return None if self._watchdog is None else self._watchdog.exit_code

    def _on_signal(self, number: int, frame: FrameType | None) -> None:
        """Ask the app to exit on its event loop, and arm the watchdog in case it cannot;
        first pass a hangup or a termination on to a program running on the terminal."""
        if _programs:
            if number not in PASSED_ON:
                return  # typed in that program: its own keys (ctrl+c, ctrl+backslash)
            for pid in tuple(_programs):
                with contextlib.suppress(OSError):
                    os.kill(pid, number)
        code = 128 + number
        if self._watchdog is not None:
            self._watchdog.arm(code)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # the app's loop has not started, or has ended
            raise SystemExit(code) from None
        loop.call_soon_threadsafe(self._exit_app, code)

    def _exit_app(self, code: int) -> None:
        """Exit now, or once the app's first screen has mounted: after an exit Textual mounts
        nothing, and a screen composed then would lack its widgets (and crash)."""
        stack = self.app.screen_stack
        if len(stack) < 2 or not stack[-1].is_mounted:
            asyncio.get_running_loop().call_later(MOUNT_POLL_S, self._exit_app, code)
            return
        self.app.exit(return_code=code)
