"""Step through a backward pass (and a forward pass) one op at a time, explaining each step.

The steps are exactly those of ``tape.gradient()`` (:class:`tapeviz.engine.BackwardPass`); the
state after step k is rebuilt from the recorded contributions, so it is exact, not replayed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tapeviz.engine.backward import BackwardPass, BackwardStep, replayed
from tapeviz.engine.core import OpRecord
from tapeviz.engine.custom import custom_name
from tapeviz.engine.tensor import VARIABLES, is_variable_id
from tapeviz.engine.vjp_rules import RULE_TEXT, local_derivative
from tapeviz.models.events import Event
from tapeviz.models.minus import as_term, minus_signs, parse_number
from tapeviz.models.values import short as _short

# ∂out/∂input in terms of the inputs a, b, c and the output "out", per primitive and input.
LOCAL_TEXT: dict[str, tuple[str, ...]] = {
    "add": ("1", "1"), "subtract": ("1", "−1"), "multiply": ("b", "a"),
    "divide": ("1/b", "−a/b²"), "negative": ("−1",), "pow": ("b·a^(b−1)", "a^b·ln a"),
    "square": ("2·a",), "sqrt": ("1/(2√a)",), "rsqrt": ("−½·a^(−3/2)",), "reciprocal": ("−1/a²",),
    "exp": ("eᵃ",), "log": ("1/a",), "log1p": ("1/(1+a)",), "expm1": ("eᵃ",), "sin": ("cos a",),
    "cos": ("−sin a",), "tan": ("1/cos² a",), "tanh": ("1 − tanh² a",),
    "sigmoid": ("σ(a)·(1 − σ(a))",), "softplus": ("σ(a)",), "relu": ("1 if a > 0 else 0",),
    "abs": ("sign(a)",), "identity": ("1",), "maximum": ("1 if a ≥ b else 0", "1 if a < b else 0"),
    "minimum": ("1 if a ≤ b else 0", "1 if a > b else 0"), "reduce_sum": ("1",),
    "reduce_mean": ("1/n",),
    "elu": ("1 if a > 0 else eᵃ",), "selu": ("λ if a > 0 else λ·α·eᵃ",),
    "gelu": ("Φ(a) + a·φ(a)",), "relu6": ("1 if 0 < a < 6 else 0",),
    "softsign": ("1/(1 + |a|)²",), "silu": ("σ(β·a)·(1 + β·a·(1 − σ(β·a)))",),
    "softmax": ("out·(1 − out) on the diagonal, −outᵢ·outⱼ off it",),
    "log_softmax": ("1 − softmax(a) on the diagonal, −softmax(a) off it",),
    "softmax_cross_entropy": ("−log softmax(b)", "softmax(b) − a"),
    "sparse_softmax_cross_entropy": ("none (class indices)", "softmax(b) − onehot(a)"),
    "sinh": ("cosh a",), "cosh": ("sinh a",), "asin": ("1/√(1 − a²)",),
    "acos": ("−1/√(1 − a²)",), "atan": ("1/(1 + a²)",), "asinh": ("1/√(a² + 1)",),
    "acosh": ("1/√(a² − 1)",), "atanh": ("1/(1 − a²)",),
    "atan2": ("b/(a² + b²)", "−a/(a² + b²)"), "erf": ("2/√π·e^(−a²)",),
    "erfc": ("−2/√π·e^(−a²)",), "reduce_prod": ("the product of the other elements",),
    "reduce_logsumexp": ("softmax(a)",), "cumsum": ("1 for each running sum it is in",),
    "cumprod": ("out/a for each running product it is in",),
    "diag": ("1 on the diagonal",), "diag_part": ("1 on the diagonal",),
    "solve": ("−a⁻ᵀ·(·)·outᵀ", "a⁻ᵀ"), "inv": ("−outᵀ·(·)·outᵀ",), "det": ("out·a⁻ᵀ",),
    "einsum": ("the einsum of the other operands",), "pad": ("1 inside, 0 on the padding",),
    "tile": ("1 per copy",), "gather": ("1 for each time it is gathered",),
    "scatter_add": ("1 at its index",), "custom_gradient": ("the function's own gradient",),
}  # fmt: skip
_PLACEHOLDER = re.compile(r"\b[abc]\b")


def short(value: Any) -> str:
    """A value as the chain rule prints it: compact, its minus signs as "−" (never "-")."""
    return minus_signs(_short(value))


@dataclass(frozen=True)
class Contribution:
    """What one step adds to one input: the local derivative, the product, the accumulation."""

    position: int
    tensor_id: int
    name: str
    local: Any  # ∂out/∂input at the recorded values (VJP of a 1)
    value: Any  # this step's contribution: local · ḡ
    before: Any  # the input's adjoint before (None: first contribution)
    after: Any
    text: str  # "∂y/∂x = x = 3  →  3 × 1 = 3;  x.grad = 3 + 3 = 6"


@dataclass(frozen=True)
class StepInfo:
    """One backward step in readable maths."""

    index: int
    record: OpRecord
    output_id: int
    output_name: str
    output_grad: Any
    formula: str  # "v1 = x · y"
    contributions: tuple[Contribution, ...]
    target_name: str = "f"

    @property
    def text(self) -> str:
        """The step as a log line: formula, incoming adjoint, each contribution."""
        parts = [f"{self.formula}      {self.output_name}.grad = {short(self.output_grad)}"]
        parts += [c.text for c in self.contributions]
        return "\n  ".join(parts)


class Namer:
    """Names for tensors in explanations: the user's names, else ``v1``, ``v2``, ..."""

    def __init__(self, records: Sequence[OpRecord], names: Mapping[int, str] | None = None) -> None:
        self.names = dict(names or {})
        for rec in records:
            for x in rec.inputs:
                if x.id not in self.names and is_variable_id(x.id):
                    self.names[x.id] = VARIABLES[x.id].name.split(":")[0]
        for k, rec in enumerate(records):
            for o in rec.outputs:
                self.names.setdefault(o.id, f"v{k + 1}")

    def __call__(self, tensor: Any) -> str:
        """The name of a tensor (a constant is shown by its value)."""
        return self.names.get(tensor.id) or short(tensor._value)


def _substitute(text: str, inputs: Sequence[str]) -> str:
    """Put input names in place of the placeholders a, b, c of a formula."""

    def name(m: re.Match[str]) -> str:
        i = "abc".index(m.group(0))
        if i >= len(inputs):
            return m.group(0)
        start, end = m.span()
        alone = text == m.group(0) or (text[start - 1 : start] == "(" and text[end : end + 1]
                                         in (")", ","))  # fmt: skip
        return inputs[i] if alone else as_term(inputs[i])  # x · (−2), never x · −2

    return _PLACEHOLDER.sub(name, text)


def _is_number(text: str) -> bool:
    try:
        parse_number(text)
    except ValueError:
        return False
    return True


def _power_rule(base: str, n: float) -> str:
    """``2·x`` for x², ``3·x^2`` for x³: the power rule with the exponent filled in."""
    k = minus_signs(f"{n:g}")
    m = minus_signs(f"{n - 1:g}")
    if m == "0":
        return "0"
    if m == "1":
        return f"{k}·{base}"
    return f"{k}·{base}^{as_term(m)}"


def explain(
    step: BackwardStep, name: Namer, target: str = "f", hooked: Mapping[int, Any] | None = None
) -> StepInfo:
    """A backward step in readable maths, with numbers (``hooked``: ids a hook changed)."""
    rec = step.record
    target_name = target
    ins = [name(x) for x in rec.inputs]
    out = name(rec.outputs[0])
    if rec.name == "custom_gradient":  # the user's function, by its name
        formula = f"{out} = {custom_name(rec)}({', '.join(ins)}) with its own gradient"
    else:
        formula = f"{out} = {_substitute(rec.primitive.formula, ins)}"
    contribs = []
    g = step.output_grad
    if hooked and rec.outputs[0].id in hooked:  # torch's register_hook replaced ḡ
        formula += f";  {out}'s gradient hook made ḡ = {short(g)}"
    for c in step.contributions:
        local = local_derivative(rec, c.position)
        symbolic = LOCAL_TEXT.get(rec.name, ())
        if rec.name == "custom_gradient":  # no local derivative: what the function gave for ḡ
            derivative = f"∂{out}/∂{ins[c.position]}: {custom_name(rec)}'s own gradient"
        elif rec.name == "pow" and c.position == 0 and _is_number(ins[1]):
            expr = _power_rule(ins[0], parse_number(ins[1].strip("()")))
            derivative = f"∂{out}/∂{ins[0]} = {expr} = {short(local)}"
        elif c.position < len(symbolic):
            expr = _substitute(symbolic[c.position], ins)
            value = short(local)
            tail = "" if expr == value else f" = {value}"
            derivative = f"∂{out}/∂{ins[c.position]} = {expr}{tail}"
        else:
            rule = RULE_TEXT.get(rec.primitive, ())
            derivative = (
                rule[c.position] if c.position < len(rule) else f"∂{out}/∂{ins[c.position]}"
            )
        if local is None:
            product = f"of ḡ = {short(g)}: {short(c.value)}"
        else:
            product = f"{short(local)} × {as_term(short(g))} = {short(c.value)}"
        target = ins[c.position]
        adjoint = f"{target}.grad"  # the adjoint ∂(target)/∂(input) accumulated so far
        if c.before is None:
            total = f"{adjoint} = {short(c.after)}"
        else:
            total = f"{adjoint} = {short(c.before)} + {as_term(short(c.value))} = {short(c.after)}"
        text = f"{derivative}  →  {product};  {total}"
        contribs.append(
            Contribution(c.position, c.tensor_id, target, local, c.value, c.before, c.after, text)
        )
    return StepInfo(
        step.index, rec, rec.outputs[0].id, out, g, formula, tuple(contribs), target_name
    )


class Explanations(Sequence[StepInfo]):
    """Each step's explanation, built the first time it is read (a 3,000-op tape shows a few)."""

    def __init__(
        self,
        steps: Sequence[BackwardStep],
        name: Namer,
        target: str,
        hooked: Mapping[int, Any] | None = None,
    ) -> None:
        self._steps = steps
        self._name = name
        self._target = target
        self._hooked = hooked
        self._done: list[StepInfo | None] = [None] * len(steps)

    def __len__(self) -> int:
        return len(self._steps)

    def explained(self, k: int) -> bool:
        """Whether step ``k``'s explanation is built already (reading it costs nothing)."""
        return self._done[k] is not None

    def __getitem__(self, k: Any) -> Any:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        info = self._done[k]
        if info is None:
            info = self._done[k] = explain(self._steps[k], self._name, self._target, self._hooked)
        return info


class BackwardStepper:
    """A cursor over the backward steps from ``targets`` to ``sources`` on ``records``."""

    def __init__(
        self,
        records: Sequence[OpRecord],
        targets: Sequence[int],
        sources: Sequence[int],
        names: Mapping[int, str] | None = None,
        seeds: Mapping[int, Any] | None = None,
        hooked: Mapping[int, Any] | None = None,
    ) -> None:
        """``hooked``: what gradient hooks made of some adjoints (torch; the tape's notes)."""
        self.step_changed = Event()  # emitted with the new position after every move
        self.records = list(records)
        if seeds is not None:  # the call's: its output_gradients, a target named twice
            self.seeds = dict(seeds)
        else:
            values = {o.id: o._value for r in self.records for o in r.outputs}
            self.seeds = {t: np.ones_like(values[t]) for t in targets if t in values}
        self.sources = list(sources)
        bp = BackwardPass(self.records, self.seeds, self.sources, hooks=replayed(hooked))
        self.steps: list[BackwardStep] = list(bp)
        self.final = dict(bp.adjoints)
        self.name = Namer(self.records, names)
        target = self.name.names.get(targets[0], "f") if len(targets) == 1 else "L"
        self.infos = Explanations(self.steps, self.name, target, hooked)
        self.position = 0  # steps done

    def __len__(self) -> int:
        return len(self.steps)

    # -- moving ----------------------------------------------------------------------------
    def jump(self, k: int) -> None:
        """Go to the state after ``k`` steps (0: nothing done yet)."""
        k = max(0, min(len(self.steps), int(k)))
        if k != self.position:
            self.position = k
            self.step_changed.emit(k)

    def step_forward(self) -> bool:
        """Do the next step; False at the end."""
        if self.position >= len(self.steps):
            return False
        self.jump(self.position + 1)
        return True

    def step_back(self) -> bool:
        """Undo the last step; False at the start."""
        if self.position == 0:
            return False
        self.jump(self.position - 1)
        return True

    def run_to_end(self) -> None:
        """Do every remaining step."""
        self.jump(len(self.steps))

    def reset(self) -> None:
        """Back to the start: only the targets' seeds are known."""
        self.jump(0)

    @property
    def done(self) -> bool:
        """Whether every step has been done."""
        return self.position == len(self.steps)

    # -- state -----------------------------------------------------------------------------
    def adjoints_at(self, k: int | None = None) -> dict[int, Any]:
        """Every adjoint known after ``k`` steps (default: the current position), exactly."""
        k = self.position if k is None else k
        adj: dict[int, Any] = dict(self.seeds)
        for step in self.steps[:k]:
            adj[step.record.outputs[0].id] = step.output_grad  # (as a gradient hook left it)
            for c in step.contributions:
                adj[c.tensor_id] = c.after
        if k >= len(self.steps):  # the end: the sources' hooks have run too
            adj.update({s: self.final[s] for s in self.sources if s in self.final})
        return adj

    @property
    def current(self) -> StepInfo | None:
        """The step just done (None before the first)."""
        return self.infos[self.position - 1] if self.position else None

    @property
    def upcoming(self) -> StepInfo | None:
        """The next step to do (None at the end)."""
        return self.infos[self.position] if self.position < len(self.infos) else None

    def gradients(self) -> dict[int, Any]:
        """The sources' final adjoints: what ``tape.gradient`` returns."""
        return {s: self.final[s] for s in self.sources if s in self.final}


class ForwardStepper:
    """A cursor over the forward pass: after ``k`` steps the first ``k`` ops have values."""

    def __init__(self, records: Sequence[OpRecord]) -> None:
        self.step_changed = Event()
        self.records = list(records)
        self.position = len(self.records)

    def __len__(self) -> int:
        return len(self.records)

    def jump(self, k: int) -> None:
        """Show the values of the first ``k`` ops."""
        k = max(0, min(len(self.records), int(k)))
        if k != self.position:
            self.position = k
            self.step_changed.emit(k)

    def computed(self) -> set[int]:
        """Record indices whose output is known at the current position."""
        return set(range(self.position))

    def text(self, k: int, name: Namer) -> str:
        """Step ``k`` (1-based) in words: ``v2 = x · y = 6``."""
        rec = self.records[k - 1]
        ins = [name(x) for x in rec.inputs]
        return (
            f"{name(rec.outputs[0])} = {_substitute(rec.primitive.formula, ins)} = "
            f"{short(rec.outputs[0]._value)}"
        )
