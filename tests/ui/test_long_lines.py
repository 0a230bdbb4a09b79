"""A long line's colours after an edit are the whole scan's, from a rescan around the edit."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tapeviz.ui.window.long_lines import LongLineTokens, common_prefix, common_suffix, scan

TERMS = ("x", "x*x", "tanh(x)", "x*1.5", "exp(-x)", "sin(x)", "abs(x)", "2e-3", "x if x else 1",
         "max(x, 1)", "in_", "int(x)", "x.real", "# a note", "lambda", "1.5e+2j")  # fmt: skip
ALPHABET = "x1.e+-*() _aintsmbdfl#"


def expression(rng: random.Random, terms: int) -> str:
    return " + ".join(rng.choice(TERMS) for _ in range(terms))


def edit(rng: random.Random, text: str) -> str:
    """A keystroke or a small paste: insert, delete or replace a few characters somewhere."""
    i = rng.randrange(len(text) + 1)
    n = rng.choice((0, 1, 1, 2, 5))
    typed = "".join(rng.choice(ALPHABET) for _ in range(rng.choice((0, 1, 1, 2, 4))))
    return text[:i] + typed + text[i + n :]


def test_a_thousand_random_edits_give_the_whole_scans_matches() -> None:
    rng = random.Random(17)
    for _ in range(40):
        tokens = LongLineTokens()
        text = expression(rng, rng.randrange(40, 300))
        assert tokens.tokens(text) == scan(text)
        for _ in range(25):
            text = edit(rng, text)
            assert tokens.tokens(text) == scan(text), text


@settings(max_examples=300, deadline=None)
@given(st.text(ALPHABET, min_size=0, max_size=400), st.text(ALPHABET, max_size=400))
def test_any_two_lines_one_after_the_other(first: str, second: str) -> None:
    tokens = LongLineTokens()
    tokens.tokens(first)
    assert tokens.tokens(second) == scan(second)
    assert tokens.tokens(first + second) == scan(first + second)
    assert tokens.tokens(first + "x" + second) == scan(first + "x" + second)


def test_a_keystroke_at_the_end_of_a_long_line_rescans_only_its_end() -> None:
    rng = random.Random(3)
    text = " + ".join(rng.choice([t for t in TERMS if "#" not in t]) for _ in range(1000))
    tokens = LongLineTokens()
    tokens.tokens(text)
    assert tokens.scanned == len(text)
    text += " + x"
    tokens.tokens(text)
    assert tokens.scanned < 80
    middle = len(text) // 2
    tokens.tokens(text[:middle] + "1" + text[middle:])  # in the middle: around it only
    assert tokens.scanned < 120


def test_a_quote_anywhere_scans_the_whole_line() -> None:
    tokens = LongLineTokens()
    text = "x + " * 200 + "'in' + len"
    assert tokens.tokens(text) == scan(text)
    assert tokens.tokens(text + "(x)") == scan(text + "(x)")
    assert tokens.scanned == len(text) + 3
    assert [g for _, _, g in scan(text)][-2:] == ["string", "builtin"]


def test_the_common_prefix_and_suffix() -> None:
    assert common_prefix("abcd", "abxd") == 2
    assert common_prefix("", "a") == 0
    assert common_prefix("abc", "abc") == 3
    assert common_suffix("abcd", "abxd", 4) == 1
    assert common_suffix("aaaa", "aaaaa", 4) == 4
    assert common_suffix("abc", "xbc", 1) == 1  # capped
