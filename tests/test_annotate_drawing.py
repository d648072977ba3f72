"""The drawing of annotated screenshots, on synthetic images (the real pages are in test_annotate.py)."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image, ImageDraw, ImageFont

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
    # the box runs GAP CSS px outside the element's device-pixel box, 2 px wide at 2x, nothing drawn in between
    out = 2 * annotate.GAP
    assert drawn.getpixel((2 * 100 - out - 1, 2 * 110)) == annotate.ON_LIGHT[0]
    assert drawn.getpixel((2 * 100 - out - 2, 2 * 110)) == annotate.ON_LIGHT[0]
    assert drawn.getpixel((2 * 100 - out - 3, 2 * 110)) == (255, 255, 255)
    assert all(drawn.getpixel((x, 2 * 110)) == (255, 255, 255) for x in range(2 * 100 - out, 2 * 100 + 3))
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


# Synthetic pages with text-like content: each element a light box with dark
# words in it, and some text the page shows that is not an element (labels).

TEXT = (30, 30, 30)


def page(elements, loose_text=(), size=(1280, 720), background="white"):
    """A PNG with a box and words in each element ((x, y, width, height)),
    the words of ``loose_text`` ((x, y, text)) drawn on the page, and the marks."""
    img = Image.new("RGB", size, background)
    pen = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=13)
    for x, y, w, h in elements:
        pen.rectangle((x, y, x + w - 1, y + h - 1), fill=(236, 236, 240), outline=(150, 150, 150))
        pen.text((x + 4, y + (h - 13) // 2), "Wag" * (w // 24) or "W", font=font, fill=TEXT)
    for x, y, text in loose_text:
        pen.text((x, y), text, font=font, fill=TEXT)
    out = io.BytesIO()
    img.save(out, "PNG")
    marks = [mark(n + 1, *box) for n, box in enumerate(elements)]
    return out.getvalue(), img, marks


def ink(img, box) -> list[tuple[int, int]]:
    """Where the page shows text (dark pixels) inside ``box`` (x0, y0, x1, y1)."""
    crop = np.asarray(img.crop(box).convert("L"))
    ys, xs = np.nonzero(crop < 110)
    return [(box[0] + x, box[1] + y) for x, y in zip(xs.tolist(), ys.tolist())]


def covers(badge, points) -> bool:
    b = badge.box
    return any(b.x <= x < b.right and b.y <= y < b.bottom for x, y in points)


def check_every_badge(drawn, badges, marks, img=None):
    """What any annotated screenshot must show: one badge per element, inside
    the image, apart from each other, legible, and tied to its element by a
    line whenever it is not next to it (the line breaks where it would cross
    or touch the page's strokes: ``img``, the page, tells where they are)."""
    assert [b.label for b in badges] == [m["label"] for m in marks]
    pixels = np.asarray(drawn)
    for n, badge in enumerate(badges):
        box = badge.box
        assert box.within(drawn.width, drawn.height)
        assert not any(badge.box.overlaps(other.box, margin=0) for other in badges[n + 1 :])
        assert annotate.contrast(badge.fill, badge.digits) >= 4.5
        drawn_badge = pixels[box.y : box.bottom, box.x : box.right].reshape(-1, 3).tolist()
        assert drawn_badge.count(list(badge.fill)) > len(drawn_badge) / 3  # the badge, not hidden by later marks
        assert any(sum(abs(a - b) for a, b in zip(px, badge.digits)) < 90 for px in drawn_badge)  # its digits
        bounds = marks[n]["bounds"]
        gap_x = max(bounds["x"] - box.right, box.x - (bounds["x"] + bounds["width"]), 0)
        gap_y = max(bounds["y"] - box.bottom, box.y - (bounds["y"] + bounds["height"]), 0)
        if max(gap_x, gap_y) > annotate.OUTLINE_REACH + annotate.STROKE:  # away from its box: a line to the box
            assert badge.leader is not None
            x0, y0, x1, y1 = badge.leader
            steps = max(abs(x1 - x0), abs(y1 - y0))
            line = [(round(x0 + (x1 - x0) * i / steps), round(y0 + (y1 - y0) * i / steps)) for i in range(steps + 1)]
            outside = [(x, y) for x, y in line if not box.overlaps(annotate.Box(x, y, 1, 1), margin=0)]
            if img is not None:  # where it runs over plain page (it breaks where it would cross or touch a stroke)
                grey = np.asarray(img.convert("L")).astype(int)
                text = set(ink(img, (0, 0, img.width, img.height)))
                # never over the page's text
                assert not any(drawn.getpixel(p) == badge.fill for p in outside if p in text)
                outside = [
                    (x, y) for x, y in outside if np.ptp(grey[max(0, y - 2) : y + 3, max(0, x - 2) : x + 3]) < 20
                ]
            assert outside and sum(drawn.getpixel(p) == badge.fill for p in outside) >= 0.8 * len(outside)


def test_badges_keep_off_the_text_of_other_elements_when_there_is_room():
    # a toolbar of touching buttons and a list of rows stacked 2 px apart:
    # above a row is the row before it, so its badge must find room elsewhere
    toolbar = [(100 + 90 * i, 60, 88, 26) for i in range(6)]
    rows = [(300, 200 + 24 * i, 300, 22) for i in range(10)]
    shot, img, marks = page(toolbar + rows)
    drawn, badges = annotate.draw(shot, marks, viewport_width=1280)
    check_every_badge(drawn, badges, marks, img)
    for n, badge in enumerate(badges):
        for m, other in enumerate(marks):
            b = other["bounds"]
            box = annotate.Box(b["x"], b["y"], b["width"], b["height"])
            if m != n:
                assert not badge.box.overlaps(box, margin=0), (badge.label, other["label"])
        assert not covers(badge, ink(img, (0, 0, 1280, 720)))


def test_badges_keep_off_labels_the_page_shows():
    # a form: a label above each field, right on top of it; the labels are text, not elements
    fields = [(120 + 300 * col, 100 + 60 * row, 220, 26) for row in range(8) for col in range(3)]
    labels = [(x, y - 16, "Email address") for x, y, _, _ in fields]
    shot, img, marks = page(fields, labels)
    drawn, badges = annotate.draw(shot, marks, viewport_width=1280)
    check_every_badge(drawn, badges, marks, img)
    text = ink(img, (0, 0, 1280, 720))
    assert not any(covers(badge, text) for badge in badges)
    # and they stay next to their fields, where the eye looks for them
    assert all(badge.leader is None for badge in badges)


def test_a_badge_with_no_room_next_to_its_element_moves_away_with_a_line():
    # a 3 x 3 block of buttons 2 px apart: the middle one has no free side,
    # its badge goes to the nearest plain spot
    block = [(500 + 92 * col, 300 + 32 * row, 90, 30) for row in range(3) for col in range(3)]
    middle = block.pop(4)
    shot, img, marks = page([middle] + block)
    drawn, badges = annotate.draw(shot, marks, viewport_width=1280)
    check_every_badge(drawn, badges, marks, img)
    moved = badges[0]
    assert moved.leader is not None
    text = ink(img, (0, 0, 1280, 720))
    assert not any(covers(badge, text) for badge in badges)
    for other in marks[1:]:
        b = other["bounds"]
        assert not moved.box.overlaps(annotate.Box(b["x"], b["y"], b["width"], b["height"]), margin=0)
    # within reach of its element
    assert abs(moved.box.x - middle[0]) < 200 and abs(moved.box.y - middle[1]) < 200


def test_badges_prefer_plain_background_to_paragraph_text():
    # a link inside a paragraph: lines of text above and below it, plain space at the right
    words = [(200, 300 + 16 * i, "Lorem ipsum dolor sit amet, consectetur") for i in range(-3, 4) if i]
    link = (200, 300, 150, 15)
    shot, img, marks = page([link], words)
    drawn, badges = annotate.draw(shot, marks, viewport_width=1280)
    check_every_badge(drawn, badges, marks, img)
    assert not covers(badges[0], ink(img, (0, 0, 1280, 720)))


def test_a_dense_grid_of_100_elements_gets_every_badge_apart():
    for gap in (25, 4, 0):
        cells = [
            (10 + col * (118 + gap), 10 + row * (60 + gap // 2), 118, 60) for row in range(10) for col in range(10)
        ]
        cells = [(x, y, w, h) for x, y, w, h in cells if x + w <= 1280 and y + h <= 720][:100]
        shot, img, marks = page(cells)
        drawn, badges = annotate.draw(shot, marks, viewport_width=1280)
        check_every_badge(drawn, badges, marks, img)
        if gap >= 25:  # room between the elements: no badge on another element's text
            assert not any(
                covers(b, ink(img, (x + 1, y + 1, x + w - 1, y + h - 1)))
                for b in badges
                for n, (x, y, w, h) in enumerate(cells)
                if n + 1 != b.label
            )


def test_rows_of_two_line_labels_still_place_every_badge():
    fields = [(40 + 250 * col, 60 + 66 * row, 200, 24) for row in range(10) for col in range(5)]
    labels = [
        (x, y - 32 + 14 * line, text)
        for x, y, _, _ in fields
        for line, text in enumerate(("Billing address", "(as on your card)"))
    ]
    shot, img, marks = page(fields, labels)
    drawn, badges = annotate.draw(shot, marks, viewport_width=1280)
    check_every_badge(drawn, badges, marks, img)
    text = ink(img, (0, 0, 1280, 720))
    assert not any(covers(badge, text) for badge in badges)


def test_badges_on_a_dark_page_with_text_stay_legible():
    shot, img, marks = page([(100 + 140 * i, 200, 120, 26) for i in range(8)], background=(20, 22, 30))
    drawn, badges = annotate.draw(shot, marks, viewport_width=1280)
    check_every_badge(drawn, badges, marks, img)
    assert all((b.fill, b.digits) == annotate.ON_DARK for b in badges)


def drawn_in(drawn, colour) -> np.ndarray:
    """Where ``drawn`` has exactly ``colour``."""
    return (np.asarray(drawn) == np.array(colour, np.uint8)).all(axis=2)


def grown(mask: np.ndarray, by: int) -> np.ndarray:
    """``mask`` with every set pixel spread ``by`` px in each direction."""
    out = mask.copy()
    for dy in range(-by, by + 1):
        for dx in range(-by, by + 1):
            out |= np.roll(np.roll(mask, dy, axis=0), dx, axis=1)
    return out


def test_a_box_keeps_clear_of_the_text_it_holds():
    # links with no padding: their words fill their bounds; the box runs GAP px out, touching none of them
    img = Image.new("RGB", (1280, 720), "white")
    pen = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=13)
    marks = []
    for n, (x, y, text) in enumerate(((100, 100, "Read the terms"), (400, 300, "Privacy policy"), (700, 500, "Wag"))):
        left, top, right, bottom = pen.textbbox((x, y), text, font=font)
        pen.text((x, y), text, font=font, fill=TEXT)
        marks.append(mark(n + 1, left, top, right - left, bottom - top))
    out = io.BytesIO()
    img.save(out, "PNG")
    drawn, badges = annotate.draw(out.getvalue(), marks, viewport_width=1280)
    check_every_badge(drawn, badges, marks, img)
    lines = drawn_in(drawn, annotate.ON_LIGHT[0])
    text = np.asarray(img.convert("L")) < 200
    assert not (lines & grown(text, 2)).any()
    for m in marks:  # and each box is whole, GAP px out on every side
        b, gap = m["bounds"], annotate.GAP
        x0, y0, x1, y1 = b["x"] - gap - 1, b["y"] - gap - 1, b["x"] + b["width"] + gap, b["y"] + b["height"] + gap
        assert lines[y0, x0:x1].all() and lines[y1, x0:x1].all()
        assert lines[y0:y1, x0].all() and lines[y0:y1, x1].all()


def test_a_box_breaks_where_a_label_sits_on_its_line():
    # a field with its label on its top border (an outlined text field): no way round it, the line breaks for it
    img = Image.new("RGB", (1280, 720), "white")
    pen = ImageDraw.Draw(img)
    pen.rectangle((200, 200, 499, 239), outline=(150, 150, 150))
    font = ImageFont.load_default(size=13)
    for y in range(188, 205, 2):  # the label straddles the border, and the rows a box could run along
        pen.rectangle((212, y - 2, 300, y + 14), fill="white")
    pen.text((214, 192), "Invoice number", font=font, fill=TEXT)
    out = io.BytesIO()
    img.save(out, "PNG")
    marks = [mark(1, 200, 200, 300, 40)]
    drawn, badges = annotate.draw(out.getvalue(), marks, viewport_width=1280)
    check_every_badge(drawn, badges, marks, img)
    lines = drawn_in(drawn, annotate.ON_LIGHT[0])
    text = np.asarray(img.convert("L")) < 120
    assert not (lines & grown(text, 1)).any()
    # the rest of the box is drawn: its top line beyond the label, and its other sides
    top = next(y for y in range(185, 200) if lines[y, 320:480].all())
    assert lines[top, 202:210].any() and lines[top, 310:500].all()
    assert lines[200:240, 190:200].any(axis=1).all() and lines[200:240, 500:510].any(axis=1).all()


def test_the_boxes_of_close_neighbours_do_not_run_into_each_other():
    # a toolbar of buttons 6 px apart: each box goes less far out between them, and the two lines stay apart
    buttons = [(100 + 66 * i, 100, 60, 24) for i in range(6)]
    shot, img, marks = page(buttons)
    drawn, badges = annotate.draw(shot, marks, viewport_width=1280)
    check_every_badge(drawn, badges, marks, img)
    lines = drawn_in(drawn, annotate.ON_LIGHT[0])
    for x, y, w, h in buttons[:-1]:
        between = lines[y + h // 2, x + w : x + w + 6]  # the 6 px between a button and the next
        assert between.sum() == 2 and not (between[:-1] & between[1:]).any()  # two lines, not touching
    # with room, a box keeps its gap: above and below the buttons
    x, y, w, h = buttons[0]
    assert lines[y - annotate.GAP - 1, x + 5 : x + w - 5].all() and lines[y + h + annotate.GAP, x + 5 : x + w - 5].all()


def test_badges_on_a_shrunk_picture_shrink_but_stay_legible():
    # the same page shown at 1280, 960 and 640 px wide: badges shrink less than the page, and never below
    # BADGE_MIN_SCALE of their size, where their digits are still 8 px tall
    cells = [(100 + 150 * col, 100 + 80 * row, 120, 30) for row in range(6) for col in range(7)]
    shot, _, marks = page(cells)
    heights = {}
    for width in (1280, 960, 640):
        size = (width, width * 9 // 16)
        drawn, badges = annotate.draw(shot, marks, viewport_width=1280, size=size)
        assert drawn.size == size
        pixels = np.asarray(drawn)
        for n, badge in enumerate(badges):
            box = badge.box
            assert box.within(*size)
            assert not any(box.overlaps(other.box, margin=0) for other in badges[n + 1 :])
            assert annotate.contrast(badge.fill, badge.digits) >= 4.5
            area = pixels[box.y : box.bottom, box.x : box.right].astype(int)
            to_fill = np.abs(area - np.array(badge.fill)).sum(axis=2)
            digits = np.abs(area - np.array(badge.digits)).sum(axis=2) < to_fill  # nearer the digits' colour
            rows = np.flatnonzero(digits.any(axis=1))
            assert rows.size and rows[-1] - rows[0] + 1 >= 8  # the digits' height
            assert (to_fill == 0).mean() > 1 / 3  # on their own fill
        heights[width] = max(b.box.height for b in badges)
    assert heights[1280] > heights[960] >= heights[640] >= round(heights[1280] * annotate.BADGE_MIN_SCALE) - 2
