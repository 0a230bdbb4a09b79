"""Every setter a script can reach leaves the next run as a fresh process would find it.

The setters are found, not listed: every callable named like one (``set_*``, ``enable_*``,
``run_functions_eagerly``, ``clear_session``, ``seed``, ``rc``, ...) in the namespaces a script
imports. Each must have an entry in :data:`SETTERS` (a call with a non-default argument, and an
expression a later run can print to show it, or the reason there is none), so a new setter
fails here until it is. The state compared is found the same way: every module global of
``tapeviz.tf``, the engine, the sandbox's numpy and matplotlib (see ``state_snapshot.py``).
"""

from __future__ import annotations

import importlib.util
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pytest

import tapeviz.tf as tf
from tapeviz.engine.namespace import Namespace
from tapeviz.sandbox import run, runner
from tapeviz.sandbox.process.client import Pool
from tapeviz.sandbox.process.isolated import run_isolated
from tapeviz.sandbox.result import RunResult
from tapeviz.sandbox.runtime.modules import MODULES

_SPEC = importlib.util.spec_from_file_location(
    "state_snapshot", Path(__file__).with_name("state_snapshot.py")
)
assert _SPEC is not None and _SPEC.loader is not None
state_snapshot = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(state_snapshot)
snapshot, differences = state_snapshot.snapshot, state_snapshot.differences

SETTER = re.compile(
    r"^(set_|enable_|disable_|reset_|experimental_|register_)|"
    r"^(run_functions_eagerly|clear_session|seed|rc|rcdefaults|use|ion|ioff)$"
)


class Setter(NamedTuple):
    """How to call a setter, and what a later run prints that it would change (or why not)."""

    call: str
    probe: str | None
    why: str = ""


NO_GETTER = "accepted and ignored, with nothing to read it back (the snapshot compares it)"
# Which seed's stream the global generator is at (a copy draws: the probe changes nothing).
GENERATOR = (
    "[np.array_equal(tf.random.Generator(copy_from=tf.random.get_global_generator())"
    ".normal([3]).numpy(), tf.random.Generator.from_seed(s).normal([3]).numpy()) "
    "for s in (1, 2, 7)]"
)
NP_SEEDED = "np.random.rand() in {values}"
SETTERS: dict[str, Setter] = {
    "tensorflow.config.set_visible_devices": Setter(
        'tf.config.set_visible_devices([], "GPU")', "tf.config.get_visible_devices()"),
    "tensorflow.config.run_functions_eagerly": Setter(
        "tf.config.run_functions_eagerly(True)", "tf.config.functions_run_eagerly()"),
    "tensorflow.config.set_soft_device_placement": Setter(
        "tf.config.set_soft_device_placement(False)", "tf.config.get_soft_device_placement()"),
    "tensorflow.config.experimental.set_memory_growth": Setter(
        "try:\n    tf.config.experimental.set_memory_growth("
        'tf.config.list_physical_devices("CPU")[0], True)\nexcept ValueError:\n    pass',
        None, "refused on a CPU, as TensorFlow refuses it: nothing changes"),
    "tensorflow.config.experimental.enable_op_determinism": Setter(
        "tf.config.experimental.enable_op_determinism()", None, NO_GETTER),
    "tensorflow.config.experimental.set_visible_devices": Setter(
        'tf.config.experimental.set_visible_devices([], "GPU")',
        "tf.config.get_visible_devices()"),
    "tensorflow.config.threading.set_intra_op_parallelism_threads": Setter(
        "tf.config.threading.set_intra_op_parallelism_threads(2)",
        "tf.config.threading.get_intra_op_parallelism_threads()"),
    "tensorflow.config.threading.set_inter_op_parallelism_threads": Setter(
        "tf.config.threading.set_inter_op_parallelism_threads(2)",
        "tf.config.threading.get_inter_op_parallelism_threads()"),
    "tensorflow.config.optimizer.set_jit": Setter(
        "tf.config.optimizer.set_jit(True)", None, NO_GETTER),
    "tensorflow.debugging.set_log_device_placement": Setter(
        "tf.debugging.set_log_device_placement(True)", None, NO_GETTER),
    "tensorflow.debugging.enable_check_numerics": Setter(
        "tf.debugging.enable_check_numerics()", "tf.math.log(tf.constant(0.0)).numpy()"),
    "tensorflow.debugging.disable_check_numerics": Setter(
        "tf.debugging.disable_check_numerics()", "tf.math.log(tf.constant(0.0)).numpy()"),
    "tensorflow.random.set_seed": Setter(
        "tf.random.set_seed(1)", "tf.random.normal([3], seed=5).numpy()"),
    "tensorflow.random.set_global_generator": Setter(
        "tf.random.set_global_generator(tf.random.Generator.from_seed(1))", GENERATOR),
    "tensorflow.random.experimental.set_global_generator": Setter(
        "tf.random.experimental.set_global_generator(tf.random.Generator.from_seed(2))",
        GENERATOR),
    "tensorflow.keras.utils.set_random_seed": Setter(
        "tf.keras.utils.set_random_seed(4)", NP_SEEDED),
    "tensorflow.keras.utils.register_keras_serializable": Setter(
        'tf.keras.utils.register_keras_serializable(package="p")', None,
        "keeps nothing: tapeviz never deserialises, so it has no registry to fill"),
    "tensorflow.keras.backend.clear_session": Setter(
        "tf.keras.backend.clear_session(free_memory=False)", "tf.keras.layers.Dense(1).name"),
    "tensorflow.keras.backend.set_floatx": Setter(
        'tf.keras.backend.set_floatx("float64")', "tf.keras.backend.floatx()"),
    "tensorflow.keras.backend.set_epsilon": Setter(
        "tf.keras.backend.set_epsilon(1e-3)", "tf.keras.backend.epsilon()"),
    "tensorflow.keras.config.set_floatx": Setter(
        'tf.keras.config.set_floatx("float16")', "tf.keras.config.floatx()"),
    "tensorflow.keras.config.set_epsilon": Setter(
        "tf.keras.config.set_epsilon(0.5)", "tf.keras.config.epsilon()"),
    "tensorflow.keras.config.enable_unsafe_deserialization": Setter(
        "tf.keras.config.enable_unsafe_deserialization()", None, NO_GETTER),
    "tensorflow.keras.config.disable_interactive_logging": Setter(
        "tf.keras.config.disable_interactive_logging()", None, NO_GETTER),
    "tensorflow.keras.config.enable_interactive_logging": Setter(
        "tf.keras.config.enable_interactive_logging()", None, NO_GETTER),
    "tensorflow.keras.saving.register_keras_serializable": Setter(
        'tf.keras.saving.register_keras_serializable(package="q")', None,
        "keeps nothing: tapeviz never deserialises, so it has no registry to fill"),
    "numpy.random.seed": Setter("np.random.seed(3)", NP_SEEDED),
    "numpy.set_printoptions": Setter(
        "np.set_printoptions(precision=2, suppress=True)", "np.array([1.23456789])"),
    "matplotlib.pyplot.ion": Setter("plt.ion()", None, NO_GETTER),
    "matplotlib.pyplot.ioff": Setter("plt.ioff()", None, NO_GETTER),
    "matplotlib.pyplot.rcdefaults": Setter(
        "plt.rcdefaults()", "plt.rcParams['lines.linewidth']"),
    "matplotlib.pyplot.rc": Setter(
        "plt.rc('lines', linewidth=3)", "plt.rcParams['lines.linewidth']"),
    "matplotlib.pyplot.style.use": Setter(
        "plt.style.use('ggplot')", None, "a note only: the Plots tab follows tapeviz's theme"),
    "matplotlib.rc": Setter("matplotlib.rc('font', size=20)", "plt.rcParams['font.size']"),
    "matplotlib.rcdefaults": Setter("matplotlib.rcdefaults()", "plt.rcParams['font.size']"),
    "matplotlib.use": Setter('matplotlib.use("Agg")', "matplotlib.get_backend()"),
}  # fmt: skip
# State changed by other means than a setter: objects the runtime keeps, counters, figures.
TORCH_GRAD = "torch.is_grad_enabled()"
_CONTEXT = "a context manager: made but not entered, it changes nothing"
SETTERS.update({
    "torch.set_grad_enabled": Setter("torch.set_grad_enabled(False)", TORCH_GRAD),
    "torch.autograd.set_grad_enabled": Setter("torch.autograd.set_grad_enabled(False)",
                                              TORCH_GRAD),
    "torch.enable_grad": Setter("torch.enable_grad()", None, _CONTEXT),
    "torch.autograd.enable_grad": Setter("torch.autograd.enable_grad()", None, _CONTEXT),
    "torch.seed": Setter("torch.seed()", "torch.initial_seed() == 3"),
    "torch.set_default_dtype": Setter("torch.set_default_dtype(torch.float64)",
                                      "torch.get_default_dtype()"),
    "torch.set_printoptions": Setter("torch.set_printoptions(precision=2)",
                                     "torch.tensor([1.23456])"),
    # no GPU: torch ignores these without one (the CPU's seed is torch.manual_seed's)
    "torch.cuda.seed": Setter("torch.cuda.seed()", None, NO_GETTER),
})  # fmt: skip
HEADER = "import matplotlib\nimport matplotlib.pyplot as plt\nimport torch\nimport random\n"
RANDOM_SEEDED = f"random.random() == {random.Random(3).random()!r}"
SETTERS["random.seed"] = Setter("random.seed(3)", RANDOM_SEEDED)
OTHERS = {
    "torch seeded": Setter("torch.manual_seed(3)", "torch.initial_seed() == 3"),
    "cudnn flags set": Setter("torch.backends.cudnn.deterministic = True",
                              "torch.backends.cudnn.deterministic"),
    "deterministic algorithms": Setter("torch.use_deterministic_algorithms(True)",
                                       "torch.are_deterministic_algorithms_enabled()"),
    "global generator reseeded": Setter(
        "tf.random.get_global_generator().reset_from_seed(7)", GENERATOR),
    "rcParams assigned": Setter(
        "plt.rcParams['image.cmap'] = 'jet'", "plt.rcParams['image.cmap']"),
    "Keras names given": Setter(
        "layers = [tf.keras.layers.Dense(2) for _ in range(3)]\n"
        "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])",
        "tf.keras.layers.Dense(1).name, tf.keras.Sequential().name"),
    "a Keras model trained": Setter(
        "model.compile(optimizer='sgd', loss='mse')\n"
        "model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=1, verbose=0)", None,
        "the model is the run's own (the snapshot compares Keras' caches and flags)"),
    "Keras seeds drawn": Setter(
        "w = tf.keras.initializers.GlorotUniform()((2, 2))", None,
        "unseeded draws are random in any run; the snapshot compares the generators"),
    "numpy's error handling changed": Setter("np.seterr(under='warn')", "np.geterr()"),
    "seeded op streams advanced": Setter(
        "a = tf.random.normal([2], seed=5)\nb = tf.random.uniform([2])",
        "tf.random.normal([3], seed=5).numpy()"),
    "a figure left open": Setter(
        "fig = plt.figure()\nplt.plot([1, 2])", "plt.figure().number"),
    "a traced tf.function": Setter(
        "f = tf.function(lambda x: x * 2)\nf(tf.constant(1.0))\nf(tf.constant(2.0))", None,
        "a function's traces are its own (the snapshot compares the engine's bookkeeping)"),
}  # fmt: skip


def setters() -> list[str]:
    """Every setter-like callable a script can import, by its dotted path."""
    found: list[str] = []
    seen: set[int] = set()

    def walk(ns: Namespace, path: str) -> None:
        if id(ns) in seen:  # keras is tensorflow.keras; tapeviz.tf is tensorflow
            return
        seen.add(id(ns))
        for name in ns:
            value = getattr(ns, name)
            if type(value) is Namespace:
                walk(value, f"{path}.{name}")
            elif callable(value) and SETTER.match(name):
                found.append(f"{path}.{name}")

    for name, ns in MODULES.items():
        walk(ns, name)
    return found


def setters_script() -> str:
    """A script calling every setter with a non-default argument, then the other changes.

    The setters that reset (``rcdefaults``, ``clear_session``) go first: the script leaves
    every setting it can changed.
    """
    paths = sorted(setters(), key=lambda p: not p.endswith(("rcdefaults", "clear_session")))
    calls = [SETTERS[p].call for p in paths] + [s.call for s in OTHERS.values()]
    return HEADER + "\n".join(calls) + "\n"


def probes() -> list[str]:
    """Every probe expression once, in order."""
    found = [s.probe for s in [*SETTERS.values(), *OTHERS.values()] if s.probe is not None]
    return list(dict.fromkeys(found))


def probe_script() -> str:
    """A script printing, one line each, everything a change would show a later run."""
    seeded = NP_SEEDED.format(values=tuple(np.random.RandomState(s).rand() for s in (3, 4)))
    lines = [f"print({seeded if p == NP_SEEDED else p})" for p in probes()]
    return HEADER + "\n".join(lines) + "\n"


# The probes that show a change within the run that made it (the others show settings that
# tapeviz accepts and ignores, such as set_visible_devices([], "GPU") on its one CPU).
CHANGING = {
    "tf.config.functions_run_eagerly()", "tf.config.get_soft_device_placement()",
    "tf.random.normal([3], seed=5).numpy()", GENERATOR, NP_SEEDED,
    "tf.keras.layers.Dense(1).name", "tf.keras.backend.floatx()", "tf.keras.backend.epsilon()",
    "tf.keras.config.floatx()", "tf.keras.config.epsilon()",
    "plt.rcParams['lines.linewidth']", "plt.rcParams['font.size']",
    "plt.rcParams['image.cmap']", "tf.keras.layers.Dense(1).name, tf.keras.Sequential().name",
    "plt.figure().number", "torch.get_default_dtype()", "torch.tensor([1.23456])",
    "torch.initial_seed() == 3", TORCH_GRAD, RANDOM_SEEDED, "np.array([1.23456789])",
    "torch.backends.cudnn.deterministic", "torch.are_deterministic_algorithms_enabled()",
    "np.geterr()",
}  # fmt: skip


def _ok(result: RunResult) -> str:
    assert result.error is None, result.error
    return result.output


def test_every_setter_has_an_entry_and_every_entry_a_setter() -> None:
    found = setters()
    assert len(found) == len(set(found))
    assert sorted(found) == sorted(SETTERS)
    host = {p.removeprefix("tensorflow.") for p in found if p.startswith("tensorflow.")}
    assert host == _host_setters(tf, "")  # the script's tensorflow is tapeviz.tf
    for path, s in {**SETTERS, **OTHERS}.items():
        assert s.probe is not None or s.why, f"{path}: say why no later run can see it"


def _host_setters(module: Any, prefix: str) -> set[str]:
    out: set[str] = set()
    names = module if type(module) is Namespace else [
        n for n in vars(module) if not n.startswith("_")]  # fmt: skip
    for name in names:
        value = getattr(module, name)
        if type(value) is Namespace:
            out |= _host_setters(value, f"{prefix}{name}.")
        elif callable(value) and SETTER.match(name):
            out.add(prefix + name)
    return out


def test_the_setters_change_what_the_probes_show() -> None:
    """The probes can fail: within the run that calls the setters they print something else."""
    fresh = _ok(run(probe_script())).splitlines()
    changed = _ok(run(setters_script() + probe_script())).splitlines()
    assert len(fresh) == len(changed) == len(probes())
    assert {p for p, a, b in zip(probes(), fresh, changed, strict=True) if a != b} == CHANGING


def test_after_every_setter_a_run_starts_as_a_fresh_one(monkeypatch: pytest.MonkeyPatch) -> None:
    starts: list[dict[str, Any]] = []
    make_variables = runner.make_variables

    def at_start(*args: Any) -> Any:  # inside the run, before the script's first line
        starts.append(snapshot())
        return make_variables(*args)

    monkeypatch.setattr(runner, "make_variables", at_start)
    before = snapshot()
    _ok(run(""))
    _ok(run(setters_script()))
    _ok(run(""))
    after = snapshot()
    assert len(starts) == 3
    _assert_same(starts[0], starts[2])  # the run after the setters starts fresh
    _assert_same(starts[0], starts[1])
    _assert_same(before, after)  # and the caller's own state is back


def _assert_same(before: dict[str, Any], after: dict[str, Any]) -> None:
    changed = differences(before, after)
    assert not changed, "\n".join(f"{k}: {a} -> {b}" for k, (a, b) in changed.items())


@pytest.fixture(scope="module")
def one_worker() -> Iterator[Pool]:
    """A pool of one warm worker: every run of the module lands in the same process."""
    pool = Pool(spares=0)
    pool.warm()
    yield pool
    pool.shutdown()


def test_after_every_setter_a_warm_worker_starts_a_run_fresh(one_worker: Pool) -> None:
    which = "print(tf.constant(0.0).id >> 40)"  # tensor ids carry their worker's serial
    worker = _ok(run_isolated(which, pool=one_worker))
    fresh = _ok(run_isolated(probe_script(), pool=one_worker))
    _ok(run_isolated(setters_script(), pool=one_worker))
    assert _ok(run_isolated(probe_script(), pool=one_worker)) == fresh
    assert _ok(run_isolated(which, pool=one_worker)) == worker
    assert fresh == _ok(run(probe_script()))  # as a run in this process starts
