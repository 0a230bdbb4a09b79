"""A long loop over medium tensors stays within the memory limit by keeping fewer tapes.

PyTorch's "Learning PyTorch with Examples" ends with 30,000 steps over 2,000 points: every tape
kept would need ~3 GB. Once the kept tapes hold most of half the memory limit, later tapes are
counted but not kept; the run finishes, prints everything, and says so.
"""

from __future__ import annotations

from tapeviz.engine.tape import GradientTape
from tapeviz.sandbox import run
from tapeviz.sandbox.messages import say
from tapeviz.sandbox.process.results_decode import round_trip
from tapeviz.sandbox.runtime.kept_tapes import KeptTapes, held_bytes
from tapeviz.sandbox.runtime.limits import Limits


def test_past_the_cap_only_the_newest_finished_tape_is_held() -> None:
    kept = KeptTapes(2)
    tapes = [GradientTape() for _ in range(5)]  # (not entered: finished)
    for t in tapes:
        kept.append(t)
    assert list(kept) == [tapes[0], tapes[1], tapes[4]] and kept.total == 5
    assert kept.kept() == ([tapes[0], tapes[1]], 3)
    assert kept.kept(finished_only=True) == ([tapes[0], tapes[1]], 2)


def test_a_tape_still_recording_is_never_replaced() -> None:
    kept = KeptTapes(1)
    first, outer = GradientTape(), GradientTape()
    kept.append(first)
    kept.append(outer)
    with outer:
        inner = GradientTape()
        kept.append(inner)  # the recording one stays; the new one goes after it
        assert list(kept) == [first, outer, inner]


def test_held_bytes_counts_each_array_once() -> None:
    r = run("import numpy as np\nx = tf.Variable(np.ones(1000))\n"
            "with tf.GradientTape() as t:\n    y = x * x\n    z = y + y\n")  # fmt: skip
    assert r.error is None, r.error
    # x, x*x and y+y: three float64 arrays of 1,000 (y counted once though it is read twice)
    assert held_bytes([r.tapes[0].tape]) == 3 * 8000


LOOP = """import torch
x = torch.linspace(-3, 3, 200_000)
w = torch.zeros((), requires_grad=True)
opt = torch.optim.SGD([w], lr=1e-7)
for t in range(STEPS):
    loss = ((w * x + x * x - x) ** 2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if t % 50 == 0:
        print(t, round(w.item(), 3))
print("done")
"""


def test_a_long_loop_finishes_within_the_limit_and_says_how_many_it_kept() -> None:
    steps = 300  # ~5 MB of values a step: all kept would be ~1.5 GB
    r = run(LOOP.replace("STEPS", str(steps)), limits=Limits(max_memory_mb=200, wall_time=120))
    assert r.error is None, r.error
    assert r.output.splitlines()[-1] == "done" and len(r.output.splitlines()) == 7
    assert 2 <= len(r.tapes) < steps and len(r.tapes) + r.dropped_tapes == steps
    assert str(say("tapes_capped", kept=f"{len(r.tapes):,}", mb="")).split("(")[0] in r.notes[0]
    back = round_trip(r)  # the window receives the kept tapes, the count and valid marks
    assert len(back.tapes) == len(r.tapes) and back.dropped_tapes == r.dropped_tapes
    assert back.output_marks == r.output_marks


def test_a_run_under_the_limit_keeps_every_tape() -> None:
    r = run(LOOP.replace("STEPS", "20").replace("200_000", "1000"))
    assert r.error is None, r.error
    assert len(r.tapes) == 20 and r.dropped_tapes == 0 and not r.notes
