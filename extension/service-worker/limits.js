// Limits both sides of the browser boundary enforce. host/tabsight/limits.py
// defines the same names with the same values; a test keeps them equal.

// The wire protocol's version, in every hello.
export const PROTOCOL_VERSION = 1;
// A capture.url viewport's sides, in CSS pixels.
export const MIN_VIEWPORT = 200;
export const MAX_VIEWPORT = 4000;
// Cookies one capture.url may carry.
export const MAX_COOKIES = 50;
// Claude's vision input rejects images over 8000 px on a side: no tile is larger.
export const MAX_TILE_SIDE = 8000;
// CDP steps one page.execute may run.
export const MAX_CDP_STEPS = 50;
// The most characters of a request's body network.detail gives.
export const MAX_BODY_CHARS = 50_000;
// Files one interact upload may set.
export const MAX_UPLOAD_FILES = 20;
