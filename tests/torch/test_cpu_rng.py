"""torch's CPU random numbers, as PyTorch prints them after ``torch.manual_seed``.

The oracles are outputs every PyTorch course and forum answer shows (``torch.manual_seed(42);
torch.rand(3)`` → ``tensor([0.8823, 0.9150, 0.3829])``; the "PyTorch for Deep Learning" course's
``nn.Linear(1, 1)`` after the seed: weight 0.7645, bias 0.8300; its circle model's first layer),
and the rules of torch's sources (``aten/src/ATen/core/DistributionsHelper.h``,
``TransformationHelper.h``, ``native/cpu/DistributionTemplates.h``) for what no course prints.
torch itself is never a test dependency.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from tapeviz.sandbox import run
from tapeviz.torch._cpu_rng import CPUNumbers

PREFIX = "import torch\nfrom torch import nn\n"  # (every script here starts so)
Lines = Callable[[str], list[str]]  # (the lines_of fixture: tests/conftest.py)


@pytest.mark.parametrize(
    ("code", "printed"),
    [
        ("torch.manual_seed(42)\nprint(torch.rand(3))", "tensor([0.8823, 0.9150, 0.3829])"),
        ("torch.manual_seed(0)\nprint(torch.rand(3))", "tensor([0.4963, 0.7682, 0.0885])"),
        ("torch.manual_seed(42)\nprint(torch.randn(3))", "tensor([0.3367, 0.1288, 0.2345])"),
        ("torch.manual_seed(1)\nprint(torch.randn(2))", "tensor([0.6614, 0.2669])"),
        ("torch.manual_seed(42)\nprint(torch.randint(0, 10, (5,)))", "tensor([2, 7, 6, 4, 6])"),
        ("torch.manual_seed(42)\nprint(torch.randperm(10))",
         "tensor([2, 6, 1, 8, 4, 5, 0, 9, 3, 7])"),
        # the course's LinearRegressionModel: nn.Parameter(torch.randn(1)) twice
        ("torch.manual_seed(42)\nprint(torch.randn(1), torch.randn(1))",
         "tensor([0.3367]) tensor([0.1288])"),
        # its LinearRegressionModelV2: nn.Linear(1, 1)
        ("torch.manual_seed(42)\nm = nn.Linear(1, 1)\nprint(m.weight.item(), m.bias.item())",
         "0.7645385265350342 0.8300079107284546"),
    ],
)  # fmt: skip
def test_seeded_numbers_are_torchs(code: str, printed: str, lines_of: Lines) -> None:
    got = lines_of(PREFIX + code)[-1]
    if printed[0].isdigit():  # full float32 digits: compare as numbers
        np.testing.assert_allclose([float(v) for v in got.split()],
                                   [float(v) for v in printed.split()], rtol=1e-6)  # fmt: skip
    else:
        assert got == printed


def test_sixteen_or_more_normals_take_torchs_block_path(
    lines_of: Lines,
) -> None:
    lines = lines_of(PREFIX + "torch.manual_seed(0)\nprint(torch.randn(4, 4))")
    assert lines[0] == "tensor([[-1.1258, -1.1524, -0.2506, -0.4339],"
    assert lines[1] == "        [ 0.8487,  0.6920, -0.3160, -2.1152],"
    big = lines_of(PREFIX + "torch.manual_seed(42)\nprint(torch.randn(20)[:4])")
    assert big == ["tensor([ 1.9269,  1.4873,  0.9007, -2.1055])"]


def test_the_courses_circle_model_starts_from_torchs_weights(
    lines_of: Lines,
) -> None:
    """ "PyTorch for Deep Learning" 02: ``nn.Linear(2, 5)`` after ``torch.manual_seed(42)``."""
    lines = lines_of(
        PREFIX + "torch.manual_seed(42)\nl = nn.Linear(2, 5)\nprint(l.weight)\nprint(l.bias)"
    )
    assert lines[1:6] == [
        "tensor([[ 0.5406,  0.5869],", "        [-0.1657,  0.6496],",
        "        [-0.1549,  0.1427],", "        [-0.3443,  0.4153],",
        "        [ 0.6233, -0.5188]], requires_grad=True)",
    ]  # fmt: skip
    assert lines[7] == "tensor([0.6146, 0.1323, 0.5224, 0.0958, 0.3410], requires_grad=True)"


def test_a_new_generator_and_the_seeded_global_give_the_same_stream(
    lines_of: Lines,
) -> None:
    lines = lines_of(
        PREFIX + "g = torch.Generator().manual_seed(42)\nprint(torch.rand(3, generator=g))\n"
        "print(torch.Generator().initial_seed())"
    )
    assert lines == ["tensor([0.8823, 0.9150, 0.3829])", "67280421310721"]


def test_the_cached_normal_is_cleared_by_a_new_seed(lines_of: Lines) -> None:
    lines = lines_of(
        PREFIX
        + "torch.manual_seed(42)\na = torch.randn(1)\ntorch.manual_seed(42)\nb = torch.randn(1)\n"
        "print(a.item() == b.item(), torch.randn(1).item() == 0.12880940735340118)"
    )
    assert lines == ["True True"]


def test_float64_draws_take_53_bits_from_two_words() -> None:
    numbers = CPUNumbers(42)
    words = CPUNumbers(42).random(4)
    want = [(int(words[k]) << 32 | int(words[k + 1])) % 2**53 / 2**53 for k in (0, 2)]
    assert numbers.uniform((2,), np.float64, 0.0, 1.0).tolist() == want


def test_randint_over_a_wide_range_draws_64_bits() -> None:
    words = CPUNumbers(7).random(2)
    want = ((int(words[0]) << 32) | int(words[1])) % 2**40 + 5
    assert CPUNumbers(7).integers(5, 5 + 2**40, (1,)).tolist() == [want]


def test_a_partial_normal_block_redraws_the_tail() -> None:
    """18 normals: 16 from the first block, the last 16 redrawn over positions 2..17."""
    a = CPUNumbers(3).normal((18,), np.float32, 0.0, 1.0)
    b = CPUNumbers(3)
    first = b.normal((16,), np.float32, 0.0, 1.0)
    b.random(2)  # the two uniforms of positions 16 and 17, overwritten
    tail = b.normal((16,), np.float32, 0.0, 1.0)
    np.testing.assert_array_equal(a[:2], first[:2])
    np.testing.assert_array_equal(a[2:], tail)


def test_a_shuffling_data_loader_draws_as_torch_does(lines_of: Lines) -> None:
    """Per pass: the workers' base seed, then RandomSampler's seed for a new generator."""
    lines = lines_of(
        PREFIX + "from torch.utils.data import DataLoader\ntorch.manual_seed(5)\n"
        "for _ in range(2):\n    print(next(iter(DataLoader(list(range(8)), batch_size=8, "
        "shuffle=True))).tolist())\nprint(torch.rand(1).item())"
    )
    g = CPUNumbers(5)
    want = []
    for _ in range(2):
        g.random_int64()
        want.append(str(CPUNumbers(g.random_int64()).permutation(8).tolist()))
    assert lines[:2] == want
    assert float(lines[2]) == float(g.uniform((1,), np.float32, 0.0, 1.0)[0])


def test_sizes_are_checked_before_anything_is_drawn() -> None:
    for code in ("torch.rand(10**10)", "torch.randperm(10**9)", "torch.randint(0, 3, (10**10,))"):
        r = run("import torch\n" + code)
        assert r.error is not None and "size limit" in r.error.message, code


def test_the_default_generator_is_what_manual_seed_returns(
    lines_of: Lines,
) -> None:
    """``torch.default_generator``: seeding it seeds ``torch.rand``; passing it is passing none."""
    lines = lines_of(
        PREFIX + "print(torch.manual_seed(0) is torch.default_generator)\n"
        "torch.default_generator.manual_seed(42)\nprint(torch.rand(1), torch.initial_seed())\n"
        "torch.manual_seed(42)\nprint(torch.randperm(10, generator=torch.default_generator))"
    )
    assert lines == ["True", "tensor([0.8823]) 42", "tensor([2, 6, 1, 8, 4, 5, 0, 9, 3, 7])"]
