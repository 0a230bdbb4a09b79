"""The device and seed-fixing lines courses start with, on a machine with one CPU.

torch documents ``torch.accelerator.is_available()`` / ``current_accelerator()`` (2.6+, the
"Learn the Basics" quickstart's device line), ``torch.cuda.manual_seed`` (ignored without a
GPU), ``torch.backends.cudnn.deterministic``/``benchmark`` and
``torch.use_deterministic_algorithms``: accepted, read back, reset for every run.
"""

from __future__ import annotations

from collections.abc import Callable

from tapeviz.sandbox import run

PREFIX = "import torch\n"  # (every script here starts so)
Lines = Callable[[str], list[str]]  # (the lines_of fixture: tests/conftest.py)


def test_the_quickstarts_device_line_picks_the_cpu(lines_of: Lines) -> None:
    assert lines_of(
        PREFIX + "device = torch.accelerator.current_accelerator().type if "
        'torch.accelerator.is_available() else "cpu"\nprint(f"Using {device} device")\n'
        "print(torch.accelerator.device_count(), torch.cuda.is_available())"
    ) == ["Using cpu device", "0 False"]


def test_seed_fixing_lines_are_accepted_and_read_back(lines_of: Lines) -> None:
    assert lines_of(
        PREFIX
        + "torch.manual_seed(42)\ntorch.cuda.manual_seed(42)\ntorch.cuda.manual_seed_all(42)\n"
        "torch.mps.manual_seed(42)\ntorch.backends.cudnn.deterministic = True\n"
        "torch.backends.cudnn.benchmark = False\ntorch.use_deterministic_algorithms(True)\n"
        "print(torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark,\n"
        "      torch.are_deterministic_algorithms_enabled(), torch.backends.cudnn.is_available())\n"
        "print(torch.rand(1))"
    ) == ["True False True False", "tensor([0.8823])"]


def test_the_flags_start_from_torchs_defaults_in_every_run(
    lines_of: Lines,
) -> None:
    lines_of(
        PREFIX
        + "torch.backends.cudnn.deterministic = True\ntorch.use_deterministic_algorithms(True)"
    )
    assert lines_of(
        PREFIX
        + "print(torch.backends.cudnn.deterministic, torch.are_deterministic_algorithms_enabled())"
    ) == ["False False"]
    r = run("import torch\ntorch.backends.cudnn.anything = 1")
    assert r.error is not None and "cannot set 'anything'" in r.error.message
