"""What each client keeps of an image, and the size of the default look's picture (tabsight.vision)."""

from __future__ import annotations

import pytest

from tabsight import vision


@pytest.mark.parametrize(
    ("client", "expected"),
    [
        ("claude-code Claude Code", "Claude Code"),
        ("codex-mcp-client Codex", "Codex"),
        ("gemini-cli-mcp-client", "Gemini CLI"),
        ("Visual Studio Code", "VS Code"),
        ("cursor-vscode", "Cursor"),  # its name holds "vscode" too: Cursor's row comes first
        ("mcp-inspector", "other clients"),
        ("", "other clients"),
    ],
)
def test_each_client_has_its_row(client, expected):
    assert vision.of_client(client).client == expected


def test_the_default_look_is_near_its_token_budget_and_keeps_the_aspect():
    width, height = vision.look_size(1280, 720, vision.DEFAULT)
    assert width * height / 750 <= vision.LOOK_TOKENS
    assert width * height / 750 > 0.95 * vision.LOOK_TOKENS
    assert abs(width / height - 1280 / 720) < 0.01


def test_a_small_capture_is_drawn_at_the_look_s_scale_and_never_enlarged():
    assert vision.look_size(400, 300, vision.DEFAULT) == (
        round(400 * vision.LOOK_SCALE),
        round(300 * vision.LOOK_SCALE),
    )
    assert vision.look_size(400, 300, vision.DEFAULT, max_width=800) == (400, 300)


def test_max_width_decides_within_what_the_client_keeps():
    assert vision.look_size(1280, 720, vision.DEFAULT, max_width=1280) == (1280, 720)
    assert vision.look_size(1280, 720, vision.DEFAULT, max_width=640) == (640, 360)
    # Codex keeps at most 768 px on the short side: a tall capture asked at full size is cut to that
    codex = vision.of_client("codex")
    assert vision.look_size(1000, 2000, codex, max_width=1000) == (768, 1536)
    # Claude keeps at most 1568 on the long side and 1.15 megapixels
    width, height = vision.look_size(2560, 1440, vision.DEFAULT, max_width=2560)
    assert width <= 1568 and width * height <= 1_150_000
