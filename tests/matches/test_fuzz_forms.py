"""Generated garbage for the report and the step forms (issue 10): huge and negative numbers, unicode,
NUL bytes, missing fields. Never a server error, and never a partial write: a refused post changes
nothing, an accepted one writes all of it."""

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches.models import ApothecaryUse, DiceRoll, Match, PlayerMatch, PostMatch, PreMatch
from tests.matches.test_postmatch import played  # noqa: F401 - the fixture
from tests.matches.test_prematch import advance_to
from tests.matches.test_report import players
from tests.sizes import size

pytestmark = pytest.mark.django_db

# A sample in `make test`, the full count in `make test-long` (tests/sizes.py)
FUZZ = settings(
    max_examples=size("FUZZ_EXAMPLES", 5, 30),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)

MISSING = object()
garbage = st.one_of(
    st.just(MISSING),
    st.sampled_from(["", "0", "1", "6", "30", "31", "32767", "32768", "-1", "²", "1e3", "false", "on", "\x00", "66"]),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.text(max_size=40),
    st.lists(st.integers(min_value=-3, max_value=70), max_size=12).map(lambda v: " ".join(map(str, v))),
)


def post_data(fields: dict) -> dict:
    return {k: v for k, v in fields.items() if v is not MISSING}


def counts(match: Match) -> tuple:
    m = Match.objects.get(pk=match.pk)
    return (
        m.status,
        m.home_score,
        PlayerMatch.objects.filter(match=match).count(),
        ApothecaryUse.objects.filter(match=match).count(),
        DiceRoll.objects.filter(match=match).count(),
    )


def report_fields(match) -> list[str]:
    home, away = players(match)
    names = ["home_score", "away_score", "comment"]
    for p in home[:3] + away[:3]:
        names += [
            f"p{p.pk}_{c}"
            for c in ("completions", "touchdowns", "casualties", "crowd_casualties", "injury", "injured_by", "sent_off")
        ]
    prefix = f"apo{match.home_id}_0_"
    names += [prefix + "player", prefix + "action", prefix + "roll"]
    return names


@FUZZ
@given(data=st.data(), htmx=st.booleans())
def test_garbage_in_the_report_never_breaks_or_half_writes(client, ready_match, data, htmx):
    match = ready_match
    client.force_login(match.home.coach)
    fields = {name: data.draw(garbage, label=name) for name in report_fields(match)}
    before = counts(match)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post(reverse("match_report", args=[match.pk]), post_data(fields), **headers)
    assert response.status_code in (302, 422)
    if response.status_code == 422:
        assert counts(match) == before
    else:
        assert Match.objects.get(pk=match.pk).status == "reported"


@FUZZ
@given(data=st.data(), htmx=st.booleans())
def test_garbage_in_the_pre_match_steps_never_breaks_or_half_writes(client, league_match, data, htmx):
    match = league_match
    if not PreMatch.objects.filter(match=match, done__gte=PreMatch.Step.TICKETS).exists():
        advance_to(match, PreMatch.Step.GATE)
    client.force_login(match.home.coach)
    step = data.draw(st.sampled_from(["weather", "tickets", "gate", "handicap", "squad", "chef", "inspire"]))
    names = ["weather", "ticket", "neutral", "home_gate", "away_gate", "vandalism", "handicap", "players"]
    fields = {name: data.draw(garbage, label=name) for name in [*names, "count", "player", "team"]}
    before = (counts(match), PreMatch.objects.get(match=match).done)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post(reverse("match_prematch_step", args=[match.pk, step]), post_data(fields), **headers)
    assert response.status_code in (200, 302, 403, 422)
    if response.status_code in (403, 422):  # refused, for htmx too (league.lib.responses.INVALID)
        assert (counts(match), PreMatch.objects.get(match=match).done) == before


@FUZZ
@given(data=st.data(), htmx=st.booleans())
def test_garbage_in_the_post_match_steps_never_breaks_or_half_writes(client, played, data, htmx):  # noqa: F811
    match, home, away, h, a = played
    team = data.draw(st.sampled_from([home, away]))
    client.force_login(team.coach)
    step = data.draw(st.sampled_from(["winnings", "injury-dice", "injuries", "mvp", "roll-development", "fan-factor"]))
    names = ["roll", "kiosk", "healer_1", "healer_2", "raise_zombie"]
    for p in (a[1], h[0]):
        names += [f"attempt_{p.pk}", f"revival_{p.pk}", f"revival_miss_{p.pk}", f"dev_{p.pk}_1"]
    fields = {name: data.draw(garbage, label=name) for name in names}
    before = (counts(match), PostMatch.objects.get(match=match, team=team).done)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post(
        reverse("match_postmatch_step", args=[match.pk, team.pk, step]), post_data(fields), **headers
    )
    assert response.status_code in (200, 302, 422)
    if response.status_code == 422:  # refused, for htmx too (league.lib.responses.INVALID)
        assert (counts(match), PostMatch.objects.get(match=match, team=team).done) == before
