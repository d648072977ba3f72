"""A desktop for headed browsers: an X server without a screen (Xvfb), a window manager (openbox),
and what a user does to the browser's window: cover it with another application's window,
minimize it, look at which window is active and which is on top.

tests/desktop/install.sh installs the Debian packages this needs (xvfb, openbox, xdotool,
x11-utils). Each Desktop takes a display number no other X server uses, and ends its processes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from PIL import Image

TOOLS = ("Xvfb", "openbox", "xdotool", "xmessage", "xprop", "scrot")


def missing_tools() -> list[str]:
    return [tool for tool in TOOLS if shutil.which(tool) is None]


class Desktop:
    """Xvfb on a free display with openbox running on it; ``env`` is what a program started there needs."""

    def __init__(self, width: int = 1920, height: int = 1080) -> None:
        self.width, self.height = width, height
        #: a folder for what is taken of the screen
        self.tmp = Path(tempfile.mkdtemp(prefix="tabsight-desktop-"))
        self._cover: subprocess.Popen | None = None
        # Xvfb picks a free display itself and writes its number to the pipe: two desktops started at
        # once (a test run beside a bench) never race for one
        read, write = os.pipe()
        self._processes = [subprocess.Popen(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=(write,),
        )]
        os.close(write)
        try:
            with os.fdopen(read) as number:
                self.display = f":{number.readline().strip()}"
            if self.display == ":":
                raise RuntimeError("Xvfb did not start")
            self.env = dict(os.environ, DISPLAY=self.display)
            self._processes.append(subprocess.Popen(["openbox"], env=self.env, stdout=subprocess.DEVNULL,
                                                    stderr=subprocess.DEVNULL))
            _until(lambda: "_NET_ACTIVE_WINDOW" in self._x("xprop", "-root", "_NET_SUPPORTED").stdout,
                   "openbox to manage the screen")
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        self.uncover()
        shutil.rmtree(self.tmp, ignore_errors=True)
        for process in reversed(self._processes):
            process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()

    # -- what a user does -----------------------------------------------------------------------

    def cover(self) -> int:
        """Another application's window over the whole screen, focused, as an IDE in front; its id."""
        self.uncover()
        self._cover = subprocess.Popen(["xmessage", "-geometry", "1920x1080+0+0", "the IDE, in front"],
                                       env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _until(lambda: self.window_name(self.active_window()) == "xmessage", "the covering window to take the focus")
        return self.active_window()

    def press(self, keys: str) -> None:
        """Keys pressed on the keyboard (xdotool's names: ``ctrl+Tab``), into the window that has the focus."""
        self._x("xdotool", "key", keys).check_returncode()

    def uncover(self) -> None:
        if self._cover:
            self._cover.terminate()
            self._cover.wait(5)
            self._cover = None

    def browser_windows(self) -> list[int]:
        found = self._x("xdotool", "search", "--class", "chromium").stdout.split()
        return [int(window) for window in found if self.window_state(int(window)) is not None]

    def new_browser_window(self, others: set[int], title: str = "", timeout: float = 20) -> int:
        """The browser window that is not among ``others`` and whose name begins with ``title`` (Chromium names a
        window after its front tab), once the window manager lists it: a window is mapped a moment after the
        browser answers its first call, and its name follows the page's title."""
        seen: set[int] = set()

        def one_new() -> bool:
            # a window's state reads at times as none for a moment: the window is the one seen, not read again
            seen.clear()
            seen.update(window for window in set(self.browser_windows()) - others
                        if self.window_name(window).startswith(title))
            return len(seen) == 1

        try:
            _until(one_new, f"the browser's window showing {title!r} to be mapped", timeout)
        except TimeoutError as timeout_error:
            found = [(window, self.window_name(window), self.window_state(window))
                     for window in map(int, self._x("xdotool", "search", "--class", "chromium").stdout.split())
                     if window not in others]
            raise TimeoutError(f"{timeout_error}; the new windows of class chromium: {found}") from None
        (window,) = seen
        return window

    def minimize(self, window: int) -> None:
        self._x("xdotool", "windowminimize", str(window))
        _until(lambda: self.window_state(window) == "Iconic", "the window to be minimized")

    def activate(self, window: int) -> None:
        self._x("xdotool", "windowactivate", str(window))
        _until(lambda: self.active_window() == window, "the window to be active")

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

    def window_state(self, window: int) -> str | None:
        """Normal, Iconic (minimized) or Withdrawn; None for a window that is not a managed top-level one."""
        out = self._x("xprop", "-id", str(window), "WM_STATE").stdout
        for line in out.splitlines():
            if "window state:" in line:
                return line.split(":", 1)[1].strip()
        return None

    def _x(self, *command: str) -> subprocess.CompletedProcess:
        return subprocess.run(command, env=self.env, capture_output=True, text=True, timeout=10)


def _until(condition, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        time.sleep(0.05)


#: the Cancel button of the debugging bar (Chromium's blue call-to-action button)
CANCEL_BLUE = (11, 87, 208)


def cancel_button(desktop: Desktop) -> tuple[int, int] | None:
    """Where the debugging bar's Cancel button is on the screen, by its colour; None if no bar shows it."""
    shot = desktop.tmp / "screen.png"
    subprocess.run(["scrot", "-o", str(shot)], env=desktop.env, check=True, timeout=10)
    screen = Image.open(shot).convert("RGB").crop((0, 0, desktop.width, 300))
    points = [(x, y) for y in range(0, screen.height, 2) for x in range(0, screen.width, 2)
              if max(abs(a - b) for a, b in zip(screen.getpixel((x, y)), CANCEL_BLUE)) < 12]
    if len(points) < 50:
        return None
    xs, ys = sorted(x for x, _ in points), sorted(y for _, y in points)
    return xs[len(xs) // 2], ys[len(ys) // 2]


def click_cancel(desktop: Desktop) -> None:
    """Clicks Cancel on the debugging bar, as the user does."""
    button = cancel_button(desktop)
    assert button is not None, "the debugging bar is not showing"
    subprocess.run(["xdotool", "mousemove", str(button[0]), str(button[1]), "click", "1"], env=desktop.env,
                   check=True, timeout=10)
