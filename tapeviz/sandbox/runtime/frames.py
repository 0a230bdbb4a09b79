"""Run-time pieces of compiled scripts: frames, the user's functions, control-flow signals."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tapeviz.sandbox.runtime.limits import Budget

BREAK = object()
CONTINUE = object()


class Return:
    """A ``return`` on its way out of a function body."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


class Frame:
    """Variables of one scope; ``parent`` is the scope a function was defined in."""

    __slots__ = ("budget", "handling", "module", "parent", "vars")

    def __init__(
        self, vars: dict[str, Any], parent: Frame | None, module: dict[str, Any], budget: Budget
    ) -> None:
        self.vars = vars
        self.parent = parent
        self.module = module
        self.budget = budget
        self.handling: BaseException | None = None  # the exception an except block handles


@dataclass
class Signature:
    """Parameters of a user function, in Python's order."""

    name: str
    positional: list[str] = field(default_factory=list)  # positional-or-keyword (and -only)
    vararg: str | None = None
    kwonly: list[str] = field(default_factory=list)
    kwarg: str | None = None

    def bind(
        self,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        defaults: tuple[Any, ...],
        kwdefaults: dict[str, Any],
    ) -> dict[str, Any]:
        """Map call arguments to parameter names, with Python's error messages."""
        out: dict[str, Any] = {}
        npos = len(self.positional)
        if len(args) > npos and self.vararg is None:
            raise TypeError(
                f"{self.name}() takes {npos} positional argument{'s' * (npos != 1)} "
                f"but {len(args)} {'were' if len(args) != 1 else 'was'} given"
            )
        for name, value in zip(self.positional, args, strict=False):
            out[name] = value
        if self.vararg is not None:
            out[self.vararg] = tuple(args[npos:])
        extra: dict[str, Any] = {}
        for key, value in kwargs.items():
            if key in self.positional or key in self.kwonly:
                if key in out:
                    raise TypeError(f"{self.name}() got multiple values for argument '{key}'")
                out[key] = value
            elif self.kwarg is not None:
                extra[key] = value
            else:
                raise TypeError(f"{self.name}() got an unexpected keyword argument '{key}'")
        first_default = npos - len(defaults)
        missing = []
        for i, name in enumerate(self.positional):
            if name not in out:
                if i >= first_default:
                    out[name] = defaults[i - first_default]
                else:
                    missing.append(name)
        for name in self.kwonly:
            if name not in out:
                if name in kwdefaults:
                    out[name] = kwdefaults[name]
                else:
                    missing.append(name)
        if missing:
            names = " and ".join(f"'{m}'" for m in missing)
            raise TypeError(
                f"{self.name}() missing {len(missing)} required argument"
                f"{'s' * (len(missing) != 1)}: {names}"
            )
        if self.kwarg is not None:
            out[self.kwarg] = extra
        return out


YIELDED = ".yield"  # a generator's values so far, in its frame (never a script's name)


class UserFunction:
    """A function defined by the script (``def`` or ``lambda``), run by the interpreter.

    A generator (a body with ``yield``) runs to its end when called and returns an iterator
    over what it yielded: the values a ``for`` loop over it sees, in order. (Its statements
    run before the loop's body, not between its items.)
    """

    __slots__ = ("body", "closure", "defaults", "generator", "kwdefaults", "line", "signature")
    _tapeviz_user = True
    __module__ = "<script>"
    __doc__ = None

    def __init__(
        self,
        signature: Signature,
        body: Callable[[Frame], Any],
        closure: Frame,
        defaults: tuple[Any, ...],
        kwdefaults: dict[str, Any],
        line: int | None,
    ) -> None:
        self.signature = signature
        self.body = body
        self.closure = closure
        self.defaults = defaults
        self.kwdefaults = kwdefaults
        self.line = line
        self.generator = False

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return self.signature.name

    @property
    def __signature__(self) -> inspect.Signature:
        """The parameters as ``inspect.signature`` reports them (Keras reads ``call``'s)."""
        sig, P = self.signature, inspect.Parameter
        first_default = len(sig.positional) - len(self.defaults)
        params = [
            P(n, P.POSITIONAL_OR_KEYWORD,
              default=self.defaults[i - first_default] if i >= first_default else P.empty)
            for i, n in enumerate(sig.positional)
        ]  # fmt: skip
        if sig.vararg:
            params.append(P(sig.vararg, P.VAR_POSITIONAL))
        params += [P(n, P.KEYWORD_ONLY, default=self.kwdefaults.get(n, P.empty))
                   for n in sig.kwonly]  # fmt: skip
        if sig.kwarg:
            params.append(P(sig.kwarg, P.VAR_KEYWORD))
        return inspect.Signature(params)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        closure = self.closure
        budget = closure.budget
        budget.steps += 1  # a call is a step: lambdas and key= functions obey the limits too
        if budget.steps >= budget.next_check:
            budget.check(self.line)
        budget.enter_call(self.signature.name)
        try:
            names = self.signature.bind(args, kwargs, self.defaults, self.kwdefaults)
            if self.generator:
                names[YIELDED] = yielded = []
            frame = Frame(names, closure, closure.module, budget)
            result = self.body(frame)
        finally:
            budget.depth -= 1
        if self.generator:
            return iter(yielded)
        return result.value if type(result) is Return else None

    def __repr__(self) -> str:
        return f"<function {self.signature.name}>"
