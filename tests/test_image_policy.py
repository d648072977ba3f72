"""One image policy: every purpose's encoding is in images.ENCODINGS, and images.encode is the only code that
encodes with Pillow."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from PIL import Image

import tabsight
from tabsight import config, images
from tabsight.tools.screenshot import ScreenshotParams

PACKAGE = Path(tabsight.__file__).parent

#: an image encoded by hand (Pillow's save), a quality written out (``quality=90``, ``QUALITY = 60``,
#: ``quality or 80``), or a format written out in a capture request
CHOSEN_HERE = re.compile(
    r"\.save\(|quality\w*\s*(=|:[^=\n]*=|or)\s*(Field\(default=)?\d|\.capture\([^)\n]*['\"](jpeg|png|webp)['\"]",
    re.IGNORECASE,
)


def test_no_module_but_images_encodes_an_image_or_chooses_a_quality():
    found = [
        f"{path.relative_to(PACKAGE)}:{number}: {line.strip()}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.name != "images.py"
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if CHOSEN_HERE.search(line)
    ]
    assert found == [], "ask images.ENCODINGS / images.encode by purpose instead"
    # the pattern does find what it is for
    assert all(
        CHOSEN_HERE.search(line)
        for line in (
            'picture.save(out, "JPEG")',
            "QUALITY = 60",
            "quality: int = Field(default=80, ge=1)",
            "images.reencoded(pic, format, quality or 80)",
            'await client.capture(tab_id, "png")',
        )
    )


def test_the_screenshot_tools_defaults_are_the_tables():
    # (the configuration table cannot ask images.py, which loads Pillow, for them: it holds the same values)
    shot = images.ENCODINGS["screenshot"]
    defaults = config.load({})
    assert (
        (defaults[config.TABSIGHT_DEFAULT_FORMAT], defaults[config.TABSIGHT_DEFAULT_QUALITY])
        == (shot.format, shot.quality)
        == ("webp", 80)
    )
    schema = ScreenshotParams.model_json_schema()["properties"]
    assert (schema["format"]["default"], schema["quality"]["default"]) == ("webp", 80)


def pillow(img: Image.Image, fmt: str, **options) -> bytes:
    out = io.BytesIO()
    img.save(out, fmt, **options)
    return out.getvalue()


@pytest.mark.parametrize(
    ("purpose", "fmt", "options"),
    [
        ("annotated", "JPEG", {"quality": 80, "subsampling": 0}),
        ("diff", "JPEG", {"quality": 80}),
        ("screenshot", "WEBP", {"quality": 80, "method": 0}),
    ],
)
def test_each_purpose_encodes_as_it_always_did(purpose, fmt, options):
    img = Image.merge("RGB", [Image.effect_noise((320, 200), sigma) for sigma in (20, 40, 60)])
    assert images.encode(img, purpose) == pillow(img, fmt, **options)


def test_a_screenshot_in_another_format_takes_the_calls_quality_and_nothing_of_the_default_format():
    img = Image.merge("RGB", [Image.effect_noise((320, 200), sigma) for sigma in (20, 40, 60)])
    assert images.encode(img, "screenshot", "jpeg", 50) == pillow(img, "JPEG", quality=50)
    assert images.encode(img, "screenshot", "png", 50) == pillow(img, "PNG")


def test_what_the_browser_captures_for_each_purpose():
    taken = {purpose: (encoding.format, encoding.quality) for purpose, encoding in images.ENCODINGS.items()}
    assert taken["annotated_capture"] == ("jpeg", 90)
    assert taken["automatic"] == ("jpeg", 60)
    assert taken["diff_capture"] == ("png", None)
    assert images.ENCODINGS["automatic"].mime_type == "image/jpeg"
