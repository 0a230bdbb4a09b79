"""Engine overhead benchmark: tapeviz vs micrograd, HIPS autograd and (if installed) torch.

Run from the repository root::

    python benchmarks/bench_engine.py          # full run (~10-20 s)
    python benchmarks/bench_engine.py --quick  # smoke run for tests/CI (a few seconds)

Every peer is measured in the same process and run, so the printed ratios compare like with
like on this machine. Times are the best of N repeats (``time.perf_counter``) with the garbage
collector enabled, as users run; the "tv gc-off" column repeats tapeviz with gc disabled.

Workloads (tapeviz always records on a ``GradientTape`` and calls ``tape.gradient``):

- W1a: a chain of n scalar ops (mul/add/relu/pow, which micrograd supports) recorded then
  differentiated; µs per op. Guard (issue 17; issue 2's 0.5x was withdrawn): ≤ 1.2x micrograd.
  (pow alternates 2 and 0.5 so values only grow linearly from x = 0.5.)
- W1b: the same with the issue's mix mul/add/sin/exp/tanh (micrograd has no sin/exp/tanh).
  Values stay bounded; the gradient decays to 0, so it is also checked on a 40-op prefix.
- W2: 1,000 elementwise ops on a (100,) float32 vector, then reduce_sum, differentiated; µs per
  op. Target: ≤ 0.8x torch, or ≤ 8x raw numpy doing the forward maths only if torch is absent.
- W3: the seed SGD loop minimising x² - 2x + 1 from x = 0 (lr 0.01); µs per step.
  Guard (issue 17): ≤ 3x micrograd (fresh graph per step, manual update).
- W5: second derivative of x³ at x = 3 through nested tapes; µs per computation. Target: < 60 µs.
- W6 (issue 32): the seed's step recorded on 10,000 tapes (forward only), as the tape records
  it (columns) against the same tapes with every op made a record object (what a tape kept
  before): ``_recording.py``. Target: ≥ 1.5x faster.
- W8 (W6 before issue 32 took the name): a Keras ``Dense(10)`` layer on a (100, 10) float32
  batch, forward and backward (gradients of a mean-squared loss for kernel and bias) on a
  GradientTape, against the same forward and hand-written backward in raw numpy; µs per step
  (no target: the price of the tape and layer).
- W7: the seed SGD loop written as PyTorch code on ``tapeviz.torch`` (``loss.backward();
  opt.step(); opt.zero_grad()`` with ``torch.optim.SGD``), against micrograd's loop (and real
  torch if installed); µs per step (no target yet: the price of torch's semantics on our tape).

Each workload's result is checked once before timing; a wrong answer aborts with exit code 1.
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.metadata import version
from typing import Any

import _recording  # benchmarks/_recording.py: W6
import autograd
import autograd.numpy as anp
import numpy as np
from _common import best_of, check  # benchmarks/_common.py, beside this script
from micrograd.engine import Value

import tapeviz as tv
import tapeviz.torch as tvtorch

try:
    import torch
except ImportError:
    torch = None

Op = Callable[[Any], Any]
ENGINES = ("tapeviz", "tv gc-off", "micrograd", "autograd", "torch", "numpy fwd")
MIX_A = ("mul", "add", "relu", "pow2", "mul", "add", "relu", "pow05")  # values grow slowly
MIX_B = ("mul", "add", "sin", "exp", "tanh")  # values stay in (-1, e)


def _table(relu: Op, sin: Op | None, exp: Op | None, tanh: Op | None) -> dict[str, Op]:
    ops = {
        "mul": lambda y: y * 1.0001,
        "add": lambda y: y + 0.1,
        "relu": relu,
        "pow2": lambda y: y**2.0,
        "pow05": lambda y: y**0.5,
        "sin": sin,
        "exp": exp,
        "tanh": tanh,
    }
    return {name: op for name, op in ops.items() if op is not None}


OPS: dict[str, dict[str, Op]] = {
    "tapeviz": _table(tv.relu, tv.sin, tv.exp, tv.tanh),
    "micrograd": _table(lambda y: y.relu(), None, None, None),  # no sin/exp/tanh
    "autograd": _table(lambda y: anp.maximum(y, 0.0), anp.sin, anp.exp, anp.tanh),
    "numpy": _table(lambda y: np.maximum(y, np.float32(0)), np.sin, np.exp, np.tanh),
}
if torch is not None:
    OPS["torch"] = _table(torch.relu, torch.sin, torch.exp, torch.tanh)


def program(engine: str, mix: tuple[str, ...], n: int) -> list[Op] | None:
    """The n op callables of a chain, or None if the engine lacks one of the mix's ops."""
    table = OPS.get(engine, {})
    if not all(name in table for name in mix):
        return None
    return [table[name] for name in itertools.islice(itertools.cycle(mix), n)]


def run_chain(fns: list[Op], y: Any) -> Any:
    for f in fns:
        y = f(y)
    return y


@dataclass
class Row:
    key: str
    label: str
    unit: str
    us: dict[str, float] = field(default_factory=dict)


def measure(row: Row, runners: dict[str, Callable[[], Any]], per: int, repeats: int) -> Row:
    """Time each runner (µs per ``per`` units); tapeviz is also timed with gc disabled."""
    for name, fn in runners.items():
        row.us[name] = best_of(fn, repeats) / per * 1e6
        if name == "tapeviz":
            row.us["tv gc-off"] = best_of(fn, repeats, gc_on=False) / per * 1e6
    return row


def chain_runners(mix: tuple[str, ...], n: int, x0: Any) -> dict[str, Callable[[], Any]]:
    """Record+differentiate runners per engine; W2 (vector x0) adds numpy forward-only."""
    vector = isinstance(x0, np.ndarray)
    runners: dict[str, Callable[[], Any]] = {}

    def finish(y: Any, s: Callable[[Any], Any]) -> Any:
        return s(y) if vector else y

    if fns := program("tapeviz", mix, n):

        def tapeviz_run() -> Any:
            x = tv.Variable(x0)
            with tv.GradientTape() as tape:
                y = finish(run_chain(fns, x), tv.reduce_sum)
            return y, tape.gradient(y, x)

        runners["tapeviz"] = tapeviz_run
    if not vector and (mg := program("micrograd", mix, n)):

        def micrograd_run() -> Any:
            x = Value(x0)
            y = run_chain(mg, x)
            y.backward()
            return y.data, x.grad

        runners["micrograd"] = micrograd_run
    if ag := program("autograd", mix, n):
        f = autograd.value_and_grad(lambda x: finish(run_chain(ag, x), anp.sum))
        runners["autograd"] = lambda: f(x0)
    if tfns := program("torch", mix, n):

        def torch_run() -> Any:
            x = torch.tensor(x0, requires_grad=True)
            y = finish(run_chain(tfns, x), torch.sum)
            y.backward()
            return y.item(), x.grad

        runners["torch"] = torch_run
    if vector and (nfns := program("numpy", mix, n)):
        runners["numpy fwd"] = lambda: (np.sum(run_chain(nfns, x0)), None)
    return runners


def verify_chain(runners: dict[str, Callable[[], Any]], what: str) -> None:
    """All engines agree with autograd on value and gradient (float32 tolerance)."""
    ref_y, ref_g = runners["autograd"]()
    for name, fn in runners.items():
        y, g = fn()
        check(np.allclose(np.asarray(y, float), ref_y, rtol=1e-3), f"{what}: {name} value {y}")
        if g is not None:
            g = np.asarray(g.numpy() if hasattr(g, "numpy") else g, float)
            check(np.allclose(g, ref_g, rtol=1e-3, atol=1e-5), f"{what}: {name} gradient")


def bench_chain(key: str, label: str, mix: tuple[str, ...], n: int, x0: Any, reps: int) -> Row:
    verify_chain(chain_runners(mix, min(n, 40), x0), f"{key} short chain")  # gradient non-zero
    runners = chain_runners(mix, n, x0)
    verify_chain(runners, f"{key} n={n}")
    return measure(Row(f"{key} n={n}", f"{label} n={n}", "µs/op"), runners, n, reps)


LR = 0.01


def sgd_tapeviz(steps: int) -> float:
    x = tv.Variable(0.0)
    a, b, c = tv.constant(1.0), tv.constant(-2.0), tv.constant(1.0)
    optimizer = tv.optimizers.SGD(learning_rate=LR)
    for _ in range(steps):
        with tv.GradientTape() as tape:
            y = a * tv.pow(x, 2) + b * x + c
        g = tape.gradient(y, x)
        optimizer.apply_gradients([(g, x)])
    return x.numpy()


def sgd_micrograd(steps: int) -> float:
    x, a, b, c = Value(0.0), Value(1.0), Value(-2.0), Value(1.0)
    for _ in range(steps):
        y = a * x**2 + b * x + c
        x.grad = 0.0
        y.backward()
        x.data -= LR * x.grad
    return x.data


_SGD_GRAD = autograd.grad(lambda x: 1.0 * x**2 + -2.0 * x + 1.0)


def sgd_autograd(steps: int) -> float:
    x = 0.0
    for _ in range(steps):
        x -= LR * _SGD_GRAD(x)
    return x


def sgd_torch(steps: int) -> float:
    x = torch.tensor(0.0, requires_grad=True)
    a, b, c = torch.tensor(1.0), torch.tensor(-2.0), torch.tensor(1.0)
    for _ in range(steps):
        y = a * x**2 + b * x + c
        x.grad = None
        y.backward()
        with torch.no_grad():
            x -= LR * x.grad
    return x.item()


def sgd_tapeviz_torch(steps: int) -> float:
    x = tvtorch.tensor(0.0, requires_grad=True)
    a, b, c = tvtorch.tensor(1.0), tvtorch.tensor(-2.0), tvtorch.tensor(1.0)
    opt = tvtorch.optim.SGD([x], lr=LR)
    for _ in range(steps):
        loss = a * x**2 + b * x + c
        loss.backward()
        opt.step()
        opt.zero_grad()
    return x.item()


def sgd_torch_optim(steps: int) -> float:
    x = torch.tensor(0.0, requires_grad=True)
    a, b, c = torch.tensor(1.0), torch.tensor(-2.0), torch.tensor(1.0)
    opt = torch.optim.SGD([x], lr=LR)
    for _ in range(steps):
        loss = a * x**2 + b * x + c
        loss.backward()
        opt.step()
        opt.zero_grad()
    return x.item()


def bench_torch_step(steps: int, reps: int) -> Row:
    """W7: a torch-style step (backward, optimizer step, zero_grad) on tapeviz.torch."""
    fns = {"tapeviz": sgd_tapeviz_torch, "micrograd": sgd_micrograd}
    if torch is not None:
        fns["torch"] = sgd_torch_optim
    want = 1 - 0.98**steps
    for name, fn in fns.items():
        check(abs(fn(steps) - want) < 1e-5, f"W7 {name} x after {steps} steps")
    runners = {name: (lambda fn=fn: fn(steps)) for name, fn in fns.items()}
    return measure(Row("W7", f"W7 torch-style SGD step, {steps} steps", "µs/step"),
                   runners, steps, reps)  # fmt: skip


def bench_sgd(steps: int, reps: int) -> Row:
    fns = {"tapeviz": sgd_tapeviz, "micrograd": sgd_micrograd, "autograd": sgd_autograd}
    if torch is not None:
        fns["torch"] = sgd_torch
    want = 1 - 0.98**steps
    check(sgd_tapeviz(200) == np.float32(0.98241204), "W3 tapeviz x after 200 steps")
    for name, fn in fns.items():
        check(abs(fn(steps) - want) < 1e-5, f"W3 {name} x after {steps} steps")
    runners = {name: (lambda fn=fn: fn(steps)) for name, fn in fns.items()}
    return measure(Row(f"W3 {steps}", f"W3 seed SGD loop, {steps} steps", "µs/step"),
                   runners, steps, reps)  # fmt: skip


def bench_second_derivative(calls: int, reps: int) -> Row:
    x = tv.Variable(3.0)

    def tapeviz_once() -> Any:
        with tv.GradientTape() as t2:
            with tv.GradientTape() as t1:
                y = x**3
            g1 = t1.gradient(y, x)
        return t2.gradient(g1, x)

    d2 = autograd.grad(autograd.grad(lambda v: v**3))
    fns: dict[str, Callable[[], Any]] = {"tapeviz": tapeviz_once, "autograd": lambda: d2(3.0)}
    if torch is not None:
        tx = torch.tensor(3.0, requires_grad=True)

        def torch_once() -> Any:
            (g1,) = torch.autograd.grad(tx**3, tx, create_graph=True)
            return torch.autograd.grad(g1, tx)[0].item()

        fns["torch"] = torch_once
    for name, fn in fns.items():
        got = fn()
        check(float(got.numpy() if hasattr(got, "numpy") else got) == 18.0, f"W5 {name}: {got}")
    runners = {name: (lambda fn=fn: [fn() for _ in range(calls)]) for name, fn in fns.items()}
    return measure(Row("W5", "W5 d²(x³)/dx² nested tapes", "µs/call"), runners, calls, reps)


def dense_runners() -> dict[str, Callable[[], Any]]:
    """W8: Dense(10) on a (100, 10) batch, loss and gradients; tapeviz.tf vs raw numpy."""
    import tapeviz.tf as tf

    rng = np.random.default_rng(0)
    x_np = rng.standard_normal((100, 10)).astype(np.float32)
    y_np = rng.standard_normal((100, 10)).astype(np.float32)
    layer = tf.keras.layers.Dense(10)
    layer.build((None, 10))
    x, y = tf.constant(x_np), tf.constant(y_np)

    def tapeviz_step() -> Any:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(layer(x) - y))
        return loss, tape.gradient(loss, layer.trainable_variables)

    kernel, bias = layer.kernel.numpy(), layer.bias.numpy()

    def numpy_step() -> Any:
        err = x_np @ kernel + bias - y_np
        loss = np.mean(err * err)
        g = err * np.float32(2.0 / err.size)
        return loss, (x_np.T @ g, g.sum(axis=0))

    (tl, (tk, tb)), (nl, (nk, nb)) = tapeviz_step(), numpy_step()
    check(np.isclose(float(tl), nl, rtol=1e-5), "W8 loss")
    check(np.allclose(tk.numpy(), nk, rtol=1e-4, atol=1e-6), "W8 kernel gradient")
    check(np.allclose(tb.numpy(), nb, rtol=1e-4, atol=1e-6), "W8 bias gradient")
    return {"tapeviz": tapeviz_step, "numpy fwd": numpy_step}


def bench_dense(calls: int, reps: int) -> Row:
    runners = {name: (lambda fn=fn: [fn() for _ in range(calls)])
               for name, fn in dense_runners().items()}  # fmt: skip
    return measure(Row("W8", "W8 Dense(10) on (100,10), fwd+bwd", "µs/step"), runners, calls, reps)


def fmt(v: float | None, width: int = 0) -> str:
    return "—".rjust(width) if v is None else f"{v:{width}.2f}"


def print_table(rows: list[Row]) -> None:
    print(f"\n{'workload':<46}{'unit':>8}" + "".join(f"{e:>11}" for e in ENGINES))
    for r in rows:
        print(f"{r.label:<46}{r.unit:>8}" + "".join(fmt(r.us.get(e), 11) for e in ENGINES))
    print("\nRatios tapeviz / peer, same run (< 1 means tapeviz is faster):")
    for r in rows:
        parts = [f"vs {p} {fmt(ratio(r, p), 6)}" for p in ENGINES[2:] if p in r.us]
        print(f"  {r.key:<14}" + "   ".join(parts))


def ratio(row: Row, peer: str) -> float | None:
    return row.us["tapeviz"] / row.us[peer] if peer in row.us else None


GUARDS = {"W1": 1.2, "W3": 3.0}  # tapeviz / micrograd, same run


def result_line(row: Row, peer: str, target: float | None, note: str = "") -> str:
    """One pasteable summary line: tapeviz vs ``peer`` and the issue's target ratio."""
    r = row.us["tapeviz"] / row.us[peer]
    head = f"RESULT {row.key:<11} tapeviz {row.us['tapeviz']:.2f} {row.unit}, {peer} "
    head += f"{row.us[peer]:.2f}: ratio {r:.2f}"
    if target is None:
        return f"{head} (no target){note}"
    return f"{head} (target ≤ {target:.2f}) {'PASS' if r <= target else 'MISS'}{note}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short smoke run (< 20 s)")
    quick = parser.parse_args().quick
    sizes, steps_list = ((1000,), (200,)) if quick else ((1000, 10_000), (200, 1000))
    reps = 3 if quick else 7
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 4 * max(sizes) + 1000))  # micrograd
    peers = ", ".join(f"{p} {version(p)}" for p in ("numpy", "micrograd", "autograd"))
    print(f"tapeviz {tv.__version__} | Python {platform.python_version()} | {peers} | "
          f"torch {torch.__version__ if torch else 'not installed (column skipped)'}")  # fmt: skip
    print(f"{platform.machine()}, {os.cpu_count()} CPUs | best of {reps}"
          f"{' (--quick)' if quick else ''}; gc enabled except the 'tv gc-off' column")  # fmt: skip
    print("W1b and W2: micrograd has no sin/exp/tanh (and no vectors), so it has no figure there.")
    print(
        "'numpy fwd' runs the same maths in raw numpy: W2 forward only, W8 with a hand-written "
        "backward."
    )
    rows: list[Row] = []
    for n in sizes:
        rows.append(bench_chain("W1a", "W1a scalar mul/add/relu/pow", MIX_A, n, 0.5, reps))
    for n in sizes:
        rows.append(bench_chain("W1b", "W1b scalar mul/add/sin/exp/tanh", MIX_B, n, 0.5, reps))
    vec = np.linspace(-1.0, 1.0, 100, dtype=np.float32)
    rows.append(bench_chain("W2", "W2 (100,) f32 mul/add/sin/exp/tanh+sum", MIX_B, 1000, vec, reps))
    rows.extend(bench_sgd(steps, reps) for steps in steps_list)
    rows.append(bench_second_derivative(20 if quick else 200, reps))
    rows.append(bench_dense(20 if quick else 200, reps))
    rows.append(bench_torch_step(200 if quick else 1000, reps))
    print_table(rows)
    print("\nReference figures from the issue (other runs, not measured here): micrograd ~3.8 µs/"
          "scalar op and ~12 µs/seed SGD step;\nTensorFlow eager ~67 µs/op and ~1.4 ms/step on "
          "this class of machine.\n")  # fmt: skip
    for r in rows:
        if r.key.startswith(("W1a", "W3")):  # issue 17's guards (the 0.5x target is withdrawn)
            print(result_line(r, "micrograd", GUARDS[r.key[:2]]))
        elif r.key.startswith("W1b"):
            print(result_line(r, "autograd", None, " — micrograd lacks sin/exp/tanh"))
        elif r.key.startswith("W2"):
            print(result_line(r, "torch", 0.8) if torch else result_line(r, "numpy fwd", 8.0))
        elif r.key.startswith("W7"):
            print(result_line(r, "micrograd", None, " — tapeviz.torch: torch's semantics"))
        elif r.key.startswith("W8"):
            print(result_line(r, "numpy fwd", None, " — numpy: the same maths, backward by hand"))
        else:  # W5 has an absolute target
            us = r.us["tapeviz"]
            verdict = "PASS" if us < 60 else "MISS"
            print(f"RESULT {r.key:<11} tapeviz {us:.2f} {r.unit} (target < 60 {r.unit}) {verdict}"
                  f"; autograd ratio {fmt(ratio(r, 'autograd'))}")  # fmt: skip
    w6 = _recording.report(2_000 if quick else 10_000, 1 if quick else 4)
    print()
    for key, target in GUARDS.items():  # the guards' last lines: the largest size measured
        r = [row for row in rows if row.key.startswith(key) and "micrograd" in row.us][-1]
        x = r.us["tapeviz"] / r.us["micrograd"]
        print(f"{key}: figure={x:.2f}x target={target:g}x {'PASS' if x <= target else 'MISS'}")
    print(w6)


if __name__ == "__main__":
    main()
