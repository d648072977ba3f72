"""Which browser is which: channel and profile found by the host (nativehost/whoami.py), the names fronts give
browsers, and the default browser being the one the user used last (not the one started last).

The pure functions run against folders made under tmp_path (a fabricated /proc, user data folders, LevelDB
files); the browser tests check the same on a real Chromium's profile and over a real MCP client.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path

import pytest

from fakes import FakeBrowser, fake_session
from harness.calls import payload
from tabsight import __version__, config
from tabsight.browser.client import BrowserClient
from tabsight.nativehost import router, whoami
from tabsight.nativehost.router import Host
from tabsight.paths import extension_id
from tabsight.protocol import frames
from tabsight.tools.dispatch import call

pytestmark = pytest.mark.anyio

EXT = "hbooaagihpfknnhjielgeceggkhmpkaf"
PROFILE_ID = "50f230cb-c539-47f3-9075-28b8ae02e126"


def test_the_extension_id_is_the_one_the_manifest_key_gives():
    assert extension_id() == EXT


# --- the pure module -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("executable", "platform", "channel"),
    [
        ("/opt/google/chrome/chrome", "linux", "stable"),
        ("/opt/google/chrome-beta/chrome", "linux", "beta"),
        ("/opt/google/chrome-unstable/chrome", "linux", "dev"),
        ("/opt/google/chrome-canary/chrome", "linux", "canary"),
        ("/opt/microsoft/msedge-dev/msedge", "linux", "dev"),
        ("/opt/brave.com/brave-nightly/brave", "linux", "nightly"),
        ("/opt/vivaldi-snapshot/vivaldi-bin", "linux", "snapshot"),
        ("/usr/lib/chromium/chromium", "linux", None),
        ("/snap/chromium/3200/usr/lib/chromium-browser/chrome", "linux", None),
        ("/opt/thorium-beta/thorium", "linux", "beta"),  # not in the table: its folder says
        ("/home/dev/bin/chrome", "linux", None),  # a folder named dev higher up says nothing
        ("/Applications/Google Chrome.app/Contents/MacOS/Google Chrome", "darwin", "stable"),
        ("/Applications/Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary", "darwin", "canary"),
        ("/Applications/Microsoft Edge Beta.app/Contents/MacOS/Microsoft Edge Beta", "darwin", "beta"),
        ("/Applications/Chromium.app/Contents/MacOS/Chromium", "darwin", None),
    ],
)
def test_the_channel_comes_from_the_executables_path(executable, platform, channel):
    assert whoami.channel_of(executable, platform) == channel


def test_default_user_data_folders_follow_the_install_and_the_environment(tmp_path):
    home = tmp_path
    assert whoami.default_user_data_dir("/opt/google/chrome-beta/chrome", "linux", home, {}) == (
        home / ".config" / "google-chrome-beta"
    )
    assert whoami.default_user_data_dir("/opt/google/chrome/chrome", "linux", home, {"XDG_CONFIG_HOME": "/x"}) == (
        Path("/x/google-chrome")
    )
    assert whoami.default_user_data_dir(
        "/opt/google/chrome/chrome", "linux", home, {"XDG_CONFIG_HOME": "/x", "CHROME_CONFIG_HOME": "/c"}
    ) == Path("/c/google-chrome")
    assert (
        whoami.default_user_data_dir("/usr/lib/chromium/chromium", "linux", home, {}) == home / ".config" / "chromium"
    )
    assert (
        whoami.default_user_data_dir("/Applications/Brave Browser.app/Contents/MacOS/Brave Browser", "darwin", home, {})
        == home / "Library" / "Application Support" / "BraveSoftware" / "Brave-Browser"
    )
    assert whoami.default_user_data_dir("/usr/local/bin/mystery-browser", "linux", home, {}) is None


def test_the_user_data_dir_flag_last_one_wins_and_a_relative_one_is_the_browsers_cwd(tmp_path):
    argv = ["/opt/google/chrome/chrome", "--user-data-dir=/first", "--no-first-run", "--user-data-dir=/second"]
    assert whoami.user_data_dir_flag(argv) == Path("/second")
    assert whoami.user_data_dir_flag(["chrome", "--user-data-dir=rel"], cwd=tmp_path) == tmp_path / "rel"
    assert whoami.user_data_dir_flag(["chrome", "--user-data-dir="]) is None
    assert whoami.user_data_dir_flag(["--user-data-dir=/argv0/is/not/a/flag"]) is None


def fake_process(proc: Path, pid: int, executable: str, *args: str, cwd: Path | None = None) -> Path:
    """/proc/<pid> as Linux shows it: exe, cmdline (NUL-separated), cwd, fd/."""
    base = proc / str(pid)
    (base / "fd").mkdir(parents=True)
    os.symlink(executable, base / "exe")  # dangling is fine: only the link is read
    (base / "cmdline").write_bytes(b"\0".join(a.encode() for a in (executable, *args)) + b"\0")
    if cwd:
        os.symlink(cwd, base / "cwd")
    return base


def test_the_browser_process_is_read_from_proc(tmp_path):
    fake_process(tmp_path, 42, "/opt/google/chrome/chrome", "--user-data-dir=/u d d", "--flag")
    assert whoami.browser_process(42, "linux", tmp_path) == (
        "/opt/google/chrome/chrome",
        ["/opt/google/chrome/chrome", "--user-data-dir=/u d d", "--flag"],
    )
    assert whoami.browser_process(43, "linux", tmp_path) == (None, [])


def make_profile(
    user_data: Path, folder: str, *, storage: dict[str, bytes] | None = None, preferences: dict | None = None
) -> Path:
    """A profile folder: its extension storage files (name -> bytes) and Preferences."""
    profile = user_data / folder
    profile.mkdir(parents=True)
    if storage is not None:
        store = whoami.storage_folder(profile, EXT)
        store.mkdir(parents=True)
        for name, data in storage.items():
            (store / name).write_bytes(data)
    if preferences is not None:
        (profile / "Preferences").write_text(json.dumps(preferences))
    return profile


def leveldb_log(profile_id: str) -> bytes:
    """What Chromium's 000003.log holds after chrome.storage.local.set({profile_id}) (a real one's bytes)."""
    value = json.dumps(profile_id).encode()
    return b"\xaf\xcf50?\x00\x01\x01" + b"\x00" * 7 + b"\x01\x00\x00\x00\x01\nprofile_id" + bytes([len(value)]) + value


def local_state(user_data: Path, **names: dict) -> None:
    (user_data / "Local State").write_text(json.dumps({"profile": {"info_cache": names}}))


def test_the_profile_is_the_one_whose_extension_storage_holds_the_profile_id(tmp_path):
    make_profile(tmp_path, "Default", storage={"000003.log": leveldb_log("another-profile-s-id"), "LOCK": b""})
    make_profile(
        tmp_path, "Profile 1", storage={"000005.ldb": b"\x00junk" + PROFILE_ID.encode() + b"junk", "000003.log": b""}
    )
    make_profile(tmp_path, "Profile 2")  # no storage of ours at all
    (tmp_path / "Profile 3").mkdir()
    assert whoami.profile_holding(tmp_path, PROFILE_ID, EXT) == "Profile 1"
    assert whoami.profile_holding(tmp_path, "not-there", EXT) is None
    assert whoami.profile_holding(tmp_path, "", EXT) is None
    assert whoami.profile_holding(tmp_path / "missing", PROFILE_ID, EXT) is None


def test_without_the_id_in_storage_the_only_profile_listing_the_extension_is_taken(tmp_path):
    ours = {"extensions": {"settings": {EXT: {"path": "/ext"}}}}
    make_profile(tmp_path, "Default", preferences={"extensions": {"settings": {"other": {}}}})
    make_profile(tmp_path, "Profile 4", preferences=ours)
    assert whoami.profile_with_extension(tmp_path, EXT) == "Profile 4"
    make_profile(tmp_path, "Profile 5", preferences=ours)
    assert whoami.profile_with_extension(tmp_path, EXT) is None  # two: cannot tell


def test_the_profile_name_is_the_one_the_profile_menu_shows(tmp_path):
    local_state(
        tmp_path,
        Default={"name": "Person 1", "is_using_default_name": True},
        **{
            "Profile 1": {"name": "  Work \n stuff ", "is_using_default_name": False},
            "Profile 2": {"name": "Person 2", "is_using_default_name": True, "gaia_given_name": "Ada"},
            "Profile 3": {"name": "x" * 200},
            "Profile 4": {"name": ""},
        },
    )
    assert whoami.profile_name(tmp_path, "Default") == "Person 1"
    assert whoami.profile_name(tmp_path, "Profile 1") == "Work stuff"
    assert whoami.profile_name(tmp_path, "Profile 2") == "Ada"
    assert whoami.profile_name(tmp_path, "Profile 3") == "x" * (whoami.MAX_NAME - 1) + "…"
    assert whoami.profile_name(tmp_path, "Profile 4") is None
    assert whoami.profile_name(tmp_path, "Profile 9") is None
    (tmp_path / "Local State").write_text("{not json")
    assert whoami.profile_name(tmp_path, "Default") is None


def test_identify_reads_flag_profile_and_name_together(tmp_path):
    user_data = tmp_path / "chrome beta data"
    make_profile(user_data, "Default", storage={"000003.log": leveldb_log("someone-else")})
    make_profile(user_data, "Profile 3", storage={"000003.log": leveldb_log(PROFILE_ID)})
    local_state(user_data, Default={"name": "Person 1"}, **{"Profile 3": {"name": "Work"}})
    proc = tmp_path / "proc"
    fake_process(proc, 7, "/opt/google/chrome-beta/chrome", f"--user-data-dir={user_data}")
    found = whoami.identify(7, PROFILE_ID, EXT, platform="linux", proc=proc, home=tmp_path, environ={})
    assert found == whoami.Whoami("beta", str(user_data), "Profile 3", "Work")
    assert found.settled


def test_identify_without_a_flag_finds_the_folder_from_the_storage_the_browser_holds_open(tmp_path):
    user_data = tmp_path / "somewhere" / "odd-browser"
    profile = make_profile(user_data, "Profile 2", storage={"000003.log": leveldb_log(PROFILE_ID), "LOCK": b""})
    local_state(user_data, **{"Profile 2": {"name": "Side project"}})
    proc = tmp_path / "proc"
    base = fake_process(proc, 9, "/opt/odd/odd-browser")
    os.symlink(whoami.storage_folder(profile, EXT) / "LOCK", base / "fd" / "31")
    os.symlink("/dev/null", base / "fd" / "0")
    os.symlink("socket:[1234]", base / "fd" / "5")
    found = whoami.identify(9, PROFILE_ID, EXT, platform="linux", proc=proc, home=tmp_path, environ={})
    assert found == whoami.Whoami(None, str(user_data), "Profile 2", "Side project")


def test_identify_without_a_flag_falls_back_to_the_installs_default_folder(tmp_path):
    user_data = tmp_path / ".config" / "google-chrome"
    make_profile(user_data, "Default", storage={"000003.log": leveldb_log(PROFILE_ID)})
    proc = tmp_path / "proc"
    fake_process(proc, 11, "/opt/google/chrome/chrome", "--enable-features=X")
    found = whoami.identify(11, PROFILE_ID, EXT, platform="linux", proc=proc, home=tmp_path, environ={})
    # no Local State yet (a profile's first seconds): the profile is known, its name not yet
    assert found == whoami.Whoami("stable", str(user_data), "Default", None)
    assert not found.settled


def test_identify_of_an_unknown_process_knows_nothing_and_does_not_fail(tmp_path):
    assert whoami.identify(12345, PROFILE_ID, EXT, platform="linux", proc=tmp_path, home=tmp_path, environ={}) == (
        whoami.Whoami()
    )
    assert whoami.Whoami().settled


# --- names --------------------------------------------------------------------------


class Hello:
    """A transport that is only a hello: enough for ``BrowserClient.name``."""

    def __init__(self, name="Google Chrome", version="157.0.7000.12", **fields) -> None:
        self.hello = frames.Hello(
            role="host",
            version=__version__,
            host_id="h",
            extension=frames.ExtensionInfo(version=__version__, browser=frames.BrowserInfo(name=name, version=version)),
            **fields,
        )


@pytest.mark.parametrize(
    ("transport", "name"),
    [
        (
            Hello(channel="beta", profile_name="Work", profile_dir="Profile 1"),
            "Google Chrome Beta 157 (profile 'Work')",
        ),
        (Hello(channel="stable", profile_name="Person 1"), "Google Chrome 157 (profile 'Person 1')"),
        (Hello(channel="canary"), "Google Chrome Canary 157"),
        (
            Hello("Microsoft Edge", "150.0.1", channel="dev", profile_dir="Profile 2"),
            "Microsoft Edge Dev 150 (profile 'Profile 2')",
        ),
        (Hello("Chromium", "156.0.7390.54"), "Chromium 156"),
        (
            Hello("Chromium", "156.0.7390.54", embedded="token", profile_name="Your Chromium"),
            "tabsight's embedded Chromium 156",
        ),
    ],
)
def test_a_browsers_name_tells_it_from_the_others(transport, name):
    assert BrowserClient(transport).name == name


def test_a_host_without_an_extension_is_unknown():
    transport = Hello()
    transport.hello.extension = None
    assert BrowserClient(transport).name == "unknown"


# --- the host: last_active and identity ----------------------------------------------


class ExtensionChannel:
    """The extension's side of the native-messaging channel, scripted."""

    def __init__(self, *incoming: frames.Frame) -> None:
        self.incoming = list(incoming)
        self.sent: list = []

    async def receive(self):
        return self.incoming.pop(0) if self.incoming else None

    async def send(self, frame) -> None:
        self.sent.append(frame)


def extension_hello(**fields) -> frames.Hello:
    return frames.Hello(
        role="extension",
        version=__version__,
        browser=frames.BrowserInfo(name="Chromium", version="156"),
        profile_id=PROFILE_ID,
        browser_run="run-1",
        **fields,
    )


def test_a_hosts_last_active_is_the_extensions_word_not_the_hosts_start(tmp_path):
    host = Host(extension=None, socket_path=tmp_path / "h.sock")
    assert host.hello().last_active is None
    host._on_extension_hello(extension_hello())
    assert host.hello().last_active is None  # never used (as far as the profile knows): not "now"
    host._on_extension_hello(extension_hello(last_active=1000.5))
    assert host.hello().last_active == 1000.5
    host._on_extension_hello(extension_hello(last_active=time.time() + 3600))
    assert host.hello().last_active <= time.time()  # never in the future


async def test_activity_events_move_last_active_to_now(tmp_path):
    activity = frames.Event(event="activity", data={"tab_id": 3})
    host = Host(extension=ExtensionChannel(activity), socket_path=tmp_path / "h.sock")
    host._on_extension_hello(extension_hello(last_active=1000.0))
    before = time.time()
    await host._read_extension()
    assert before <= host.hello().last_active <= time.time()


async def test_the_host_says_which_channel_and_profile_and_looks_again_while_the_name_is_unknown(tmp_path, monkeypatch):
    answers = [whoami.Whoami("beta", "/udd", "Default", None), whoami.Whoami("beta", "/udd", "Default", "Work")]
    asked = []

    def identify(pid, profile_id, ext):
        asked.append((pid, profile_id, ext))
        return answers.pop(0)

    monkeypatch.setattr(router, "identify", identify)
    host = Host(extension=None, socket_path=tmp_path / "h.sock")
    host._on_extension_hello(extension_hello())
    await host._identify()
    assert asked == [(os.getppid(), PROFILE_ID, EXT)]
    hello = host.hello()
    assert (hello.channel, hello.user_data_dir, hello.profile_dir, hello.profile_name) == (
        "beta",
        "/udd",
        "Default",
        None,
    )
    await host._identify()
    assert len(asked) == 1  # not again at once
    monkeypatch.setattr(router, "IDENTIFY_AGAIN", 0.0)
    await host._identify()
    assert host.hello().profile_name == "Work"
    await host._identify()
    assert len(asked) == 2  # settled: never again
    wire = frames.dump(host.hello())
    assert wire["profile_name"] == "Work" and frames.parse(json.dumps(wire).encode()).profile_dir == "Default"


async def test_a_slow_second_look_does_not_hold_a_fronts_hello_up(tmp_path, monkeypatch):
    answers = [whoami.Whoami("dev", "/udd", None, None), whoami.Whoami("dev", "/udd", "Profile 1", "Work")]

    def identify(pid, profile_id, ext):
        if len(answers) == 1:
            time.sleep(0.6)  # a slow disk
        return answers.pop(0)

    monkeypatch.setattr(router, "identify", identify)
    monkeypatch.setattr(router, "IDENTIFY_AGAIN", 0.0)
    host = Host(extension=None, socket_path=tmp_path / "h.sock")
    host._on_extension_hello(extension_hello())
    await host._identify()
    assert host.hello().profile_dir is None
    began = time.monotonic()
    await host._identify(wait=router.GREET_IDENTIFY_WAIT)
    assert time.monotonic() - began < 0.5 and host.hello().profile_dir is None  # this hello goes out as it was
    await host._looking
    assert host.hello().profile_name == "Work"  # the next one says


async def test_a_failure_to_identify_leaves_the_host_serving(tmp_path, monkeypatch):
    def identify(pid, profile_id, ext):
        raise PermissionError("no /proc for you")

    monkeypatch.setattr(router, "identify", identify)
    host = Host(extension=None, socket_path=tmp_path / "h.sock")
    host._on_extension_hello(extension_hello())
    await host._identify()
    assert host.hello().profile_name is None and host.hello().extension.profile_id == PROFILE_ID


# --- the front's choice ----------------------------------------------------------------


async def test_the_front_works_in_the_browser_used_last_not_the_one_started_last():
    # the work browser started first and was used a minute ago; a second browser started later and never used
    used = FakeBrowser(host_id="used", profile_id="work")
    used.hello.last_active = time.time() - 60
    used.hello.profile_name = "Work"
    started_later = FakeBrowser(host_id="later", profile_id="other")
    started_later.hello.last_active = None
    session = fake_session(started_later, used)
    await call(session, "observe", {"what": "page"})
    assert used.methods("page.info") and not started_later.methods("page.info")

    # and of two used ones, the one used last
    older = FakeBrowser(host_id="older", profile_id="p-older")
    older.hello.last_active = 1000.0
    newer = FakeBrowser(host_id="newer", profile_id="p-newer")
    newer.hello.last_active = 2000.0
    for order in ((older, newer), (newer, older)):
        session = fake_session(*order)
        listing = payload(await call(session, "observe", {"what": "tabs"}))
        assert [b["browser"] for b in listing["browsers"] if any(t.get("tracked") for t in b["tabs"])] == ["newer"]


async def test_observe_tabs_names_each_browser_by_profile():
    work = FakeBrowser(host_id="work", profile_id="p1")
    work.hello.profile_name, work.hello.channel = "Work", "beta"
    home = FakeBrowser(host_id="home", profile_id="p2")
    home.hello.profile_name = "Home"
    listing = payload(await call(fake_session(work, home), "observe", {"what": "tabs"}))
    assert sorted(b["name"] for b in listing["browsers"]) == [
        "FakeChromium 156 (profile 'Home')",
        "FakeChromium Beta 156 (profile 'Work')",
    ]


# --- on a real Chromium -------------------------------------------------------------------


def _major(version: str) -> str:
    return version.split(".")[0]


@pytest.mark.browser
async def test_the_embedded_browsers_real_profile_is_found_and_named(browser):
    """The extension's real chrome.storage.local LevelDB holds its profile id; Local State names the profile."""
    profile = browser.browsers._launched.profile
    hello = browser.client.hello
    profile_id = hello.extension.profile_id
    assert whoami.profile_holding(profile, profile_id, EXT) == "Default"
    # the host's parent is the browser: the same answer from its /proc
    ppid = int(Path(f"/proc/{hello.pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    found = whoami.identify(ppid, profile_id, EXT)
    assert (found.user_data_dir, found.profile_dir) == (str(profile), "Default")
    assert hello.user_data_dir == str(profile) and hello.profile_dir == "Default"

    # Chromium writes the profile's entry into Local State some seconds after it started
    deadline = time.monotonic() + 60
    while whoami.profile_name(profile, "Default") is None and time.monotonic() < deadline:
        await asyncio.sleep(0.5)
    assert whoami.profile_name(profile, "Default")


@pytest.mark.browser
async def test_observe_tabs_names_the_embedded_browser(browser):
    from conftest import mcp_client

    version = browser.client.hello.extension.browser.version
    async with mcp_client() as client:
        listing = payload(await client.call_tool("observe", {"what": "tabs"}))
    names = [b["name"] for b in listing["browsers"]]
    assert f"tabsight's embedded Chromium {_major(version)}" in names


@pytest.mark.browser
async def test_a_users_browser_is_listed_with_its_profiles_name(tmp_path, monkeypatch):
    """A browser of the user's (not embedded) in a profile named 'Work': the name an agent sees over MCP."""
    from conftest import front_env, mcp_client
    from harness.usersbrowser import UsersBrowser
    from tabsight.browser.hosts import connect_all

    runtime = tmp_path / "rt"
    runtime.mkdir(mode=0o700)
    user_data = tmp_path / "user data"
    browser = UsersBrowser(None, user_data, runtime)
    local_state(user_data, Default={"name": "Work", "is_using_default_name": False})
    started = time.time()
    try:
        await asyncio.to_thread(browser.start)
        async with mcp_client(front_env(TABSIGHT_RUNTIME_DIR=str(runtime), TABSIGHT_BROWSER="never")) as client:
            listing = payload(await client.call_tool("observe", {"what": "tabs"}))
        (listed,) = listing["browsers"]
        assert not listed["embedded"]
        assert listed["name"].startswith("Chromium ") and listed["name"].endswith(" (profile 'Work')"), listed["name"]

        # what the host tells a front: its folders, and when the browser was last used
        monkeypatch.setenv("TABSIGHT_RUNTIME_DIR", str(runtime))
        config.reset()
        (link,) = await connect_all("identity-test")
        try:
            hello = link.hello
            assert (hello.user_data_dir, hello.profile_dir, hello.profile_name) == (str(user_data), "Default", "Work")
            # a headless window has the focus: the extension's hello said "now" (not the host's start, not nothing)
            assert hello.last_active is not None and started - 1 <= hello.last_active <= time.time()
        finally:
            await link.close()
    finally:
        browser.quit()
