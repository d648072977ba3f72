"""screenshot's logic without a browser: defaults from the environment, cookie
validation, retry rules, and fitting images for a model."""

from __future__ import annotations

import base64
import io

import pytest
from PIL import Image

from tabsight import images
from tabsight.errors import BrowserError, Code, ToolError
from tabsight.tools.screenshot import TOOL, check_cookie_domains, load_defaults, retryable, wire_cookies

SECRET = "v4lue-that-must-not-leak"


def parse_error(arguments: dict) -> str:
    with pytest.raises(ToolError) as caught:
        TOOL.parse(arguments)
    return str(caught.value)


def test_defaults_prefer_tabsight_names_then_browserloop_ones():
    defaults, warnings = load_defaults(
        {
            "TABSIGHT_DEFAULT_WIDTH": "1024",
            "BROWSERLOOP_DEFAULT_WIDTH": "800",
            "BROWSERLOOP_DEFAULT_FORMAT": "png",
            "BROWSERLOOP_DEFAULT_WAIT_NETWORK_IDLE": "false",
            "TABSIGHT_RETRY_COUNT": "0",
            "BROWSERLOOP_RETRY_DELAY": "250",
        }
    )
    assert warnings == []
    assert (defaults.width, defaults.height, defaults.format) == (1024, 720, "png")
    assert defaults.wait_network_idle is False
    assert (defaults.retry_count, defaults.retry_delay) == (0, 250)


def test_a_bad_default_is_ignored_with_a_warning_naming_the_variable():
    defaults, warnings = load_defaults({"TABSIGHT_DEFAULT_WIDTH": "99999", "BROWSERLOOP_DEFAULT_FORMAT": "gif"})
    assert (defaults.width, defaults.format) == (1280, "webp")
    assert len(warnings) == 2
    assert warnings[0].startswith("TABSIGHT_DEFAULT_WIDTH='99999' ignored") and "4000" in warnings[0]
    assert warnings[1].startswith("BROWSERLOOP_DEFAULT_FORMAT='gif' ignored") and "webp" in warnings[1]


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
        ({"name": "s", "value": SECRET + ";x=1"}, "Invalid cookie 's': the value holds a separator"),
        ({"name": "s", "value": "javascript:" + SECRET}, "Invalid cookie 's': the value looks like script"),
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


def test_cookie_domains_must_match_the_url_with_localhost_handled():
    def cookies(domain):
        return TOOL.parse({"url": "https://x.example.com", "cookies": [{"name": "s", "value": "1", "domain": domain}]}).cookies

    check_cookie_domains(cookies(".example.com"), "https://app.example.com/")
    check_cookie_domains(cookies("app.example.com"), "https://app.example.com/")
    check_cookie_domains(cookies("localhost"), "http://127.0.0.1:3000/")
    with pytest.raises(ToolError, match="does not match the URL's host 'app.example.com'"):
        check_cookie_domains(cookies("example.org"), "https://app.example.com/")
    with pytest.raises(ToolError):
        check_cookie_domains(cookies("ample.com"), "https://example.com/")
    # no domain: that host only; a localhost alias becomes the URL's own host
    assert wire_cookies(TOOL.parse({"url": "http://a.b", "cookies": [{"name": "s", "value": "1"}]}).cookies, "http://a.b/")[0][
        "host_only"
    ]
    assert wire_cookies(cookies("localhost"), "http://127.0.0.1:3000/")[0]["domain"] == "127.0.0.1"


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
