"""Fuzzing ``run()``: whatever the text, it returns a RunResult, never raises, never hangs.

2,000 examples in all: random printable text, token soup from a Python-ish vocabulary,
mutations of the seed tutorials' code, and random expressions in expression mode.
"""

from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tapeviz.sandbox import Limits, RunResult, run

LIMITS = Limits(wall_time=0.2, max_steps=20_000)
MAX_SECONDS = 1.0


def fuzz(examples: int) -> settings:
    """Hypothesis settings: no per-example deadline (check() enforces its own), no database."""
    return settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )


SEEDS = [
    # the seed quadratic (tutorial 003_1_1)
    "import tensorflow as tf\n"
    "import numpy as np\n"
    "x = tf.Variable(0.0, name='x', dtype=tf.float32)\n"
    "a = tf.constant(1.0)\n"
    "b = tf.constant(-2.0)\n"
    "c = tf.constant(1.0)\n"
    "with tf.GradientTape() as tape:\n"
    "    y = a*tf.pow(x, 2) + b*x + c\n"
    "dy_dx = tape.gradient(y, x)\n"
    "print(dy_dx)\n",
    # control flow inside a tape (tutorial 000_2_2_6)
    "import tensorflow as tf\n"
    "def f(x, y):\n"
    "    output = 1.0\n"
    "    for i in range(y):\n"
    "        if i > 1 and i < 5:\n"
    "            output = tf.multiply(output, x)\n"
    "    return output\n"
    "def grad(x, y):\n"
    "    with tf.GradientTape() as t:\n"
    "        t.watch(x)\n"
    "        out = f(x, y)\n"
    "    return t.gradient(out, x)\n"
    "x = tf.convert_to_tensor(2.0)\n"
    "assert grad(x, 6).numpy() == 12.0\n",
    # minimize (tutorial 003_2_2)
    "import tensorflow as tf\n"
    "x = tf.Variable(0.0, name='x', dtype=tf.float32)\n"
    "def f():\n"
    "    return tf.pow(x, 2) - 2.0*x + 1.0\n"
    "opt = tf.keras.optimizers.SGD(learning_rate=0.01)\n"
    "for _ in range(50):\n"
    "    opt.minimize(f, [x])\n"
    "tf.print('y =', f(), '; x =', x)\n",
    # plain Python and numpy
    "import numpy as np\n"
    "xs = [i * 0.5 for i in range(10)]\n"
    "arr = np.array(xs)\n"
    "total = 0\n"
    "try:\n"
    "    total = sum(xs) / len(xs)\n"
    "except ZeroDivisionError as e:\n"
    "    print('no', e)\n"
    "print(f'{total:.3f}', arr.mean(), '%5.2f' % total)\n",
]

TOKENS = (
    "import tensorflow as tf|import numpy as np|import math|import tapeviz as tv|from|import|as|"
    "def|return|lambda|if|elif|else|for|in|while|break|continue|pass|try|except|finally|raise|"
    "with|global|nonlocal|del|assert|not|and|or|is|None|True|False|yield|class|async|await|"
    "x|y|f|tape|tf|np|math|tv|print|range|len|sum|list|dict|str|int|float|map|iter|next|"
    "__class__|__import__|__subclasses__|__globals__|_value|open|eval|exec|getattr|type|"
    "tf.Variable|tf.constant|tf.GradientTape()|tape.gradient|tape.watch|np.ones|np.array|"
    "0|1|2|-1|0.5|10|10**10|9**9**9|1e308|'a'|\"{0}\"|f'{x}'|'%s'|b'x'|"
    "+|-|*|/|//|%|**|@|<<|>>|&|^|~|==|!=|<|>|<=|>=|=|+=|*=|:|,|.|;|(|)|[|]|{|}|\n|\n    |    "
).split("|")

printable = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=300)
token_soup = st.lists(st.sampled_from(TOKENS), max_size=60).map(" ".join)


@st.composite
def mutated_seed(draw: st.DrawFn) -> str:
    """A seed snippet with a few random edits: deletions, insertions, swaps, big numbers."""
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 6))):
        if not text:
            break
        i = draw(st.integers(0, len(text) - 1))
        j = draw(st.integers(i, min(len(text), i + 20)))
        op = draw(st.sampled_from(["delete", "insert", "duplicate", "swap", "token", "number"]))
        if op == "delete":
            text = text[:i] + text[j:]
        elif op == "insert":
            text = text[:i] + draw(st.text(max_size=5)) + text[i:]
        elif op == "duplicate":
            text = text[:j] + text[i:j] + text[j:]
        elif op == "swap" and j > i + 1:
            text = text[:i] + text[j - 1] + text[i + 1 : j - 1] + text[i] + text[j:]
        elif op == "token":
            text = text[:i] + " " + draw(st.sampled_from(TOKENS)) + " " + text[i:]
        else:
            text = (
                text[:i] + draw(st.sampled_from(["10**9", "-1", "0", "1e400", "2**64"])) + text[j:]
            )
    return text


_ATOMS = st.sampled_from(["x", "a", "b", "1", "2.5", "0", "pi", "e", "-x", "1e30"])
_FUNCS = ["sin", "cos", "exp", "log", "sqrt", "tanh", "relu", "sigmoid", "abs", "square"]
expressions = st.recursive(
    _ATOMS,
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "**", "^", "·", "%"]), inner).map(
            lambda t: f"({t[0]} {t[1]} {t[2]})"
        ),
        st.tuples(st.sampled_from(_FUNCS), inner).map(lambda t: f"{t[0]}({t[1]})"),
        st.tuples(inner, inner).map(lambda t: f"max({t[0]}, {t[1]})"),
    ),
    max_leaves=12,
) | st.text(alphabet="xab+-*/^()1234567890. ,sincoexplg", max_size=40)


def check(source: str, mode: str = "script") -> RunResult:
    start = time.perf_counter()
    variables = {"x": 1.5, "a": 2.0, "b": -1.0} if mode == "expression" else None
    result = run(source, mode=mode, variables=variables, limits=LIMITS)
    took = time.perf_counter() - start
    assert isinstance(result, RunResult)
    assert took < MAX_SECONDS, f"{took:.2f} s for {source!r}"
    if result.error is not None:
        assert isinstance(result.error.message, str)
        assert result.error.kind in (
            "syntax", "name", "type", "value", "engine", "limit", "refused", "cancelled", "runtime"
        )  # fmt: skip
    return result


@fuzz(500)
@given(printable)
def test_fuzz_printable_text(source: str) -> None:
    check(source)


@fuzz(600)
@given(token_soup)
def test_fuzz_token_soup(source: str) -> None:
    check(source)


@fuzz(600)
@given(mutated_seed())
def test_fuzz_mutated_seeds(source: str) -> None:
    check(source)


@fuzz(300)
@given(expressions)
def test_fuzz_expression_mode(source: str) -> None:
    check(source, mode="expression")


def test_seeds_run_cleanly() -> None:
    """The unmutated seeds run without error, so the mutations start from working code."""
    for seed in SEEDS:
        result = run(seed, limits=Limits(wall_time=5.0))
        assert result.error is None, (seed, result.error)
