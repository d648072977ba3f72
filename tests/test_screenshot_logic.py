"""screenshot's logic without a browser: defaults from the environment, cookie
validation, retry rules, and fitting images for a model."""

from __future__ import annotations

import base64
import io

import pytest
from PIL import Image

from tabsight import config, cookies as cookie_rules, images
from tabsight.errors import BrowserError, Code, ToolError
from tabsight.tools.screenshot import TOOL, retryable

SECRET = "v4lue-that-must-not-leak"


def parse_error(arguments: dict) -> str:
    with pytest.raises(ToolError) as caught:
        TOOL.parse(arguments)
    return str(caught.value)


def test_defaults_prefer_tabsight_names_then_browserloop_ones():
    configured = config.load(
        {
            "TABSIGHT_DEFAULT_WIDTH": "1024",
            "BROWSERLOOP_DEFAULT_WIDTH": "800",
            "BROWSERLOOP_DEFAULT_FORMAT": "png",
            "BROWSERLOOP_DEFAULT_WAIT_NETWORK_IDLE": "false",
            "TABSIGHT_RETRY_COUNT": "0",
            "BROWSERLOOP_RETRY_DELAY": "250",
        }
    )
    assert configured.warnings == []
    assert (
        configured[config.TABSIGHT_DEFAULT_WIDTH],
        configured[config.TABSIGHT_DEFAULT_HEIGHT],
        configured[config.TABSIGHT_DEFAULT_FORMAT],
    ) == (1024, 720, "png")
    assert configured[config.TABSIGHT_DEFAULT_WAIT_NETWORK_IDLE] is False
    assert (configured[config.TABSIGHT_RETRY_COUNT], configured[config.TABSIGHT_RETRY_DELAY]) == (0, 250)


def test_a_bad_default_is_ignored_with_a_warning_naming_the_variable():
    configured = config.load({"TABSIGHT_DEFAULT_WIDTH": "99999", "BROWSERLOOP_DEFAULT_FORMAT": "gif"})
    assert (configured[config.TABSIGHT_DEFAULT_WIDTH], configured[config.TABSIGHT_DEFAULT_FORMAT]) == (1280, "webp")
    assert configured.warnings == [
        "TABSIGHT_DEFAULT_WIDTH is '99999'; allowed values: 200 to 4000; using the default, 1280",
        "BROWSERLOOP_DEFAULT_FORMAT is 'gif'; allowed values: webp, png, jpeg; using the default, webp",
    ]


def test_range_errors_use_browserloop_words_and_name_the_range():
    assert parse_error({"width": 100}) == "Width must be at least 200 ('width' is 100; allowed range: 200 to 4000)"
    assert parse_error({"quality": 101}).startswith("Quality must be at most 100")
    assert parse_error({"max_width": 9000}).startswith("'max_width' must be at most 8000")
    assert parse_error({"url": "javascript:alert(1)"}).startswith("Invalid URL format")
    # BrowserLoop's JavaScript clients send numbers as 1280.0
    assert TOOL.parse({"url": "https://example.com", "width": 1280.0}).width == 1280


@pytest.mark.parametrize(
    ("cookie", "expected"),
    [
        ({"name": "a b", "value": SECRET}, "Invalid cookies[0]: the name"),
        ({"name": "s", "value": SECRET + ";x=1"}, "Invalid cookie 's': the value holds a control character or ';'"),
        ({"name": "s", "value": SECRET + "\nx"}, "Invalid cookie 's': the value holds a control character or ';'"),
        ({"name": "s", "value": SECRET + "\x7f"}, "Invalid cookie 's': the value holds a control character or ';'"),
        ({"name": "<script>", "value": SECRET}, "Invalid cookies[0]: the name"),
        ({"name": "s", "value": SECRET, "domain": "onload=x.com"}, "Invalid cookie 's': the domain"),
        ({"name": "s", "value": SECRET, "path": "/a;b"}, "Invalid cookie 's': the path"),
        ({"name": "s", "value": "x" * 4097}, "Invalid cookie 's': the value is over 4096 bytes"),
        ({"name": "s", "value": SECRET, "domain": "evil.com/x"}, "Invalid cookie 's': the domain"),
        ({"name": "s", "value": SECRET, "sameSite": "Sometimes"}, "Invalid cookies[0] (sameSite:"),
        ({"value": SECRET}, "Invalid cookies[0] (name: Field required)"),
    ],
)
def test_cookie_errors_say_what_is_wrong_and_never_quote_the_value(cookie, expected):
    message = parse_error({"url": "https://example.com", "cookies": [cookie]})
    assert message.startswith(expected), message
    assert SECRET not in message


def test_cookies_as_a_json_string_and_their_limits():
    parsed = TOOL.parse({"url": "https://example.com", "cookies": f'[{{"name":"s","value":"{SECRET}"}}]'})
    assert parsed.cookies[0].value == SECRET
    assert "not valid JSON" in parse_error({"url": "https://example.com", "cookies": f"[{SECRET}"})
    many = [{"name": f"c{n}", "value": "1"} for n in range(51)]
    assert "51 given, at most 50" in parse_error({"url": "https://example.com", "cookies": many})


@pytest.mark.parametrize(
    ("value", "rule"),
    [
        ('<script>alert("xss")</script>', "a <script> tag"),
        ("x</SCRIPT >", "a <script> tag"),
        ("< script src=//evil>", "a <script> tag"),
        ("JavaScript:alert(1)", "a javascript: URL"),
        ("vbscript:msgbox", "a vbscript: URL"),
        ("data:text/html,<p>", "a data:text/html URL"),
        ('<img src=x onerror="alert(1)">', "an on...= event handler in a tag"),
        ("<svg/onload=alert(1)>", "an on...= event handler in a tag"),
    ],
)
def test_a_script_like_cookie_value_is_an_error_naming_the_cookie_and_the_rule_not_the_value(value, rule):
    message = parse_error({"url": "https://example.com", "cookies": [{"name": "xss_cookie", "value": value}]})
    assert message.startswith(
        f"Invalid cookie 'xss_cookie', refused as BrowserLoop refuses it: its value holds script-like content ({rule})"
    ), message
    assert value not in message and "alert" not in message and "evil" not in message


@pytest.mark.parametrize(
    "value",
    [
        '{"theme":"dark","lang":"en"}',
        '{"onload":"x","script":"y"}',
        "option=1&condition=2",
        "monday=on",
        '["a","b",{"c":null}]',
        "a,b",
        "two words",
        'say "hi"',
        "back\\slash",
        "<b>",
        "données",
        "",
        "scripts/javascript-guide",
        "data:image/png;base64"[:10],
    ],
)
def test_cookie_values_follow_the_browsers_rule_not_a_stricter_one(value):
    # Chromium refuses only control characters and ';' in a value
    (cookie,) = TOOL.parse({"url": "https://example.com", "cookies": [{"name": "prefs", "value": value}]}).cookies
    assert cookie.value == value


def parsed(*domains: str | None) -> list[cookie_rules.Cookie]:
    return cookie_rules.parse(
        [{"name": f"c{n}", "value": SECRET, **({"domain": d} if d else {})} for n, d in enumerate(domains)]
    )


def test_cookies_for_another_domain_are_dropped_by_name_and_the_rest_applied():
    selection = cookie_rules.select(
        parsed(".example.com", "app.example.com", None, "example.org", "ample.com"), [], "https://app.example.com/x"
    )
    assert [c.name for c in selection.applied] == ["c0", "c1", "c2"]
    assert selection.dropped == [
        {"name": "c3", "domain": "example.org", "reason": "domain does not match the URL's host 'app.example.com'"},
        {"name": "c4", "domain": "ample.com", "reason": "domain does not match the URL's host 'app.example.com'"},
    ]
    assert SECRET not in repr(selection.dropped)
    # local development hosts count as one another; a data: URL has no host for any cookie
    assert len(cookie_rules.select(parsed("localhost", "127.0.0.1"), [], "http://127.0.0.1:3000/").applied) == 2
    data = cookie_rules.select(parsed(None, "example.com"), [], "data:text/html,<p>hi")
    assert data.applied == [] and [d["reason"] for d in data.dropped] == ["the URL has no host to send it to"] * 2


def test_expired_cookies_are_dropped_and_session_ones_kept():
    cookies = cookie_rules.parse(
        [
            {"name": "old", "value": SECRET, "expires": 1000},
            {"name": "session", "value": SECRET, "expires": -1},
            {"name": "later", "value": SECRET, "expires": 3000},
        ]
    )
    selection = cookie_rules.select(
        cookies, cookie_rules.parse([{"name": "stale", "value": "1", "expires": 5}]), "https://example.com/", now=2000
    )
    assert [c.name for c in selection.applied] == ["session", "later"]
    assert selection.dropped == [{"name": "old", "domain": "", "reason": "expired"}]
    selection.refused(["later"])
    assert [c.name for c in selection.applied] == ["session"] and selection.dropped[-1]["name"] == "later"


def test_request_cookies_win_over_defaults_on_the_same_name_and_domain():
    defaults = cookie_rules.parse(
        [
            {"name": "session", "value": "default", "domain": "localhost"},
            {"name": "theme", "value": "dark"},
            {"name": "elsewhere", "value": "x", "domain": "example.org"},
        ]
    )
    requested = cookie_rules.parse(
        [{"name": "session", "value": "mine"}, {"name": "theme", "value": "light", "domain": "other.localhost"}]
    )
    selection = cookie_rules.select(requested, defaults, "http://localhost:8080/")
    assert [(c.name, c.value) for c in selection.applied] == [("theme", "dark"), ("session", "mine")]
    # a default for another site is simply not applied; only the request's own mismatches are named
    assert [d["name"] for d in selection.dropped] == ["theme"]


def test_wire_cookies_are_host_only_without_a_domain_and_for_local_aliases():
    (plain,) = cookie_rules.wire(parsed(None), "http://a.b/")
    assert plain["host_only"] and plain["domain"] == "a.b"
    (alias,) = cookie_rules.wire(parsed("localhost"), "http://127.0.0.1:3000/")
    assert alias["domain"] == "127.0.0.1" and alias["host_only"]
    (parent,) = cookie_rules.wire(parsed(".example.com"), "https://app.example.com/")
    assert parent["domain"] == ".example.com" and "host_only" not in parent


def test_prefixed_cookies_get_what_the_browser_demands_of_their_names():
    secure, host = cookie_rules.wire(
        cookie_rules.parse(
            [
                {"name": "__Secure-id", "value": "1", "domain": ".example.com"},
                {"name": "__Host-id", "value": "2", "domain": "elsewhere.org", "path": "/app"},
            ]
        ),
        "https://app.example.com/",
    )
    assert secure["secure"] and secure["domain"] == ".example.com"
    assert host == {**host, "secure": True, "path": "/", "domain": "app.example.com", "host_only": True}
    # a __Host- cookie is the URL host's whatever domain it names: never dropped for it
    assert [
        c.name
        for c in cookie_rules.select(
            cookie_rules.parse([{"name": "__Host-id", "value": "2", "domain": "elsewhere.org"}]),
            [],
            "https://app.example.com/",
        ).applied
    ] == ["__Host-id"]


def test_an_empty_selector_or_user_agent_is_none_given_as_browserloop_reads_it():
    parsed = TOOL.parse({"url": "https://example.com", "selector": "", "userAgent": ""})
    assert parsed.selector is None and parsed.userAgent is None


def test_default_cookies_come_from_json_or_a_file_read_again_when_it_changes(tmp_path, caplog):
    as_json = cookie_rules.Defaults(config.load({"BROWSERLOOP_DEFAULT_COOKIES": '[{"name": "a", "value": "1"}]'}))
    assert [c.name for c in as_json.get()] == ["a"]
    path = tmp_path / "cookies.json"
    path.write_text('[{"name": "b", "value": "2"}]')
    both = cookie_rules.Defaults(
        config.load({"TABSIGHT_DEFAULT_COOKIES": str(path), "BROWSERLOOP_DEFAULT_COOKIES": "[]"})
    )
    assert [c.name for c in both.get()] == ["b"]
    path.write_text('[{"name": "b", "value": "2"}, {"name": "c", "value": "3"}]')
    assert [c.name for c in both.get()] == ["b", "c"]
    path.unlink()
    with caplog.at_level("WARNING", logger="tabsight.cookies"):
        assert both.get() == []
    assert "cannot read it" in caplog.text
    bad = cookie_rules.Defaults(config.load({"TABSIGHT_DEFAULT_COOKIES": f'[{{"name": "s", "value": "{SECRET};"}}]'}))
    with caplog.at_level("WARNING", logger="tabsight.cookies"):
        assert bad.get() == []
    assert "no default cookies" in caplog.text and SECRET not in caplog.text
    assert cookie_rules.Defaults(config.load({})).get() == []


@pytest.mark.parametrize(
    "url",
    [
        "data:text/html,<h1>hi</h1>",
        "DATA:image/png;base64,iVBORw0KGgo=",
        "http://localhost:3000/a",
        "https://example.com",
    ],
)
def test_page_urls_are_http_https_or_data(url):
    assert TOOL.parse({"url": url}).url == url


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "javascript:alert(1)",
        "chrome://settings",
        "about:blank",
        "ftp://example.com/f",
        "not a url",
        "http://",
        "http://x/" + "a" * 9000,
        "http://localhost:99999/",
    ],
)
def test_other_urls_are_refused_in_browserloop_words(url):
    assert parse_error({"url": url}).startswith("Invalid URL format ('url' must be an http://, https:// or data: URL")


@pytest.mark.parametrize(
    ("arguments", "named"),
    [
        ({"fullPage": "true"}, "fullPage"),
        ({"fullPage": 1}, "fullPage"),
        ({"waitForNetworkIdle": "false"}, "waitForNetworkIdle"),
        ({"selector": None}, "selector"),
        ({"userAgent": None}, "userAgent"),
        ({"selector": 5}, "selector"),
    ],
)
def test_booleans_are_booleans_and_strings_strings_as_in_browserloops_schema(arguments, named):
    message = parse_error({"url": "https://example.com", **arguments})
    assert f"'{named}'" in message, message


def test_only_transient_failures_are_retried():
    assert retryable(BrowserError(Code.NAVIGATION_FAILED, "net::ERR_CONNECTION_REFUSED at http://localhost:3000/"))
    assert retryable(BrowserError(Code.DISCONNECTED, "The browser extension disconnected"))
    assert not retryable(BrowserError(Code.NAVIGATION_FAILED, "net::ERR_NAME_NOT_RESOLVED at http://x.invalid/"))
    assert not retryable(BrowserError(Code.NAVIGATION_TIMEOUT, "Navigation timeout of 30000ms exceeded"))
    assert not retryable(BrowserError(Code.ELEMENT_NOT_FOUND, "Element not found: #x"))
    assert not retryable(BrowserError(Code.BAD_REQUEST, "Invalid selector: ["))


def encoded(size, color=(10, 200, 30), fmt="PNG") -> str:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, fmt)
    return base64.b64encode(out.getvalue()).decode()


def test_images_within_bounds_pass_through_unchanged():
    pics = [images.picture(encoded((1280, 720)), 0, 0, 1280, 720)]
    data = pics[0].data
    fitted, scale = images.fit(pics, "png", 80, 2000, 2000)
    assert scale == 1.0 and fitted[0].data is data


def test_tiles_shrink_into_one_image_keeping_the_aspect():
    # a 2x device-pixel-ratio page of 1000 x 6000 CSS px, captured as two tiles
    pics = [
        images.picture(encoded((2000, 8000), (255, 0, 0)), 0, 0, 1000, 4000),
        images.picture(encoded((2000, 4000), (0, 0, 255)), 0, 4000, 1000, 2000),
    ]
    assert images.grid_size(pics) == (2000, 12000)
    fitted, scale = images.fit(pics, "webp", 80, None, 3000)
    assert scale == 0.25 and len(fitted) == 1
    (pic,) = fitted
    assert (pic.width, pic.height) == (500, 3000)
    img = Image.open(io.BytesIO(pic.data))
    assert img.format == "WEBP" and img.size == (500, 3000)
    red, _, blue = img.convert("RGB").getpixel((250, 1000))
    assert red > 200 and blue < 60  # the first tile's content is on top
    red, _, blue = img.convert("RGB").getpixel((250, 2500))
    assert blue > 200 and red < 60


def test_shrunk_images_longer_than_8000px_are_split_again():
    pics = [images.picture(encoded((1000, 8000)), 0, y, 1000, 8000) for y in range(0, 32000, 8000)]
    fitted, scale = images.fit(pics, "jpeg", 50, 500, None)
    assert scale == 0.5
    assert [(p.width, p.height, p.page_y) for p in fitted] == [(500, 8000, 0), (500, 8000, 16000)]


def test_token_estimate_follows_the_api_downsizing():
    assert images.vision_tokens(1280, 720) == 1229  # ceil(1280 * 720 / 750)
    assert images.vision_tokens(200, 200) == 54
    # a long tile is downsized to 1568 px on its long edge before it is billed
    assert images.vision_tokens(1280, 8000) == 525  # billed as 251 x 1568
    # and a big square to about 1.15 megapixels
    assert images.vision_tokens(4000, 4000) == 1534


def test_a_jpeg_taken_for_a_webp_is_encoded_at_libwebps_fastest_method_same_size_and_place():
    noise = Image.merge("RGB", [Image.effect_noise((1280, 720), sigma) for sigma in (20, 40, 60)])
    taken = io.BytesIO()
    noise.save(taken, "JPEG", quality=90)
    jpeg = images.picture(base64.b64encode(taken.getvalue()).decode(), 0, 300, 1280, 720)

    webp = images.reencoded(jpeg, "webp", 80)

    img = Image.open(io.BytesIO(webp.data))
    assert img.format == "WEBP" and img.size == (1280, 720) == (webp.width, webp.height)
    assert (webp.page_x, webp.page_y, webp.page_width, webp.page_height) == (0, 300, 1280, 720)
    source = Image.open(io.BytesIO(jpeg.data)).convert("RGB")
    by_method = {}
    for method in (images.WEBP_METHOD, 4):
        out = io.BytesIO()
        source.save(out, "WEBP", quality=80, method=method)
        by_method[method] = out.getvalue()
    assert images.WEBP_METHOD == 0 and webp.data == by_method[0] != by_method[4]
