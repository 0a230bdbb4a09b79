"""A kept compiled program runs again exactly as the text compiled afresh runs."""

from __future__ import annotations

import pytest

from tapeviz.sandbox import Limits, run
from tapeviz.sandbox.program import Programs, compile_program
from tests.sandbox.test_seeds_sandbox import CELLS, program

SHORT = [n for n, c in CELLS.items() if not c["raises"] and "linear_regression" not in n]
CLASSES = """class Counter:
    def __init__(self):
        self.n = 0
    def add(self, k=[]):
        k.append(1)
        self.n += len(k)
        return self.n
c = Counter()
print(c.add(), c.add())
def gen(n):
    total = 0
    for i in range(n):
        total += i
        yield total
print(list(gen(4)), [x * x for x in range(3)], {k: k for k in "ab"})
"""


@pytest.mark.parametrize("name", SHORT)
def test_a_seed_runs_again_from_its_kept_program_as_from_its_text(name: str) -> None:
    source, programs = program(name), Programs()
    fresh = run(source)
    first, again = run(source, programs=programs), run(source, programs=programs)
    assert programs.get(source) is not None
    for r in (first, again):
        assert r.error is None and r.output == fresh.output
        assert [t.tape.pretty() for t in r.tapes] == [t.tape.pretty() for t in fresh.tapes]


def test_state_made_while_running_is_made_anew_each_run() -> None:
    programs = Programs()
    outs = [run(CLASSES, programs=programs).output for _ in range(3)]
    assert (
        outs
        == [run(CLASSES).output] * 3
        == ["1 3\n[0, 1, 3, 6] [0, 1, 4] {'a': 'a', 'b': 'b'}\n"] * 3
    )


def test_what_reading_noted_is_noted_again_from_a_kept_program() -> None:
    pasted = ">>> x = 2\n>>> print(x * 3)\n"
    programs = Programs()
    first, again = run(pasted, programs=programs), run(pasted, programs=programs)
    assert first.output == again.output == "6\n"
    assert first.notes and again.notes == first.notes


def test_an_invalid_text_is_not_kept_and_says_the_same_each_time() -> None:
    programs = Programs()
    a, b = run("x = (1,", programs=programs), run("x = (1,", programs=programs)
    assert a.error is not None and b.error is not None and a.error.message == b.error.message
    assert programs.get("x = (1,") is None


def test_the_least_recently_used_program_goes_first() -> None:
    programs = Programs(size=2)
    for text in ("a = 1", "b = 2"):
        programs.put(text, compile_program(text))
    programs.get("a = 1")  # now the most recent
    programs.put("c = 3", compile_program("c = 3"))
    assert programs.get("b = 2") is None
    assert programs.get("a = 1") is not None and programs.get("c = 3") is not None


def test_limits_apply_to_a_kept_program_run_again() -> None:
    programs = Programs()
    loop = "i = 0\nwhile True:\n    i += 1\n"
    for _ in range(2):
        result = run(loop, programs=programs, limits=Limits(max_steps=5_000))
        assert result.error is not None and result.error.kind == "limit"


def test_a_huge_script_is_not_kept() -> None:
    from tapeviz.sandbox import program as P

    programs = Programs()
    big = "x = 1\n" * (P.KEPT_CHARS // 6 + 1)
    programs.put(big, compile_program("x = 1"))
    programs.put("y = 2", compile_program("y = 2"))
    assert programs.get(big) is None and programs.get("y = 2") is not None
