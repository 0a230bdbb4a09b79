"""Export the current function as a runnable TensorFlow, PyTorch or JAX script.

Expression mode translates the checked expression (the same allow-listed AST the sandbox runs)
call by call into each framework's functions, with the variables table as tensors and the
gradients of every trainable or watched variable printed. A script is TensorFlow code already:
it is exported as it is for TensorFlow, or, when the studio optimizes its ``def loss():``, with
the variables table before it and the studio's training loop after it. PyTorch and JAX need
expression mode.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable

from tapeviz.models.descent.optimizer_config import OptimizerConfig
from tapeviz.models.descent.script_check import is_loss_def
from tapeviz.models.export.train import (
    jax_loop,
    note,
    pytorch_loop,
    selected_run,
    tensorflow_loop,
)
from tapeviz.models.session.file import Session
from tapeviz.sandbox import VariableSpec
from tapeviz.sandbox.language.expression import compile_expression
from tapeviz.sandbox.language.pasted import readable
from tapeviz.sandbox.language.validate import (
    Invalid,
    normalize_expression,
    parse,
    validate,
    without_magics,
)

FRAMEWORKS = ("tensorflow", "pytorch", "jax")
TITLES = {"tensorflow": "TensorFlow", "pytorch": "PyTorch", "jax": "JAX"}


class ExportUnavailable(ValueError):
    """The session cannot be exported to that framework (the message says why)."""


def _names(prefix: str, names: str) -> dict[str, str]:
    return {n: f"{prefix}.{n}" for n in names.split()}


_COMMON = "sin cos tan exp log sqrt tanh abs sign floor round square"
FUNCTIONS: dict[str, dict[str, str]] = {
    "tensorflow": {
        **_names("tf", _COMMON + " sigmoid maximum minimum pow where transpose norm"),
        **_names("tf.math", "log1p expm1 rsqrt reciprocal"),
        **_names("tf.nn", "relu softplus leaky_relu"),
        "matmul": "tf.linalg.matmul",
        "sum": "tf.reduce_sum",
        "mean": "tf.reduce_mean",
        "max": "tf.reduce_max",
        "min": "tf.reduce_min",
        "clip": "tf.clip_by_value",
        "ln": "tf.math.log",
    },
    "pytorch": {
        **_names(
            "torch",
            _COMMON + " sigmoid relu maximum minimum pow where log1p expm1 rsqrt "
            "reciprocal matmul sum mean",
        ),
        "softplus": "torch.nn.functional.softplus",
        "leaky_relu": "torch.nn.functional.leaky_relu",
        "norm": "torch.linalg.norm",
        "transpose": "torch.t",
        "max": "torch.max",
        "min": "torch.min",
        "clip": "torch.clamp",
        "ln": "torch.log",
    },
    "jax": {
        **_names(
            "jnp",
            _COMMON + " maximum minimum where log1p expm1 reciprocal matmul sum mean "
            "max min clip transpose",
        ),
        **_names("jax.nn", "sigmoid relu softplus leaky_relu"),
        "rsqrt": "jax.lax.rsqrt",
        "norm": "jnp.linalg.norm",
        "pow": "jnp.power",
        "ln": "jnp.log",
    },
}
PAIRWISE = {  # max(a, b) / min(a, b) with two arguments are elementwise
    "tensorflow": {"max": "tf.maximum", "min": "tf.minimum"},
    "pytorch": {"max": "torch.maximum", "min": "torch.minimum"},
    "jax": {"max": "jnp.maximum", "min": "jnp.minimum"},
}
LEAKY_SLOPE = {"pytorch": "negative_slope", "jax": "negative_slope"}  # TF's default alpha is 0.2


class _Translate(ast.NodeTransformer):
    def __init__(self, framework: str, variables: list[str]) -> None:
        self.framework, self.variables = framework, variables

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if name == "dot":  # dot(a, b) = sum(a * b)
            product = ast.BinOp(node.args[0], ast.Mult(), node.args[1])
            return self._call("sum", [product], [])
        if name is None:
            return node
        if name in PAIRWISE[self.framework] and len(node.args) == 2:
            return ast.Call(_dotted(PAIRWISE[self.framework][name]), node.args, node.keywords)
        keywords = list(node.keywords)
        if name == "leaky_relu" and self.framework in LEAKY_SLOPE and len(node.args) == 1:
            keywords.append(ast.keyword(LEAKY_SLOPE[self.framework], ast.Constant(0.2)))
        return self._call(name, node.args, keywords)

    def _call(self, name: str, args: list[ast.expr], keywords: list[ast.keyword]) -> ast.AST:
        target = FUNCTIONS[self.framework].get(name)
        if target is None:
            title = TITLES[self.framework]
            raise ExportUnavailable(f"{name}() has no {title} translation here")
        return ast.Call(_dotted(target), args, keywords)

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in ("pi", "e") and node.id not in self.variables:
            return _dotted(f"math.{node.id}")
        return node


def _dotted(path: str) -> ast.expr:
    parts = path.split(".")
    node: ast.expr = ast.Name(parts[0])
    for part in parts[1:]:
        node = ast.Attribute(node, part)
    return node


def translate(expression: str, framework: str, variables: list[str]) -> str:
    """The expression in ``framework``'s functions (e.g. ``sin(x)`` -> ``torch.sin(x)``).

    The text goes through the expression compiler's checks first (what the sandbox would run),
    and the script is generated from the checked tree, never copied from the text.
    """
    source, _ = normalize_expression(expression)
    try:
        compile_expression(expression)
        tree = parse(source.strip(), mode="eval")
    except Invalid as exc:
        raise ExportUnavailable(
            f"the function does not pass tapeviz's checks: {exc.error}"
        ) from None
    body = _Translate(framework, variables).visit(tree.body)  # type: ignore[attr-defined]
    return ast.unparse(ast.fix_missing_locations(body))


def _literal(spec: VariableSpec) -> str:
    value = spec.value.tolist() if hasattr(spec.value, "tolist") else spec.value
    return json.dumps(value).replace("NaN", "float('nan')").replace("Infinity", "float('inf')")


Train = tuple[OptimizerConfig, int, str] | None  # the studio's selected run, steps, a label


def _header(session: Session, title: str, train: Train = None) -> list[str]:
    source = " ".join(session.source.split())
    what = (
        "the value and the gradient of each variable"
        if train is None
        else f"the optimization of the studio's {train[2]}"
    )
    return [
        f"# {title} export of tapeviz's function: {source}",
        f"# The same maths as tapeviz: {what}.",
        "",
    ]


def _free(session: Session, *candidates: str) -> str:
    """The first name that is not a variable's (the result must not overwrite one)."""
    used = [v.name for v in session.variables]
    return next(
        c for c in (*candidates, *(f"{candidates[0]}_{i}" for i in range(99))) if c not in used
    )


def _trainable(session: Session) -> list[str]:
    """Names of the trainable rows of the variables table, in order."""
    return [v.name for v in session.variables if v.kind == "trainable"]


def _table_lines(session: Session) -> list[str]:
    """The variables table in TensorFlow: trainable rows as Variables, the others constants."""
    lines = []
    for v in session.variables:
        dtype = f"tf.{v.dtype}"
        if v.kind == "trainable":
            lines.append(f"{v.name} = tf.Variable({_literal(v)}, dtype={dtype}, name={v.name!r})")
        else:
            lines.append(f"{v.name} = tf.constant({_literal(v)}, dtype={dtype})")
    return lines


def _tensorflow(session: Session, expr: str, train: Train = None) -> str:
    lines = [
        *_header(session, "TensorFlow", train),
        "import math",
        "",
        "import tensorflow as tf",
        "",
    ]
    lines += _table_lines(session)
    graded = [v.name for v in session.variables if v.kind != "constant"]
    out = _free(session, "f", "out")
    if train is not None:
        trainable = _trainable(session)
        lines += ["", *note("tensorflow", train[0])]
        lines += tensorflow_loop(train[0], train[1], trainable, expr, out)
        return "\n".join(lines) + "\n"
    lines += ["", "with tf.GradientTape(persistent=True) as tape:"]
    watched = [v.name for v in session.variables if v.kind == "watched"]
    if watched:
        lines.append(f"    tape.watch([{', '.join(watched)}])")
    lines += [f"    {out} = {expr}", "", f'print("f =", {out}.numpy())']
    lines += [f'print("df/d{n} =", tape.gradient({out}, {n}).numpy())' for n in graded]
    return "\n".join(lines) + "\n"


def _pytorch(session: Session, expr: str, train: Train = None) -> str:
    lines = [*_header(session, "PyTorch", train), "import math", "", "import torch", ""]
    graded = [v.name for v in session.variables if v.kind != "constant"]
    for v in session.variables:
        grad = ", requires_grad=True" if v.kind != "constant" else ""
        lines.append(f"{v.name} = torch.tensor({_literal(v)}, dtype=torch.{v.dtype}{grad})")
    out = _free(session, "f", "out")
    if train is not None:
        trainable = _trainable(session)
        lines += ["", *note("pytorch", train[0])]
        lines += pytorch_loop(train[0], train[1], trainable, expr, out)
        return "\n".join(lines) + "\n"
    lines += ["", f"{out} = {expr}", f"{out}.backward()", ""]
    lines += [f'print("f =", {out}.detach().numpy())']
    lines += [f'print("df/d{n} =", {n}.grad.numpy())' for n in graded]
    return "\n".join(lines) + "\n"


def _jax(session: Session, expr: str, train: Train = None) -> str:
    names = [v.name for v in session.variables]
    graded = [i for i, v in enumerate(session.variables) if v.kind != "constant"]
    lines = [
        *_header(session, "JAX", train),
        "import math",
        "",
        "import jax",
        "import jax.numpy as jnp",
        *(["import optax"] if train is not None else []),
        "",
    ]
    if any(v.dtype == "float64" for v in session.variables):
        lines += ['jax.config.update("jax_enable_x64", True)', ""]
    fn = _free(session, "f", "fn")
    lines += ["", f"def {fn}({', '.join(names)}):", f"    return {expr}", "", ""]
    for v in session.variables:
        lines.append(f"{v.name} = jnp.asarray({_literal(v)}, dtype=jnp.{v.dtype})")
    if train is not None:
        trainable = _trainable(session)
        lines += note("jax", train[0]) + jax_loop(train[0], train[1], names, trainable, fn)
        return "\n".join(lines) + "\n"
    argnums = "(" + ", ".join(map(str, graded)) + ("," if len(graded) == 1 else "") + ")"
    call = f"jax.value_and_grad({fn}, argnums={argnums})({', '.join(names)})"
    lines += ["", f"value, grads = {call}", 'print("f =", value)']
    lines += [f'print("df/d{names[i]} =", grads[{k}])' for k, i in enumerate(graded)]
    return "\n".join(lines) + "\n"


BUILDERS: dict[str, Callable[[Session, str, Train], str]] = {
    "tensorflow": _tensorflow,
    "pytorch": _pytorch,
    "jax": _jax,
}


def export(session: Session, framework: str) -> str:
    """A runnable script doing the session's maths in ``framework``."""
    if framework not in FRAMEWORKS:
        raise ValueError(f"framework must be one of {', '.join(FRAMEWORKS)}")
    if session.mode == "script":
        if framework == "tensorflow":
            train = _training(session)
            tree = checked_script(session.source)
            if train is not None and any(map(is_loss_def, tree.body)):
                return _script_tensorflow(session, tree, train)
            imports = prelude_imports(tree)  # tapeviz gives tf and np; Python does not
            return "\n".join([*imports, *([""] if imports else []), ast.unparse(tree)]) + "\n"
        raise ExportUnavailable(
            f"{TITLES[framework]} export needs expression mode: a script is TensorFlow code "
            "already, so it is exported as it is for TensorFlow only"
        )
    if not session.source.strip():
        raise ExportUnavailable("there is no function to export")
    expr = translate(session.source, framework, [v.name for v in session.variables])
    return BUILDERS[framework](session, expr, _training(session))


def _training(session: Session) -> Train:
    """The studio's selected run, if the session has one and a trainable variable."""
    if session.optimizer is None or not _trainable(session):
        return None
    try:
        return selected_run(session)
    except ValueError:  # settings that do not validate: export the function alone
        return None


LOOP_NAMES = ("opt", "step", "tape", "grads", "f")  # what tensorflow_loop assigns


def checked_script(source: str) -> ast.Module:
    """The script's tree after the sandbox's checks (ExportUnavailable if they refuse it).

    Exports are generated from this tree (``ast.unparse``), never copied from the text: what
    runs outside tapeviz is exactly what tapeviz checked (comments are not kept).
    """
    try:
        tree = parse(readable(without_magics(source)[0])[0])  # as the run read it
        validate(tree)
    except Invalid as exc:
        raise ExportUnavailable(f"the script does not pass tapeviz's checks: {exc.error}") from None
    assert isinstance(tree, ast.Module)
    return tree


def _loop_prefix(tree: ast.Module, session: Session) -> str:
    """A prefix for the loop's names that none of the script's or the table's names has."""
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    used |= {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.ClassDef)}
    used |= {(a.asname or a.name).split(".")[0] for a in ast.walk(tree) if isinstance(a, ast.alias)}
    used |= {v.name for v in session.variables}
    for prefix in ("", "tapeviz_", *(f"tapeviz{i}_" for i in range(2, 100))):
        if not any(prefix + name in used for name in LOOP_NAMES):
            return prefix
    raise ExportUnavailable("the script uses every name the training loop could use")


def _script_tensorflow(
    session: Session, tree: ast.Module, train: tuple[OptimizerConfig, int, str]
) -> str:
    """A ``def loss():`` script with the table's variables before it and the studio's loop after.

    The studio runs the script afresh for every step; the export runs its top level once, which
    is the same as long as the top level does not read the trainable variables (it may not
    assign them: the studio refuses that).
    """
    prefix = _loop_prefix(tree, session)
    lines = [
        "# TensorFlow export of tapeviz's script and its optimization:",
        f"# the studio's {train[2]}, calling loss() at every step.",
        "",
        "import tensorflow as tf",
        *[line for line in prelude_imports(tree) if line != "import tensorflow as tf"],
        "",
        "# The variables table, as tapeviz gives it to the script:",
        *_table_lines(session),
        "",
        "# The script, as tapeviz checked it:",
        *ast.unparse(tree).split("\n"),
        "",
        "",
        "# The optimization:",
        *note("tensorflow", train[0]),
    ]
    trainable = _trainable(session)
    lines += tensorflow_loop(train[0], train[1], trainable, "loss()", f"{prefix}f", prefix)
    return "\n".join(lines) + "\n"


def prelude_imports(tree: ast.Module) -> list[str]:
    """The imports a script leaves to tapeviz's prelude (loaded when an export needs them)."""
    from tapeviz.sandbox.runtime.modules import prelude_imports as imports

    return imports(tree)
