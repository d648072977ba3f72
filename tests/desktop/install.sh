#!/usr/bin/env bash
# The desktop tests/test_headed.py runs a headed Chromium on: an X server without a screen (Xvfb),
# a window manager (openbox) and the X tools the tests use to cover, minimize and inspect windows
# (xdotool, and xmessage, xprop, xwininfo from x11-utils), and scrot to look at the screen as the user sees it.
# Debian packages, installed by tests/apt-tools.sh when missing.
exec bash "$(dirname "$0")/../apt-tools.sh" desktop tests/test_headed.py \
  Xvfb:xvfb openbox:openbox xdotool:xdotool xmessage:x11-utils xprop:x11-utils scrot:scrot
