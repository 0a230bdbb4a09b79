"""Network view benchmark: the trainer's taped step against micrograd and hand-written numpy.

Run from the repository root::

    python benchmarks/bench_network.py          # full run (~20 s)
    python benchmarks/bench_network.py --quick  # smoke run for tests/CI (a few seconds)

Peers run in the same process and run; figures are medians of timing rounds (each round a
block of calls, ``time.perf_counter``), garbage collector on, as users run.

- N1: micrograd's moons demo (``micrograd.nn.MLP(2, [16, 16, 1])``, 100 points, max-margin loss +
  α·Σp² with α = 1e-4, SGD at lr 1 − 0.9k/100, full batch: the ``demo.ipynb`` loop) against the
  "moons_micrograd" preset's step on the same 100 points and the same first weights. The first
  step's losses must agree. R = micrograd's time per step / ours; target R ≥ 50.
- N2: Playground's default (x₁ x₂, hidden 4-2, tanh, square loss, batch 10 of 250 training
  points, SGD 0.03): ``Trainer.train_step`` — recorded on an engine GradientTape, gradient,
  update, snapshot, epoch bookkeeping; target ≤ 1 ms (median). N = steps per second.
- N3: the same step against the same maths in plain numpy written by hand (forward, backward,
  SGD update); K = taped / numpy, target ≤ 3. The gradients are checked equal first.
  For context, HIPS autograd (the tape design tapeviz copies) takes the same loss's gradient
  on the same batch: its ratio to the hand-written forward+backward is printed beside ours.
- N4: ``Trainer.grid_outputs(50)`` for 7 features into 6 hidden layers of 8 (every neuron's heat
  map over 50×50 points); F in ms, target ≤ 10 ms (a third of a 30 frames/s budget).

The last line is ``bench_network: steps_per_s=N micrograd_ratio=R keras_ratio=K frame_ms=F``.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import autograd
import autograd.numpy as anp
import numpy as np
from _common import check  # benchmarks/_common.py, beside this script
from micrograd.engine import Value
from micrograd.nn import MLP

import tapeviz as tv
from tapeviz.engine.tape import GradientTape
from tapeviz.engine.tensor import constant
from tapeviz.models.network.datasets import make_dataset
from tapeviz.models.network.presets import PRESETS
from tapeviz.models.network.trainer import Trainer, initial_weights


def medians_per_call(fns: list[Callable[[], Any]], rounds: int, number: int) -> list[float]:
    """Per function, the median over ``rounds`` of its time per call in a block of ``number``.

    The functions take turns within each round, so a machine busy with other work slows them
    alike and their ratios stay fair.
    """
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(rounds):
        for fn, out in zip(fns, times, strict=True):
            t0 = time.perf_counter()
            for _ in range(number):
                fn()
            out.append((time.perf_counter() - t0) / number)
    return [statistics.median(t) for t in times]


def median_per_call(fn: Callable[[], Any], rounds: int, number: int) -> float:
    """Median over ``rounds`` of the time per call of ``fn`` in a block of ``number`` calls."""
    return medians_per_call([fn], rounds, number)[0]


# -- N1: micrograd's moons demo ------------------------------------------------------------------
def micrograd_step(model: MLP, x: np.ndarray, y: np.ndarray, k: int) -> float:
    """One step of micrograd's demo.ipynb training loop (its ``loss()`` and update)."""
    inputs = [list(map(Value, row)) for row in x.tolist()]
    scores = list(map(model, inputs))
    losses = [(1 + -yi * si).relu() for yi, si in zip(y.tolist(), scores, strict=True)]
    data_loss = sum(losses) * (1.0 / len(losses))
    reg_loss = 1e-4 * sum(p * p for p in model.parameters())
    total = data_loss + reg_loss
    model.zero_grad()
    total.backward()
    lr = 1.0 - 0.9 * k / 100
    for p in model.parameters():
        p.data -= lr * p.grad
    return total.data


def bench_micrograd(quick: bool) -> tuple[float, float]:
    config = PRESETS["moons_micrograd"]
    data = make_dataset(config.data)
    x = np.concatenate([data.train_x, data.test_x])
    y = np.concatenate([data.train_y, data.test_y])
    every = replace(data, train_x=x, train_y=y, test_x=x[:0], test_y=y[:0])  # all 100 points
    config = config.with_train(batch_size=100)
    weights = initial_weights(config.net)
    model = MLP(2, [16, 16, 1])
    for layer, (w, b) in zip(model.layers, weights, strict=True):
        for j, neuron in enumerate(layer.neurons):
            for i, wi in enumerate(neuron.w):
                wi.data = float(w[i, j])
            neuron.b.data = float(b[j])
    ours = Trainer(config, every, weights)
    first_mg, first_ours = micrograd_step(model, x, y, 0), ours.train_step()
    check(abs(first_mg - first_ours) <= 1e-5 * abs(first_mg), "N1 first-step loss")
    steps = 2 if quick else 5
    mg_times = []
    for k in range(1, 1 + steps):
        t = time.perf_counter()
        micrograd_step(model, x, y, k)
        mg_times.append(time.perf_counter() - t)
    mg = statistics.median(mg_times)
    ours_s = median_per_call(ours.train_step, 5 if quick else 9, 20)
    print(
        f"N1 moons 2-16-16-1, 100 points, full batch: micrograd {mg * 1e3:.1f} ms/step "
        f"(median of {steps}), tapeviz {ours_s * 1e3:.3f} ms/step; first-step loss "
        f"{first_mg:.6f} vs {first_ours:.6f}"
    )
    return mg, ours_s


# -- N2 / N3: Playground's default step --------------------------------------------------------
def numpy_step_factory(t: Trainer) -> tuple[Callable[[], Any], Callable[[int], list[np.ndarray]]]:
    """Forward, backward and SGD for 2-4-2-1 tanh, square loss, written by hand in numpy."""
    params = [np.array(a) for pair in t.initial for a in pair]
    feats, labels = t.arrays("train")
    size = t.config.train.batch_size
    batches = [(feats[s : s + size], labels[s : s + size]) for s in range(0, len(feats), size)]
    lr = np.float32(t.config.train.optimizers[0].learning_rate)
    half = np.float32(0.5)
    state = {"k": 0}

    def grads(k: int) -> list[np.ndarray]:
        x, y = batches[k % len(batches)]
        w0, b0, w1, b1, w2, b2 = params
        a1 = np.tanh(x @ w0 + b0)
        a2 = np.tanh(a1 @ w1 + b1)
        o = np.tanh(a2 @ w2 + b2)
        d = o - y
        _loss = np.mean(d * d) * half
        d3 = d * (np.float32(1) / np.float32(len(y))) * (1 - o * o)
        d2 = (d3 @ w2.T) * (1 - a2 * a2)
        d1 = (d2 @ w1.T) * (1 - a1 * a1)
        return [x.T @ d1, d1.sum(0), a1.T @ d2, d2.sum(0), a2.T @ d3, d3.sum(0)]

    def step() -> None:
        g = grads(state["k"])
        for i in range(6):
            params[i] = params[i] - g[i] * lr
        state["k"] += 1

    return step, grads


def autograd_gradient(t: Trainer) -> Callable[[], list[np.ndarray]]:
    """HIPS autograd's gradient of the Playground default's batch-0 loss (2-4-2-1 tanh)."""
    feats, labels = t.arrays("train")
    x, y = feats[:10], labels[:10]
    params = [np.array(a) for pair in t.initial for a in pair]
    half = np.float32(0.5)

    def loss(ps: list[np.ndarray]) -> Any:
        w0, b0, w1, b1, w2, b2 = ps
        a1 = anp.tanh(anp.dot(x, w0) + b0)
        a2 = anp.tanh(anp.dot(a1, w1) + b1)
        d = anp.tanh(anp.dot(a2, w2) + b2) - y
        return anp.mean(d * d) * half

    grad = autograd.grad(loss)
    return lambda: grad(params)


def bench_playground(quick: bool) -> tuple[float, float, float]:
    config = PRESETS["playground_default"]
    data = make_dataset(config.data)
    t = Trainer(config, data, initial_weights(config.net))
    np_step, np_grads = numpy_step_factory(t)
    t.train_step()
    want = np.concatenate([g.ravel() for g in np_grads(0)])
    check(np.allclose(t.last_gradient, want, rtol=1e-4, atol=1e-7), "N3 gradient vs numpy")
    t.reset()
    rounds, number = (5, 200) if quick else (15, 1000)
    t.train_steps(number)  # warm up
    feats, labels = t.arrays("train")
    xb, yb = constant(feats[:10]), constant(labels[:10])

    def engine_only() -> None:  # what a training step records: one [W; b] tensor per layer
        sources = [constant(v) for v in t.spec.layout.layer_views(t.flat)]
        with GradientTape() as tape:
            tape.watch(sources)
            loss = t.spec.taped_loss(sources, xb, yb, fused=True)
        tape.gradient(loss, sources)

    peer = autograd_gradient(t)
    check(np.allclose(np.concatenate([g.ravel() for g in peer()]), want, rtol=1e-4, atol=1e-7),
          "N3 autograd gradient vs numpy")  # fmt: skip
    taped, numpy_s, engine, numpy_grads, peer_s = medians_per_call(
        [t.train_step, np_step, engine_only, lambda: np_grads(0), peer], rounds, number
    )
    print(
        f"N2 Playground default step (tape + gradient + update + snapshot): {taped * 1e6:.1f} µs "
        f"median; {1 / taped:,.0f} steps/s"
    )
    ratio = taped / numpy_s
    print(f"N3 the same step in hand-written numpy: {numpy_s * 1e6:.1f} µs; ratio {ratio:.2f}")
    print(
        f"   of which forward + gradient only: engine tape {engine * 1e6:.1f} µs, numpy "
        f"{numpy_grads * 1e6:.1f} µs (ratio {engine / numpy_grads:.2f}); the trainer's own "
        f"bookkeeping {(taped - engine) * 1e6:.1f} µs"
    )
    print(
        f"   peer: HIPS autograd's gradient of the same loss {peer_s * 1e6:.1f} µs (ratio "
        f"{peer_s / numpy_grads:.2f} to the hand-written numpy; ours {engine / numpy_grads:.2f})"
    )
    return taped, numpy_s, 1 / taped


def bench_frame(quick: bool) -> float:
    config = PRESETS["spiral_deep"]
    t = Trainer(config, make_dataset(config.data), initial_weights(config.net))
    t.train_steps(10)
    outs = t.grid_outputs(50)
    check([o.shape for o in outs] == [(7, 50, 50)] + [(8, 50, 50)] * 6 + [(1, 50, 50)], "N4 shapes")
    frame = median_per_call(lambda: t.grid_outputs(50), 5 if quick else 15, 10)
    print(f"N4 grid_outputs(50), 7 features + 6×8 hidden + output: {frame * 1e3:.2f} ms")
    return frame


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short smoke run (a few seconds)")
    quick = parser.parse_args().quick
    print(
        f"tapeviz {tv.__version__} | Python {platform.python_version()} | numpy "
        f"{np.__version__} | {platform.machine()}, {os.cpu_count()} CPUs | medians"
        f"{' (--quick)' if quick else ''}"
    )
    mg, ours = bench_micrograd(quick)
    taped, numpy_s, steps_per_s = bench_playground(quick)
    frame = bench_frame(quick)
    r, k, f = mg / ours, taped / numpy_s, frame * 1e3
    print()
    print(f"RESULT N1 micrograd_ratio: figure={r:.0f} target>=50 {'PASS' if r >= 50 else 'MISS'}")
    print(
        f"RESULT N2 step_us: figure={taped * 1e6:.0f} target<=1000 "
        f"{'PASS' if taped <= 1e-3 else 'MISS'}"
    )
    print(f"RESULT N3 keras_ratio: figure={k:.2f} target<=3 {'PASS' if k <= 3 else 'MISS'}")
    print(f"RESULT N4 frame_ms: figure={f:.2f} target<=10 {'PASS' if f <= 10 else 'MISS'}")
    print(
        f"bench_network: steps_per_s={steps_per_s:.0f} micrograd_ratio={r:.0f} "
        f"keras_ratio={k:.2f} frame_ms={f:.2f}"
    )


if __name__ == "__main__":
    main()
