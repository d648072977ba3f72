"""A desktop for headed browsers: an X server without a screen (Xvfb), a window manager (openbox),
and what a user does to the browser's window: cover it with another application's window,
minimize it, look at which window is active and which is on top.

tests/desktop/install.sh installs the Debian packages this needs (xvfb, openbox, xdotool,
x11-utils). Each Desktop takes a display number no other X server uses, and ends its processes.

The waits are for what the desktop's programs say themselves (Xvfb the display it serves, openbox
that it manages the screen, the window manager's properties on the root window), bounded, and say
what they saw when they give up: on a loaded machine (two cores, load 6) a start takes many times
its usual half second, and a window manager that did not come up was seen once in a full run.
"""

from __future__ import annotations

import os
import select
import shlex
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from PIL import Image

TOOLS = ("Xvfb", "openbox", "xdotool", "xmessage", "xprop", "scrot")

#: how many times the desktop starts its X server and window manager before it gives up
STARTS = 3
#: how long one start of Xvfb or openbox may take: they take well under a second on an idle machine
START_TIMEOUT = 20.0


def missing_tools() -> list[str]:
    return [tool for tool in TOOLS if shutil.which(tool) is None]


class Started:
    """A program the desktop started, its stderr in a file of its own, read back when a wait on it fails."""

    def __init__(self, command: list[str], log: Path, **popen) -> None:
        self.name = command[0]
        self.log = log
        with log.open("wb") as stderr:
            self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr, **popen)

    def running(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def account(self) -> str:
        """Whether it runs or how it ended, and the end of what it wrote to stderr."""
        code = self.process.poll()
        state = "running" if code is None else f"exited with {code}"
        try:
            said = self.log.read_text(errors="replace").strip().splitlines()[-5:]
        except OSError:
            said = []
        return f"{self.name} (pid {self.process.pid}) {state}; its stderr " + (
            f"ended: {' | '.join(said)}" if said else "was empty"
        )


class Desktop:
    """Xvfb on a free display with openbox managing it; ``env`` is what a program started there needs."""

    def __init__(self, width: int = 1920, height: int = 1080) -> None:
        self.width, self.height = width, height
        #: a folder for what is taken of the screen, and the desktop's programs' stderr
        self.tmp = Path(tempfile.mkdtemp(prefix="tabsight-desktop-"))
        self._cover: Started | None = None
        self._x_server: Started | None = None
        self._window_manager: Started | None = None
        #: the process of each window browser_windows() listed, as it was then
        self._owners: dict[int, int | None] = {}
        self.display = ""
        #: the environment of a program run on the desktop
        self.env: dict[str, str] = {}
        try:
            self._start()
        except BaseException:
            self.close()
            raise

    def _start(self) -> None:
        """Xvfb, then openbox on it; both ended and started again (a few times) when one does not come up in
        time: a program stuck at its start is not waited on for the whole of a test's time, and a window
        manager that hangs on its X server gets a new one."""
        failed: list[str] = []
        for attempt in range(1, STARTS + 1):
            problem = self._start_x_server(attempt) or self._start_window_manager(attempt)
            if not problem:
                return
            failed.append(f"attempt {attempt}: {problem}")
            for started in (self._window_manager, self._x_server):
                if started:
                    started.stop()
            self._window_manager = self._x_server = None
        load = ", ".join(f"{figure:.1f}" for figure in os.getloadavg())
        raise RuntimeError(
            f"the desktop did not start in {STARTS} attempts (load average {load}): " + "; ".join(failed)
        )

    def _start_x_server(self, attempt: int) -> str | None:
        """Xvfb on a display it picks itself: it writes the display's number to a pipe (-displayfd) once it
        accepts connections there, so two desktops started at once (a test run beside a bench) never race
        for one, and nothing needs to poll for the server. What went wrong, or None."""
        read, write = os.pipe()
        try:
            self._x_server = Started(
                [
                    "Xvfb",
                    "-displayfd",
                    str(write),
                    "-screen",
                    "0",
                    f"{self.width}x{self.height}x24",
                    "-nolisten",
                    "tcp",
                ],
                self.tmp / f"xvfb-{attempt}.log",
                pass_fds=(write,),
            )
        finally:
            os.close(write)
        with os.fdopen(read) as pipe:
            # the pipe ends without a number when Xvfb exits; a server stuck before it listens writes nothing
            ready, _, _ = select.select([pipe], [], [], START_TIMEOUT)
            number = pipe.readline().strip() if ready else ""
        if number.isdigit():
            self.display = f":{number}"
            self.env = dict(os.environ, DISPLAY=self.display)
            return None
        waited = "gave no display" if ready else f"gave no display in {START_TIMEOUT:.0f} s"
        return f"Xvfb {waited}: {self._x_server.account()}"

    def _start_window_manager(self, attempt: int) -> str | None:
        """openbox, waited on until it runs its --startup command, which it does once it holds the screen
        and has taken every window on it in hand, just before it goes into its event loop (the root
        window's _NET_SUPPORTED, waited on before, is set as it takes the screen, before it loads its
        theme and fonts). What went wrong, or None."""
        managing = self.tmp / f"openbox-{attempt}.managing"
        # --sm-disable: no session manager to wait on
        self._window_manager = Started(
            ["openbox", "--sm-disable", "--startup", f"touch {shlex.quote(str(managing))}"],
            self.tmp / f"openbox-{attempt}.log",
            env=self.env,
        )
        deadline = time.monotonic() + START_TIMEOUT
        while not managing.exists() and self._window_manager.running() and time.monotonic() < deadline:
            time.sleep(0.05)
        if managing.exists():
            return None
        waited = (
            "ended before it managed the screen"
            if not self._window_manager.running()
            else f"did not manage the screen in {START_TIMEOUT:.0f} s"
        )
        try:
            root = _said(self._x("xprop", "-root", "_NET_SUPPORTING_WM_CHECK", "_NET_ACTIVE_WINDOW"))
        except subprocess.TimeoutExpired:
            root = "xprop -root got no answer from the X server"
        return f"openbox {waited}: {self._window_manager.account()}; {self._x_server.account()}; {root}"

    def close(self) -> None:
        self.uncover()
        for started in (self._window_manager, self._x_server):
            if started:
                started.stop()
        shutil.rmtree(self.tmp, ignore_errors=True)

    # -- what a user does -----------------------------------------------------------------------

    def cover(self) -> int:
        """Another application's window over the whole screen, focused, as an IDE in front; its id. Waited on
        until the window manager says it is the active window (_NET_ACTIVE_WINDOW), which it sets once it
        mapped and focused the new window."""
        self.uncover()
        self._cover = Started(
            ["xmessage", "-geometry", f"{self.width}x{self.height}+0+0", "the IDE, in front"],
            self.tmp / "xmessage.log",
            env=self.env,
        )
        cover = self._cover
        _until(
            lambda: self.window_name(self.active_window()) == "xmessage" or not cover.running(),
            "the covering window to take the focus",
            self._focus_seen,
        )
        if not cover.running():
            raise RuntimeError(f"the covering window went: {cover.account()}")
        return self.active_window()

    def press(self, keys: str) -> None:
        """Keys pressed on the keyboard (xdotool's names: ``ctrl+Tab``), into the window that has the focus."""
        self._x("xdotool", "key", keys).check_returncode()

    def uncover(self) -> None:
        if self._cover:
            self._cover.stop()
            self._cover = None

    def browser_windows(self) -> list[int]:
        """The browsers' managed top-level windows; the process of each is noted for new_browser_window."""
        windows = self._browser_windows()
        self._owners.update((window, self.window_pid(window)) for window in windows)
        return windows

    def _browser_windows(self) -> list[int]:
        found = self._x("xdotool", "search", "--class", "chromium").stdout.split()
        return [int(window) for window in found if self.window_state(int(window)) is not None]

    def new_browser_window(self, others: set[int], title: str = "", timeout: float = 60) -> int:
        """The browser window that is not among ``others`` (from browser_windows()) and whose name begins with
        ``title`` (Chromium names a window after its front tab), once the window manager lists it: a window is
        mapped a moment after the browser answers its first call, and its name follows the page's title. A
        window of ``others`` that another process has now is new: the X server gives the ids of a client gone
        to the next one to connect, and a browser that quits as the next one starts hands its window's id on
        (a headed fixture waited on the window of the test before's browser so, under load)."""
        seen: set[int] = set()

        def new(window: int) -> bool:
            return window not in others or self.window_pid(window) != self._owners.get(window)

        def one_new() -> bool:
            # a window's state reads at times as none for a moment: the window is the one seen, not read again
            seen.clear()
            seen.update(
                window
                for window in self._browser_windows()
                if new(window) and self.window_name(window).startswith(title)
            )
            return len(seen) == 1

        def new_ones() -> str:
            found = [
                (window, self.window_pid(window), self.window_name(window), self.window_state(window))
                for window in map(int, self._x("xdotool", "search", "--class", "chromium").stdout.split())
                if new(window)
            ]
            return f"the new windows of class chromium (id, pid, name, state): {found}"

        _until(one_new, f"the browser's window showing {title!r} to be mapped", new_ones, timeout)
        (window,) = seen
        return window

    def minimize(self, window: int) -> None:
        """Waited on until the window manager set the window's WM_STATE to Iconic."""
        asked = self._x("xdotool", "windowminimize", str(window))
        _until(
            lambda: self.window_state(window) == "Iconic",
            "the window to be minimized",
            lambda: f"its state: {self.window_state(window)}; {_said(asked)}",
        )

    def activate(self, window: int) -> None:
        """Waited on until the window manager names the window in _NET_ACTIVE_WINDOW."""
        asked = self._x("xdotool", "windowactivate", str(window))
        _until(
            lambda: self.active_window() == window,
            "the window to be active",
            lambda: f"{self._focus_seen()}; {_said(asked)}",
        )

    # -- what the user sees -----------------------------------------------------------------------

    def active_window(self) -> int | None:
        out = self._x("xdotool", "getactivewindow").stdout.strip()
        return int(out) if out.isdigit() else None

    def window_name(self, window: int | None) -> str:
        return self._x("xdotool", "getwindowname", str(window)).stdout.strip() if window else ""

    def top_window(self) -> int | None:
        """The managed window on top of all others."""
        stacking = self._x("xprop", "-root", "_NET_CLIENT_LIST_STACKING").stdout.split("#")[-1]
        windows = [int(w.strip(), 16) for w in stacking.split(",") if w.strip().startswith("0x")]
        return windows[-1] if windows else None

    def popups(self) -> list[int]:
        """Viewable windows no window manager handles (menus, tooltips): override-redirect top-level ones."""
        tree = self._x("xwininfo", "-root", "-children").stdout
        found = []
        for line in tree.splitlines():
            if line.strip().startswith("0x"):
                window = line.split()[0]
                info = self._x("xwininfo", "-id", window).stdout
                if "Override Redirect State: yes" in info and "Map State: IsViewable" in info:
                    found.append(int(window, 16))
        return found

    def window_pid(self, window: int) -> int | None:
        """The process that made the window (its _NET_WM_PID, which Chromium sets), if it says."""
        out = self._x("xprop", "-id", str(window), "_NET_WM_PID").stdout
        figure = out.rsplit("=", 1)[-1].strip()
        return int(figure) if figure.isdigit() else None

    def window_state(self, window: int) -> str | None:
        """Normal, Iconic (minimized) or Withdrawn; None for a window that is not a managed top-level one."""
        out = self._x("xprop", "-id", str(window), "WM_STATE").stdout
        for line in out.splitlines():
            if "window state:" in line:
                return line.split(":", 1)[1].strip()
        return None

    def _focus_seen(self) -> str:
        active = self.active_window()
        return f"the active window: {active} {self.window_name(active)!r}; {self._window_manager.account()}"

    def _x(self, *command: str) -> subprocess.CompletedProcess:
        # an X tool answers in milliseconds; the bound is for an X server that no longer answers at all
        return subprocess.run(command, env=self.env, capture_output=True, text=True, timeout=30)


def _said(run: subprocess.CompletedProcess) -> str:
    return f"{' '.join(run.args)} exited with {run.returncode}, printing {(run.stdout + run.stderr).strip()!r}"


def _until(condition, what: str, seen=None, timeout: float = 60) -> None:
    """Polls ``condition`` until it holds; on a timeout, says what ``seen`` (a function) reads then. The bound
    is many times what the wait takes on an idle machine, for one with other work on its two cores."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}" + (f"; {seen()}" if seen else ""))
        time.sleep(0.1)


#: the Cancel button of the debugging bar (Chromium's blue call-to-action button)
CANCEL_BLUE = (11, 87, 208)


def cancel_button(desktop: Desktop) -> tuple[int, int] | None:
    """Where the debugging bar's Cancel button is on the screen, by its colour; None if no bar shows it."""
    shot = desktop.tmp / "screen.png"
    subprocess.run(["scrot", "-o", str(shot)], env=desktop.env, check=True, timeout=10)
    screen = Image.open(shot).convert("RGB").crop((0, 0, desktop.width, 300))
    points = [
        (x, y)
        for y in range(0, screen.height, 2)
        for x in range(0, screen.width, 2)
        if max(abs(a - b) for a, b in zip(screen.getpixel((x, y)), CANCEL_BLUE)) < 12
    ]
    if len(points) < 50:
        return None
    xs, ys = sorted(x for x, _ in points), sorted(y for _, y in points)
    return xs[len(xs) // 2], ys[len(ys) // 2]


def click_cancel(desktop: Desktop, timeout: float = 30) -> None:
    """Clicks Cancel on the debugging bar, as the user does, once the button shows at the same place in two
    looks in a row: Chrome draws the bar a moment after the debugger attached, and slides it in."""
    seen: list[tuple[int, int] | None] = [None]

    def settled() -> bool:
        seen.append(cancel_button(desktop))
        return seen[-1] is not None and seen[-1] == seen[-2]

    _until(
        settled,
        "the debugging bar's Cancel button to show, in place",
        lambda: f"where it was seen: {seen[-5:]}",
        timeout,
    )
    button = seen[-1]
    subprocess.run(
        ["xdotool", "mousemove", str(button[0]), str(button[1]), "click", "1"], env=desktop.env, check=True, timeout=10
    )
