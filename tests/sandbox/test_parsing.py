"""Parsing user text never overflows a small thread stack (macOS gives a thread 512 KiB).

``'not ' * 5000 + 'x'`` parsed by ``ast.parse`` on such a thread ended the window with a
segfault (the graph's call-site names parsed the editor's text on a pool thread). Every parse of
user text goes through :func:`parse_text`, which parses on a big stack off the main thread.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from tapeviz.sandbox.language.parsing import parse_text

ROOT = Path(__file__).resolve().parents[2] / "tapeviz"
DEEP = {
    "not": "not " * 5000 + "x",
    "minus": "- " * 5000 + "x",
    "power": "x ** " * 3000 + "x",
    "brackets": "(" * 190 + "x" + ")" * 190,
    "lambda": "lambda: " * 3000 + "x",
    "conditional": "x if y else " * 3000 + "x",
}

SMALL_STACK = textwrap.dedent(
    """
    import faulthandler, sys, threading
    faulthandler.enable()
    threading.stack_size(512 * 1024)
    from tapeviz.models.graph.call_sites import call_sites
    from tapeviz.sandbox import run
    from tapeviz.models.descent.problem import Problem, ScriptLoss
    from tapeviz.models.descent.messages import ProblemError
    text = sys.argv[1] + "\\n# tape.gradient(y, x)\\n"
    out = []
    def work():
        out.append(call_sites(text))
        out.append(run(text).error.kind)
        try:
            ScriptLoss(Problem(source="def loss():\\n    return " + sys.argv[1], mode="script"))
            out.append("made")
        except ProblemError:
            out.append("refused")
    t = threading.Thread(target=work)
    t.start()
    t.join()
    print(out)
    """
)


@pytest.mark.parametrize("name", list(DEEP))
def test_deep_text_parsed_on_a_512k_thread_is_an_error_not_a_crash(name: str) -> None:
    done = subprocess.run(
        [sys.executable, "-X", "faulthandler", "-c", SMALL_STACK, DEEP[name]],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    want = "[{}, 'name', 'made']" if name == "brackets" else "[{}, 'syntax', 'refused']"
    assert done.stdout.strip() == want, done.stderr[-2000:]  # (190 brackets parse: x unknown)


def test_parse_text_off_the_main_thread_gives_what_ast_parse_gives() -> None:
    source = "def f(x):\n    return x ** 2 + 1\ny = f(3)\n"
    got: list[object] = []

    def work() -> None:
        got.append(ast.dump(parse_text(source)))
        try:
            parse_text("x = (1,\n")
        except SyntaxError as exc:
            got.append((exc.lineno, exc.msg))
        got.append(ast.dump(parse_text("x + 1", mode="eval")))

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert got[0] == ast.dump(ast.parse(source))
    assert got[1] == (1, "'(' was never closed")
    assert got[2] == ast.dump(ast.parse("x + 1", mode="eval"))


def test_nothing_in_tapeviz_parses_text_but_parse_text() -> None:
    offenders = [
        f"{path.relative_to(ROOT.parent)}:{i}"
        for path in sorted(ROOT.rglob("*.py"))
        if path.name != "parsing.py"
        for i, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if "ast.parse(" in line
    ]
    assert offenders == []
