"""Redaction of secrets: the only place where tabsight's rules for them live.

Where it is applied: in the host, telemetry (nativehost/telemetry.py) passes
every console message, exception, stack, request URL and CI result through
``text()`` or ``url()`` as the event is built, before anything stores, emits or
logs it (docs/design.md §4), and a request's headers and text bodies
(``network_detail``) before they leave the host; the front passes every
answer through ``data()``, which masks every string in it whatever its shape
and depth (page fields, a field's value, page text, what a script or a CDP
call returned, and keys too, which a script's result can make of page text).
A selector is the one string never masked: masked, it would match nothing.
The extension sends each element's selector with a structural twin of tags
and positions alone (no attribute value), and ``selector()`` picks the twin
when these rules would mask something in the selector (an href with a
token, an aria-label holding a key), so that what looks secret is decided
here alone.

What it masks (``MASK`` stands for the secret part; the name or prefix that
tells the reader what was there stays, as in ``aws_secret_access_key=[REDACTED]``
or ``https://hooks.slack.com/services/[REDACTED]``):

- ``RULES``, one table of (format, keywords, pattern), its catalogue adapted
  from gitleaks' and detect-secrets': credential headers (Authorization,
  Cookie, Set-Cookie, X-Api-Key, ...), Bearer/Basic/Token credentials, any
  value under a secret-looking name (``"db_password": "..."``, ``passphrase:``,
  ``api_key=``, ``AccountKey=``, ``authToken``; JSON, ``name=value``,
  ``name: value``), private key blocks (PEM, OpenSSH, PGP), JWTs, and the
  self-identifying keys of AWS, Google, GitHub, GitLab, Slack and Discord and
  Teams webhooks, Stripe, OpenAI, Anthropic, Twilio, SendGrid, npm, PyPI,
  Shopify, Vault, DigitalOcean, Mailgun, Telegram bots and some forty more
  services (the table's first column names each).
- Credentials in pairs, where one half says what it is and its partner,
  unnamed, would pass for any random string: the 40-character secret next to
  an AWS access key ID (either order, within 100 characters, as in
  ``aws creds AKIA... wJalr...``), Alibaba Cloud's and a GitHub OAuth app's
  secrets next to their IDs, the token right after a ``client_id`` value, the
  password of ``user:password@host`` written without a scheme and of curl's
  ``-u user:password``. Their rows come before the ID's own, which masks the
  ID after them.
- In URLs (``url()``, and every ``scheme://`` URL inside text): the whole
  userinfo (``postgres://[REDACTED]@host/db``), the values of query and
  fragment parameters with a secret-looking name (``SECRET_PARAMETER``:
  token, key, secret, password, auth, session, signature, code, ... also in
  camelCase, as in ``authToken``, ``privateKey``), values that decode to
  anything the table recognises, and the table's formats anywhere in the URL.

Speed: telemetry calls this on every event of a flood. Each rule has keywords,
lowercase literals found in every match; ``MAY_HOLD_SECRETS`` is all of them
in one pattern (a trie), so text without any costs one scan of its lowercased
copy (and a look at each ``scheme://`` URL that has a ``?``, ``#`` or ``@``),
and text with some is scanned again only by the rules those keywords belong to.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import unquote_plus

from . import bounded

MASK = "[REDACTED]"

# -- names that hold secrets --------------------------------------------------


def _trie(words: str) -> str:
    """A pattern matching any of the (space-separated, literal) words, longest first, as a
    trie: a scan tries one branch per first letter instead of one per word."""
    root: dict[str, dict] = {}
    for word in words.split():
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def branch(node: dict[str, dict]) -> str:
        options = [re.escape(char) + branch(child) for char, child in sorted(node.items()) if char]
        if not options:
            return ""
        body = options[0] if len(options) == 1 else f"(?:{'|'.join(options)})"
        if "" not in node:
            return body
        return f"{body}?" if len(options) == 1 and len(options[0]) == 1 else f"(?:{body})?"

    return branch(root)


_KEY_QUALIFIERS = (
    "api access private account sharedaccess signing encryption client master license storage subscription"
).split()
#: words that make a name secret wherever they stand in it, unless a lowercase letter
#: follows (db_password, PGPASSWORD, csrftoken, clientSecret, AccountKey; not tokenizer,
#: secretary, passwordless, keyboard)
SECRET_NAME_WORDS = (
    "password passwd passphrase secret token credential credentials creds authorization cookie signature "
    "sessid sessionid session_id session-id connectionstring connection_string connection-string "
    + " ".join(f"{qualifier}{joint}key" for qualifier in _KEY_QUALIFIERS for joint in ("", "_", "-"))
)
#: short words that count only as a word of their own: pwd=, not cwd=; auth:, not author:
SECRET_NAME_SHORT_WORDS = "pwd auth otp dsn"
#: names that, right after a secret word, say what the secret is rather than hold it:
#: token_type, SharedAccessKeyName, cookiePath
_NOT_SECRET_SUFFIXES = "name|type|path|domain|file|url|uri|count|length|size|expiry|expires"


def _secret_name(short_words: str) -> str:
    """A secret word in a name: the long ones anywhere, the short ones as a word of their own
    (after a non-letter, or camelCase); neither followed by a lowercase letter."""
    return (
        rf"(?:(?i:{_trie(SECRET_NAME_WORDS)})|(?:(?<![a-z])|(?=[A-Z]))(?i:{_trie(short_words)}))"
        rf"(?![a-z])(?!(?<=[A-Z])[A-Z])(?![_.-]?(?i:{_NOT_SECRET_SUFFIXES})(?![a-z]))"
    )


#: a name (of a JSON key, a variable, a header) whose value is masked whatever it looks like
SECRET_NAME = re.compile(_secret_name(SECRET_NAME_SHORT_WORDS))
#: a URL parameter whose value is masked whatever it looks like
SECRET_PARAMETER = re.compile(_secret_name(SECRET_NAME_SHORT_WORDS + " key code pass session sid sig jwt"))

#: the value after a secret name: quoted (JSON, JS, Python, shell) or bare up to a delimiter;
#: null/true/false, a structure ({, [, ( and so MASK) and a private key block (its own rule
#: keeps its frame) stay
_VALUE = (
    r"(?:\\?\"([^\"\n]+?)\\?\"|'([^'\n]+)'|`([^`\n]+)`|"
    r"(?!(?:null|nil|none|true|false|undefined)\b|-----BEGIN|[\[{(])([^\s\"'`,;&}<>)\]]+))"
)
#: a Basic or Token credential, not an English word: it holds a digit, a lower-upper pair, + or /
_CREDENTIAL = r"(?=[\w.~+/-]*(?:\d|[a-z][A-Z]|[+/]))[\w.~+/-]{8,}=*"

#: an AWS access key ID (AKIA... for a user's key, ASIA... for a temporary one)
_AWS_KEY_ID = r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}"


def _random_token(length: int, alphabet: str) -> str:
    """A pattern for a token of exactly ``length`` characters of ``alphabet`` (a character class's inside),
    as a group: with lower and upper case letters both, as a random one has (a hex hash or a word has not)."""
    return (
        rf"(?<![{alphabet}])((?=[{alphabet}]{{0,{length - 1}}}[a-z])(?=[{alphabet}]{{0,{length - 1}}}[A-Z])"
        rf"[{alphabet}]{{{length}}})(?![{alphabet}=])"
    )


# -- the table ----------------------------------------------------------------


def _table(rows: str, **parts: str) -> tuple[tuple[str, str, str], ...]:
    """(format, keywords, pattern) from rows of ``format | keywords | pattern``: a line that
    begins with spaces goes on with the row above, ``# ...`` lines are comments, and
    ``{part}`` stands for the named part."""
    lines: list[str] = []
    for line in rows.splitlines():
        if line.startswith(" "):
            lines[-1] += line.strip()
        elif line and not line.startswith("#"):
            lines.append(line)
    for name, part in parts.items():
        lines = [line.replace(f"{{{name}}}", part) for line in lines]
    return tuple(
        (format_.strip(), keywords.strip(), pattern.strip())
        for format_, keywords, pattern in (line.split("|", 2) for line in lines)
    )


#: (format, keywords, pattern). Keywords are lowercase literals, one of which is in the
#: lowercased text of every match. The pattern's capturing groups are the secret (each
#: one that took part is masked; the rest of the match stays); with none, the whole
#: match is. Patterns use no backreference, and flags only as scoped groups: (?i:...).
RULES = _table(
    r"""
# context: a header, a scheme or a name says the value is secret
credential header (Authorization, Cookie, Set-Cookie, X-Api-Key, X-Auth-Token, ...)
    | authorization cookie -key -token
    | (?<![\w.-])(?i:(?:proxy-)?authorization|(?:set-)?cookie|x-(?:goog-|functions-)?api-key|api-key|
      x-functions-key|x-(?:auth|access|csrf|xsrf|amz-security|vault|shopify-access)-token|private-token|
      ocp-apim-subscription-key):[ \t]*([^\n]+)
Bearer credential | bearer | \b(?i:bearer)[ \t]+([\w.~+/-]{8,}=*)
Basic or Token credential | basic token | \b(?i:basic|token)[ \t]+({credential})
value under a secret name (JSON, name=value, name: value) | {name_words}
    | {secret_name}[\w.-]{0,40}\\?["'`]?[ \t]*(?:=>|:=|:(?!:)|=(?!=))[ \t]*{value}
private key block (PEM, OpenSSH, PGP, encrypted) | -----begin
    | -----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----([\s\S]*?)
      (?:-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----|\Z)
JSON Web Token | eyj | \beyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]*(?:\.[\w-]*){0,2}
# webhooks: the address stays, the token in its path goes
Slack webhook           | hooks.slack.com    | hooks\.slack\.com/(?:services|workflows|triggers)/([\w+/-]{20,})
Discord webhook         | /api/webhooks/     | discord(?:app)?\.com/api/webhooks/\d+/([\w-]{20,})
Microsoft Teams webhook | webhook.office.com | \.webhook\.office\.com/webhookb2/([^\s"'<>]+)
# pairs: one half of a credential says what it is, its partner next to it looks like any random string
# (aws creds AKIA... wJalr...): the partner goes, the half that says what it is by its own row below (these
# come first: once that half is masked, nothing tells its partner apart)
AWS secret access key next to its key ID | akia asia abia acca a3t
    | \b{aws_key_id}\b[\s\S]{0,100}?{aws_secret}|{aws_secret}(?=[\s\S]{0,100}?\b{aws_key_id}\b)
Alibaba Cloud AccessKey secret next to its ID | ltai
    | \bLTAI[A-Za-z0-9]{20}\b[\s\S]{0,100}?{alibaba_secret}|{alibaba_secret}(?=[\s\S]{0,100}?\bLTAI[A-Za-z0-9]{20}\b)
GitHub OAuth app client secret next to its client ID | iv1. iv23 ov23
    | \b(?:Iv1\.[a-f0-9]{16}|[IO]v23[A-Za-z0-9]{16})\b[\s\S]{0,100}?(?<![\w.-])([a-f0-9]{40})(?![\w.-])
unnamed secret after a client ID (client_id=ID SECRET) | client_id client-id clientid
    | (?i:client[_-]?id)\\?["'`]?[ \t]*[:=][ \t]*\\?["'`]?[\w.@-]{4,}\\?["'`]?(?:[ \t,;|&/]|\\n){1,6}\\?["'`]?
      (?<![\w.~+/=-])((?=[\w.~+/-]{0,100}\d)(?=[\w.~+/-]{0,100}[A-Za-z])[\w.~+/-]{16,})(?![\w.~+/=-])
password of a user:password@host (without a scheme; a URL's is masked whole) | @
    | (?<=[\w.%+-]:)([^\s:@/"'`<>]{1,128})@(?=[\w-]+(?:\.[\w-]+)*(?::\d{1,5}(?![\w.-])|/))
password of curl's -u user:password | -u
    | (?<!\S)(?:-u|-U|--user|--proxy-user)(?:[ \t]+|=)\\?["']?[^\s:"']{1,64}:([^\s"']{1,128})
# self-identifying keys and tokens: the whole token goes
AWS access key ID             | akia asia abia acca a3t  | \b{aws_key_id}\b
Google API key                | aiza                     | \bAIza[\w-]{35}(?![\w-])
Google OAuth client secret    | gocspx-                  | \bGOCSPX-[\w-]{20,}
Google OAuth access token     | ya29.                    | \bya29\.[\w-]{20,}
GitHub token (ghp_, gho_, ghu_, ghs_, ghr_) | ghp_ gho_ ghu_ ghs_ ghr_ | \bgh[pousr]_[A-Za-z0-9]{30,}\b
GitHub fine-grained token     | github_pat_              | \bgithub_pat_\w{22,}
GitLab token | glpat- glptt- gldt- glft- glrt- glimt- glagent- gloas- glsoat- glffct- glcbt- gr1348941
    | \b(?:gl(?:pat|ptt|dt|ft|rt|imt|agent|oas|soat|ffct|cbt)-|GR1348941)[\w-]{20,}(?:\.[a-z0-9]{9})?
Slack token | xoxa- xoxb- xoxe- xoxo- xoxp- xoxr- xoxs- xapp- | \b(?:xox[abeoprs]|xapp)-[\w-]{10,}
Stripe key | sk_live sk_test sk_prod rk_live rk_test rk_prod whsec_
    | \b(?:(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9+/=]{24,})
OpenAI API key | sk-proj- sk-svcacct- sk-admin- t3blbkfj
    | \bsk-(?:(?:proj|svcacct|admin)-[\w-]{20,}|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20})
Anthropic API key             | sk-ant-                  | \bsk-ant-[a-z]{2,8}\d\d-[\w-]{20,}
Twilio API key                | sk                       | \bSK[0-9a-fA-F]{32}\b
SendGrid API key              | sg.                      | \bSG\.[\w-]{16,32}\.[\w-]{16,64}
npm token                     | npm_                     | \bnpm_[A-Za-z0-9]{36}\b
PyPI token                    | pypi-                    | \bpypi-[\w-]{50,}
Shopify token | shpat_ shpca_ shppa_ shpss_ | \bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b
HashiCorp Vault token         | hvs. hvb. hvr.           | \bhv[sbr]\.[\w-]{24,}
DigitalOcean token            | dop_v1_ doo_v1_ dor_v1_  | \bdo[opr]_v1_[a-f0-9]{64}\b
Mailgun API key               | key-                     | \bkey-[0-9a-f]{32}\b
Telegram bot token            | :aa                      | (?<!\d)\d{5,16}:AA[\w-]{30,}
Hugging Face token            | hf_ api_org_             | \b(?:hf|api_org)_[A-Za-z0-9]{34,}\b
Databricks token              | dapi                     | \bdapi[a-f0-9]{32}(?:-\d)?\b
Atlassian API token           | atatt3                   | \bATATT3[\w=-]{50,}
Heroku API key                | hrku-                    | \bHRKU-[\w-]{30,}
Linear API key                | lin_api_                 | \blin_api_[A-Za-z0-9]{40}\b
Notion token                  | ntn_ secret_             | \b(?:ntn_[A-Za-z0-9]{40,}|secret_[A-Za-z0-9]{43})\b
Postman API key               | pmak-                    | \bPMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}\b
Doppler token                 | dp.                      | \bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}
Square token                  | eaaa sq0atp- sq0csp-     | \b(?:EAAA|sq0atp-|sq0csp-)[\w-]{22,}
Meta (Facebook) access token  | eaa                      | \bEAA[A-Z][A-Za-z0-9]{80,}
Dropbox token                 | sl.                      | \bsl\.[\w-]{130,}
Sentry token                  | sntrys_ sntryu_          | \bsntry[su]_[\w+/=]{40,}
Grafana token                 | glsa_ glc_ eyjrijoi
    | \b(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,3}|eyJrIjoi[A-Za-z0-9]{70,}={0,3})
age secret key                | age-secret-key-1         | \bAGE-SECRET-KEY-1[0-9A-Z]{58}\b
1Password secret key or service account token | ops_eyj a3-
    | \b(?:ops_eyJ[A-Za-z0-9+/]{100,}={0,3}|
      A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5})
PlanetScale token             | pscale_                  | \bpscale_(?:tkn|oauth|pw)_[\w=.-]{32,64}
Pulumi token                  | pul-                     | \bpul-[a-f0-9]{40}\b
RubyGems token                | rubygems_                | \brubygems_[a-f0-9]{48}\b
Brevo (Sendinblue) key        | xkeysib- xsmtpsib-       | \bx(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}\b
Dynatrace token               | dt0c01.                  | \bdt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}\b
New Relic key                 | nrak- nrii- nrjs-        | \bNR(?:AK|II|JS)-[A-Za-z0-9-]{19,}
Alibaba Cloud access key ID   | ltai                     | \bLTAI[A-Za-z0-9]{20}\b
Artifactory token             | akcp cmvmd               | \b(?:AKCp[A-Za-z0-9]{69}|cmVmd[A-Za-z0-9]{59})\b
Azure AD client secret        | q~                       | (?<![\w~.-])[\w~.]{3}\dQ~[\w~.-]{31,34}(?![\w~.-])
Fly.io token                  | fo1_ fm1 fm2_            | \b(?:fo1_[\w-]{43}|fm[12][ar]?_[A-Za-z0-9+/]{100,}={0,3})
Perplexity API key            | pplx-                    | \bpplx-[A-Za-z0-9]{48}\b
Groq API key                  | gsk_                     | \bgsk_[A-Za-z0-9]{52}\b
Replicate token               | r8_                      | \br8_[A-Za-z0-9]{37}\b
Supabase token                | sbp_                     | \bsbp_[a-f0-9]{40}\b
Mapbox secret token           | sk.eyj                   | \bsk\.eyJ[\w-]{20,}\.[\w-]{20,}
EasyPost API key              | ezak eztk                | \bEZ[AT]K[A-Za-z0-9]{54}\b
Cloudflare Origin CA key      | v1.0-                    | \bv1\.0-[a-f0-9]{24}-[a-f0-9]{146}\b
Prefect token                 | pnu_                     | \bpnu_[A-Za-z0-9]{36}\b
ReadMe API key                | rdme_                    | \brdme_[a-z0-9]{70}\b
Clojars token                 | clojars_                 | \b(?i:clojars)_[a-z0-9]{60}\b
Duffel token                  | duffel_                  | \bduffel_(?:test|live)_[\w=-]{43}
Flutterwave key               | flwseck flwpubk          | \bFLW(?:SECK|PUBK)_TEST-[a-hA-H0-9]{12,32}(?:-X)?
Shippo token                  | shippo_                  | \bshippo_(?:live|test)_[a-fA-F0-9]{40}\b
Infracost token               | ico-                     | \bico-[A-Za-z0-9]{32}\b
Scalingo token                | tk-us-                   | \btk-us-[\w-]{48}
""",
    credential=_CREDENTIAL,
    secret_name=SECRET_NAME.pattern,
    value=_VALUE,
    name_words=f"{SECRET_NAME_WORDS} {SECRET_NAME_SHORT_WORDS}",
    aws_key_id=_AWS_KEY_ID,
    aws_secret=_random_token(40, "A-Za-z0-9/+"),
    alibaba_secret=_random_token(30, "A-Za-z0-9"),
)


# -- matching -----------------------------------------------------------------


def _keyword_rules() -> dict[str, frozenset[int]]:
    """Every keyword -> the rules to try when it is in the text: its own, and those of the
    keywords inside it or overlapping its end (the scan finds only one of two that overlap).

    Looked up by the pieces of each keyword rather than by comparing every pair of keywords:
    it runs at every process's start (2-3 ms instead of 50-85)."""
    own: dict[str, set[int]] = {}
    for index, (_, keywords, _) in enumerate(RULES):
        for keyword in keywords.split():
            own.setdefault(keyword, set()).add(index)
    # a keyword overlapping the end of another starts with one of that other's ends
    starting: dict[str, list[str]] = {}
    for other in own:
        for n in range(1, len(other)):
            starting.setdefault(other[:n], []).append(other)
    found: dict[str, frozenset[int]] = {}
    for keyword in own:
        others = {keyword[begin:end] for begin in range(len(keyword)) for end in range(begin + 1, len(keyword) + 1)}
        others = {other for other in others if other in own}
        others.update(*(starting.get(keyword[begin:], ()) for begin in range(len(keyword))))
        found[keyword] = frozenset().union(*(own[other] for other in others))
    return found


_KEYWORD_RULES = _keyword_rules()
#: any keyword of any rule, in the lowercased text: without one, text holds nothing to mask
MAY_HOLD_SECRETS = re.compile(_trie(" ".join(_KEYWORD_RULES)))
_PATTERNS = tuple(re.compile(pattern) for _, _, pattern in RULES)


def _mask(match: re.Match[str]) -> str:
    """The match with its groups (or, with none, all of it) masked."""
    if not match.re.groups:
        return MASK
    source, pieces, at = match.string, [], match.start()
    for group in range(1, match.re.groups + 1):
        begin, end = match.span(group)
        if begin >= 0:
            pieces += [source[at:begin], MASK]
            at = end
    pieces.append(source[at : match.end()])
    return "".join(pieces)


def _rules_in(value: str) -> list[re.Pattern[str]]:
    """The patterns of the rules whose keywords are in the text, in the table's order."""
    found = MAY_HOLD_SECRETS.findall(value.lower())
    if not found:
        return []
    return [_PATTERNS[index] for index in sorted(frozenset().union(*map(_KEYWORD_RULES.__getitem__, found)))]


def _apply(value: str) -> str:
    for pattern in _rules_in(value):
        value = pattern.sub(_mask, value)
    return value


def _holds_secret(value: str) -> bool:
    return any(pattern.search(value) for pattern in _rules_in(value))


# -- URLs ---------------------------------------------------------------------

#: RFC 3986's split: scheme, //authority, path, ?query, #fragment
_URL_PARTS = re.compile(r"([^:/?#]+:)?(//[^/?#]*)?([^?#]*)(\?[^#]*)?(#.*)?", re.DOTALL)
#: name=value in a query or a fragment (#access_token=...&id_token=..., #/callback?code=...)
_PARAMETER = re.compile(r"(?<=[?&;#/])([^=&;#?/]+)=([^&;#]*)")
#: a URL of any scheme inside text (https, wss, postgres, mongodb+srv, redis, amqp, ...)
URL_IN_TEXT = re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]{0,30}://[^\s\"'`<>)]+")


def _parameter(match: re.Match[str]) -> str:
    name, value = match.group(1), match.group(2)
    if not value or value == MASK:
        return match.group(0)
    if SECRET_PARAMETER.search(unquote_plus(name) if "%" in name else name) or (
        "%" in value and _holds_secret(unquote_plus(value))
    ):
        return f"{name}={MASK}"
    return match.group(0)


def _url_parts(value: str) -> str:
    """The URL with its userinfo and its secret parameters masked (not the table's formats)."""
    if "@" not in value and "?" not in value and "#" not in value:
        return value
    match = _URL_PARTS.match(value)
    assert match is not None  # every part is optional
    scheme, authority, path, query, fragment = match.groups(default="")
    if "@" in authority:
        authority = f"//{MASK}@{authority.rsplit('@', 1)[1]}"
    if query:
        query = _PARAMETER.sub(_parameter, query)
    if fragment:
        fragment = _PARAMETER.sub(_parameter, fragment)
    return f"{scheme}{authority}{path}{query}{fragment}"


def url(value: str) -> str:
    """The URL with its userinfo, secret parameters and any secret the table knows masked."""
    if value[:5].lower() == "data:":  # content, not an address: nothing in it is a credential
        return value
    return _apply(_url_parts(value))


def text(value: str) -> str:
    """The text with secret-looking content masked, URLs in it included."""
    if "://" in value:
        value = URL_IN_TEXT.sub(lambda match: _url_parts(match.group(0)), value)
    return _apply(value)


# -- answers ------------------------------------------------------------------

#: nesting deeper than this is masked as the JSON text of what it holds (a page script can return anything)
DEEPEST = 64
#: what a string cut before masking loses past the cut: more than the longest secret the cut can split
#: (a private key block cut short is masked to its end)
CUT_MARGIN = 1_000


def data(value: Any, longest: int | None = None, depth: int = 0) -> Any:
    """A JSON value (an answer, a script's or a CDP call's result) with every string in it masked, at any depth
    and whatever its shape: a string under a secret name (``{"access_token": "..."}``) whole, as in JSON
    text; a ``url`` key's string as ``url()`` masks it; any other string, and every key (a script's result
    can key anything by page text), as ``text()`` does.

    A string past ``longest`` characters (the answer keeps no more of it) is cut first, marked as
    ``bounded.cap`` marks a cut: masking a CDP call's megabytes of HTML or base64 would cost seconds. What it
    keeps is masked with CUT_MARGIN more characters, which are then dropped with any secret the cut split."""
    if isinstance(value, str):
        return _text_cut(value, longest)
    if depth >= DEEPEST and isinstance(value, (dict, list, tuple)):
        return _text_cut(json.dumps(value, ensure_ascii=False, default=str), longest)
    if isinstance(value, dict):
        return {
            _text_cut(key, longest) if isinstance(key, str) else key: _under(key, item, longest, depth + 1)
            for key, item in value.items()
        }
    if isinstance(value, (list, tuple)):
        return [data(item, longest, depth + 1) for item in value]
    return value


def _under(key: Any, item: Any, longest: int | None, depth: int) -> Any:
    if isinstance(item, str) and isinstance(key, str):
        if item and SECRET_NAME.search(key):
            return MASK
        if key == "url":
            return url(item)
    return data(item, longest, depth)


def _text_cut(value: str, longest: int | None) -> str:
    if longest is None or len(value) <= longest + CUT_MARGIN:
        return text(value)
    kept = text(value[: longest + CUT_MARGIN])
    return bounded.cap(kept, len(kept) - CUT_MARGIN, len(value))


def selector(chosen: str, structural: str | None) -> str:
    """The selector an answer carries for an element: ``chosen`` (its most lasting one), unless these rules
    would mask something in it (an attribute holding a token: masked, it would match nothing), then
    ``structural``, the element's path of tags and positions, which holds no attribute value."""
    return structural if structural and text(chosen) != chosen else chosen
