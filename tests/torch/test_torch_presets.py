"""The PyTorch presets run in the sandbox and print what torch prints."""

from __future__ import annotations

import pytest

from tapeviz.models.session.presets import PRESETS
from tapeviz.sandbox import run

TORCH = [name for name in PRESETS if PRESETS[name].group == "PyTorch"]


def test_the_pytorch_group_has_its_presets() -> None:
    assert TORCH == [
        "torch-autograd-tutorial", "torch-grad-accumulates", "torch-micrograd-neuron",
        "torch-nn-training",
    ]  # fmt: skip


@pytest.mark.parametrize("name", TORCH)
def test_each_pytorch_preset_runs_and_records_a_backward_pass(name: str) -> None:
    result = run(PRESETS[name].source)
    assert result.error is None, result.error
    assert len(result.tapes) >= 1
    assert all(n.endswith(".backward()") for n in result.tape_names())


def test_the_accumulating_preset_shows_the_doubling() -> None:
    out = run(PRESETS["torch-grad-accumulates"].source).output
    assert "Second call\ntensor([[8., 4., 4., 4., 4.]," in out
    assert out.count("tensor([[4., 2., 2., 2., 2.],") == 2
