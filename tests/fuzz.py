"""Generated garbage for form fuzzing (issue 10): huge and negative numbers, unicode, NUL bytes,
dates past the calendar, missing fields. Used with hypothesis in the form tests."""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from tests.sizes import size

MISSING = object()

# A sample in `make test`, the full count in `make test-long` (tests/sizes.py)
FUZZ = settings(
    max_examples=size("FUZZ_EXAMPLES", 5, 25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)

numbers = st.one_of(
    st.integers(min_value=-(10**40), max_value=10**40),
    st.integers(min_value=-3, max_value=100),
    st.sampled_from([2**15 - 1, 2**15, 2**31 - 1, 2**31, 2**63]),
).map(str)
texts = st.one_of(
    st.text(max_size=120),
    st.text(alphabet=st.sampled_from("a\x00²\u0661ø\u202e😀 "), min_size=1, max_size=200),
    st.sampled_from(["", "²", "9" * 40, "-0", "1e9", "\x00", "NaN", "99999-01-01", "9999-12-31", "0000-00-00"]),
)
garbage = st.one_of(numbers, texts, st.just(MISSING))


def form_data(fields: list[str]) -> st.SearchStrategy[dict[str, str]]:
    """A POST body: each field garbage or left out."""
    return st.fixed_dictionaries({f: garbage for f in fields}).map(
        lambda d: {k: v for k, v in d.items() if v is not MISSING}
    )


json_leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False),
    st.text(max_size=90),
)
json_values = st.recursive(
    json_leaves,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=12,
)
