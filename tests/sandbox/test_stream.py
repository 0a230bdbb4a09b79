"""A streamed run hands the run so far to its caller now and then, while it runs.

Snapshots come at 0.08 s, then at 3x the run's age; each is a result of the tapes finished by
then (the newest may still record), the output so far and the names; the time spent making
one is not the script's (its wall-time deadlines move by it). Through the process wall the
snapshots arrive decoded on a thread of their own, never after the call returned.
"""

from __future__ import annotations

import threading
import time

from tapeviz.sandbox import Limits, RunResult, run
from tapeviz.sandbox import figures as F
from tapeviz.sandbox.process.client import Pool
from tapeviz.sandbox.process.isolated import run_isolated
from tapeviz.sandbox.runtime.limits import SNAPSHOT_FIRST_S, Budget, CancelToken

LOOP = """import tensorflow as tf
x = tf.Variable(2.0)
for i in range({steps}):
    with tf.GradientTape() as t:
        y = x * x
    x.assign_sub(0.001 * t.gradient(y, x))
    if i % 1000 == 0:
        print("step", i)
"""
STEPS = 12_000  # ~0.6 s in-process here: two or three snapshots


def _check_prefix(snap: RunResult, final: RunResult) -> None:
    assert snap.error is None and 2 <= len(snap.tapes) < len(final.tapes)
    assert final.output.startswith(snap.output)
    assert all(count <= len(snap.tapes) for _, count in snap.output_marks)
    assert [i.name for i in snap.tapes] == [i.name for i in final.tapes[: len(snap.tapes)]]
    assert [i.index for i in snap.tapes] == list(range(len(snap.tapes)))


def test_a_run_hands_over_snapshots_of_its_finished_tapes() -> None:
    snaps: list[RunResult] = []
    ages: list[float] = []
    started = time.perf_counter()

    def keep(result: RunResult) -> None:
        ages.append(time.perf_counter() - started)
        assert len(result.tapes[-1].tape.records) == 1  # a finished step: y = x * x
        snaps.append(result)

    final = run(LOOP.format(steps=STEPS), snapshots=keep)
    assert final.error is None and len(final.tapes) == STEPS
    assert snaps, "no snapshot"
    assert ages[0] >= SNAPSHOT_FIRST_S
    for snap in snaps:
        _check_prefix(snap, final)
    assert [len(s.tapes) for s in snaps] == sorted(len(s.tapes) for s in snaps)
    assert len(snaps) <= 6  # at 3x the run's age, not every check


def test_no_snapshots_unless_asked_and_none_of_an_expression() -> None:
    assert run(LOOP.format(steps=50)).error is None
    got: list[RunResult] = []
    result = run("x * 2", mode="expression", variables={"x": 1.0}, snapshots=got.append)
    assert result.error is None and got == []


def test_the_time_a_snapshot_takes_is_not_the_scripts() -> None:
    budget = Budget(Limits(), CancelToken())
    calls: list[float] = []

    def send() -> None:
        calls.append(time.perf_counter())
        time.sleep(0.05)

    budget.snapshot = send
    started = budget.started
    now = time.perf_counter()
    budget.take_snapshot(now)
    assert calls and budget.snapshot is send  # put back for the next one
    assert budget.started - started >= 0.05  # the deadline moved by the snapshot's time
    assert budget.next_snapshot >= now + 0.05 + 2 * SNAPSHOT_FIRST_S


def test_a_failing_snapshot_never_fails_the_run() -> None:
    budget = Budget(Limits(), CancelToken())

    def broken() -> None:
        raise RuntimeError("encode failed")

    budget.snapshot = broken
    budget.take_snapshot(time.perf_counter())  # no exception into the user's code
    assert budget.snapshot is None  # and no more snapshots of this run
    calls: list[RunResult] = []

    def failing(result: RunResult) -> None:
        calls.append(result)
        raise ValueError("the listener broke")

    final = run(LOOP.format(steps=STEPS), snapshots=failing)
    assert final.error is None and len(final.tapes) == STEPS and len(calls) == 1


def test_snapshots_cross_the_wall_decoded_and_stop_when_the_call_returns(pool: Pool) -> None:
    got: list[tuple[RunResult, bool]] = []
    returned = threading.Event()

    def keep(result: RunResult) -> None:
        got.append((result, returned.is_set()))

    final = run_isolated(LOOP.format(steps=STEPS), pool=pool, on_snapshot=keep,
                         limits=Limits(wall_time=60))  # fmt: skip
    returned.set()
    count = len(got)
    time.sleep(0.3)
    assert final.error is None and len(final.tapes) == STEPS
    assert got and len(got) == count  # nothing after the call returned
    for snap, late in got:
        assert not late
        _check_prefix(snap, final)
        assert snap.namespace["x"].numpy() != final.namespace["x"].numpy()  # earlier values


def test_a_run_without_a_listener_does_not_stream(pool: Pool) -> None:
    """The worker streams only when asked (the answer alone otherwise, as before)."""
    result = run_isolated(LOOP.format(steps=3000), pool=pool)
    assert result.error is None and len(result.tapes) == 3000


PRINTS = """import numpy as np
rng = np.random.default_rng(0)
X = rng.normal(size=(100_000, 20))
y = X @ rng.normal(size=20)
w = np.zeros(20)
for epoch in range({epochs}):
    w -= 0.1 * 2 * X.T @ (X @ w - y) / len(y)
    print("epoch", epoch, "loss", float(np.mean((X @ w - y) ** 2)))
"""


Streamed = tuple[list[RunResult], RunResult]


def _both_ways(source: str, pool: Pool) -> tuple[Streamed, Streamed]:
    """``source`` streamed in-process and through the wall: (snapshots, final result) each."""
    here: list[RunResult] = []
    final = run(source, snapshots=here.append)
    there: list[RunResult] = []
    remote = run_isolated(source, pool=pool, on_snapshot=there.append, limits=Limits(wall_time=60))
    return (here, final), (there, remote)


def test_a_run_that_only_prints_streams_its_output(pool: Pool) -> None:
    """A numpy training loop records no tape: its printed lines were shown only at its end."""
    (here, final), (there, remote) = _both_ways(PRINTS.format(epochs=300), pool)
    for snaps, done in ((here, final), (there, remote)):
        assert done.error is None and done.output.count("\n") == 300 and not done.tapes
        assert snaps, "no snapshot"
        for snap in snaps:
            assert not snap.tapes and snap.output and done.output.startswith(snap.output)
        assert snaps[0].output.count("\n") < 300


def test_a_run_with_nothing_to_show_sends_no_snapshot() -> None:
    snaps: list[RunResult] = []
    quiet = PRINTS.format(epochs=300).replace("    print(", "    losses = (")
    final = run(quiet, snapshots=snaps.append)
    assert final.error is None and final.output == "" and snaps == []


DRAWS = """import numpy as np
import matplotlib.pyplot as plt
X = np.ones((100_000, 20))
w = np.zeros(20)
losses = []
for epoch in range({epochs}):
    w -= 1e-7 * X.T @ (X @ w - 1.0)
    losses.append(float(w.sum()))
    if epoch % 50 == 0:
        plt.figure()
        plt.plot(losses)
        plt.title(f"epoch {{epoch}}")
total = 0.0
for i in range({epochs}):
    total += float((X @ w).sum())
"""


def test_a_run_that_draws_streams_its_figures(pool: Pool) -> None:
    """The figures so far cross the wall with a digest: the same ones are not drawn again."""
    (here, final), (there, remote) = _both_ways(DRAWS.format(epochs=300), pool)
    for snaps, done in ((here, final), (there, remote)):
        assert done.error is None and len(done.figures) == 6
        drew = [s for s in snaps if s.figures]
        assert drew, "no snapshot with figures"
        titles = [f.axes[0].title for f in done.figures]
        for snap in drew:  # the figures drawn so far (the last one may still grow)
            assert [f.axes[0].title for f in snap.figures] == titles[: len(snap.figures)]
    again = run_isolated(DRAWS.format(epochs=300), pool=pool, limits=Limits(wall_time=60))
    assert isinstance(remote.figures, F.Drawn) and remote.figures.key == again.figures.key
    last = [s for s in there if s.figures][-1]
    if len(last.figures) == 6:  # (drawn in full before the loop after them: the same digest)
        assert last.figures.key == remote.figures.key


def test_the_figures_digest_changes_with_anything_they_hold() -> None:
    def drawn(line: str) -> bytes:
        return F.fingerprint(run("import matplotlib.pyplot as plt\n" + line).figures)

    base = drawn("plt.plot([1, 2, 3], label='a')")
    assert base == drawn("plt.plot([1, 2, 3], label='a')")
    others = (
        "plt.plot([1, 2, 4], label='a')",
        "plt.plot([1, 2, 3], label='b')",
        "plt.plot([1, 2, 3, 4], label='a')",
        "plt.scatter([1, 2, 3], [1, 2, 3])",
    )
    for other in others:
        assert drawn(other) != base, other


def test_a_figure_the_scripts_error_left_half_made_never_makes_the_run_raise(pool: Pool) -> None:
    mixed = (
        "import matplotlib.pyplot as plt\nfig = plt.figure()\nfig.add_subplot(11, 1, 1)\n"
        "fig.add_subplot(12, 1, 1)\n"
    )
    for result in (run(mixed), run_isolated(mixed, pool=pool)):
        assert result.error is not None and "subplot grids" in result.error.message
        assert result.error.kind != "crash" and result.figures == ()
