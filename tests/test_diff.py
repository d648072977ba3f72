"""Visual diff on synthetic images."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from tabsight import diff


def png(size=(400, 300), boxes=(), background="white") -> bytes:
    img = Image.new("RGB", size, background)
    pen = ImageDraw.Draw(img)
    for box, colour in boxes:
        pen.rectangle(box, fill=colour)
    out = io.BytesIO()
    img.save(out, "PNG")
    return out.getvalue()


def test_identical_images_have_no_change():
    result = diff.compare(png(), png())
    assert result.percent_changed == 0 and result.regions == []


def test_separate_changes_are_separate_regions_with_exact_boxes():
    before = png()
    after = png(boxes=[((10, 20, 29, 39), "red"), ((300, 200, 349, 209), "blue")])
    result = diff.compare(before, after)
    assert result.regions == [
        {"x": 300, "y": 200, "width": 50, "height": 10},
        {"x": 10, "y": 20, "width": 20, "height": 20},
    ]
    assert result.percent_changed == round(100 * (400 + 500) / (400 * 300), 3)


def test_jpeg_noise_is_not_a_change():
    out = io.BytesIO()
    Image.open(io.BytesIO(png(boxes=[((50, 50, 150, 150), (90, 120, 200))]))).save(out, "JPEG", quality=70)
    result = diff.compare(png(boxes=[((50, 50, 150, 150), (90, 120, 200))]), out.getvalue())
    assert result.percent_changed < 0.5


def test_a_viewport_that_changed_size_is_compared_over_the_common_area_only():
    # the debugger bar took 56 px off the viewport: the same page, a shorter image; nothing changed
    result = diff.compare(png((400, 356)), png((400, 300)))
    assert result.baseline_size == (400, 356) and result.current_size == (400, 300)
    assert result.compared_size == (400, 300) and result.percent_changed == 0 and result.regions == []
    # a real change in the common area is still found, and what was not compared is hatched
    moved = diff.compare(png((400, 300)), png((400, 350), boxes=[((10, 10, 60, 60), (0, 0, 0))]))
    assert moved.regions == [{"x": 10, "y": 10, "width": 51, "height": 51}]
    assert moved.image.size == (400, 350)
    assert moved.image.getpixel((0, 344)) == diff.NOT_COMPARED
