"""Who may act on which tab (tabsight.nativehost.tabs): owned tabs, leases on shared ones, take-overs, the end of a
session. No browser: the host's rules on a clock of the test's own."""

from __future__ import annotations

import pytest

from tabsight import config
from tabsight.errors import Code
from tabsight.nativehost.tabs import ClaimRequest, Holder, TabClaims
from tabsight.protocol.methods import Method

#: a lease's length when TABSIGHT_LEASE_SECONDS does not change it
LEASE_SECONDS = config.TABSIGHT_LEASE_SECONDS.default

ALPHA = Holder("a1", "alpha")
BETA = Holder("b2", "beta")
ACT = Method.ELEMENT_ACT.value


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def claims(clock) -> TabClaims:
    return TabClaims(clock=clock, lease_seconds=LEASE_SECONDS)


def test_an_owned_tab_is_acted_on_by_its_owner_alone_and_observed_by_anyone(claims):
    claims.opened(ALPHA, 7)
    assert claims.admit(ALPHA, ACT, 7) is None
    refused = claims.admit(BETA, ACT, 7)
    assert refused.code == Code.TAB_OWNED and refused.message.startswith("Tab 7 belongs to alpha (session a1)")
    for observing in (Method.CAPTURE, Method.PAGE_INFO, Method.ELEMENTS_FIND, Method.TABS_LIST, Method.PAGE_WAIT_FOR):
        assert claims.admit(BETA, observing.value, 7) is None
    assert claims.admit(BETA, ACT, None) is None  # no tab named: nothing to claim


def test_a_lease_holds_while_its_action_runs_and_for_a_while_after(claims, clock):
    assert claims.admit(ALPHA, ACT, 5) is None
    refused = claims.admit(BETA, ACT, 5)
    assert refused.code == Code.TAB_BUSY and "in use by alpha (session a1) while its action runs" in refused.message
    clock.now += 120  # a long action: the lease lasts as long as it runs
    assert claims.admit(BETA, ACT, 5).code == Code.TAB_BUSY
    claims.done(ALPHA, ACT, 5)
    clock.now += LEASE_SECONDS - 1
    assert "until " in claims.admit(BETA, ACT, 5).message
    assert claims.admit(ALPHA, ACT, 5) is None  # the holder renews it
    claims.done(ALPHA, ACT, 5)
    clock.now += LEASE_SECONDS + 0.1
    assert claims.admit(BETA, ACT, 5) is None  # ended: beta's now
    assert claims.describe(5, "a1")["lease"]["client"] == "beta"


def test_take_over_moves_a_tab_and_names_who_had_it(claims, clock):
    claims.opened(ALPHA, 7)
    assert claims.take_over(BETA, 7) == ALPHA
    assert claims.admit(BETA, ACT, 7) is None and claims.admit(ALPHA, ACT, 7).code == Code.TAB_OWNED
    assert claims.take_over(BETA, 7) is None  # its own already
    claims.admit(ALPHA, ACT, 9)  # a shared tab alpha is acting on
    assert claims.take_over(BETA, 9) == ALPHA
    claims.admit(ALPHA, ACT, 11)
    claims.done(ALPHA, ACT, 11)
    clock.now += LEASE_SECONDS + 1
    assert claims.take_over(BETA, 11) is None  # nobody held it any more


def test_release_is_for_the_owner_and_makes_the_tab_shared(claims):
    claims.opened(ALPHA, 7)
    assert (
        claims.release(BETA, 7).message
        == "Tab 7 belongs to alpha (session a1): a session releases only the tabs it owns"
    )
    assert claims.release(ALPHA, 7) is None
    assert claims.admit(BETA, ACT, 7) is None and claims.describe(7, "b2") == {
        "lease": {"session": "b2", "client": "beta", "until": "while its action runs", "mine": True}
    }


def test_the_end_of_a_session_returns_its_tabs_and_lets_its_leases_go(claims):
    claims.opened(ALPHA, 7)
    claims.opened(ALPHA, 8)
    claims.opened(BETA, 9)
    claims.admit(ALPHA, ACT, 5)
    assert sorted(claims.ended("a1")) == [7, 8]
    assert claims.admit(BETA, ACT, 5) is None and claims.admit(BETA, ACT, 7) is None
    assert claims.describe(9, "a1") == {"owner": {"session": "b2", "client": "beta"}}


@pytest.mark.parametrize(
    ("given", "seconds"),
    [
        (None, LEASE_SECONDS),
        ("2.5", 2.5),
        ("0", 0.0),
        ("-1", LEASE_SECONDS),
        ("soon", LEASE_SECONDS),
        ("99999", LEASE_SECONDS),
    ],
)
def test_the_lease_length_comes_from_the_environment_when_it_makes_sense(monkeypatch, given, seconds):
    if given is None:
        monkeypatch.delenv("TABSIGHT_LEASE_SECONDS", raising=False)
    else:
        monkeypatch.setenv("TABSIGHT_LEASE_SECONDS", given)
    config.reset()
    assert TabClaims().lease_seconds == seconds


def test_closed_tabs_take_their_claims_with_them(claims):
    claims.opened(ALPHA, 7)
    claims.admit(ALPHA, ACT, 5)
    claims.gone({5, 7})
    assert claims.owners == {} and claims.leases == {}


def test_after_a_host_restart_a_session_gets_back_its_tabs_unless_another_claimed_them(claims):
    # the new host knows nothing; beta was quicker to take tab 8 (it asked: take_over) than alpha to come back
    claims.take_over(BETA, 8)
    claims.admit(BETA, ACT, 9)  # and acts on 9, which alpha owned: a lease, not an ownership
    claims.done(BETA, ACT, 9)
    assert claims.reclaim(ALPHA, [7, 8, 9]) == [7, 9]
    assert claims.owners == {7: ALPHA, 8: BETA, 9: ALPHA} and 9 not in claims.leases
    assert claims.admit(BETA, ACT, 7).code == Code.TAB_OWNED
    assert claims.reclaim(ALPHA, [7]) == [7]  # said twice, the same


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"action": "steal", "tab_id": 1}, "'action' is 'steal'; allowed: release, take_over, on_end, reclaim"),
        ({"action": "reclaim", "tab_ids": [1, "2"]}, "reclaim needs 'tab_ids', a list of integers"),
        ({"action": "reclaim"}, "reclaim needs 'tab_ids', a list of integers"),
        ({"action": "release"}, "release needs 'tab_id', an integer"),
        ({"action": "take_over", "tab_id": True}, "take_over needs 'tab_id', an integer"),
        ({"action": "on_end", "on_end": "burn"}, "'on_end' is 'burn'; allowed: close, keep"),
    ],
)
def test_a_bad_claim_request_names_the_argument_and_what_is_allowed(params, expected):
    with pytest.raises(ValueError, match=expected.replace("(", r"\(").replace(")", r"\)")):
        ClaimRequest.checked(params)
