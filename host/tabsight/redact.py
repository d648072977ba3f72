"""Redaction of secrets in telemetry, applied when an event is built, before
anything stores, emits or logs it (docs/design.md §4).

- URLs: secret query parameters (token, key, secret, password, auth,
  session, signature, ...) and user:password@ are masked.
- Text (console messages, exception messages, stacks): Authorization,
  Cookie and API-key header lines, bearer tokens, JWTs, well-known cloud
  and service keys, ``secret=value`` pairs, and URLs inside the text.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

MASK = "[REDACTED]"

SECRET_PARAMETER = re.compile(
    r"(^|[_\-.])(token|access[_-]?token|refresh[_-]?token|id[_-]?token|key|api[_-]?key|apikey|secret|"
    r"client[_-]?secret|password|passwd|pwd|pass|auth|authorization|session|sessionid|sid|signature|sig|"
    r"jwt|credential|credentials|code)($|[_\-.])",
    re.IGNORECASE,
)

TEXT_PATTERNS = [
    # header lines: the whole value goes
    (re.compile(r"\b(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key|x-auth-token)"
                r"(\s*[:=]\s*)[^\n]*", re.IGNORECASE), rf"\1\2{MASK}"),
    (re.compile(r"\b(bearer|basic|token)\s+[A-Za-z0-9._~+/=-]{8,}", re.IGNORECASE), rf"\1 {MASK}"),
    (re.compile(r"\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}"), MASK),  # JWT
    (re.compile(r"\b(AKIA|ASIA)[0-9A-Z]{16}\b"), MASK),  # AWS access key id
    (re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b"), MASK),  # Google API key
    (re.compile(r"\bgh[pousr]_[A-Za-z0-9]{30,}\b"), MASK),  # GitHub token
    (re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}\b"), MASK),  # Slack token
    (re.compile(r"\bsk_(live|test)_[A-Za-z0-9]{16,}\b"), MASK),  # Stripe secret key
    (re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)"), MASK),
    # "password": "x", api_key=x, secret: x
    (re.compile(r"""(["']?\b(?:password|passwd|pwd|secret|api[_-]?key|apikey|access[_-]?token|token|client[_-]?secret)\b["']?\s*[:=]\s*)(["']?)[^\s"',;&}]+""",
                re.IGNORECASE), rf"\1\2{MASK}"),
]
URL_IN_TEXT = re.compile(r"\bhttps?://[^\s\"'<>)]+")
#: text without any of these has nothing for the patterns above: one scan instead of eleven
MAY_HOLD_SECRETS = re.compile(
    r"auth|cookie|key|bearer|basic|token|eyJ|AKIA|ASIA|AIza|gh[pousr]_|xox|sk_|PRIVATE|pass|pwd|secret|https?://",
    re.IGNORECASE,
)


def url(value: str) -> str:
    """The URL with secret query parameters and credentials masked."""
    if "?" not in value and "@" not in value:
        return value
    try:
        parts = urlsplit(value)
    except ValueError:
        return text(value)
    netloc = parts.netloc
    if "@" in netloc:
        netloc = f"{MASK}@{netloc.rsplit('@', 1)[1]}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        if any(SECRET_PARAMETER.search(name) for name, _ in pairs):
            query = urlencode([(name, MASK if SECRET_PARAMETER.search(name) else val) for name, val in pairs],
                              safe="[]")
    if netloc == parts.netloc and query == parts.query:
        return value
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def text(value: str) -> str:
    """The text with secret-looking content masked (URLs in it included)."""
    if not MAY_HOLD_SECRETS.search(value):
        return value
    for pattern, replacement in TEXT_PATTERNS:
        value = pattern.sub(replacement, value)
    return URL_IN_TEXT.sub(lambda match: url(match.group(0)), value)
