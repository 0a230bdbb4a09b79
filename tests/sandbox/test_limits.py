"""Resource bombs: every limit stops the run with ``kind == "limit"`` and names the limit.

Payloads that hang in C code or crash the interpreter run in a subprocess with a hard timeout,
so a hole shows up as a failing test instead of a hung or killed test session.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from tapeviz.sandbox import CancelToken, Limits, RunResult, run
from tapeviz.sandbox.errors import UserCodeError

SMALL = Limits(max_elements=10_000)  # makes size holes visible without allocating much


def assert_limit(result: RunResult, name: str, line: int | None = None) -> UserCodeError:
    """The run stopped at a limit whose name (or message) mentions ``name``."""
    err = result.error
    assert err is not None, f"no limit was hit: value={str(result.value)[:80]!r}"
    assert err.kind == "limit", err
    assert name in (err.limit or "") or name in err.message, err
    if line is not None:
        assert err.line == line, err
    return err


# -- the classic bombs ----------------------------------------------------------------------
def test_endless_loop_hits_the_wall_time() -> None:
    result = run("x = 0\nwhile True:\n    x += 1", limits=Limits(wall_time=0.5))
    err = assert_limit(result, "wall time")
    assert err.line in (2, 3)
    assert "time" in err.message
    assert result.elapsed < 1.5


def test_endless_pass_loop_hits_the_wall_time() -> None:
    start = time.perf_counter()
    # (max_steps out of the way: a fast machine runs 5 M empty steps within 0.5 s)
    result = run("while True: pass", limits=Limits(wall_time=0.5, max_steps=10**9))
    assert_limit(result, "wall time", line=1)
    assert time.perf_counter() - start < 1.5


# (id, source, limits, limit name, line)
BOMBS: list[tuple[str, str, Limits | None, str, int | None]] = [
    ("power_tower", "x = 1\ny = 10**10**10", None, "integer size", 2),
    ("pow_builtin", "pow(10, 10**10)", None, "integer size", 1),
    ("shift", "x = 1 << 10**10", None, "integer size", 1),
    ("int_product", "x = 2**40000\ny = x * x * x", None, "integer size", 2),
    ("int_square_loop", "x = 3\nwhile True:\n    x = x * x", None, "integer size", 3),
    ("list_repeat", "x = [0] * 10**10", None, "size", 1),
    ("str_repeat", "x = 'a' * 10**10", None, "size", 1),
    ("bytes_repeat", "x = b'a' * 10**10", None, "size", 1),
    ("tuple_repeat", "x = (0,) * 10**10", None, "size", 1),
    ("list_range", "x = list(range(10**10))", None, "size", 1),
    ("sum_range", "sum(range(10**12))", None, "size", 1),
    ("sorted_range", "sorted(range(10**12))", None, "size", 1),
    ("np_ones", "import numpy as np\nnp.ones(10**12)", None, "size", 2),
    ("np_zeros_2d", "import numpy as np\nnp.zeros((10**6, 10**6))", None, "size", 2),
    ("np_arange", "import numpy as np\nnp.arange(10**12)", None, "size", 2),
    ("np_linspace", "import numpy as np\nnp.linspace(0, 1, 10**12)", None, "size", 2),
    ("np_eye", "import numpy as np\nnp.eye(10**7)", None, "size", 2),
    ("np_random", "import numpy as np\nnp.random.rand(10**6, 10**6)", None, "size", 2),
    (
        "np_broadcast",
        "import numpy as np\nnp.ones((10**5, 1)) + np.ones((1, 10**5))",
        None,
        "size",
        2,
    ),
    ("np_outer", "import numpy as np\nnp.outer(np.ones(10**5), np.ones(10**5))", None, "size", 2),
    ("tf_ones", "import tensorflow as tf\ntf.ones((10**6, 10**6))", None, "size", 2),
    (
        "tf_outer_broadcast",
        "import tensorflow as tf\ntf.ones((10**5, 1)) * tf.ones((1, 10**5))",
        None,
        "size",
        2,
    ),
    (
        "tf_matmul_flops",
        "import tensorflow as tf\na = tf.ones((3000, 3000))\ntf.matmul(a, a)",
        None,
        "size",
        3,
    ),
    ("recursion", "def f():\n    return f()\nf()", None, "recursion", None),
    (
        "mutual_recursion",
        "def a(n):\n    return b(n)\ndef b(n):\n    return a(n)\na(1)",
        None,
        "recursion",
        None,
    ),
    ("lambda_recursion", "f = lambda: f()\nf()", None, "recursion", None),
    ("list_doubling", "x = [0]\nwhile True:\n    x = x + x", None, "size", 3),
    ("list_doubling_inplace", "x = [0]\nwhile True:\n    x += x", None, "size", 3),
    ("list_doubling_extend", "x = [0]\nwhile True:\n    x.extend(x)", None, "size", 3),
    ("str_doubling", "s = 'a'\nwhile True:\n    s += s", None, "size", 3),
    ("print_forever", "while True:\n    print('spam')", Limits(max_output=10_000), "output", 2),
    ("print_huge", "print('a' * 2_000_000)", None, "output", 1),
    ("steps", "x = 0\nwhile True:\n    x += 1", Limits(max_steps=1_000), "steps", None),
    ("steps_for", "for i in range(10**9):\n    pass", Limits(max_steps=1_000), "steps", 1),
    ("comprehension_size", "[i for i in range(10**10)]", SMALL, "size", 1),
    ("fstring_width", "w = 10**9\ns = f'{1:{w}}'", None, "size", 2),
    ("fstring_literal_width", "s = f'{1:999999999}'", None, "size", 1),
    ("fstring_precision", "s = f'{1.5:.999999999f}'", None, "size", 1),
    ("format_width", "s = '{:999999999}'.format(1)", None, "size", 1),
    ("percent_width", "s = '%0999999999d' % 1", None, "size", 1),
    ("percent_precision", "s = '%.999999999f' % 1.5", None, "size", 1),
    ("center", "s = 'x'.center(10**10)", None, "size", 1),
    ("ljust", "s = 'x'.ljust(10**10)", None, "size", 1),
    ("zfill", "s = 'x'.zfill(10**10)", None, "size", 1),
    ("join_many", "s = ','.join(['a'] * 10**7 + ['b'])", None, "size", 1),
]


@pytest.mark.parametrize(
    ("source", "limits", "name", "line"),
    [b[1:] for b in BOMBS],
    ids=[b[0] for b in BOMBS],
)
def test_bomb_hits_its_limit(
    source: str, limits: Limits | None, name: str, line: int | None
) -> None:
    start = time.perf_counter()
    result = run(source, limits=limits or Limits(wall_time=3.0))
    assert_limit(result, name, line)
    assert time.perf_counter() - start < 3.0


def test_limit_errors_carry_a_hint() -> None:
    result = run("x = [0] * 10**10")
    err = assert_limit(result, "size", 1)
    assert err.hint


def test_user_code_cannot_catch_a_limit() -> None:
    src = "n = 0\ntry:\n    while True:\n        n += 1\nexcept Exception:\n    n = -1\nn"
    result = run(src, limits=Limits(max_steps=500))
    assert_limit(result, "steps")
    assert result.namespace.get("n") != -1


# -- cancellation ----------------------------------------------------------------------------
def test_cancel_stops_a_running_script() -> None:
    token = CancelToken()
    box: dict[str, Any] = {}

    def target() -> None:
        box["result"] = run("while True: pass", cancel=token, limits=Limits(wall_time=30))
        box["done"] = time.perf_counter()

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    time.sleep(0.2)
    cancelled_at = time.perf_counter()
    token.cancel()
    thread.join(timeout=5)
    assert not thread.is_alive(), "the run ignored the cancellation"
    assert box["done"] - cancelled_at < 0.25  # 100 ms asked, slack for slow machines
    result: RunResult = box["result"]
    assert result.error is not None
    assert result.error.kind == "cancelled"
    assert result.error.line == 1


def test_cancel_before_start_stops_at_the_first_check() -> None:
    token = CancelToken()
    token.cancel()
    result = run("x = 0\nwhile True:\n    x += 1", cancel=token, limits=Limits(wall_time=5))
    assert result.error is not None
    assert result.error.kind == "cancelled"
    assert result.elapsed < 0.5


# -- size limits that user code can sidestep today (small limits: no big allocations) --------
# (id, source, limits, limit name): each builds a value over the limit without being stopped.
AMPLIFIERS: list[tuple[str, str, Limits, str]] = [
    ("format_nested_width", "s = '{:{}}'.format('x', 20_000)", SMALL, "size"),
    ("format_nested_precision", "s = '{:.{}f}'.format(1.5, 20_000)", SMALL, "size"),
    ("percent_star_width", "s = '%*s' % (20_000, 'x')", SMALL, "size"),
    ("percent_mapping_width", "s = '%(a)20000s' % {'a': 1}", SMALL, "size"),
    ("bytes_percent_width", "s = b'%20000d' % 1", SMALL, "size"),
    ("str_replace", "s = ('a' * 100).replace('a', 'b' * 200)", SMALL, "size"),
    ("str_join_long_parts", "s = ('a' * 5000).join(['x'] * 5)", SMALL, "size"),
    ("str_of_list", "s = str(['a' * 5000] * 5)", SMALL, "size"),
    ("sum_of_lists", "x = sum([[0] * 5000] * 5, [])", SMALL, "size"),
    ("slice_assignment", "a = [0] * 6000\na[:0] = a", SMALL, "size"),
    ("dict_update_zip", "d = {}\nd.update(zip(range(20_000), range(20_000)))", SMALL, "size"),
    ("set_update_range", "s = set()\ns.update(range(20_000))", SMALL, "size"),
    ("set_union_range", "s = set().union(range(20_000))", SMALL, "size"),
    ("list_extend_map", "x = []\nx.extend(map(abs, range(20_000)))", SMALL, "size"),
    ("np_array_nested_list", "import numpy as np\na = np.array([[0] * 200] * 100)", SMALL, "size"),
    (
        "np_zeros_like_shape",
        "import numpy as np\na = np.zeros_like(np.zeros(1), shape=(20_000,))",
        SMALL,
        "size",
    ),
    (
        "np_full_like_shape",
        "import numpy as np\na = np.full_like(np.zeros(1), 7, shape=(20_000,))",
        SMALL,
        "size",
    ),
    (
        "ndarray_dot_method",
        "import numpy as np\na = np.ones((200, 1))\nb = a.dot(a.T)",
        SMALL,
        "size",
    ),
    (
        "matmul_batch_broadcast",
        "import numpy as np\nc = np.ones((100, 1)) @ np.ones((2, 1, 100))",
        SMALL,
        "size",
    ),
    (
        "np_dot_batch",
        "import numpy as np\nc = np.dot(np.ones((100, 1)), np.ones((2, 1, 100)))",
        SMALL,
        "size",
    ),
    (
        "np_matmul_flops",
        "import numpy as np\na = np.ones((200, 200))\nb = a @ a",
        Limits(max_flops=1_000_000),
        "work",
    ),
    (
        "np_random_choice_no_replace",
        "import numpy as np\nnp.random.choice(10**6, 1, replace=False)",
        SMALL,
        "size",
    ),
    ("np_ndarray_class", "import numpy as np\na = np.ndarray((20_000,))", SMALL, "size"),
    (
        "np_astype_wide_string",
        "import numpy as np\na = np.zeros(2).astype('U20000')",
        SMALL,
        "size",
    ),
    (
        "jacobian_rows",
        "import tensorflow as tf\nx = tf.Variable(tf.zeros(300))\nwith tf.GradientTape() as t:\n"
        "    y = x * 2.0\nj = t.jacobian(y, x)",
        SMALL,
        "size",
    ),
    ("round_negative_digits", "x = round(1, -10**6)", Limits(), "integer size"),
    (
        "np_prod_python_ints",
        "import numpy as np\nx = np.prod([2**50000] * 4)",
        Limits(),
        "integer size",
    ),
    (
        "np_power_python_ints",
        "import numpy as np\nx = np.power([10**20], 10**4)",
        Limits(),
        "integer size",
    ),
    (
        "math_factorial_np_int",
        "import math\nimport numpy as np\nx = math.factorial(np.int64(50_000))",
        Limits(),
        "integer size",
    ),
]


@pytest.mark.parametrize(
    ("source", "limits", "name"), [a[1:] for a in AMPLIFIERS], ids=[a[0] for a in AMPLIFIERS]
)
def test_size_limit_cannot_be_sidestepped(
    source: str, limits: Limits, name: str, size_limit_holds: Callable[..., None]
) -> None:
    size_limit_holds(source, limits, name)


# -- C-level hangs and crashes: isolated in a subprocess ---------------------------------------
_CHILD = """
import json, sys, threading, time
from tapeviz.sandbox import CancelToken, Limits, run
spec = json.loads(sys.argv[1])
token = CancelToken()
if spec["cancel_after"] is not None:
    threading.Timer(spec["cancel_after"], token.cancel).start()
r = run(spec["source"], mode=spec["mode"], limits=Limits(**spec["limits"]), cancel=token)
e = r.error
print(json.dumps({"elapsed": r.elapsed, "kind": e and e.kind, "limit": e and e.limit,
                  "message": e and e.message, "line": e and e.line}))
"""


def run_isolated(
    source: str,
    *,
    mode: str = "script",
    limits: dict[str, Any] | None = None,
    cancel_after: float | None = None,
    timeout: float = 6.0,
) -> dict[str, Any]:
    """Run ``source`` in a fresh interpreter; report the outcome, a timeout or a crash."""
    spec = {"source": source, "mode": mode, "limits": limits or {}, "cancel_after": cancel_after}
    try:
        proc = subprocess.run(
            [sys.executable, "-c", _CHILD, json.dumps(spec)],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return {"status": "timeout"}
    if proc.returncode != 0:
        return {"status": f"crashed with exit code {proc.returncode}", "stderr": proc.stderr[-500:]}
    return {"status": "ok", **json.loads(proc.stdout.strip().splitlines()[-1])}


def test_isolated_runner_reports_a_normal_limit() -> None:
    out = run_isolated("while True: pass", limits={"wall_time": 0.5})
    assert out["status"] == "ok"
    assert out["kind"] == "limit"
    assert out["limit"] == "wall time"
    assert out["elapsed"] < 1.5


# (id, source, mode): each spends seconds (or forever) inside one C call or engine loop.
HANGS: list[tuple[str, str, str]] = [
    ("float_in_range", "0.5 in range(10**9)", "script"),
    ("range_count_float", "range(10**9).count(0.5)", "script"),
    ("range_index_float", "range(10**9).index(-0.5)", "script"),
    ("in_endless_iter", "-1 in iter(int, 1)", "script"),
    ("join_map", "s = ''.join(map(str, range(10**8)))", "script"),
    ("fsum_map", "import math\nmath.fsum(map(float, range(10**9)))", "script"),
    ("sum_of_lists_quadratic", "x = sum([[0]] * 10**5, [])", "script"),
    ("modular_pow", "x = pow(3, 2**400, 7**30000 + 1)", "script"),
    ("round_negative_digits", "x = round(1, -10**8)", "script"),
    ("np_prod_python_ints", "import numpy as np\nx = np.prod([2**50000] * 3000)", "script"),
    (
        "math_factorial_np_int",
        "import math\nimport numpy as np\nmath.factorial(np.int64(10**7))",
        "script",
    ),
    (
        "tf_print_everything",
        "import tensorflow as tf\ntf.print(tf.zeros(10**7), summarize=-1)",
        "script",
    ),
    (
        "jacobian_many_rows",
        "import tensorflow as tf\nx = tf.Variable(1.0)\nwith tf.GradientTape() as t:\n"
        "    y = x * tf.ones(10**5)\nj = t.jacobian(y, x)",
        "script",
    ),
    ("expression_power_tower", "9**9**9", "expression"),
]


@pytest.mark.parametrize(("source", "mode"), [h[1:] for h in HANGS], ids=[h[0] for h in HANGS])
def test_no_hang_past_the_wall_time(source: str, mode: str) -> None:
    out = run_isolated(source, mode=mode, limits={"wall_time": 0.5}, timeout=5.0)
    assert out["status"] == "ok", f"the run did not stop at its 0.5 s limit: {out}"
    # Refused up front, stopped by a limit, or (sum of lists) simply done in linear time.
    assert out["kind"] in ("limit", "refused", None), out
    assert out["elapsed"] < 1.5, out


FINALLY_BOMB = textwrap.dedent(
    """
    def f(n):
        if n == 0:
            while True:
                pass
        try:
            f(n - 1)
        finally:
            f(n - 1)
    f(40)
    """
)


def test_finally_cannot_outrun_the_wall_time() -> None:
    """After the limit, each finally block calls f again: the unwinding must not go on forever."""
    out = run_isolated(FINALLY_BOMB, limits={"wall_time": 0.5}, timeout=5.0)
    assert out["status"] == "ok", f"the run did not stop at its 0.5 s limit: {out}"
    assert out["kind"] == "limit", out
    assert out["limit"] == "wall time", out
    assert out["elapsed"] < 1.5, out


def test_finally_cannot_outrun_a_cancel() -> None:
    out = run_isolated(FINALLY_BOMB, limits={"wall_time": 30}, cancel_after=0.2, timeout=5.0)
    assert out["status"] == "ok", f"cancellation did not stop the run: {out}"
    assert out["kind"] == "cancelled", out
    assert out["elapsed"] < 0.2 + 0.25, out


def test_cancel_stops_a_long_c_call() -> None:
    # A scan of a huge range is refused up front now, so cancel a long engine loop instead:
    # one backward pass per row of a 40,000-row jacobian checks for cancellation every row.
    source = (
        "import tensorflow as tf\nx = tf.Variable(1.0)\nwith tf.GradientTape() as t:\n"
        "    y = x * tf.ones(40000)\nj = t.jacobian(y, x)"
    )
    out = run_isolated(source, limits={"wall_time": 30}, cancel_after=0.2, timeout=10.0)
    assert out["status"] == "ok", f"cancellation did not stop the run: {out}"
    assert out["kind"] == "cancelled", out
    assert out["elapsed"] < 0.2 + 0.25, out
    assert run_isolated("0.5 in range(10**9)", limits={"wall_time": 30})["limit"] == "size"


@pytest.mark.parametrize(
    "source",
    [
        "t = ()\nfor i in range(400_000):\n    t = (t,)\nhash(t)",
        "t = ()\nfor i in range(400_000):\n    t = (t,)\ns = {t}",
        "t = ()\nfor i in range(400_000):\n    t = (t,)\nd = {t: 1}",
    ],
    ids=["hash", "set_literal", "dict_key"],
)
def test_deep_tuple_does_not_crash_the_process(source: str) -> None:
    out = run_isolated(source, timeout=30.0)
    assert out["status"] == "ok", f"the interpreter died: {out}"


CYCLES = """
import numpy as np
for i in range(150):
    a = [np.ones(200_000)]  # 1.6 MB that only a reference cycle holds
    a.append(a)
print("done")
"""


def test_memory_held_only_by_cycles_is_collected_before_the_limit_fails() -> None:
    import gc

    from tapeviz.sandbox.runtime import limits

    small = Limits(max_memory_mb=80, wall_time=30.0)  # 150 × 1.6 MB = 240 MB of garbage
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()  # as in the window, whose UI thread collects
    previous = limits.set_reclaimer(lambda: False)  # nobody may collect: the cycles count
    try:
        stuck = run(CYCLES, limits=small)
        assert stuck.error is not None and stuck.error.kind == "limit"
        assert "MB more memory" in stuck.error.message
        gc.collect()
        limits._trim_heap()  # else the next run reuses the freed heap and never grows
        asked: list[int] = []
        limits.set_reclaimer(lambda: asked.append(gc.collect()) is None)
        done = run(CYCLES, limits=small)
        assert done.error is None and done.output == "done\n" and asked
        kept = "import numpy as np\nkeep = [np.ones(200_000) for i in range(150)]"
        real = run(kept, limits=small)
        assert real.error is not None and real.error.kind == "limit"  # really over: still fails
    finally:
        limits.set_reclaimer(None)
        assert limits.reclaim() is False  # none set and automatic GC off: nobody collects
        gc.enable()
        assert limits.reclaim() is True  # none set, automatic GC on: in place
        limits.set_reclaimer(previous)  # e.g. the UI thread's, installed by an earlier test
        if not was_enabled:
            gc.disable()
        gc.collect()
