"""Exported code is generated from what the sandbox checked, never copied from the text."""

from __future__ import annotations

import ast

import pytest

from tapeviz.models.export.code import ExportUnavailable, checked_script, export
from tapeviz.models.session.file import Session
from tapeviz.models.session.presets import PRESETS
from tapeviz.sandbox import VariableSpec as V

ESCAPE = "().__class__.__base__.__subclasses__()"


def _script(source: str, **kw: object) -> Session:
    return Session(source=source, mode="script", **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize("framework", ["tensorflow", "pytorch", "jax"])
def test_an_expression_the_sandbox_refuses_does_not_export(framework: str) -> None:
    session = Session(source=f"x + len({ESCAPE})", variables=(V("x", 1.0),))
    with pytest.raises(ExportUnavailable, match="checks"):
        export(session, framework)


def test_a_script_the_sandbox_refuses_does_not_export() -> None:
    with pytest.raises(ExportUnavailable, match="checks"):
        export(_script(f"x = {ESCAPE}\n"), "tensorflow")


@pytest.mark.parametrize(
    "sep", ["\x1c", "\x1d", "\x1e", "\x0b", "\x0c", "\x85", "\u2028", "\u2029"]
)
def test_a_line_break_only_other_tools_see_is_refused(sep: str) -> None:
    source = f"import tensorflow as tf\nx = 1  # note{sep}import os\nprint(x)\n"
    with pytest.raises(ExportUnavailable, match="line break"):
        export(_script(source), "tensorflow")


def test_a_coding_cookie_is_refused() -> None:
    source = "# -*- coding: utf-7 -*-\nx = 1  # +AAo-import os\nprint(x)\n"
    with pytest.raises(ExportUnavailable, match="coding declaration"):
        export(_script(source), "tensorflow")


@pytest.mark.parametrize("name", [n for n, p in PRESETS.items() if p.mode == "script"])
def test_each_exported_script_parses_to_the_checked_tree(name: str) -> None:
    preset = PRESETS[name]
    out = export(preset, "tensorflow")
    checked = checked_script(preset.source)
    got = ast.parse(out)
    if preset.optimizer is None:  # the script alone
        assert ast.dump(got) == ast.dump(checked)
    else:  # the script's statements appear in order between the table and the loop
        dumps = [ast.dump(s) for s in got.body]
        wanted = [ast.dump(s) for s in checked.body]
        start = dumps.index(wanted[0])
        assert dumps[start : start + len(wanted)] == wanted


@pytest.mark.parametrize("framework", ["tensorflow", "pytorch", "jax"])
def test_an_expression_export_holds_the_translated_checked_expression(framework: str) -> None:
    session = Session(
        source="a*x^2 + b*x + c",
        variables=(
            V("x", 0.0),
            V("a", 1.0, "watched"),
            V("b", -2.0, "watched"),
            V("c", 1.0, "constant"),
        ),
    )
    out = export(session, framework)
    tree = ast.parse(out)  # the whole script parses, and nothing in it reaches a dunder
    assert not [
        n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr.startswith("__")
    ]


def test_a_script_without_imports_exports_with_them() -> None:
    """tapeviz binds tf and np before a script's first line; the exported file imports them."""
    source = "x = tf.Variable(np.float32(2.0))\nwith tf.GradientTape() as t:\n    y = x * x\n"
    out = export(_script(source), "tensorflow")
    assert out.startswith("import tensorflow as tf\nimport numpy as np\n\n")
    got = ast.parse(out)
    assert [ast.dump(s) for s in got.body[2:]] == [ast.dump(s) for s in checked_script(source).body]
    own = export(_script("import tensorflow as tf\nx = tf.constant(1.0)\n"), "tensorflow")
    assert own.count("import tensorflow") == 1
