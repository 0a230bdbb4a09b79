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


# -- a keystroke: the statements an edited text shares with the texts before ----------------
def _fns(programs: Programs) -> list[object]:
    """The closures kept for the last text compiled."""
    return [fn for fn in programs.statements._last.values() if fn is not None]


@pytest.mark.parametrize("name", SHORT)
def test_an_edited_seed_runs_as_its_text_compiled_afresh(name: str) -> None:
    source, programs = program(name), Programs()
    run(source, programs=programs)
    before = set(map(id, _fns(programs)))
    typed = source + "\nedited_ = 1\nprint('edited')\n"  # typing at its end
    moved = "edited_ = 1\n" + source  # every statement a line lower
    for edited in (typed, moved):
        again, fresh = run(edited, programs=programs), run(edited)
        assert again.error is None and again.output == fresh.output
        assert [t.tape.pretty() for t in again.tapes] == [t.tape.pretty() for t in fresh.tapes]
        after = set(map(id, _fns(programs)))
        assert before <= after if edited is typed else not before & after


def test_a_changed_statement_is_compiled_again_the_others_are_reused() -> None:
    programs = Programs()
    first = "a = 2\nb = a * 3\nprint(a, b)\n"
    assert run(first, programs=programs).output == "2 6\n"
    before = _fns(programs)
    edited = "a = 2\nb = a * 4\nprint(a, b)\n"
    assert run(edited, programs=programs).output == "2 8\n"
    after = _fns(programs)
    assert len(before) == len(after) == 2 and after[0] is before[0] and after[1] is not before[1]
    back = "a = 2\nb = a * 3\nprint(b)\n"  # "b = a * 3" again: the text before's, still kept
    assert run(back, programs=programs).output == "6\n"
    assert _fns(programs) == before


def test_a_statement_moved_to_another_line_reports_its_new_line() -> None:
    programs = Programs()
    text = "x = 1\ny = 1 / 0\n"
    assert run(text, programs=programs).error.line == 2  # type: ignore[union-attr]
    moved = run("x = 1\n\n\ny = 1 / 0\n", programs=programs)
    assert moved.error is not None and moved.error.line == 4
    shifted = run("x = 1\n   # a comment\ny = 1 / 0 ;z = 2\n", programs=programs)
    assert shifted.error is not None and shifted.error.line == 3


def test_a_refused_text_gives_the_error_a_fresh_compile_gives() -> None:
    programs = Programs()
    run("import numpy as np\nx = np.ones(2)\n", programs=programs)  # (statements kept)
    for text in (
        "import numpy as np\nx = np.ones(2)\ny = x.__globals__\n",
        "import numpy as np\ndef f():\n    return x.__code__\nasync def g(): pass\n",
        "x = 1\ny = [a.__mro__ for a in ()]\nq = __import__\nz = x.__globals__\n",
        "import numpy as np\nx = np.ones(2)\nx.__y__\n",  # (the last expression)
    ):
        kept, fresh = run(text, programs=programs), run(text)
        assert kept.error is not None and fresh.error is not None
        assert (kept.error.message, kept.error.line, kept.error.col) == (
            fresh.error.message, fresh.error.line, fresh.error.col,
        )  # fmt: skip


def test_the_same_text_at_another_column_or_line_end_is_another_statement() -> None:
    programs = Programs()
    assert run("a = 1; b = 2\nprint(a, b)\n", programs=programs).output == "1 2\n"
    assert run("a = 1; b = 3\nprint(a, b)\n", programs=programs).output == "1 3\n"
    assert run("a = 1\rb = 4\r\nprint(a, b)\n", programs=programs).output == "1 4\n"
    assert run("a = 1\rb = 5\r\nprint(a, b)\n", programs=programs).output == "1 5\n"


def test_only_the_last_two_texts_statements_are_kept() -> None:
    programs = Programs()
    for k in range(20):
        run(f"x{k} = {k}\nprint(x{k})\n", programs=programs)
    kept = programs.statements
    assert [k[2] for k in kept._last] == ["x19 = 19", "print(x19)"]
    assert [k[2] for k in kept._before] == ["x18 = 18", "print(x18)"]
    body = "".join(f"    y{k} = {k}\n" for k in range(300))
    for k in range(30):  # typing inside a long function: the old versions are not kept
        run(f"def f():\n{body}    return {k}\nprint(f())\n", programs=programs)
    assert len(kept._last) == len(kept._before) == 2


@pytest.mark.parametrize(
    ("before", "after", "shown"),
    [
        ("\n", "@tf.function\n", "Function"),  # a decorator typed above an unchanged def
        ("@tf.function\n", "@staticmethod\n", "StaticMethod"),
        ("@staticmethod\n", "\n", "function"),  # one deleted
        ("@staticmethod\n", "@(staticmethod)\n", "StaticMethod"),
    ],
)
def test_a_decorator_changed_above_an_unchanged_def_is_compiled_again(
    before: str, after: str, shown: str
) -> None:
    programs = Programs()
    text = "import tensorflow as tf\n{}def f(x):\n    return x\nprint(type(f).__name__)\n"
    run(text.format(before), programs=programs)
    again, fresh = run(text.format(after), programs=programs), run(text.format(after))
    assert again.error is None and again.output == fresh.output == f"{shown}\n"


def test_a_changed_decorator_is_checked_after_a_text_that_did_not_compile() -> None:
    programs = Programs()
    run("import nosuchmod\n@staticmethod\ndef f():\n    return 1\n", programs=programs)
    text = "x = 0\n@(print('kw', dict(__class__=1)) or staticmethod)\ndef f():\n    return 1\n"
    kept, fresh = run(text, programs=programs), run(text)
    assert kept.output == fresh.output == ""
    assert kept.error is not None and fresh.error is not None
    assert kept.error.message == fresh.error.message and "__class__" in kept.error.message
