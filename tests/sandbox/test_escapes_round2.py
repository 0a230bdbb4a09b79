"""Second red-team pass: escapes, limit bypasses, crashes and cross-run leaks found after round 1.

Payloads are grouped by what they break:

* ``ESCAPES``: reach the host (introspection, environment) or a forbidden kind of value; each
  must end with an error and leave no trace (same harness as ``test_escapes.py``).
* ``AMPLIFIERS``: build a value past ``max_elements`` / ``max_int_bits`` without being stopped
  (small limits, so a hole costs little memory).
* ``HANGS`` / ``CRASHES`` / ``MEMORY``: run past the wall time or a cancel, kill the interpreter,
  or drive the process's memory far past the limits; these run in a subprocess with a timeout
  (and an address-space cap), so a hole fails the test instead of the test session.
* cross-run isolation: state one run leaves behind must not change a later run.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from tapeviz.engine import core
from tapeviz.engine.guard import GUARD
from tapeviz.sandbox import Limits, run
from tapeviz.sandbox.runtime.checks import CURRENT

ALLOWED_KINDS = ("refused", "name", "type", "value", "runtime", "limit", "syntax", "engine")
SMALL = Limits(max_elements=10_000)

# A chain of attributes and items from sandbox_print (``print``) to ``os.environ['HOME']``:
# print.__globals__ -> checks.check_text -> its module's ``threading`` -> threading._sys.
_ENVIRON_FIELD = "{0.__globals__[check_text].__globals__[threading]._sys.modules[os].environ[HOME]}"

# (id, payload). SENTINEL becomes a file path inside tmp_path.
ESCAPES: list[tuple[str, str]] = [
    # -- np.str_ is a str subclass: str methods on it skip the Checked wrappers ------------------
    (
        "npstr_format_mro",
        "import numpy as np\ns = np.ravel('{0.__class__.__mro__}')[0]\ns.format(1)",
    ),
    (
        "npstr_format_globals",
        "import numpy as np\ns = np.unique('{0.__globals__}')[0]\nx = s.format(print)",
    ),
    (
        "npstr_format_environ",
        f"import numpy as np\ns = np.ravel('{_ENVIRON_FIELD}')[0]\nprint(s.format(print))",
    ),
    (
        "npstr_from_where",
        "import numpy as np\ns = np.where(True, '{0.__class__}', '')[()]\ns.format(1)",
    ),
    (
        "npstr_from_squeeze",
        "import numpy as np\ns = np.squeeze('{0.__init__}')[()]\ns.format(print)",
    ),
    (
        "npstr_format_keyword",
        "import numpy as np\ns = np.ravel('{x.__class__.__base__}')[0]\ns.format(x=1)",
    ),
    (
        "npstr_format_tape_globals",
        "import tensorflow as tf\nimport numpy as np\ns = np.ravel('{0.gradient.__globals__}')[0]\n"
        "s.format(tf.GradientTape())",
    ),
    # -- string arrays: numpy_ns promises no str arrays, the _function wrappers make them --------
    ("np_ravel_str_array", "import numpy as np\nnp.ravel('abc')"),
    ("np_reshape_str_array", "import numpy as np\nnp.reshape('abc', (1,))"),
    ("np_transpose_str_array", "import numpy as np\nnp.transpose('abc')"),
    ("np_expand_dims_str_array", "import numpy as np\nnp.expand_dims('abc', 0)"),
    ("np_where_str_array", "import numpy as np\nnp.where([True, False], 'a', 'b')"),
    # -- object arrays: no dtype check on what the _function wrappers return ---------------------
    ("np_ravel_object_array", "import numpy as np\nnp.ravel(print)"),
    ("np_where_object_array", "import numpy as np\nnp.where(True, print, 0)"),
    ("np_reshape_object_array", "import numpy as np\nnp.reshape(None, (1,))"),
    ("np_expand_dims_object_array", "import numpy as np\nnp.expand_dims(len, 0)"),
    (
        "np_object_array_holds_a_namespace",
        "import numpy as np\nimport math\na = np.ravel(math)\na[0]",
    ),
    (
        "np_object_array_big_int_power",
        "import numpy as np\na = np.ravel(print)\na[0] = 3\nb = a ** 300000",
    ),
    # -- numpy integers and tensors slip past the isinstance(x, int) checks ------------------------
    ("bool_lshift_huge", "x = True << 200000"),
    ("round_np_int_digits", "import numpy as np\nx = round(1, np.int64(-10**6))"),
]


def test_escapes_are_unique() -> None:
    ids = [name for name, _ in ESCAPES]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize(("name", "payload"), ESCAPES, ids=[name for name, _ in ESCAPES])
def test_escape_is_stopped(name: str, payload: str, escape_is_stopped: Callable[..., None]) -> None:
    escape_is_stopped(name, payload, ALLOWED_KINDS)


# -- values built past a limit (small limits) ---------------------------------------------------
# (id, source, limits, limit name)
AMPLIFIERS: list[tuple[str, str, Limits, str]] = [
    ("percent_nested_paren_key", "s = '%(a(b))20000s' % {'a(b)': 1}", SMALL, "size"),
    ("npstr_center", "import numpy as np\ns = np.ravel('x')[0].center(20000)", SMALL, "size"),
    (
        "npstr_replace",
        "import numpy as np\ns = np.ravel('a' * 100)[0].replace('a', 'b' * 200)",
        SMALL,
        "size",
    ),
    (
        "npstr_join",
        "import numpy as np\ns = np.ravel('a' * 5000)[0].join(['x'] * 5)",
        SMALL,
        "size",
    ),
    ("center_np_int_width", "import numpy as np\ns = 'x'.center(np.int64(20000))", SMALL, "size"),
    (
        "ljust_tensor_width",
        "import tensorflow as tf\ns = 'x'.ljust(tf.constant(20000))",
        SMALL,
        "size",
    ),
    ("str_times_np_int", "import numpy as np\ns = 'a' * np.int64(20000)", SMALL, "size"),
    ("list_times_np_int", "import numpy as np\nx = [0] * np.int64(20000)", SMALL, "size"),
    ("starred_list_display", "x = [0] * 6000\ny = [*x, *x]", SMALL, "size"),
    ("starred_tuple_display", "x = [0] * 6000\ny = (*x, *x)", SMALL, "size"),
    ("starred_call_arguments", "f = lambda *a: a\nx = [0] * 6000\ny = f(*x, *x)", SMALL, "size"),
    (
        "dict_display_double_star_merge",
        "a = {i: 0 for i in range(6000)}\nb = {-i - 1: 0 for i in range(6000)}\nc = {**a, **b}",
        SMALL,
        "size",
    ),
    (
        "dict_display_double_star_dicts",
        "a = {i: i for i in range(6_000)}\nb = {-i - 1: i for i in range(6_000)}\nd = {**a, **b}",
        SMALL,
        "size",
    ),
    (
        "set_union_operator",
        "a = set(range(6000))\nb = set(range(6000, 12000))\nc = a | b",
        SMALL,
        "size",
    ),
    (
        "str_of_dict_keys",
        "d = {i: i for i in range(5000)}\ns = str(d.keys())",
        SMALL,
        "size",
    ),
    (
        "fstring_of_dict_items",
        "d = {i: i for i in range(5000)}\ns = f'{d.items()}'",
        SMALL,
        "size",
    ),
    (
        "tf_constant_shape",
        "import tensorflow as tf\nt = tf.constant(0.0, shape=(200, 200))",
        SMALL,
        "size",
    ),
    (
        "np_repeat_wide_strings",
        "import numpy as np\nr = np.repeat(np.ravel('x' * 5000), 100)\ns = r.tolist()",
        SMALL,
        "size",
    ),
    ("bool_lshift", "x = True << 200_000", Limits(), "integer size"),
    (
        "object_array_power",
        "import numpy as np\na = np.ravel(print)\na[0] = 3\nb = a ** 300_000",
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


# -- run() must return, never raise -------------------------------------------------------------
DEEP_LIST = "x = []\nfor i in range(100_000):\n    x = [x]\n"


@pytest.mark.parametrize(
    "tail",
    ["raise ValueError(x)", "assert False, x", "raise RuntimeError(x)"],
    ids=["raise_deep_value", "assert_deep_message", "raise_deep_runtime"],
)
def test_run_never_raises_on_a_deep_exception_message(tail: str) -> None:
    """translate() calls str(exc): a deeply nested argument makes that raise RecursionError."""
    try:
        result = run(DEEP_LIST + tail)
    except BaseException as exc:  # the point is that nothing escapes
        pytest.fail(f"run() raised {type(exc).__name__} instead of returning a RunResult")
    assert result.error is not None


# -- isolated: hangs, crashes, memory -----------------------------------------------------------
_CHILD = """
import json, resource, sys, threading
from tapeviz.sandbox import CancelToken, Limits, run
spec = json.loads(sys.argv[1])
if spec["max_bytes"]:
    resource.setrlimit(resource.RLIMIT_AS, (spec["max_bytes"], spec["max_bytes"]))
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
token = CancelToken()
if spec["cancel_after"] is not None:
    threading.Timer(spec["cancel_after"], token.cancel).start()
r = run(spec["source"], limits=Limits(**spec["limits"]), cancel=token)
e = r.error
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"elapsed": r.elapsed, "kind": e and e.kind, "limit": e and e.limit,
                  "message": e and e.message, "grew_mb": (peak - base) / 1024}))
"""


def run_isolated(
    source: str,
    *,
    limits: dict[str, Any] | None = None,
    cancel_after: float | None = None,
    timeout: float = 3.0,
    max_bytes: int | None = None,
) -> dict[str, Any]:
    """Run ``source`` in a fresh interpreter; report the outcome, a timeout or a crash."""
    spec = {
        "source": source,
        "limits": limits or {},
        "cancel_after": cancel_after,
        "max_bytes": max_bytes,
    }
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


# (id, source): each keeps running long after its 0.5 s wall time.
HANGS: list[tuple[str, str]] = [
    # A lambda body is one expression: no statement, so no budget.check() ever runs in it.
    ("lambda_call_tree", "f = lambda n: 0 if n == 0 else f(n - 1) + f(n - 1)\nf(40)"),
    # C loops calling the user's key function: no step or time check per call.
    ("sorted_key_lambda", "x = list(range(10**6))\ny = sorted(x, key=lambda v: -v)"),
    ("list_sort_key_lambda", "x = list(range(10**6))\nx.sort(key=lambda v: -v)"),
    ("max_key_lambda", "x = list(range(10**6))\nm = max(x, key=lambda v: (v % 7, -v))"),
    # dict.update over a lazy iterator inside a {**...} display.
    # (a zip is not a mapping: refused at once with Python's TypeError, which is fine too)
    ("dict_display_double_star_zip", "d = {**zip(range(10**9), range(10**9))}"),
    # Python-int arithmetic inside a numpy object array.
    (
        "object_array_power",
        "import numpy as np\na = np.ravel(print)\na[0] = 3\nb = a ** (10**8)",
    ),
    # tf.print's size check looks at top-level tensors only.
    (
        "tf_print_tensor_in_list",
        "import tensorflow as tf\ntf.print([tf.zeros(10**7)], summarize=-1)",
    ),
    ("round_np_int_digits", "import numpy as np\nx = round(1, np.int64(-10**8))"),
]


@pytest.mark.parametrize("source", [h[1] for h in HANGS], ids=[h[0] for h in HANGS])
def test_no_hang_past_the_wall_time(source: str) -> None:
    out = run_isolated(source, limits={"wall_time": 0.5})
    assert out["status"] == "ok", f"the run did not stop at its 0.5 s limit: {out}"
    assert out["kind"] in ("limit", "refused", "type"), out
    assert out["elapsed"] < 0.5 + 0.25, out


def test_lambda_call_tree_obeys_a_cancel() -> None:
    source = "f = lambda n: 0 if n == 0 else f(n - 1) + f(n - 1)\nf(40)"
    out = run_isolated(source, limits={"wall_time": 30}, cancel_after=0.3)
    assert out["status"] == "ok", f"cancellation did not stop the run: {out}"
    assert out["kind"] == "cancelled", out
    assert out["elapsed"] < 0.3 + 0.25, out


DEEP_TUPLE = "t = ()\nfor i in range(400_000):\n    t = (t,)\nd = {1: 2}\n"


@pytest.mark.parametrize(
    "tail",
    ["t in d.keys()", "(t, 1) in d.items()", "u = d.keys() & [t]", "e = {**[(t, 1)]}"],
    ids=["in_dict_keys", "in_dict_items", "keys_intersection", "dict_display_pairs"],
)
def test_deep_tuple_hash_does_not_crash(tail: str) -> None:
    """Tuple hashing recurses in C without a depth check: every hashing path must check first."""
    out = run_isolated(DEEP_TUPLE + tail, limits={"wall_time": 10}, timeout=20.0)
    assert out["status"] == "ok", f"the interpreter died: {out}"


GIB = 1 << 30


@pytest.mark.parametrize(
    "source",
    [
        "x = [[0] * 10**7 for i in range(100)]",
        "import numpy as np\nx = [np.ones(10**7) for i in range(100)]",
        "print(*range(1000), sep='x' * 2_000_000)",
        "x = [0] * 10**7\ny = [*x, *x, *x, *x, *x, *x, *x, *x, *x, *x, *x, *x, *x, *x, *x, *x]",
        "import tensorflow as tf\nt = tf.constant(0.0, shape=(20000, 20000))",
    ],
    ids=["many_lists", "many_arrays", "print_separator", "starred_display", "tf_constant_shape"],
)
def test_memory_stays_bounded(source: str) -> None:
    """Limits are per value; nothing bounds what a run holds in all, or builds before a check."""
    out = run_isolated(source, limits={"wall_time": 5}, timeout=20.0, max_bytes=3 * GIB)
    assert out["status"] == "ok", out
    assert out["grew_mb"] < 1024, f"the run grew the process by {out['grew_mb']:.0f} MB: {out}"


# -- cross-run isolation ------------------------------------------------------------------------
def test_random_seed_does_not_leak_into_the_next_run() -> None:
    first = run("import numpy as np\nnp.random.seed(1234)")
    assert first.error is None, first.error
    second = run("import numpy as np\nnp.random.rand()")
    assert second.error is None, second.error
    assert second.value != np.random.RandomState(1234).rand(), (
        "a later run drew from the random state an earlier run seeded"
    )


def test_random_state_is_fresh_per_run() -> None:
    """Two runs seeding nothing must not continue one stream (the second run's draws)."""
    run("import numpy as np\nnp.random.seed(99)\nx = np.random.rand()")
    result = run("import numpy as np\nnp.random.rand()")
    expected = np.random.RandomState(99).rand(2)[1]
    assert result.value != expected, "the second run continued the first run's random stream"


def test_names_do_not_leak_into_the_next_run() -> None:
    first = run("secret = 42\ndef f():\n    return secret")
    assert first.error is None
    second = run("secret")
    assert second.error is not None
    assert second.error.kind == "name"
    third = run("f()")
    assert third.error is not None
    assert third.error.kind == "name"


def test_a_stopped_run_leaves_no_engine_or_thread_state() -> None:
    source = textwrap.dedent(
        """
        import tensorflow as tf
        x = tf.Variable(1.0)
        with tf.GradientTape() as outer:
            with tf.GradientTape(persistent=True) as inner:
                with inner.stop_recording():
                    while True:
                        y = x * 2.0
        """
    )
    result = run(source, limits=Limits(wall_time=0.3))
    assert result.error is not None
    assert result.error.kind == "limit"
    assert core.STATE.active == []
    assert core.STATE.entered == []
    assert core.STATE.created is None
    assert CURRENT.budget is None
    assert GUARD.max_elements is None
    assert GUARD.checkpoint is None
    after = run("import tensorflow as tf\nx = tf.Variable(2.0)\ny = x * 3.0\ny.numpy()")
    assert after.error is None, after.error
    assert after.tapes == ()
    assert after.value == 6.0


def test_shared_namespaces_cannot_be_changed_for_a_later_run() -> None:
    attempts = [
        "import math\nmath.pi = 3",
        "import numpy as np\nnp.random.seed = print",
        "import tensorflow as tf\ntf.float32.name = 'x'",
        "import tensorflow as tf\ndel tf.constant",
        "import numpy as np\nnp.random['seed'] = 1",
    ]
    for source in attempts:
        result = run(source)
        assert result.error is not None, source
    check = run("import math\nimport tensorflow as tf\n(math.pi, tf.float32.name)")
    assert check.error is None, check.error
    assert check.value == (np.pi, "float32")


def test_double_star_needs_a_mapping_as_in_python() -> None:
    result = run("d = {**zip(range(20_000), range(20_000))}")
    assert result.error is not None and result.error.kind == "type"
    assert "not a mapping" in result.error.message
