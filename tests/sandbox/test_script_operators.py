"""A script's own value classes: operators, ``__repr__`` and private names (micrograd's ``Value``).

micrograd (from PyPI, a test dependency as the benchmarks' peer) is run twice: its own files,
unchanged, inside the sandbox, and the package itself in this process; the numbers must agree.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import micrograd
import pytest
from micrograd.engine import Value
from micrograd.nn import MLP

from tapeviz.sandbox import run
from tapeviz.sandbox.runtime import classes

HERE = Path(micrograd.__file__).parent
ENGINE = (HERE / "engine.py").read_text()
NN = (HERE / "nn.py").read_text().replace("from micrograd.engine import Value", "")

README = """
a = Value(-4.0)
b = Value(2.0)
c = a + b
d = a * b + b**3
c += c + 1
c += 1 + c + (-a)
d += d * 2 + (b + a).relu()
d += 3 * d + (b - a).relu()
e = c - d
f = e**2
g = f / 2.0
g += 10.0 / f
print(f'{g.data:.4f}') # prints 24.7041, the outcome of this forward pass
g.backward()
print(f'{a.grad:.4f}') # prints 138.8338, i.e. the numerical value of dg/da
print(f'{b.grad:.4f}') # prints 645.5773, i.e. the numerical value of dg/db
"""


def _ok(code: str) -> str:
    r = run(code)
    assert r.error is None, r.error
    return r.output


def test_micrograds_engine_runs_unchanged_with_its_readme_numbers() -> None:
    assert _ok(ENGINE + README) == "24.7041\n138.8338\n645.5773\n"


def test_micrograds_mlp_matches_the_package() -> None:
    out = _ok(
        ENGINE + NN + "import random\nrandom.seed(1337)\nmodel = MLP(2, [16, 16, 1])\n"
        "print(model.layers[2], len(model.parameters()))\n"
        "out = model([Value(1.0), Value(-2.0)])\nout.backward()\n"
        "print(out.data, model.layers[0].neurons[0].w[0].grad, out)\n"
    )
    random.seed(1337)
    model = MLP(2, [16, 16, 1])
    want = model([Value(1.0), Value(-2.0)])
    want.backward()
    head, numbers = out.splitlines()
    assert head == f"{model.layers[2]} 337"
    data, grad, shown = numbers.split(" ", 2)
    assert float(data) == want.data
    # (micrograd orders its backward walk by a set of objects: the last bit may differ)
    assert float(grad) == pytest.approx(model.layers[0].neurons[0].w[0].grad, rel=1e-12)
    assert shown == f"Value(data={want.data}, grad=1)"


def test_the_micrograd_demo_starts_at_the_notebooks_loss() -> None:
    # micrograd's demo.ipynb: seeds, make_moons, MLP(2, [16, 16, 1]), its max-margin loss
    out = _ok(
        ENGINE + NN + "import random\nimport numpy as np\nnp.random.seed(1337)\n"
        "random.seed(1337)\nfrom sklearn.datasets import make_moons\n"
        "X, y = make_moons(n_samples=100, noise=0.1)\ny = y*2 - 1\n"
        "model = MLP(2, [16, 16, 1])\n"
        "Xb, yb = X[:20], y[:20]\n"
        "scores = list(map(model, [list(map(Value, xrow)) for xrow in Xb]))\n"
        "losses = [(1 + -yi*scorei).relu() for yi, scorei in zip(yb, scores)]\n"
        "data_loss = sum(losses) * (1.0 / len(losses))\n"
        "print(data_loss.data)\n"
    )
    from tapeviz.sklearn.datasets import make_moons

    random.seed(1337)
    X, y = make_moons(n_samples=100, noise=0.1, random_state=1337)
    y = y * 2 - 1
    model = MLP(2, [16, 16, 1])
    scores = list(map(model, [list(map(Value, row)) for row in X[:20]]))
    losses = [(1 + -yi * si).relu() for yi, si in zip(y[:20], scores, strict=True)]
    assert float(out) == pytest.approx((sum(losses) * (1.0 / len(losses))).data, rel=1e-12)


OPS = """
class V:
    def __init__(self, x):
        self.x = x
    def __add__(self, o):
        return V(self.x + (o.x if isinstance(o, V) else o))
    def __radd__(self, o):
        return V(o + self.x)
    def __sub__(self, o):
        return V(self.x - (o.x if isinstance(o, V) else o))
    def __rsub__(self, o):
        return V(o - self.x)
    def __mul__(self, o):
        return V(self.x * (o.x if isinstance(o, V) else o))
    __rmul__ = __mul__
    def __truediv__(self, o):
        return V(self.x / o)
    def __rtruediv__(self, o):
        return V(o / self.x)
    def __pow__(self, k):
        return V(self.x ** k)
    def __matmul__(self, o):
        return ('matmul', self.x, o.x)
    def __neg__(self):
        return V(-self.x)
    def __pos__(self):
        return V(abs(self.x))
    def __repr__(self):
        return f"V({self.x})"
"""


def test_every_operator_and_its_reflection() -> None:
    out = _ok(
        OPS + "a = V(3)\nprint(a + 1, 1 + a, a - 1, 1 - a, a * 2, 2 * a, a / 2, 6 / a, a ** 2,\n"
        "      -a, +V(-2), a @ V(4), sum([a, a]), np.float64(2) * a, [a], f'{a}', str(a))\n"
        "a += 1\na *= 2\nprint(a)\n"
    )
    assert out == (
        "V(4) V(4) V(2) V(-2) V(6) V(6) V(1.5) V(2.0) V(9) V(-3) V(2) ('matmul', 3, 4) V(6) "
        "V(6.0) [V(3)] V(3) V(3)\nV(8)\n"
    )


def test_repr_after_the_run_is_a_plain_name_never_the_scripts_code() -> None:
    r = run(OPS + "a = V(3)\n")
    assert r.error is None
    assert repr(r.namespace["a"]) == "<V object>" and str(r.namespace["a"]) == "<V object>"


def test_private_names_on_the_scripts_own_objects() -> None:
    out = _ok(
        "class Node:\n    _count = 0\n    def __init__(self, children=()):\n"
        "        self._prev = list(children)\n        self._backward = lambda: None\n"
        "        Node._count += 1\n    def _walk(self):\n        return len(self._prev)\n"
        "class Leaf(Node):\n    pass\n"
        "n = Node([Leaf(), Leaf()])\nn._op = '+'\n"
        "print(n._walk(), n._op, Node._count, Leaf._count)\n"
        "del n._op\ntry:\n    n._op\nexcept AttributeError as e:\n    print(e)\n"
    )
    assert out == "2 + 3 3\n'Node' object has no attribute '_op'\n"


def test_a_library_derived_class_keeps_its_own_private_methods() -> None:
    # nanoGPT-style: self.apply(self._init_weights) in an nn.Module subclass
    out = _ok(
        "import torch\nfrom torch import nn\nclass Net(nn.Module):\n    def __init__(self):\n"
        "        super().__init__()\n        self.fc = nn.Linear(2, 3)\n"
        "        self.apply(self._init_weights)\n    def _init_weights(self, m):\n"
        "        if isinstance(m, nn.Linear):\n            nn.init.ones_(m.weight)\n"
        "            nn.init.zeros_(m.bias)\n    def _total(self):\n"
        "        return self.fc.weight.sum().item()\nprint(Net()._total())\n"
    )
    assert out == "6.0\n"


@pytest.mark.parametrize(
    ("code", "says"),
    [
        ("class M(tf.Module):\n    def __init__(self):\n        super().__init__()\n"
         "        self._cache = 1\nM()", "'_cache' is not available"),
        ("import torch\nclass M(torch.nn.Module):\n    def _get_name(self):\n"
         "        return 'x'\nM()", "'_get_name' is not available"),
        ("import torch\nclass M(torch.nn.Module):\n    pass\nM()._parameters",
         "'_parameters' is not available"),
        ("x = tf.constant(1.0)\nx._value", "'_value' is not available"),
        ("class A:\n    pass\na = A()\na._value = 1", "'_value' is not available"),
        ("class A:\n    pass\nA._tapeviz_class = False", "'_tapeviz_class' is not available"),
        ("class A:\n    def __eq__(self, o):\n        return True", "'__eq__'"),
        ("class A:\n    pass\nA().__dict__", "'__dict__'"),
    ],
)  # fmt: skip
def test_library_and_reserved_private_names_stay_shut(code: str, says: str) -> None:
    r = run(code)
    assert r.error is not None and r.error.kind == "refused", r.error
    assert says in str(r.error)


def test_every_private_name_tapeviz_reads_off_objects_is_reserved() -> None:
    """Scan the code scripts reach for getattr/hasattr of a literal private name."""
    root = Path(classes.__file__).parents[2]
    found: dict[str, str] = {}
    for part in ("engine", "tf", "torch", "sklearn", "sandbox"):
        for path in (root / part).rglob("*.py"):
            for name in re.findall(r"(?:get|has)attr\([^,()]+, \"(_[a-z][A-Za-z0-9_]*)\"",
                                   path.read_text()):  # fmt: skip
                found.setdefault(name, path.name)
    assert len(found) >= 10  # (the scan sees the engine's duck typing)
    open_names = {n: f for n, f in found.items() if classes.private_name_ok(n)}
    assert open_names == {}, "reserve these in classes.RESERVED_PRIVATE"
