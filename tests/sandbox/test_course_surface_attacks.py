"""A red-team review of this stop's new surfaces (tqdm, pathlib, pprint, torch's generator,
multinomial/normal, the kept-tapes cap, script reprs): every finding, each stopped now.

Each script ran past its time limit or built far more than the size limits before the fixes.
"""

from __future__ import annotations

import pytest

from tapeviz.sandbox import run
from tapeviz.sandbox.runtime.limits import Limits

_BIG_DICT = "big = [0] * 10**7\nd = {}\nfor i in range(20):\n    d[i] = big\n"

STOPPED = [
    # tqdm: a given total is no length; its text is size-checked; its fields are read-only
    "from tqdm import tqdm\nx = sum(tqdm(range(10**8), total=1))",
    "from tqdm import tqdm\nx = list(tqdm(range(3 * 10**7), total=1))",
    "from tqdm import tqdm\nb = tqdm(range(3))\nb.iterable = range(10**9)",
    "from tqdm import tqdm\n" + _BIG_DICT + "b = tqdm([1], desc=d)",
    "from tqdm import tqdm\ntqdm([1]).set_postfix(zip(range(2 * 10**7), range(2 * 10**7)))",
    "from tqdm import tqdm\n" + _BIG_DICT + "tqdm.write('x', end=d)",
    # torch.manual_seed returns a Generator, not the host's numbers
    "import torch\ng = torch.manual_seed(0).generator\nx = g.random(10**8)",
    "import torch\ng = torch.manual_seed(0)\nx = g._numbers",
    # multinomial and normal check what they make
    "import torch\ntorch.multinomial(torch.ones(10, 2), 10**7, replacement=True)",
    "import torch\ntorch.normal(torch.zeros(10**4, 1), torch.ones(1, 10**4), size=(1,))",
    # paths are at most 4,096 characters
    "from pathlib import Path\ns = 'a' * 10**7\np = Path(*([s] * 60))",
    "from pathlib import Path\np = Path('a' * 3000)\np = p / p",
    "from pathlib import Path\nPath('a/' * 40000).mkdir(parents=True)",
    "from pathlib import Path\nPath('a').mkdir()\nx = list(Path('/').glob('[ab]' * 2000000))",
    # pformat's indent counts in its size check
    "from pprint import pformat\nx = pformat([1] * 20, indent=10**8, width=1)",
    # a script's __repr__ is at most the output limit
    "class V:\n    def __init__(self):\n        self.s = 'x' * 10**7\n"
    "    def __repr__(self):\n        return self.s\nprint([V()] * 30)",
]


@pytest.mark.parametrize("code", STOPPED)
def test_stopped_at_once(code: str) -> None:
    r = run(code, limits=Limits(wall_time=3))
    assert r.error is not None, code
    assert r.error.limit != "wall time", r.error  # (refused at once, not run out)


def test_nested_tapes_each_step_stay_within_memory() -> None:
    """An outer tape around each step's inner one: the finished ones are let go past the cap."""
    r = run(
        "x = tf.Variable(tf.random.normal((100, 100)))\nfor i in range(3000):\n"
        "    with tf.GradientTape() as t2:\n        with tf.GradientTape() as t1:\n"
        "            y = tf.reduce_sum(tf.matmul(x, x) * x)\n        g = t1.gradient(y, x)\n"
        "print('done')",
        limits=Limits(max_memory_mb=100, wall_time=120),
    )
    assert r.error is None, r.error
    assert r.output == "done\n" and len(r.tapes) + r.dropped_tapes == 6000


def test_multinomial_with_replacement_draws_every_row_at_once() -> None:
    """2,000,000 rows (was a Python loop: 50 s) in one search; zero weights never drawn."""
    r = run("import torch\nx = torch.multinomial(torch.ones(2 * 10**6, 2), 1, replacement=True)\n"
            "w = torch.tensor([[0., 10., 3., 0.], [1., 0., 0., 0.]])\n"
            "y = torch.multinomial(w, 50, replacement=True)\n"
            "print(x.shape, set(y[0].tolist()) <= {1, 2}, set(y[1].tolist()))",
            limits=Limits(wall_time=10))  # fmt: skip
    assert r.error is None, r.error
    assert r.output == "torch.Size([2000000, 1]) True {0}\n"


def test_the_generator_view_is_torchs() -> None:
    r = run("import torch\ng = torch.manual_seed(0)\nprint(g, g.initial_seed())\n"
            "g.manual_seed(42)\nprint(torch.rand(2), torch.initial_seed())")  # fmt: skip
    assert r.error is None, r.error
    assert r.output == "<torch._C.Generator object> 0\ntensor([0.8823, 0.9150]) 42\n"
