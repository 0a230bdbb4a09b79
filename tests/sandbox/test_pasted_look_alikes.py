"""Pasted text Python cannot read for reasons nobody sees: prompts, full-width and curly marks."""

from __future__ import annotations

from tapeviz.models.export.code import checked_script
from tapeviz.sandbox import run
from tapeviz.sandbox.language.pasted import readable

# tf.GradientTape's docstring, as the API docs print it (a console session with its output).
SESSION = """>>> x = tf.constant(3.0)
>>> with tf.GradientTape() as g:
...   g.watch(x)
...   y = x * x
>>> dy_dx = g.gradient(y, x)
>>> print(dy_dx)
tf.Tensor(6.0, shape=(), dtype=float32)
"""


def test_an_api_docs_session_runs_its_code_and_skips_its_output() -> None:
    result = run(SESSION)
    assert result.error is None, result.error
    assert result.output == "tf.Tensor(6.0, shape=(), dtype=float32)\n"
    assert any("interactive session" in n and "1 line of printed output" in n for n in result.notes)


def test_an_error_on_a_prompted_line_points_at_the_users_column() -> None:
    result = run(">>> x = 1\n>>> y = x +* 2\n")
    assert result.error is not None and result.error.line == 2
    assert result.error.col == len(">>> y = x +") + 1  # the '*' as the editor shows it


def test_full_width_and_curly_marks_outside_strings_become_ascii() -> None:
    source = "x = tf.constant（2.0）\nif x > 1：\n    print(“结果：”, float(x)，)\n"
    result = run(source)
    assert result.error is None, result.error
    assert result.output == "结果： 2.0\n"  # the colon inside the string is the user's
    notes = [n for n in result.notes if "look-alike" in n]
    assert notes[0].startswith("line 1:") and "'（' as '('" in notes[0]
    assert "line 2:" in notes[1] and "line 3:" in notes[2] and "'“' as '\"'" in notes[2]


def test_wide_spaces_become_spaces_and_columns_stay() -> None:
    source = "a\u00a0= 2\nb = a\u3000* 3\nprint(b)\n"
    text, shifts, notes = readable(source)
    assert text == "a = 2\nb = a * 3\nprint(b)\n" and shifts == {} and len(notes) == 2
    assert run(source).output == "6\n"


def test_text_that_parses_is_left_alone() -> None:
    source = 'print("“quoted”，（wide）")\n'
    assert readable(source) == (source, {}, ())
    assert run(source).output == "“quoted”，（wide）\n"


def test_a_real_mistake_is_still_reported_where_it_is() -> None:
    result = run("x = （1 + ）\n")
    assert result.error is not None and result.error.kind == "syntax"
    assert (result.error.line, result.error.col) == (1, 10)


def test_export_reads_the_text_as_the_run_did() -> None:
    tree = checked_script("x = tf.constant（2.0）\nprint（x）\n")
    assert len(tree.body) == 2


def test_a_curly_apostrophe_inside_stays_text() -> None:
    assert run("print(‘it’s’)\n").output == "it’s\n"
    assert run("print(“a”, “b”)\n").output == "a b\n"


def test_skipped_ipython_lines_are_noted_even_when_the_script_fails() -> None:
    result = run("%matplotlib inline\nx = (1 +\n")
    assert result.error is not None and result.error.kind == "syntax"
    assert any("IPython command" in n for n in result.notes)
