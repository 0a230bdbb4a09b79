"""How values read on screen: short, and distinct values never read the same."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tapeviz.models import values
from tapeviz.models.values import distinct_digits, number, same_value, short

YEARS = np.array([2013, 2014, 2015, 2016, 2017], dtype=np.float32)


def test_the_raw_years_read_as_years() -> None:
    assert short(YEARS) == "(5,) [2013, 2014, 2015, …]"  # was "2.01e+03" for each
    assert [number(y) for y in YEARS] == ["2013", "2014", "2015", "2016", "2017"]
    prices = np.array([12000, 14000, 15000, 16500, 17500], dtype=np.float32)
    assert short(prices, items=5) == "(5,) [12000, 14000, 15000, 16500, 17500]"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (3.0, "3"), (-0.0, "0"), (0.70710677, "0.7071"), (6.881373587, "6.881"), (-1.5, "-1.5"),
        (2013.5, "2013.5"), (20135.5, "20135.5"), (1.1435e9, "1.144e+09"), (1e-5, "1e-05"),
        (float("nan"), "nan"), (float("-inf"), "-inf"), (np.int32(7), "7"),
        (np.bool_(True), "True"),
    ],
)  # fmt: skip
def test_numbers(value: object, text: str) -> None:
    assert number(value) == text


def test_a_preview_takes_the_digits_its_values_need() -> None:
    assert short(np.array([0.1, 0.10001, 0.2], dtype=np.float32)) == "(3,) [0.1, 0.10001, 0.2]"
    assert short(np.ones(4)) == "(4,) [1, 1, 1, …]"  # equal values may read the same
    assert distinct_digits(np.array([2013.21, 2013.24])) == 6


FLOAT32 = st.floats(-(2.0**100), 2.0**100, width=32, allow_subnormal=False)


@settings(max_examples=200, deadline=None)
@given(st.lists(FLOAT32.filter(bool), min_size=2, max_size=3, unique=True))
def test_distinct_float32_values_never_read_the_same(values: list[float]) -> None:
    arr = np.array(values, dtype=np.float32)
    if len(np.unique(arr)) < len(arr):
        return  # -0.0 and 0.0
    d = distinct_digits(arr)
    assert len({number(v, d) for v in arr}) == len(arr)


@settings(max_examples=300, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False), st.integers(3, 9))
def test_a_numbers_text_is_the_same_from_the_cache(f: float, digits: int) -> None:
    """Re-runs while typing show the same numbers: their texts are kept, never changed."""
    first = number(f, digits)
    assert number(f, digits) == first == values._number_text(f, digits)
    assert number(np.float32(f) if abs(f) < 1e38 else f, digits)  # (float32 through it too)


def test_the_kept_texts_are_bounded_and_keyed_by_digits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(values, "TEXTS_KEPT", 10)
    values._TEXTS.clear()
    for k in range(25):
        number(k + 0.5)
    assert len(values._TEXTS) <= 10
    assert number(2013.21, 6) == "2013.21" and number(2013.21) == "2013.2"
    assert number(-0.0) == number(0.0) == "0"


def test_numpy_scalars_are_compared_as_numbers() -> None:
    """A scalar gradient, each re-run: equal values (nan too) are the same, dtypes apart."""
    assert same_value(np.float32(1.5), np.float32(1.5))
    assert same_value(np.float32(np.nan), np.float32(np.nan))
    assert not same_value(np.float32(1.5), np.float32(2.5))
    assert not same_value(np.float32(1.0), np.float64(1.0))  # (another dtype reads otherwise)
    assert same_value(np.int64(3), np.int64(3)) and not same_value(np.bool_(True), np.bool_(False))
