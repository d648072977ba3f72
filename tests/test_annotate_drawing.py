"""The drawing of annotated screenshots, on synthetic images (the real pages are in test_annotate.py)."""

from __future__ import annotations

import io

from PIL import Image

from tabsight import annotate


def png(size, color) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, "PNG")
    return out.getvalue()


def mark(label, x, y, width=50, height=20) -> dict:
    return {"label": label, "bounds": {"x": x, "y": y, "width": width, "height": height}}


def test_a_2x_screenshot_gets_its_marks_at_device_pixels():
    drawn, (badge,) = annotate.draw(png((2560, 1440), "white"), [mark(1, 100, 100)], viewport_width=1280)
    assert drawn.size == (2560, 1440)
    # the box runs just outside the element's device-pixel box, 4 px wide at 2x
    assert drawn.getpixel((2 * 100 - 2, 2 * 110)) == annotate.ON_LIGHT[0]
    assert drawn.getpixel((2 * 100 + 2, 2 * 110)) == (255, 255, 255)
    # the badge sits above the element, and is drawn twice as large as at 1x
    _, (small,) = annotate.draw(png((1280, 720), "white"), [mark(1, 100, 100)], viewport_width=1280)
    assert badge.box.bottom <= 2 * 100 and badge.box.height >= 2 * small.box.height - 2


def test_badges_of_elements_in_one_spot_spread_out_without_overlapping():
    marks = [mark(n, 600, 300, 10, 10) for n in range(1, 41)]
    _, badges = annotate.draw(png((1280, 720), "white"), marks, viewport_width=1280)
    for n, badge in enumerate(badges):
        assert badge.box.within(1280, 720)
        assert not any(badge.box.overlaps(other.box, margin=0) for other in badges[n + 1 :])


def test_the_palette_follows_the_background_under_each_badge():
    half = Image.new("RGB", (1280, 720), "white")
    half.paste((15, 15, 25), (640, 0, 1280, 720))
    out = io.BytesIO()
    half.save(out, "PNG")
    _, (light, dark) = annotate.draw(out.getvalue(), [mark(1, 100, 100), mark(2, 900, 100)], viewport_width=1280)
    assert (light.fill, light.digits) == annotate.ON_LIGHT and (dark.fill, dark.digits) == annotate.ON_DARK
    assert annotate.contrast(*annotate.ON_LIGHT) >= 4.5 and annotate.contrast(*annotate.ON_DARK) >= 4.5
