"""Code export: every script compiles; the TensorFlow one run as TensorFlow gives our numbers."""

from __future__ import annotations

import ast
import importlib.util
import re

import pytest

from tapeviz.models.export.code import FRAMEWORKS, ExportUnavailable, export, translate
from tapeviz.models.session.file import Session
from tapeviz.models.session.presets import PRESETS
from tapeviz.sandbox import VariableSpec, run

EXPRESSIONS = [n for n, p in PRESETS.items() if p.mode == "expression" and p.view != "studio"]
WIDE = Session(
    source="sigmoid(w*x) + leaky_relu(x - 3) + max(x, w)^2 + ln(1 + w²) + clip(x, 0, 1) "
    "+ softplus(w) * rsqrt(x) + pi",
    variables=(
        VariableSpec("x", 2.0, "trainable", "float64"),
        VariableSpec("w", -0.5, "watched", "float64"),
    ),
)


def numbers(output: str) -> dict[str, float]:
    return {k: float(v) for k, v in re.findall(r"^(\S+) = (\S+)$", output, re.M)}


@pytest.mark.parametrize("framework", FRAMEWORKS)
@pytest.mark.parametrize("session", [*(PRESETS[n] for n in EXPRESSIONS), WIDE],
                         ids=[*EXPRESSIONS, "wide"])  # fmt: skip
def test_exports_compile(session: Session, framework: str) -> None:
    code = export(session, framework)
    compile(code, f"<{framework}>", "exec")


@pytest.mark.parametrize("session", [*(PRESETS[n] for n in EXPRESSIONS), WIDE],
                         ids=[*EXPRESSIONS, "wide"])  # fmt: skip
def test_tensorflow_export_reproduces_tapeviz(session: Session) -> None:
    printed = run(export(session, "tensorflow"))  # tapeviz.tf stands in for tensorflow
    assert printed.error is None, printed.error
    direct = run(session.source, mode="expression", variables=list(session.variables))
    got = numbers(printed.output)
    assert got["f"] == pytest.approx(float(direct.value.numpy()), rel=1e-6)
    for name, g in direct.gradients.items():
        assert got[f"df/d{name}"] == pytest.approx(float(g.numpy()), rel=1e-6, abs=1e-9)


@pytest.mark.parametrize(("module", "framework"), [("torch", "pytorch"), ("jax", "jax")])
def test_other_frameworks_run_where_installed(module: str, framework: str) -> None:
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed (never installed by tests)")
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", export(WIDE, framework)], capture_output=True,
                          text=True, timeout=300, check=True)  # fmt: skip
    direct = run(WIDE.source, mode="expression", variables=list(WIDE.variables))
    got = numbers(done.stdout)
    assert got["f"] == pytest.approx(float(direct.value.numpy()), rel=1e-6)


def test_translations() -> None:
    assert translate("x^2 · sin(x)", "pytorch", ["x"]) == "x ** 2 * torch.sin(x)"
    assert translate("max(x, y) + max(v)", "jax", ["x"]) == "jnp.maximum(x, y) + jnp.max(v)"
    assert translate("dot(a, b)", "tensorflow", []) == "tf.reduce_sum(a * b)"
    assert "negative_slope=0.2" in translate("leaky_relu(x)", "pytorch", ["x"])


def test_scripts_export_as_tensorflow_only() -> None:
    seed = PRESETS["training-1-1-quadratic-gradient"]
    # generated from the checked tree: the same program as the text (comments are not kept)
    assert ast.dump(ast.parse(export(seed, "tensorflow"))) == ast.dump(ast.parse(seed.source))
    with pytest.raises(ExportUnavailable, match="expression mode"):
        export(seed, "pytorch")
    with pytest.raises(ExportUnavailable, match="does not pass tapeviz's checks"):
        export(Session(source="x +"), "jax")


STUDIO = [n for n, p in PRESETS.items() if p.view == "studio" and p.mode == "expression"]


@pytest.mark.parametrize("framework", FRAMEWORKS)
@pytest.mark.parametrize("name", STUDIO)
def test_optimization_exports_compile_with_the_same_optimizer(name: str, framework: str) -> None:
    from tapeviz.models.export.train import selected_run

    code = export(PRESETS[name], framework)
    compile(code, f"<{framework}>", "exec")
    opt, steps, _ = selected_run(PRESETS[name])
    assert f"range({steps})" in code
    assert repr(float(opt.learning_rate)) in code
    cls = {"Momentum": "SGD", "Nesterov": "SGD"}.get(opt.kind, opt.kind)
    assert (cls.lower() if framework == "jax" else cls) in code


@pytest.mark.parametrize(("name", "expected"), [
    ("seed-quadratic-sgd", {"x": "0.98241204"}),  # TensorFlow's own number (SEED-OUTPUTS)
    ("himmelblau", {"x": "-3.779310253377747", "y": "-3.283185991286169"}),
])  # fmt: skip
def test_the_tensorflow_training_script_ends_where_the_studio_does(
    name: str, expected: dict[str, str]
) -> None:
    from tapeviz.models.descent.demos import from_session
    from tapeviz.models.descent.runs import compute_race

    printed = run(export(PRESETS[name], "tensorflow"))  # tapeviz.tf stands in for tensorflow
    assert printed.error is None, printed.error
    got = dict(re.findall(r"^(\w+) = (\S+)$", printed.output, re.M))
    assert {k: got[k] for k in expected} == expected
    preset = from_session(PRESETS[name])
    cfg = preset.config
    race = compute_race(preset.problem, [cfg.runs[cfg.selected]], cfg.steps)
    final = race.runs[0].params[-1]
    assert [float(got[k]) for k in expected] == pytest.approx([float(v) for v in final], rel=1e-6)


def test_hyper_parameters_map_to_each_framework() -> None:
    from tapeviz.models.descent.optimizer_config import OptimizerConfig
    from tapeviz.models.export.train import optimizer_expr

    adam = OptimizerConfig("Adam", {"learning_rate": 0.05, "beta_1": 0.8})
    assert "beta_1=0.8" in optimizer_expr("tensorflow", adam, "")
    assert "betas=(0.8, 0.999)" in optimizer_expr("pytorch", adam, "[x]")
    assert "b1=0.8" in optimizer_expr("jax", adam, "")
    rms = OptimizerConfig("RMSprop", {"rho": 0.5})
    assert "alpha=0.5" in optimizer_expr("pytorch", rms, "[x]")
    assert "decay=0.5" in optimizer_expr("jax", rms, "")
    nesterov = OptimizerConfig("Nesterov", {"momentum": 0.7})
    assert "momentum=0.7, nesterov=True" in optimizer_expr("pytorch", nesterov, "[x]")


LINREG_SCRIPT = """import tensorflow as tf
import numpy as np

X_raw = np.array([2013, 2014, 2015, 2016, 2017], dtype=np.float32)
y_raw = np.array([12000, 14000, 15000, 16500, 17500], dtype=np.float32)
X = tf.constant((X_raw - X_raw.min()) / (X_raw.max() - X_raw.min()))
y = tf.constant((y_raw - y_raw.min()) / (y_raw.max() - y_raw.min()))
step = 0  # a name the training loop also uses


def loss():
    return 0.5 * tf.reduce_sum(tf.square(a * X + b - y))
"""


@pytest.mark.parametrize("kind", ["SGD", "Adam"])
def test_a_script_optimized_in_the_studio_exports_its_training_loop(kind: str) -> None:
    from tapeviz.models.descent.optimizer_config import OptimizerConfig, RunConfig
    from tapeviz.models.descent.problem import Problem
    from tapeviz.models.descent.runs import compute_race
    from tapeviz.models.descent.studio_config import StudioConfig

    table = (VariableSpec("a", 0.0, "trainable"), VariableSpec("b", 0.0, "trainable"))
    run_cfg = RunConfig(OptimizerConfig(kind, {"learning_rate": 0.05}), "#d55e00")
    config = StudioConfig(runs=(run_cfg,), steps=120)
    session = Session(LINREG_SCRIPT, "script", table, view="studio", optimizer=config.to_dict())
    code = export(session, "tensorflow")
    assert "for tapeviz_step in range(120):" in code  # the script's own `step` is left alone
    assert f"tf.keras.optimizers.{kind}(learning_rate=0.05" in code
    assert code.index("a = tf.Variable(0.0") < code.index("def loss():") < code.index("range(120)")
    printed = run(code)  # tapeviz.tf stands in for tensorflow
    assert printed.error is None, printed.error
    got = dict(re.findall(r"^(\w+) = (\S+)$", printed.output, re.M))
    race = compute_race(Problem(LINREG_SCRIPT, table, "script"), [run_cfg], 120)
    final = race.runs[0].params[-1]
    assert [float(got["a"]), float(got["b"])] == pytest.approx([float(v) for v in final], rel=1e-6)
    without = Session(LINREG_SCRIPT, "script", table)  # no studio: the script as it is
    assert ast.dump(ast.parse(export(without, "tensorflow"))) == ast.dump(ast.parse(LINREG_SCRIPT))


def test_script_export_loops_only_over_a_loss_and_never_reuses_a_name() -> None:
    from tapeviz.models.descent.optimizer_config import OptimizerConfig, RunConfig
    from tapeviz.models.descent.studio_config import StudioConfig
    from tapeviz.models.export.code import LOOP_NAMES

    config = StudioConfig(runs=(RunConfig(OptimizerConfig("SGD", {}), "#d55e00"),), steps=3)
    w = (VariableSpec("w", 1.0, "trainable"),)
    plain = "import tensorflow as tf\nprint(w * 2.0)\n"  # studio settings, but no def loss()
    session = Session(plain, "script", w, optimizer=config.to_dict())
    assert export(session, "tensorflow") == plain
    busy = "f = 1.0\ntapeviz_f = 2.0\nimport math as opt\n\n\ndef loss():\n    return w * w\n"
    table = (*w, VariableSpec("step", 0.0, "constant"))
    code = export(Session(busy, "script", table, optimizer=config.to_dict()), "tensorflow")
    loop = code[code.index("# The optimization:") :]
    assigned = set(re.findall(r"^\s*(?:for |with .* as )?(\w+)(?: =| in |:$)", loop, re.M))
    assert assigned == {f"tapeviz2_{n}" for n in LOOP_NAMES}  # "" and "tapeviz_" are taken
    printed = run(code)
    assert printed.error is None, printed.error
    assert float(dict(re.findall(r"^(\w+) = (\S+)$", printed.output, re.M))["w"]) == (
        pytest.approx(1.0 * 0.98**3, rel=1e-6)  # three SGD steps (lr 0.01) on w², from 1
    )
