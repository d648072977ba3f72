"""Progress of slow tool calls: ``notifications/progress`` at least once a second, saying what the call does.

The logic (``tabsight.progress``, ``tabsight.server.progress``) runs against a
fake sender and a fake browser; the rest goes through the SDK's own client:
in-process on a fake browser, and over stdio on the real chain (Chromium), for
each kind of call that takes seconds: a navigation to a slow page, a
``wait_for``, a URL screenshot, ``execute``, a full-page capture, and the
first call of a front that has to start its browser.
"""

from __future__ import annotations

import asyncio
import time

import anyio
import mcp_types as types
import pytest
from mcp import Client

from conftest import front_env, mcp_client
from fakes import FakeBrowser, fake_session
from harness.calls import payload
from tabsight.progress import LONGEST, phase, tracking
from tabsight.server.app import build_server
from tabsight.server.progress import EVERY, FIRST, reporting

pytestmark = pytest.mark.anyio

#: how late a report may come, on top of its interval (event loop, pipes, a busy machine)
LATE = 0.3


class Heard:
    """What one call's client heard: (seconds since the call began, progress, total, message) per report."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.reports: list[tuple[float, float, float | None, str]] = []
        self.took = 0.0

    async def __call__(self, progress: float, total: float | None, message: str | None) -> None:
        self.reports.append((time.monotonic() - self.started, progress, total, message))

    def done(self) -> Heard:
        self.took = time.monotonic() - self.started
        return self

    def messages(self) -> list[str]:
        return [message for *_, message in self.reports]

    def check(self, *words: str, first: float = FIRST, every: float = EVERY, answer: float = 0.0) -> None:
        """Reports came at least once a second (``first`` s in, then every ``every`` s, until the answer, which
        may take ``answer`` s more to arrive), their values rising, each with a message; some message holds all
        of ``words``."""
        assert self.reports, f"no progress in a call of {self.took:.1f} s"
        times = [at for at, *_ in self.reports]
        assert times[0] <= first + LATE, times
        gaps = [later - earlier for earlier, later in zip(times, times[1:])] + [self.took - times[-1] - answer]
        assert max(gaps) <= every + LATE, (gaps, self.reports)
        values = [progress for _, progress, _, _ in self.reports]
        assert values == sorted(set(values)), values
        assert all(message for message in self.messages()), self.reports
        assert any(all(word in message for word in words) for message in self.messages()), self.reports


# -- the logic, with fakes ----------------------------------------------------


async def test_reports_rise_and_name_the_phase_the_lower_layers_set():
    heard = Heard()

    async def work():
        await anyio.sleep(0.25)
        with phase("waiting for #late to be visible", bound=2):
            await anyio.sleep(0.4)
        await anyio.sleep(0.2)
        return "answer"

    assert await reporting(heard, "working on interact", work, first=0.05, every=0.1) == "answer"
    heard.done().check("waiting for #late to be visible", first=0.05, every=0.1)
    by_phase = {}
    for _, progress, total, message in heard.reports:
        by_phase.setdefault(message.split(" (")[0], []).append((progress, total, message))
    # the tool's own words before and after the phase; the phase's, with its bound, while it lasts
    assert set(by_phase) == {"working on interact", "waiting for #late to be visible"}
    assert all(total is None for _, total, _ in by_phase["working on interact"])
    waiting = by_phase["waiting for #late to be visible"]
    assert all(total == pytest.approx(2.25, abs=0.1) for _, total, _ in waiting)  # the phase began 0.25 s in
    assert all(message.endswith("of at most 2 s)") for *_, message in waiting)
    assert heard.messages()[-1].startswith("working on interact")  # the outer phase came back


async def test_a_quick_call_reports_nothing_and_nothing_comes_after_the_answer():
    heard = Heard()

    async def quick():
        return 1

    assert await reporting(heard, "working on observe", quick) == 1
    await anyio.sleep(FIRST + 0.2)
    assert heard.reports == []


async def test_concurrent_calls_each_hear_their_own_phases():
    first, second = Heard(), Heard()

    async def work(name: str):
        with phase(f"doing {name}"):
            await anyio.sleep(0.35)

    async def call(heard: Heard, name: str):
        await reporting(heard, name, lambda: work(name), first=0.05, every=0.1)

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(call, first, "a")
        tasks.start_soon(call, second, "b")
    # each hears its own phase, and nothing of the other's (a report just after the phase ended, as the
    # sleeps end, names the call alone)
    for heard, name in ((first, "a"), (second, "b")):
        messages = heard.messages()
        assert any(message.startswith(f"doing {name}") for message in messages), messages
        assert all(message.startswith((f"doing {name} (", f"{name} (")) for message in messages), messages
    with phase("outside any call"):  # the CLI, the keeper: nothing to report to, nothing happens
        pass


async def test_a_sender_that_fails_stops_the_reports_not_the_call():
    calls = []

    async def broken(progress, total, message):
        calls.append(progress)
        raise anyio.BrokenResourceError

    async def work():
        await anyio.sleep(0.4)
        return "answered"

    assert await reporting(broken, "w", work, first=0.05, every=0.1) == "answered"
    assert len(calls) == 1


async def test_a_failing_call_raises_its_own_error():
    async def work():
        await anyio.sleep(0.1)
        raise ValueError("the tool's bug")

    with pytest.raises(ValueError, match="the tool's bug"):
        await reporting(Heard(), "w", work, first=0.05, every=0.1)


def test_an_overrun_phase_has_no_total_and_long_words_are_cut():
    now = [100.0]
    with tracking("working on screenshot", clock=lambda: now[0]) as progress:
        now[0] = 101.0
        with phase("loading " + "x" * 500, bound=2):
            now[0] = 102.5
            report = progress.now()
            assert (report.progress, report.total) == (2.5, 3.0)
            assert len(report.message) < LONGEST + 40 and "…" in report.message
            now[0] = 104.0
            report = progress.now()
            assert (report.progress, report.total) == (4.0, None)
            assert report.message.endswith("(3.0 s of at most 2 s)")


async def test_secrets_in_a_phase_are_masked():
    heard = Heard()

    async def work():
        with phase("waiting for http://127.0.0.1/app?access_token=abcdef0123456789xyz to load"):
            await anyio.sleep(0.2)

    await reporting(heard, "w", work, first=0.05, every=0.1)
    assert heard.reports and not any("abcdef0123456789xyz" in message for message in heard.messages())


class SlowFake(FakeBrowser):
    """A fake browser whose waits and navigations take ``seconds``."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds

    async def request(self, method, params=None, timeout=30.0):
        if method in ("page.wait_for", "tab.navigate", "page.execute", "capture.url", "capture"):
            await asyncio.sleep(self.seconds)
        return await super().request(method, params, timeout)


async def test_the_sdk_client_hears_the_tool_handlers_phases_in_process():
    calls = {
        "wait_for": ("interact", {"action": "wait_for", "selector": "#late", "timeout": 4000}),
        "navigate": ("interact", {"action": "navigate", "url": "http://127.0.0.1/slow", "timeout": 9000}),
        "execute": ("interact", {"action": "execute", "script": "1", "cdp": [{"method": "Page.enable"}]}),
        "url": ("screenshot", {"url": "http://127.0.0.1/slow", "timeout": 7000}),
        "full_page": ("screenshot", {"fullPage": True}),
    }
    client_heard = {name: Heard() for name in calls}

    async with Client(build_server(fake_session(SlowFake(1.2)))) as client:

        async def call(name: str) -> None:
            tool, arguments = calls[name]
            result = await client.call_tool(tool, arguments, progress_callback=client_heard[name])
            assert not result.is_error, result.content[0].text
            client_heard[name].done()

        async def quiet() -> None:  # no progress_callback: no progressToken
            assert not (await client.call_tool("interact", {"action": "wait_for", "selector": "#late"})).is_error

        async with anyio.create_task_group() as tasks:  # at once: one second for the lot
            for name in calls:
                tasks.start_soon(call, name)
            tasks.start_soon(quiet)
    client_heard["wait_for"].check("waiting for #late to be visible")
    assert {total for *_, total, _ in client_heard["wait_for"].reports} == {4.0}
    client_heard["navigate"].check("waiting for http://127.0.0.1/slow to load")
    assert {total for *_, total, _ in client_heard["navigate"].reports} == {9.0}
    client_heard["execute"].check("running the script and 1 CDP step(s)")
    client_heard["url"].check("loading http://127.0.0.1/slow in a window of its own until its network is idle")
    client_heard["full_page"].check("capturing the whole page")


# -- the real chain ----------------------------------------------------------------


async def call_heard(client, tool: str, arguments: dict) -> tuple[dict, Heard]:
    heard = Heard()
    result = await client.call_tool(tool, arguments, progress_callback=heard)
    heard.done()
    assert not result.is_error, result.content[-1].text
    return result, heard


@pytest.mark.browser
async def test_slow_calls_report_at_least_once_a_second(browser, site):
    async with mcp_client() as client:
        _, heard = await call_heard(client, "interact", {"action": "navigate", "url": site.url("/slow?ms=3000")})
        heard.check(f"waiting for {site.url('/slow?ms=3000')} to load")
        # the navigation's bound: 30 s after it began, which is after the session's first steps (finding the
        # browser, opening its tab), before the first report that names it
        loading = [progress for _, progress, _, message in heard.reports if message.startswith("waiting for")]
        assert 30 <= heard.reports[-1][2] <= loading[0] + 30.1, heard.reports  # (both rounded to 0.1 s)
        navigate = heard

        # an element that appears 3 s from now
        await client.call_tool("interact", {"action": "navigate", "url": site.url("/index.html")})
        await client.call_tool(
            "interact",
            {
                "action": "execute",
                "script": (
                    "setTimeout(() => document.body.append(Object.assign(document.createElement('p'), "
                    "{id: 'appears', textContent: 'here'})), 3000); return true"
                ),
            },
        )
        _, heard = await call_heard(
            client, "interact", {"action": "wait_for", "selector": "#appears", "timeout": 10000}
        )
        heard.check("waiting for #appears to be visible", "of at most 10 s")
        assert heard.took > 2.5
        wait_for = heard

        _, heard = await call_heard(client, "screenshot", {"url": site.url("/slow?ms=3000"), "format": "jpeg"})
        heard.check(f"loading {site.url('/slow?ms=3000')} in a window of its own until its network is idle")
        url_shot = heard

        _, heard = await call_heard(
            client,
            "interact",
            {"action": "execute", "script": "await new Promise(done => setTimeout(done, 3000)); return 'slept'"},
        )
        heard.check("running the script")
        execute = heard

    for name, heard in (
        ("navigate", navigate),
        ("wait_for", wait_for),
        ("url screenshot", url_shot),
        ("execute", execute),
    ):
        print(f"{name}: {len(heard.reports)} reports in {heard.took:.1f} s: {heard.messages()}")


@pytest.mark.browser
async def test_a_full_page_capture_of_a_tall_page_reports_while_it_takes_long(browser, site):
    async with mcp_client() as client:
        await client.call_tool("interact", {"action": "navigate", "url": site.url("/tall?h=40000")})
        _, heard = await call_heard(client, "screenshot", {"fullPage": True, "format": "png"})
    print(f"full page: {len(heard.reports)} reports in {heard.took:.1f} s: {heard.messages()}")
    if heard.took > 1:
        # after the last report the handler answers within a quarter second; the answer's few MB of PNG
        # tiles take up to a second more to be serialized, piped and parsed by the client
        heard.check("capturing the whole page", answer=1.0)


@pytest.mark.browser
async def test_the_first_call_hears_the_browser_start(tmp_path, site):
    runtime = tmp_path / "rt"
    runtime.mkdir(mode=0o700)
    async with mcp_client(front_env(TABSIGHT_RUNTIME_DIR=str(runtime))) as client:
        _, heard = await call_heard(client, "interact", {"action": "navigate", "url": site.url("/index.html")})
    print(f"first call: {len(heard.reports)} reports in {heard.took:.1f} s: {heard.messages()}")
    heard.check("starting tabsight's embedded browser", "of at most 30 s")


@pytest.mark.browser
async def test_a_client_without_a_progress_token_hears_none_and_gets_its_answer(browser, site):
    notifications = []

    async def on_message(message):
        if isinstance(message, types.ProgressNotification):
            notifications.append(message)

    async with mcp_client(message_handler=on_message) as client:
        started = time.monotonic()
        result = await client.call_tool("interact", {"action": "navigate", "url": site.url("/slow?ms=2000")})
        assert time.monotonic() - started > 1.9
        assert payload(result)["url"] == site.url("/slow?ms=2000")
        assert notifications == []
        # a call that asks, on the same connection, does hear them (and the handler sees them too)
        _, heard = await call_heard(client, "interact", {"action": "navigate", "url": site.url("/slow?ms=2000")})
    heard.check("to load")
    assert len(notifications) == len(heard.reports)
