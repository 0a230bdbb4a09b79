"""The preset registry: every seed block is a preset that runs and prints TensorFlow's output."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tapeviz.models.session import presets
from tapeviz.models.session.presets import PRESETS
from tapeviz.sandbox import run

SEEDS = Path(__file__).resolve().parents[2] / "assets" / "seeds"
CELLS = json.loads((SEEDS / "seeds.json").read_text("utf-8"))["cells"]


def test_seed_preset_files_are_in_sync_with_the_seeds() -> None:
    for preset in presets.seed_presets():
        assert PRESETS[preset.name] == preset, (
            "regenerate: python -m tapeviz.models.session.presets"
        )


def test_every_seed_block_is_a_preset() -> None:
    blocks = [c for c in CELLS if not c["name"].endswith("_import")]
    seeds = [n for n in PRESETS if n.startswith(("basics-", "training-"))]
    assert len(seeds) == len(blocks) == 20


def test_groups_come_in_menu_order() -> None:
    groups = list(PRESETS.groups())
    known = [g for g in presets.GROUPS if g in groups]
    assert groups[: len(known)] == known


@pytest.mark.parametrize("cell", [c for c in CELLS if not c["name"].endswith("_import")],
                         ids=lambda c: c["name"])  # fmt: skip
def test_seed_presets_print_what_tensorflow_prints(cell: dict) -> None:
    name = ("basics-" if cell["name"].startswith("000") else "training-") + cell["name"].split(
        "_", 1
    )[1].replace("_", "-")
    preset = PRESETS[name]
    result = run(preset.source, mode=preset.mode, variables=list(preset.variables))
    by_name = {c["name"]: c for c in CELLS}
    assert result.output == "".join(by_name[n]["output"] for n in [*cell["after"], cell["name"]])
    if cell["raises"]:
        assert result.error is not None and "persistent=True" in result.error.message
    else:
        assert result.error is None


@pytest.mark.parametrize(
    ("name", "value", "grads"),
    [
        ("micrograd-expression", -8.0, {"a": 6.0, "b": -4.0, "c": -2.0, "f": 4.0}),
        ("micrograd-slope", 20.0, {"x": 14.0}),
        ("micrograd-neuron", 0.7071067, {"x1": -1.5, "w1": 1.0, "x2": 0.5, "w2": 0.0, "b": 0.5}),
    ],
)
def test_micrograd_presets(name: str, value: float, grads: dict[str, float]) -> None:
    preset = PRESETS[name]
    result = run(preset.source, mode=preset.mode, variables=list(preset.variables))
    assert result.error is None
    assert float(result.value.numpy()) == pytest.approx(value, abs=1e-6)
    got = {k: float(v.numpy()) for k, v in result.gradients.items()}
    assert got == pytest.approx(grads, abs=1e-6)
    assert np.isfinite(list(got.values())).all()
