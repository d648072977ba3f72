"""Limits both sides of the browser boundary enforce.

``extension/service-worker/limits.js`` defines the same names with the same values; a test
keeps them equal.
"""

#: the wire protocol's version, in every hello
PROTOCOL_VERSION = 1
#: a capture.url viewport's sides, in CSS pixels
MIN_VIEWPORT = 200
MAX_VIEWPORT = 4000
#: cookies one capture.url may carry
MAX_COOKIES = 50
#: Claude's vision input rejects images over 8000 px on a side (docs/design.md §1): no tile is larger
MAX_TILE_SIDE = 8000
#: CDP steps one page.execute may run
MAX_CDP_STEPS = 50
#: the most characters of a request's body network.detail gives
MAX_BODY_CHARS = 50_000
#: files one interact upload may set
MAX_UPLOAD_FILES = 20
