"""The ``Out:`` text of a script's last expression, as a notebook shows it (made in the worker)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest

import tapeviz.tf as tf
from tapeviz.sandbox import Limits
from tapeviz.sandbox.out_value import LIMIT, out_text, value_text
from tapeviz.sandbox.process.isolated import run_isolated

SEEDS = Path(__file__).resolve().parents[2] / "assets" / "seeds"


class Loud:
    """A user's class whose repr must never run outside the script (it says when it does)."""

    ran: ClassVar[list[str]] = []

    def __repr__(self) -> str:
        Loud.ran.append("repr")
        return "LOUD"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (None, None),
        (np.float32(6.0), "6.0"),  # dy_dx.numpy(): what the TensorFlow guide shows
        (np.bool_(True), "True"),
        (np.int64(3), "3"),
        (42, "42"),
        ("abc", "'abc'"),
        (np.arange(3.0), "array([0., 1., 2.])"),
        (tf.constant(18.0), "<tf.Tensor: shape=(), dtype=float32, numpy=18.0>"),
        ([np.float32(1.5), 2, Loud()], "[1.5, 2, <Loud>]"),
        ({"loss": [0.5, 0.25]}, "{'loss': [0.5, 0.25]}"),
        (Loud(), "<Loud>"),
        (np.array([Loud()], dtype=object), "<ndarray>"),
        ([10**5000], "[<int of 16,610 bits>]"),  # (Python refuses to print it: 5,001 digits)
    ],
)
def test_a_value_reads_as_a_notebook_shows_it(value: object, text: str | None) -> None:
    Loud.ran.clear()
    assert value_text(value) == text
    assert Loud.ran == []  # no repr of the script's own ran


def test_text_values_and_class_names_are_read_without_the_scripts_code() -> None:
    class Meta(type):
        @property
        def __name__(cls) -> str:  # type: ignore[override]
            Loud.ran.append("name")
            return "Meta"

    class Named(metaclass=Meta):
        pass

    Loud.ran.clear()
    assert value_text([Named()]) == "[<Named>]" and Loud.ran == []
    long = value_text(np.str_("x" * 10**6))
    assert long is not None and len(long) <= LIMIT and long.startswith("'xxx")
    assert value_text(np.array(["ab", "c"])) == "array(['ab', 'c'], dtype='<U2')"
    big = np.array(["a" * 1000] * 1000)  # 4 MB of text: its shape and dtype, not its print
    assert value_text(big) == "<ndarray: shape=(1000,), dtype=<U1000>"


def test_a_dict_keeps_its_order_and_nesting_stops() -> None:
    assert value_text({"loss": 0.5, "acc": 0.9}) == "{'loss': 0.5, 'acc': 0.9}"  # (not sorted)
    assert value_text([[[[[[1]]]]]]) == "[[[[[...]]]]]"
    assert value_text(((1,),)) == "((1,),)"


def test_many_arrays_in_a_list_cost_the_limit_not_their_sizes() -> None:
    a = np.random.default_rng(0).random(1000)
    text = value_text([[[a] * 20] * 20] * 20)  # 8,000 arrays: was 26 s, each printed whole
    assert text is not None and len(text) <= LIMIT and text.endswith("…")
    assert "..." in text.split("array(", 2)[1]  # each one summarised (20 elements inside a list)


def test_big_values_are_summarised_before_their_text_is_built() -> None:
    assert (
        value_text(np.zeros(1_000_000)) == "array([0., 0., 0., ..., 0., 0., 0.], shape=(1000000,))"
    )
    assert value_text(tf.zeros([2000])) == "<tf.Tensor: shape=(2000,), dtype=float32>"
    long = value_text("ab" * 450_000)
    assert long is not None and len(long) <= LIMIT and long.endswith("…")
    assert value_text(list(range(10_000))).endswith(", ...]")
    assert value_text(10**9000) == "<int of 29,898 bits>"


@pytest.mark.parametrize(
    ("cell", "text"),
    [("000_2_1_constant_watch.py", "6.0"), ("000_2_2_1_variable_trainable.py", "6.0")],
)
def test_a_seed_cells_last_value_crosses_the_wall_as_its_text(cell: str, text: str) -> None:
    source = (SEEDS / "000_0_import.py").read_text("utf-8") + (SEEDS / cell).read_text("utf-8")
    result = run_isolated(source, limits=Limits(wall_time=30))
    assert result.error is None and result.value == text


def test_a_tensor_value_crosses_the_wall_as_a_tensor() -> None:
    manifest = json.loads((SEEDS / "seeds.json").read_text(encoding="utf-8"))
    cell = next(c for c in manifest["cells"] if c["name"] == "000_2_2_3_higher_order")
    source = (SEEDS / "000_0_import.py").read_text("utf-8") + (SEEDS / cell["file"]).read_text(
        "utf-8"
    ).replace("g_2.numpy()", "g_2")
    result = run_isolated(source, limits=Limits(wall_time=30))
    assert result.error is None
    assert value_text(result.value) == "<tf.Tensor: shape=(), dtype=float32, numpy=18.0>"


def test_a_scripts_class_named_like_a_builtin_never_runs_after_the_script() -> None:
    source = (
        "class list:\n    def __len__(self):\n        return 3\n"
        "    def __getitem__(self, i):\n        return i\n"
        "class dict:\n    def items(self):\n        return [(1, 2)]\n"
        "[list(), dict(), (list(),)]\n"
    )
    result = run_isolated(source, limits=Limits(wall_time=30))
    assert result.error is None and result.value == "[<list>, <dict>, (<list>,)]"


def test_a_runs_out_text_is_the_workers_text_or_its_tensors_and_none_after_an_error() -> None:
    from tapeviz.sandbox import run

    received = run_isolated("import numpy as np\nnp.float32(2) * 3\n", limits=Limits(wall_time=30))
    assert out_text(received) == "6.0"  # (made in the worker)
    assert out_text(run("import tensorflow as tf\ntf.constant(2.0) * 3\n")) == (
        "<tf.Tensor: shape=(), dtype=float32, numpy=6.0>"
    )
    assert out_text(run("x = 1\nx / 0\n")) is None  # a cell that raised shows no value
    assert out_text(run("x = 1\n")) is None
