"""``torch.nn.Module``: parameters, buffers and sub-modules registered by attribute, in order.

For the app (see :mod:`tapeviz.torch.nn._naming`): ``forward`` runs inside an engine name scope
named after the module, and parameters' engine tensors are named by ``named_parameters()``.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator
from typing import Any

from tapeviz.engine.state import NameScope
from tapeviz.torch._handles import RemovableHandle, add_hook
from tapeviz.torch._tensor import Tensor
from tapeviz.torch.nn._module_state import _ModuleState
from tapeviz.torch.nn._naming import (
    _PARENTS,
    _addindent,
    _rename,
    _scope_name,
    _typename,
)
from tapeviz.torch.nn.parameter import Buffer, Parameter

__all__ = ["Module", "RemovableHandle"]
# Called after every module call with (module, args, result) (nn._net_view registers one).
CALL_NOTES: list[Callable[[Any, tuple[Any, ...], Any], None]] = []


class Module(_ModuleState):
    """Base class of every layer and model: holds parameters, buffers and sub-modules."""

    training: bool
    call_super_init: bool = False
    dump_patches: bool = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if not self.call_super_init and kwargs:
            raise TypeError(
                f"{type(self).__name__}.__init__() got an unexpected keyword argument "
                f"'{next(iter(kwargs))}'"
            )
        if not self.call_super_init and args:
            raise TypeError(
                f"{type(self).__name__}.__init__() takes 1 positional argument but "
                f"{len(args) + 1} were given"
            )
        setter = object.__setattr__
        setter(self, "training", True)
        setter(self, "_parameters", {})
        setter(self, "_buffers", {})
        setter(self, "_non_persistent_buffers_set", set())
        setter(self, "_forward_hooks", {})
        setter(self, "_forward_pre_hooks", {})
        setter(self, "_modules", {})

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        """The computation; every subclass defines it."""
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function'
        )

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        with NameScope(_scope_name(self)):
            for hook in list(self._forward_pre_hooks.values()):
                got = hook(self, args)
                if got is not None:
                    args = got if isinstance(got, tuple) else (got,)
            result = self.forward(*args, **kwargs)
            for hook in list(self._forward_hooks.values()):
                got = hook(self, args, result)
                if got is not None:
                    result = got
        for note in CALL_NOTES:  # (the Network view's watch for a model on 2-D points)
            note(self, args, result)
        return result

    # -- registration --------------------------------------------------------------------------
    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Add a parameter (or None) under ``name``."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        _check_name(self, name, "parameter", self._parameters)
        if param is None:
            self._parameters[name] = None
        elif not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{_typename(param)}' object to parameter '{name}' "
                "(torch.nn.Parameter or None required)"
            )
        elif param.grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be "
                f"created explicitly. To express '{name}' as a function of another Tensor, "
                "compute the value in the forward() method."
            )
        else:
            self._parameters[name] = param
            _rename(self)

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Add a tensor that is state but not a parameter (``running_mean``)."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        _check_name(self, name, "buffer", self._buffers)
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(
                f"cannot assign '{_typename(tensor)}' object to buffer '{name}' "
                "(torch Tensor or None required)"
            )
        if isinstance(tensor, Buffer):
            tensor = tensor.detach() if not tensor._rg else tensor
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)
        if tensor is not None:
            _rename(self)

    def add_module(self, name: str, module: Module | None) -> None:
        """Add a sub-module under ``name``."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {_typename(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module
        if module is not None:
            _PARENTS[module] = (weakref.ref(self), name)
            _rename(self)

    register_module = add_module

    def __getattr__(self, name: str) -> Any:
        d = self.__dict__
        for store in ("_parameters", "_buffers", "_modules"):
            found = d.get(store)
            if found is not None and name in found:
                return found[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name: str, value: Any) -> None:
        d = self.__dict__
        params = d.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            _remove(name, d, self._buffers, self._modules, self._non_persistent_buffers_set)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{_typename(value)}' as parameter '{name}' "
                    "(torch.nn.Parameter or None expected)"
                )
            self.register_parameter(name, value)
        elif isinstance(value, Module):
            if d.get("_modules") is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            _remove(name, d, self._parameters, self._buffers, self._non_persistent_buffers_set)
            self._modules[name] = value
            _PARENTS[value] = (weakref.ref(self), name)
            _rename(self)
        elif d.get("_modules") is not None and name in self._modules:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{_typename(value)}' as child module '{name}' "
                    "(torch.nn.Module or None expected)"
                )
            self._modules[name] = value
        elif isinstance(value, Buffer) or (d.get("_buffers") is not None and name in self._buffers):
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(
                    f"cannot assign '{_typename(value)}' as buffer '{name}' "
                    "(torch.Tensor or None expected)"
                )
            if isinstance(value, Buffer):
                self.register_buffer(name, value, value.persistent)
            else:
                self._buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    def _held_names(self) -> list[str]:
        """The names held outside ``__dict__`` (scripts read them as attributes: ``self.fc1``)."""
        return [*self._parameters, *self._modules, *self._buffers]

    def __dir__(self) -> list[str]:
        keys = [*dir(type(self)), *self.__dict__, *self._parameters, *self._modules, *self._buffers]
        return sorted({k for k in keys if not k[:1].isdigit()})

    # -- walking the tree ------------------------------------------------------------------------
    def named_modules(
        self, memo: set[int] | None = None, prefix: str = "", remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Module]]:
        """Every module of the tree with its dotted name (this one first, as ``''``)."""
        memo = set() if memo is None else memo
        if id(self) in memo:
            return
        if remove_duplicate:
            memo.add(id(self))
        yield prefix, self
        for name, module in self._modules.items():
            if module is not None:
                sub = prefix + ("." if prefix else "") + name
                yield from module.named_modules(memo, sub, remove_duplicate)

    def modules(self) -> Iterator[Module]:
        """Every module of the tree (this one first)."""
        for _, m in self.named_modules():
            yield m

    def named_children(self) -> Iterator[tuple[str, Module]]:
        """The direct sub-modules with their names."""
        seen: set[int] = set()
        for name, m in self._modules.items():
            if m is not None and id(m) not in seen:
                seen.add(id(m))
                yield name, m

    def children(self) -> Iterator[Module]:
        """The direct sub-modules."""
        for _, m in self.named_children():
            yield m

    def _named_members(
        self, store: str, prefix: str, recurse: bool, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Tensor]]:
        memo: set[int] = set()
        mods = (
            self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
            if recurse
            else [(prefix, self)]
        )
        for mod_prefix, module in mods:
            for k, v in module.__dict__[store].items():
                if v is None or id(v) in memo:
                    continue
                if remove_duplicate:
                    memo.add(id(v))
                yield mod_prefix + ("." if mod_prefix else "") + k, v

    def named_parameters(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Parameter]]:
        """Every parameter with its dotted name (``fc1.weight``), in registration order."""
        yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)  # type: ignore[misc]

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        """Every parameter, in registration order."""
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Tensor]]:
        """Every buffer with its dotted name."""
        yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        """Every buffer."""
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def get_submodule(self, target: str) -> Module:
        """The sub-module at the dotted path ``target``."""
        mod: Module = self
        for item in target.split(".") if target else []:
            if not hasattr(mod, item):
                raise AttributeError(f"{type(mod).__name__} has no attribute `{item}`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError(f"`{item}` is not an nn.Module")
        return mod

    def get_parameter(self, target: str) -> Parameter:
        """The parameter at the dotted path ``target``."""
        path, _, name = target.rpartition(".")
        mod = self.get_submodule(path)
        if not hasattr(mod, name):
            raise AttributeError(f"{type(mod).__name__} has no attribute `{name}`")
        param = getattr(mod, name)
        if not isinstance(param, Parameter):
            raise AttributeError(f"`{name}` is not an nn.Parameter")
        return param

    # -- hooks ----------------------------------------------------------------------------------
    def register_forward_hook(
        self,
        hook: Callable[..., Any],
        *,
        prepend: bool = False,
        with_kwargs: bool = False,
        always_call: bool = False,
    ) -> RemovableHandle:
        """Call ``hook(module, args, output)`` after every forward (a result replaces output)."""
        return add_hook(self._forward_hooks, hook, prepend)

    def register_forward_pre_hook(
        self, hook: Callable[..., Any], *, prepend: bool = False, with_kwargs: bool = False
    ) -> RemovableHandle:
        """Call ``hook(module, args)`` before every forward (a result replaces the args)."""
        return add_hook(self._forward_pre_hooks, hook, prepend)

    # -- printing -------------------------------------------------------------------------------
    def extra_repr(self) -> str:
        """The text inside this module's parentheses (subclasses set it)."""
        return ""

    def _get_name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({key}): " + _addindent(repr(m), 2) for key, m in self._modules.items()]
        lines = extra_lines + child_lines
        main = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main += extra_lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"


def _check_name(module: Module, name: Any, kind: str, store: dict[str, Any]) -> None:
    if not isinstance(name, str):
        raise TypeError(f"{kind} name should be a string. Got {_typename(name)}")
    if "." in name:
        raise KeyError(f'{kind} name can\'t contain "."')
    if name == "":
        raise KeyError(f'{kind} name can\'t be empty string ""')
    if hasattr(module, name) and name not in store:
        raise KeyError(f"attribute '{name}' already exists")


def _remove(name: str, *stores: Any) -> None:
    for d in stores:
        if name in d:
            if isinstance(d, dict):
                del d[name]
            else:
                d.discard(name)
