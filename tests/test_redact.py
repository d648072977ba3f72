"""Redaction (redact.py): a corpus of secret formats that must be masked, and a corpus of
ordinary text and URLs that must come back unchanged.

The fake secrets are made here, from the formats' prefixes and random characters of the
formats' alphabets, so that no secret-shaped literal sits in the repository."""

from __future__ import annotations

import json
import random
import re
import string

import pytest

from tabsight import redact
from tabsight.redact import MASK

_random = random.Random(14)
ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
BASE64 = ALNUM + "+/"
URLSAFE = ALNUM + "_-"


#: where a case's secret goes in its text
S = "{S}"


def fake(length: int, alphabet: str = ALNUM) -> str:
    return "".join(_random.choice(alphabet) for _ in range(length))


def pem(kind: str) -> tuple[str, str]:
    """A key block with S where its body goes, and the body."""
    return f"-----BEGIN {kind}-----\n{S}\n-----END {kind}-----", "\n".join(fake(64, BASE64) for _ in range(4))


JWT = "eyJhbGciOiJIUzI1NiJ9." + "eyJzdWIiOiIx" + fake(30, URLSAFE) + "." + fake(43, URLSAFE)
RSA, RSA_BODY = pem("RSA PRIVATE KEY")
OPENSSH, OPENSSH_BODY = pem("OPENSSH PRIVATE KEY")
PGP, PGP_BODY = pem("PGP PRIVATE KEY BLOCK")
SLACK_HOOK = f"T{fake(10, string.ascii_uppercase)}/B{fake(10, string.ascii_uppercase)}/{fake(24)}"
DISCORD_HOOK = fake(68, URLSAFE)
TELEGRAM = f"{fake(9, string.digits)}:AA{fake(33, URLSAFE)}"
PASSWORD = "correct horse " + fake(8)

#: (format, text holding the secret, the secret): every secret must be gone, MASK there
SECRETS: list[tuple[str, str, str]] = [
    # named values: JSON, name=value, name: value
    ("AWS secret access key (name=value)", "aws_secret_access_key={S}", fake(40, BASE64)),
    ("AWS secret access key (env, spaces)", "export AWS_SECRET_ACCESS_KEY = {S}", fake(40, BASE64)),
    ("JSON db_password", '{"user": "ada", "db_password": "{S}"}', PASSWORD),
    ("JSON passphrase", '{"passphrase": "{S}", "id": 7}', PASSWORD),
    ("escaped JSON password", '{\\"password\\":\\"{S}\\"}', fake(12)),
    ("Python dict client_secret", "config {'client_secret': '{S}'}", fake(24)),
    ("YAML api_key", "api_key: {S}", fake(32, HEX)),
    ("JS object apiKey", "init({apiKey: '{S}', region: 'eu'})", fake(30)),
    ("camelCase privateKey", 'privateKey="{S}"', fake(44, BASE64)),
    ("credentials", "credentials={S}", fake(20)),
    ("PGPASSWORD in env", "PGPASSWORD={S} psql -h db", fake(16)),
    ("csrftoken cookie pair", "csrftoken={S}", fake(32)),
    ("pwd in a connection string", "Server=db;Uid=app;Pwd={S};", fake(14)),
    (
        "Azure storage AccountKey",
        "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey={S};EndpointSuffix=core.windows.net",
        fake(86, BASE64) + "==",
    ),
    (
        "Azure Service Bus SharedAccessKey",
        "Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=root;SharedAccessKey={S}",
        fake(43, BASE64) + "=",
    ),
    # headers and credentials
    ("Authorization: Basic header", "Authorization: Basic {S}", "dXNlcjpwYXNz" + fake(8, BASE64) + "="),
    ("Authorization: Bearer header", "Authorization: Bearer {S}", fake(40, URLSAFE)),
    ("Cookie header", "Cookie: sid={S}; theme=dark", fake(32)),
    ("Set-Cookie header", "set-cookie: session={S}; Path=/; HttpOnly", fake(32)),
    ("X-Api-Key header", "X-Api-Key: {S}", fake(32, HEX)),
    ("headers as JSON", '{"Authorization":"Bearer {S}","Accept":"*/*"}', fake(40, URLSAFE)),
    ("bearer token in prose", "retrying with bearer {S} now", fake(40, URLSAFE)),
    ("JSON Web Token", "jwt={S}", JWT),
    ("JSON Web Token in prose", "decoded {S} fine", JWT),
    # private keys
    ("PEM RSA private key", f"key: {RSA}", RSA_BODY),
    ("OpenSSH private key", OPENSSH, OPENSSH_BODY),
    ("PGP private key block", f"export {PGP}\ndone", PGP_BODY),
    ("private key in JSON", '{"private_key": "' + RSA.replace("\n", "\\n") + '"}', RSA_BODY.replace("\n", "\\n")),
    ("private key cut short", "-----BEGIN PRIVATE KEY-----\n{S}", fake(64, BASE64)),
    # self-identifying keys and tokens
    ("AWS access key ID", "using {S}", "AKIA" + fake(16, string.ascii_uppercase + "234567")),
    ("Google API key", "maps key {S}", "AIza" + fake(35, URLSAFE)),
    ("Google OAuth client secret", "client {S}", "GOCSPX-" + fake(28, URLSAFE)),
    ("Google OAuth access token", "got {S}", "ya29." + fake(60, URLSAFE)),
    ("GitHub personal access token", "push with {S}", "ghp_" + fake(36)),
    ("GitHub fine-grained token", "push with {S}", "github_pat_" + fake(22) + "_" + fake(59)),
    ("GitLab personal access token", "clone {S}", "glpat-" + fake(20, URLSAFE)),
    ("Slack bot token", "slack {S}", f"xoxb-{fake(12, string.digits)}-{fake(12, string.digits)}-{fake(24)}"),
    ("Slack webhook", "post https://hooks.slack.com/services/{S} failed", SLACK_HOOK),
    ("Discord webhook", f"POST https://discord.com/api/webhooks/{fake(18, string.digits)}/{S} 400", DISCORD_HOOK),
    (
        "Microsoft Teams webhook",
        "https://acme.webhook.office.com/webhookb2/{S}",
        f"{fake(8, HEX)}-{fake(4, HEX)}@{fake(8, HEX)}/IncomingWebhook/{fake(32, HEX)}",
    ),
    ("Stripe secret key", "stripe {S}", "sk_live_" + fake(24)),
    ("Stripe restricted key", "stripe {S}", "rk_live_" + fake(24)),
    ("Stripe webhook secret", "whsec {S}", "whsec_" + fake(32)),
    ("OpenAI project key", "openai {S}", "sk-proj-" + fake(74, URLSAFE) + "T3BlbkFJ" + fake(74, URLSAFE)),
    ("OpenAI legacy key", "openai {S}", "sk-" + fake(20) + "T3BlbkFJ" + fake(20)),
    ("Anthropic API key", "claude {S}", "sk-ant-api03-" + fake(93, URLSAFE) + "AA"),
    ("Twilio API key", "twilio {S}", "SK" + fake(32, HEX)),
    ("SendGrid API key", "sendgrid {S}", f"SG.{fake(22, URLSAFE)}.{fake(43, URLSAFE)}"),
    ("npm token", "//registry.npmjs.org/:_authToken={S}", "npm_" + fake(36)),
    ("npm token in prose", "npm {S}", "npm_" + fake(36)),
    ("PyPI token", "twine {S}", "pypi-AgEIcHlwaS5vcmc" + fake(70, URLSAFE)),
    ("Azure connection string password", "Server=tcp:x.database.windows.net;Password={S};", fake(16)),
    ("Telegram bot token", "bot {S}", TELEGRAM),
    ("Telegram bot token in a URL path", "GET https://api.telegram.org/bot{S}/sendMessage", TELEGRAM),
    ("Shopify access token", "shopify {S}", "shpat_" + fake(32, HEX)),
    ("HashiCorp Vault token", "vault {S}", "hvs." + fake(90, URLSAFE)),
    ("DigitalOcean token", "doctl {S}", "dop_v1_" + fake(64, HEX)),
    ("Mailgun API key", "mailgun {S}", "key-" + fake(32, HEX)),
    ("Hugging Face token", "hf {S}", "hf_" + fake(34, string.ascii_letters)),
    ("Databricks token", "databricks {S}", "dapi" + fake(32, HEX)),
    ("Grafana service account token", "grafana {S}", f"glsa_{fake(32)}_{fake(8, HEX)}"),
    ("age secret key", "age {S}", "AGE-SECRET-KEY-1" + fake(58, string.ascii_uppercase + string.digits)),
    ("Azure AD client secret", "aad {S}", f"{fake(3)}8Q~{fake(34, ALNUM + '~.-')}"),
    ("Linear API key", "linear {S}", "lin_api_" + fake(40)),
    ("Notion token", "notion {S}", "ntn_" + fake(11, string.digits) + fake(35)),
    ("Postman API key", "postman {S}", f"PMAK-{fake(24, HEX)}-{fake(34, HEX)}"),
    ("Doppler token", "doppler {S}", "dp.pt." + fake(43)),
    ("Square access token", "square {S}", "sq0atp-" + fake(22, URLSAFE)),
    ("Groq API key", "groq {S}", "gsk_" + fake(52)),
    ("Perplexity API key", "pplx {S}", "pplx-" + fake(48)),
    ("Sentry user token", "sentry {S}", "sntryu_" + fake(64, HEX)),
    ("Pulumi token", "pulumi {S}", "pul-" + fake(40, HEX)),
    ("RubyGems token", "gem {S}", "rubygems_" + fake(48, HEX)),
    ("PlanetScale token", "pscale {S}", "pscale_tkn_" + fake(43, URLSAFE)),
    ("New Relic user key", "newrelic {S}", "NRAK-" + fake(27, string.ascii_uppercase + string.digits)),
    ("Alibaba Cloud access key ID", "aliyun {S}", "LTAI" + fake(20)),
    ("Atlassian API token", "jira {S}", "ATATT3" + fake(180, URLSAFE + "=")),
    ("Dynatrace token", "dt {S}", f"dt0c01.{fake(24, string.ascii_uppercase + string.digits)}.{fake(64)}"),
    ("Heroku API key", "heroku {S}", "HRKU-AA" + fake(58, URLSAFE)),
    ("Meta access token", "graph {S}", "EAAG" + fake(150)),
    ("Dropbox token", "dropbox {S}", "sl." + fake(135, URLSAFE)),
    (
        "1Password secret key",
        "1p {S}",
        "A3-" + "-".join(fake(n, string.ascii_uppercase + string.digits) for n in (6, 11, 5, 5, 5)),
    ),
    ("Brevo API key", "brevo {S}", f"xkeysib-{fake(64, HEX)}-{fake(16)}"),
    ("Artifactory API key", "jfrog {S}", "AKCp" + fake(69)),
    ("Fly.io token", "fly {S}", "fo1_" + fake(43, URLSAFE)),
    ("Replicate token", "replicate {S}", "r8_" + fake(37)),
    ("Supabase token", "supabase {S}", "sbp_" + fake(40, HEX)),
    ("Mapbox secret token", "mapbox {S}", f"sk.eyJ1Ijoi{fake(40, URLSAFE)}.{fake(22, URLSAFE)}"),
    ("EasyPost API key", "easypost {S}", "EZAK" + fake(54)),
    ("Cloudflare Origin CA key", "cf {S}", f"v1.0-{fake(24, HEX)}-{fake(146, HEX)}"),
    ("Prefect token", "prefect {S}", "pnu_" + fake(36)),
    ("ReadMe API key", "readme {S}", "rdme_" + fake(70, string.ascii_lowercase + string.digits)),
    ("Clojars token", "clojars {S}", "CLOJARS_" + fake(60, string.ascii_lowercase + string.digits)),
    ("Duffel token", "duffel {S}", "duffel_test_" + fake(43, URLSAFE)),
    ("Flutterwave secret key", "flw {S}", f"FLWSECK_TEST-{fake(32, HEX)}-X"),
    ("Shippo token", "shippo {S}", "shippo_live_" + fake(40, HEX)),
    ("Infracost token", "infracost {S}", "ico-" + fake(32)),
    ("Scalingo token", "scalingo {S}", "tk-us-" + fake(48, URLSAFE)),
    # URLs: userinfo, query, fragment
    ("postgres URL password", "connect postgres://app:{S}@db.internal:5432/shop", fake(16)),
    ("mongodb+srv URL password", "mongodb+srv://admin:{S}@cluster0.ab1cd.mongodb.net/test", fake(16)),
    ("redis URL password without a user", "redis://:{S}@cache:6379/0", fake(16)),
    ("https URL credentials", "GET https://deploy:{S}@git.example.com/repo.git", fake(16)),
    ("query access_token", "GET https://api.example.com/me?access_token={S}&fields=id", fake(40, URLSAFE)),
    ("query authToken", "https://example.com/ws?authToken={S}&v=2", fake(40, URLSAFE)),
    ("query privateKey", "https://example.com/sign?privateKey={S}", fake(40, URLSAFE)),
    ("query sessionToken", "https://example.com/?sessionToken={S}&page=1", fake(40, URLSAFE)),
    ("query X-Amz-Signature", "https://bucket.s3.amazonaws.com/a.png?X-Amz-Signature={S}", fake(64, HEX)),
    ("Azure SAS sig", "https://acme.blob.core.windows.net/c/b?sv=2022-11-02&sig={S}", fake(43, BASE64)),
    ("GitHub token under a harmless parameter", "https://example.com/hook?ref={S}&page=2", "ghp_" + fake(36)),
    (
        "percent-encoded token under a harmless parameter",
        "https://example.com/?next={S}",
        "%2Fcallback%3Ftoken%3D" + fake(24),
    ),
    ("fragment access_token", "https://app.example.com/cb#access_token={S}&token_type=Bearer", fake(40, URLSAFE)),
    ("fragment id_token", "https://app.example.com/cb#state=xyz&id_token={S}", JWT),
    ("fragment route with code", "https://app.example.com/#/callback?code={S}", fake(20)),
    # pairs: the partner of a half that says what it is, without a name of its own
    (
        "AWS secret access key next to its key ID",
        f"aws creds AKIA{fake(16, string.ascii_uppercase + '234567')} {S}",
        fake(40, BASE64),
    ),
    (
        "AWS secret access key before its key ID",
        f"{S} / ASIA{fake(16, string.ascii_uppercase + '234567')}",
        fake(40, BASE64),
    ),
    (
        "AWS key pair on lines of their own",
        f"Access key ID\nAKIA{fake(16, string.ascii_uppercase)}\nSecret access key\n{{S}}\nShow",
        fake(40, BASE64),
    ),
    ("Alibaba Cloud AccessKey secret next to its ID", f"aliyun LTAI{fake(20)} {S}", fake(30)),
    ("GitHub OAuth app client secret next to its client ID", f"oauth app Iv1.{fake(16, HEX)} {S}", fake(40, HEX)),
    ("unnamed secret after a client ID", f"client_id={fake(20)} {S}", fake(32, URLSAFE)),
    ("unnamed secret after a client ID (YAML)", f"client-id: {fake(12)}, {S}", fake(24)),
    ("password of user:password@host", "proxy ada:{S}@proxy.corp.example:3128", fake(12)),
    ("password of user:password@host/path", "git remote add origin deploy:{S}@git.example.com/repo.git", fake(12)),
    ("password of curl -u", "curl -u admin:{S} https://api.example.com/v1", fake(12)),
]

#: ordinary text that must come back unchanged
ORDINARY = [
    # URLs with ordinary query strings and fragments
    "https://www.google.com/search?q=how+to+reset+my+password&hl=en",
    "https://example.com/products?page=2&sort=price_asc",
    "https://example.com/?utm_source=newsletter&utm_medium=email&utm_campaign=spring",
    "https://example.com/search?q=asia+travel&lang=en",
    "https://shop.example.com/cart#checkout",
    "https://example.com/docs/api-keys#rotating",
    "https://example.com/account/password-reset",
    "https://example.com/@ada/posts",
    "wss://example.com/socket?room=lobby",
    "https://maps.googleapis.com/maps/api/js?libraries=places&callback=init",
    "https://github.com/acme/shop/commit/9fceb02d0ae598e95dc970b74767f19372d61af8",
    "mailto:support@example.com",
    "GET https://cdn.example.com/assets/app.3f2a9c1b7e.js net::ERR_BLOCKED_BY_CLIENT",
    "Download the React DevTools: https://reactjs.org/link/react-devtools",
    # identifiers and hashes
    "request 550e8400-e29b-41d4-a716-446655440000 done",
    "commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
    "loaded main-4f3c2a1b.css and vendor.8e2f1c7a9b.chunk.js",
    'integrity="sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="',
    "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    "background: url(data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7)",
    # colours, times, numbers
    "color: #ff0000; background: rgba(0, 0, 0, 0.5); border-color: #3f2a9c",
    "2024-05-01T12:34:56.789Z INFO request completed in 231 ms",
    "at 12:34:56 the clock read 1714567890123",
    "42 3.14159 1,234,567 -0.5e-3 0x5f3759df",
    # sentences that mention the words
    "Enter your password",
    "Forgot your password? We will email you a link.",
    "Press any key to continue",
    "keyboard shortcut Ctrl+K opens the palette",
    "the monkey ate a banana",
    "tokenizer loaded 50257 tokens",
    "Your session has expired, please sign in again",
    "Token expired, refreshing",
    "Invalid API key provided",
    "Basic information about your account",
    "The secretary scheduled a meeting",
    "passwordless login is enabled",
    "author: Jane Doe",
    "Ask the team about the task on the desk",
    'Warning: Each child in a list should have a unique "key" prop.',
    "WebSocket connection to 'wss://example.com/socket' failed",
    "A cookie associated with a cross-site resource was set without the SameSite attribute.",
    "max_tokens: 4096, temperature: 0.7",
    "Object.keys(state).length === 3",
    # look-alikes of a credential's pair
    "python:3.12@sha256:45b23dee08af5e43a7fea6c4cf9c25ccf269ee113168c19722f87876677c5cb2",
    "Contact:sales@example.com",
    "client_id=web&redirect_uri=https%3A%2F%2Fexample.com%2Fcb&state=abc&scope=openid%20profile",
    "client-side rendering took 1234 ms; sign-up form shown",
    # selectors
    "#login-form > input[type=password]",
    'input[name="password"]',
    ".token-list li:nth-child(2)",
    "button[data-testid='submit']:not(:disabled)",
]


def _cases():
    for format_, template, secret in SECRETS:
        yield pytest.param(template.replace(S, secret), secret, id=format_)


@pytest.mark.parametrize(("raw", "secret"), list(_cases()))
def test_every_secret_format_is_masked(raw, secret):
    masked = redact.text(raw)
    assert secret not in masked and MASK in masked, masked
    for line in secret.splitlines():  # a key block: not one line of it left
        assert line not in masked


@pytest.mark.parametrize(
    ("address", "secret"),
    [
        pytest.param(address.group(0), case.values[1], id=case.id)
        for case in _cases()
        if (address := redact.URL_IN_TEXT.search(case.values[0])) and case.values[1] in address.group(0)
    ],
)
def test_every_secret_in_a_url_is_masked_by_url(address, secret):
    masked = redact.url(address)
    assert secret not in masked and MASK in masked, masked


def test_the_corpora_are_as_broad_as_promised():
    assert len({format_.split(" (")[0] for format_, _, _ in SECRETS}) >= 40
    assert len(ORDINARY) >= 40


@pytest.mark.parametrize("value", ORDINARY)
def test_ordinary_text_is_unchanged(value):
    assert redact.text(value) == value


@pytest.mark.parametrize("value", [value for value in ORDINARY if re.fullmatch(r"[a-z]+:\S+", value)])
def test_ordinary_urls_are_unchanged(value):
    assert redact.url(value) == value


def test_the_name_or_prefix_stays_and_the_secret_goes():
    hook = "https://hooks.slack.com/services/" + SLACK_HOOK
    assert redact.text(f"aws_secret_access_key={'A' * 40}") == f"aws_secret_access_key={MASK}"
    assert redact.text(f'"db_password": "{PASSWORD}"') == f'"db_password": "{MASK}"'
    assert redact.text("postgres://app:pw@db/shop") == f"postgres://{MASK}@db/shop"
    assert redact.text(f"post {hook} 404") == f"post https://hooks.slack.com/services/{MASK} 404"
    assert (
        redact.text(RSA.replace(S, RSA_BODY)) == f"-----BEGIN RSA PRIVATE KEY-----{MASK}-----END RSA PRIVATE KEY-----"
    )
    assert (
        redact.url("https://a.b/cb#access_token=x1&id_token=y2&expires_in=3600")
        == f"https://a.b/cb#access_token={MASK}&id_token={MASK}&expires_in=3600"
    )
    assert redact.url("https://a.b/?authToken=x&page=2&q=cats") == f"https://a.b/?authToken={MASK}&page=2&q=cats"


@pytest.mark.parametrize(
    "value",
    [
        '{"password": null, "token": ""}',  # nothing to hide
        "remember_password=true",
        "token_type=Bearer&expires_in=3600",  # what the secret is, not the secret
        "Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=root",
        "const path = useCookie ? cookiePath : base",
        "MAX_COOKIES = 50",  # an all-caps word that only begins with one
        "return cookie.domain ? cookie : { ...cookie, domain: host }",
    ],
)
def test_what_is_not_a_secret_value_stays(value):
    assert redact.text(value) == value


def test_masking_twice_changes_nothing():
    for _, template, secret in SECRETS:
        once = redact.text(template.replace(S, secret))
        assert redact.text(once) == once


def test_every_rule_is_lowercase_keyed_and_has_a_case_in_the_corpus():
    texts = [template.replace(S, secret) for _, template, secret in SECRETS]
    for format_, keywords, pattern in redact.RULES:
        assert keywords and keywords == keywords.lower(), format_
        assert any(re.search(pattern, value) for value in texts), f"no case for {format_}"


def test_pathological_text_stays_cheap():
    import time

    hostile = [
        "password" * 500,
        "password=" * 400,
        "eyJ" + "a." * 2000,
        "-----BEGIN PRIVATE KEY-----" + "A" * 4000,
        "https://x/?" + "token=1&" * 500,
        "a" * 4000,
        "Bearer " * 600,
        ("key-" + "0" * 31 + " ") * 100,
        "https://" + "a:" * 2000 + "@",
        "secret" + " " * 4000 + ":",
        "SK" * 2000,
    ]
    started = time.perf_counter()
    for value in hostile:
        redact.text(value)
        redact.url(value)
    assert time.perf_counter() - started < 1.0


def test_each_keyword_brings_the_rules_of_the_keywords_inside_it_or_overlapping_its_end():
    """redact._keyword_rules looks keywords up by their pieces; this is its definition, pair by pair."""
    own: dict[str, set[int]] = {}
    for index, (_, keywords, _) in enumerate(redact.RULES):
        for keyword in keywords.split():
            own.setdefault(keyword, set()).add(index)
    defined = {
        keyword: frozenset().union(
            *(
                rules
                for other, rules in own.items()
                if other in keyword or any(keyword.endswith(other[:n]) for n in range(1, len(other)))
            )
        )
        for keyword in own
    }
    assert redact._keyword_rules() == defined


def test_every_string_of_an_answer_is_masked_whatever_its_shape():
    token = "ghp_" + fake(36)
    answer = {
        "result": {
            "value": [[{"deep": f"push with {token}"}]],
            token: 1,
            "access_token": fake(20),
            "token_type": "Bearer",
            "password": "",
            "url": f"https://a.b/?code={fake(12)}&page=2",
        },
        "count": 3,
        "ok": True,
        "none": None,
    }
    assert redact.data(answer) == {
        "result": {
            "value": [[{"deep": f"push with {MASK}"}]],
            MASK: 1,
            "access_token": MASK,
            "token_type": "Bearer",
            "password": "",
            "url": f"https://a.b/?code={MASK}&page=2",
        },
        "count": 3,
        "ok": True,
        "none": None,
    }
    for _ in range(redact.DEEPEST):
        answer = [answer]
    assert token not in json.dumps(redact.data(answer))  # past DEEPEST, the rest is masked as its JSON text


def test_a_selector_holding_what_redaction_masks_gives_way_to_its_structural_one():
    structural = ":root > body > main > a:nth-of-type(2)"
    assert redact.selector(f'a[href="https://x/cb?access_token={fake(20)}"]', structural) == structural
    assert redact.selector(f'[aria-label="Deploy with ghp_{fake(36)}"] > span', structural) == structural
    assert redact.selector('input[name="password"]', structural) == 'input[name="password"]'
    assert redact.selector("#save", None) == "#save"


@pytest.mark.parametrize("at", [0, 500, 980, 1_000, 1_020])
def test_a_string_past_what_the_answer_keeps_is_cut_before_it_is_masked_and_no_secret_the_cut_split_stays(at):
    token = "ghp_" + fake(36)
    value = "x " * ((10_000 + at) // 2) + token + " y" * 1_000
    masked = redact.data({"result": value}, 10_000)["result"]
    assert masked.endswith(f"… [truncated: {len(value)} chars]") and len(masked) < 10_100
    assert not any(token[n : n + 8] in masked for n in range(len(token) - 8))
