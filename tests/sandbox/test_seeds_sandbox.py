"""Every seed code block runs in script mode, verbatim, and prints what TensorFlow prints."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tapeviz.sandbox import Limits, run

SEEDS = Path(__file__).resolve().parents[2] / "assets" / "seeds"
MANIFEST = json.loads((SEEDS / "seeds.json").read_text(encoding="utf-8"))
CELLS = {c["name"]: c for c in MANIFEST["cells"]}
# Generous wall time: the 10,000-epoch regressions must not flake on a slow CI machine.
LIMITS = Limits(wall_time=120)


def chain(name: str) -> list[str]:
    out: list[str] = []
    for dep in CELLS[name]["after"]:
        out += chain(dep)
    return [*out, name]


def program(name: str) -> str:
    return "\n".join((SEEDS / CELLS[n]["file"]).read_text(encoding="utf-8") for n in chain(name))


@pytest.mark.parametrize("name", [n for n, c in CELLS.items() if not c["raises"]])
def test_seed_block_in_the_sandbox(name: str) -> None:
    result = run(program(name), limits=LIMITS)
    assert result.error is None, result.error
    assert result.output == "".join(CELLS[n]["output"] for n in chain(name))
    if CELLS[name]["value"] is not None:
        assert float(result.value) == CELLS[name]["value"]


def test_non_persistent_second_gradient_is_a_located_runtime_error() -> None:
    result = run(program("000_2_2_3_non_persistent_twice"))
    assert result.error is not None
    assert (result.error.line, result.error.col) == (7, 7)  # line 6 of the cell, after the import
    assert result.error.kind == "runtime"
    assert "non-persistent GradientTape" in result.error.message
    assert [t.name for t in result.tapes] == ["tape"]


def test_tapes_are_listed_in_creation_order_with_their_names() -> None:
    result = run(program("000_2_2_3_higher_order"))
    assert [(t.names, t.index) for t in result.tapes] == [(("tape_2",), 0), (("tape_1",), 1)]
    assert [r.name for r in result.tapes[1].tape.records] == ["pow"]


def test_sgd_loop_creates_one_tape_per_step() -> None:
    result = run(program("003_2_1_sgd_apply_gradients"))
    assert len(result.tapes) == 200 and result.dropped_tapes == 0
    assert all(t.names == ("tape",) for t in result.tapes)
    assert result.namespace["x"].numpy() == np.float32(0.98241204)


def test_tapes_beyond_the_limit_are_counted_not_kept() -> None:
    result = run(program("003_2_1_sgd_apply_gradients"), limits=Limits(max_tapes=50))
    assert len(result.tapes) == 50 and result.dropped_tapes == 150


def test_unwatched_constant_gets_a_teaching_note() -> None:
    result = run(program("000_2_1_constant_unwatched"))
    assert result.output == "None\n"
    assert result.notes == (
        "line 6: tape.gradient gave None: x was not watched (constants are not watched unless "
        "you call tape.watch(x))",
    )


def test_namespace_holds_user_names_not_modules() -> None:
    result = run(program("003_1_1_quadratic_gradient"))
    assert list(result.namespace) == ["x", "a", "b", "c", "tape", "y", "dy_dx"]
    assert float(result.namespace["dy_dx"]) == -2.0
