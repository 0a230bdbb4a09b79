"""Red team, classes: a class statement must not open a way around the language wall.

A script's class is a real Python class, so every classic class-based escape is tried: reaching
``__class__``/``__subclasses__``/``__globals__``/frames through the class, its methods, its
properties or ``super()``; defining the special methods Python calls behind the interpreter's
back; subclassing engine types to replace their internals; metaclasses; and running the
script's code outside its budget (inside engine code, or after the run).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tapeviz.sandbox import Limits, run
from tapeviz.sandbox.errors import Stop

ALLOWED_KINDS = ("refused", "name", "type", "value", "runtime", "limit", "syntax")
A = "class A:\n    def f(self):\n        return 1\n"
A += "    @property\n    def p(self):\n        return 2\n"


def in_method(expr: str) -> str:
    """A subclass of A whose method returns ``expr``, called."""
    return A + f"class B(A):\n    def g(self):\n        return {expr}\nB().g()"


def looping(header: str, call: str) -> str:
    """A class whose ``header`` block loops forever, then ``call``."""
    return f"{header}\n        while True:\n            pass\n{call}"


CORPUS: list[tuple[str, str]] = [
    # -- the object graph, from a class, an instance, a method, a property, super() ----------
    ("class_subclasses", A + "A.__subclasses__()"),
    ("class_bases", A + "A.__bases__[0].__subclasses__()"),
    ("class_mro", A + "A.__mro__"),
    ("class_mro_method", A + "A.mro()"),
    ("class_dict", A + "A.__dict__"),
    ("instance_class", A + "A().__class__.__subclasses__()"),  # (__class__ alone: type(A()))
    ("instance_class_of_class", A + "A().__class__.__class__('B', (A,), {})"),
    ("instance_dict", A + "A().__dict__"),
    ("type_of_class_subclasses", A + "type(A).__subclasses__(A)"),
    ("type_of_class_call", A + "type(A)('B', (A,), {})"),
    ("type_of_type", A + "type(type(A))('B', (), {})"),
    ("method_function", A + "A().f.function"),
    ("method_instance", A + "A().f.instance"),
    ("method_self", A + "A().f.__self__"),
    ("method_func", A + "A().f.__func__.__globals__"),
    ("method_closure", A + "A.f.closure.vars"),
    ("method_globals", A + "A.f.__globals__"),
    ("property_fget", A + "A.p.fget"),
    ("property_setter_print", A + "A.p.setter(print)"),
    ("property_get_dunder", A + "A.p.__get__(None, A)"),
    ("super_class", in_method("super().__class__.__mro__")),
    ("super_thisclass", in_method("super().__thisclass__")),
    ("super_self", in_method("super().__self__")),
    ("super_init_self", in_method("super().__init__.__self__")),
    ("super_subclasshook", in_method("super().__subclasshook__")),
    ("super_init_subclass", in_method("super().__init_subclass__()")),
    ("super_getattribute", in_method("super().__getattribute__('__class__')")),
    ("super_of_int", "super(int, 1).__init__()"),
    ("super_of_other_object", A + "class B:\n    pass\nsuper(A, B())"),
    ("super_outside_method", "super()"),
    # -- special methods Python would call behind the interpreter -------------------------
    *[
        (f"define_{m}", f"class A:\n    def {m}(self, *a):\n        return 1\nA()")
        for m in (
            "__getattr__",
            "__getattribute__",
            "__setattr__",
            "__eq__",
            "__hash__",
            "__del__",
            "__str__",
            "__format__",
            "__index__",
            "__bool__",
            "__iter__",
            "__enter__",
            "__exit__",
            "__init_subclass__",
            "__set_name__",
            "__class_getitem__",
            "__new__",
            "__reduce__",
            "__array__",
            "__float__",
            "__get__",
            "__instancecheck__",
            "__mro_entries__",
            "__prepare__",
        )
    ],
    ("assign_dunder_in_body", "class A:\n    __eq__ = lambda self, o: True"),
    ("assign_slots", "class A:\n    __slots__ = ('x',)"),
    ("assign_private_in_body", "class A:\n    _value = 1"),
    # (a class of the script's own may keep private names; one with a library base may not)
    ("private_method", "class A(tf.Module):\n    def _flatten(self):\n        return []"),
    ("nested_private_assign", "class A(tf.Module):\n    if True:\n        _flatten = 1"),
    (
        "private_via_subclass",
        "class A(tf.Module):\n    pass\nclass B(A):\n    _set_module_name = print",
    ),
    (
        "private_set_on_library_derived_instance",
        "import torch\nclass M(torch.nn.Module):\n    def __init__(self):\n"
        "        super().__init__()\n        self._modules = {}\nM()",
    ),
    (
        "private_class_attr_shadowing_later",
        "import torch\nclass M(torch.nn.Module):\n    pass\nM._cast = print",
    ),
    (
        "private_attr_of_module_subclass",
        "class M(tf.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self._name = 'x'\nM()",
    ),
    (
        "private_read_of_torch_module_subclass",
        "import torch\nclass M(torch.nn.Module):\n    pass\nM()._modules",
    ),
    ("private_of_tensor", "x = tf.constant(1.0)\nx._value"),
    ("private_of_namespace", "tf._names"),
    ("private_rng_of_random_state", "np.random.RandomState(0)._rng"),
    ("private_of_library_class", "tf.Variable._value"),
    # (tapeviz reads a few private names off objects it is handed: none can be set on a script's)
    *[
        (f"reserved_private_{n}", f"class A:\n    pass\na = A()\na.{n} = 1")
        for n in (
            "_value",
            "_fields",
            "_real",
            "_tapeviz_class",
            "_tapeviz_user",
            "_held_names",
            "_open_attributes",
            "_rng",
            "_asdict",
        )
    ],
    ("reserved_private_on_class", "class A:\n    pass\nA._tapeviz_class = False"),
    # (a script class mixed in before a library base must not replace the library's private
    # methods: its private names are refused there, and later ones on a class with such heirs)
    (
        "mixin_private_before_library_base",
        "import torch\nclass Evil:\n    def _get_name(self):\n        return 'Pwned'\n"
        "class M(Evil, torch.nn.Module):\n    pass\nprint(M())",
    ),
    (
        "mixin_private_flatten_before_module",
        "class Mix:\n    def _flatten(self, *a, **k):\n        return []\n"
        "class M(Mix, tf.Module):\n    pass\nM()",
    ),
    (
        "mixin_private_set_after",
        "import torch\nclass Evil:\n    pass\nclass M(Evil, torch.nn.Module):\n    pass\n"
        "def f(self):\n    return 'Pwned'\nEvil._get_name = f\nprint(M())",
    ),
    # (a special method other than __init__/__call__/__len__/__getitem__ is a plain script
    # function: a @tf.function one would replay its ops wherever Python calls it, after the run too)
    (
        "tf_function_repr",
        "v = tf.Variable(0)\nclass A:\n    @tf.function\n    def __repr__(self):\n"
        "        v.assign_add(1)\n        return 'A'\na = A()",
    ),
    (
        "tf_function_operator",
        "class A:\n    @tf.function\n    def __add__(self, o):\n        return o\nA() + 1",
    ),
    # (super() reaches object's special methods only for __init__: no repr of any object)
    (
        "super_class_bound_repr",
        "class A:\n    pass\nclass B(A):\n    pass\nsuper(B, B).__repr__(tf.constant(1.0))",
    ),
    ("super_repr_in_method", in_method("super().__repr__()")),
    ("reserved_private_in_body", "class A:\n    _tapeviz_user = True"),
    (
        "private_of_operand",
        "class V:\n    def __radd__(self, o):\n        return o._value\nnp.float64(1.0) + V()",
    ),
    ("init_by_assignment", "def f(self):\n    pass\nclass A:\n    __init__ = f"),
    ("call_by_name_in_body", "class A:\n    def g(self):\n        pass\n    __call__ = g"),
    ("call_init_directly", A + "A().__init__()"),
    ("call_dunder_call", A + "A().__call__()"),
    # -- metaclasses and odd bases -------------------------------------------------------------
    ("metaclass_keyword", "class A(metaclass=type):\n    pass"),
    ("class_keyword", "class A(flag=True):\n    pass"),
    ("subclass_type", "class M(type):\n    pass"),
    ("subclass_function", "class A(print):\n    pass"),
    ("subclass_instance", A + "class B(A()):\n    pass"),
    ("subclass_namespace", "class A(tf):\n    pass"),
    ("subclass_str", "class A(str):\n    pass"),
    ("subclass_dict", "class A(dict):\n    pass"),
    ("subclass_tuple", "class A(tuple):\n    pass"),
    ("subclass_int", "class A(int):\n    pass"),
    ("subclass_ndarray", "class A(np.ndarray):\n    pass"),
    ("subclass_float32", "class A(np.float32):\n    pass"),
    ("subclass_tensor", "class A(tf.Tensor):\n    pass"),
    ("subclass_variable", "class A(tf.Variable):\n    def numpy(self):\n        return 0"),
    ("subclass_tape", "class A(tf.GradientTape):\n    pass"),
    ("subclass_optimizer", "class A(tf.keras.optimizers.Optimizer):\n    pass"),
    ("subclass_dtype", "class A(tf.DType):\n    pass"),
    ("subclass_base_exception", "class A(BaseException):\n    pass"),
    ("subclass_system_exit", "class A(SystemExit):\n    pass"),
    ("subclass_property", "class A(property):\n    pass"),
    ("subclass_object_standin_call", "object()"),
    ("class_decorator", "@tf.function\nclass A:\n    pass"),
    ("three_argument_type", "type('A', (object,), {'__init__': print})"),
    # -- decorators and wrappers with foreign functions ----------------------------------------
    ("staticmethod_print", "staticmethod(print)"),
    ("classmethod_len", "classmethod(len)"),
    ("property_print", "property(print)"),
    ("property_setter_len", "p = property(lambda self: 1)\np.setter(len)"),
    (
        "decorator_user_function",
        "def d(f):\n    return f\nclass A:\n    @d\n    def g(self):\n        pass",
    ),
    # -- the budget: a class's code runs inside its limits wherever it is called from ----------
    ("init_recursion", "class A:\n    def __init__(self):\n        A()\nA()"),
    ("call_recursion", "class A:\n    def __call__(self):\n        return self()\nA()()"),
    ("property_loop", looping("class A:\n    @property\n    def x(self):", "A().x")),
    (
        "sorted_key_method_loop",
        looping("class A:\n    def k(self, x):", "sorted([1, 2], key=A().k)"),
    ),
    ("map_method_loop", looping("class A:\n    def k(self, x):", "list(map(A().k, [1]))")),
    ("exception_init_loop", looping("class E(Exception):\n    def __init__(self):", "raise E()")),
    ("class_body_loop", "class A:\n    while True:\n        pass"),
    # (a data set's __len__ and __getitem__ run wherever Python calls them, inside the budget)
    ("len_loop", looping("class A:\n    def __len__(self):", "len(A())")),
    ("getitem_loop", looping("class A:\n    def __getitem__(self, i):", "A()[0]")),
    (
        "getitem_loop_inside_numpy",
        "class A:\n    def __len__(self):\n        return 3\n"
        + looping("    def __getitem__(self, i):", "np.array(A())"),
    ),
    ("iterate_by_getitem_loop", looping("class A:\n    def __getitem__(self, i):", "list(A())")),
    (
        "dataloader_getitem_loop",
        "import torch\nclass D(torch.utils.data.Dataset):\n    def __len__(self):\n"
        "        return 4\n"
        + looping(
            "    def __getitem__(self, i):", "list(torch.utils.data.DataLoader(D(), batch_size=2))"
        ),
    ),
    ("huge_class_attribute", "class A:\n    x = [0] * 10**9"),
    # (operators and __repr__ run wherever Python calls them, inside the budget)
    ("add_loop_in_sum", looping("class A:\n    def __radd__(self, o):", "sum([A(), A()])")),
    (
        "radd_loop_from_tensor",
        looping("class A:\n    def __radd__(self, o):", "np.ones(2) + A()"),
    ),
    ("mul_loop_from_numpy", looping("class A:\n    def __rmul__(self, o):", "np.float64(2) * A()")),
    ("pow_loop", looping("class A:\n    def __pow__(self, o):", "A() ** 2")),
    ("neg_loop", looping("class A:\n    def __neg__(self):", "-A()")),
    ("repr_loop_in_print", looping("class A:\n    def __repr__(self):", "print(A())")),
    ("repr_loop_in_fstring", looping("class A:\n    def __repr__(self):", "f'{A()}'")),
    ("repr_recursion", "class A:\n    def __repr__(self):\n        return repr(self)\nrepr(A())"),
    ("repr_not_text", "class A:\n    def __repr__(self):\n        return 1\nstr(A())"),
    ("repr_huge", "class A:\n    def __repr__(self):\n        return 'x' * 10**9\nprint(A())"),
]


def test_corpus_is_large_and_unique() -> None:
    ids = [name for name, _ in CORPUS]
    assert len(ids) >= 80
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize(("name", "payload"), CORPUS, ids=[name for name, _ in CORPUS])
def test_class_escape_is_stopped(
    name: str, payload: str, escape_is_stopped: Callable[..., None]
) -> None:
    escape_is_stopped(name, payload, ALLOWED_KINDS)


def test_a_class_cannot_override_what_the_runner_reads() -> None:
    """A script's class named like engine types stays the script's; tapes stay real tapes."""
    result = run(
        "class GradientTape:\n    def gradient(self, *a):\n        return 42\n"
        "tape = GradientTape()\nx = tf.Variable(1.0)\nwith tf.GradientTape() as t:\n"
        "    y = x * x\nprint(t.gradient(y, x).numpy(), tape.gradient())\n"
    )
    assert result.error is None and result.output == "2.0 42\n"
    assert len(result.tapes) == 1 and result.tapes[0].names == ("t",)


def test_stored_builtins_stay_unbound() -> None:
    """A builtin stored on a class is not turned into a method bound to the instance."""
    out = run("class A:\n    pass\nA.show = print\nA().show('plain')\n").output
    assert out == "plain\n"


def test_instances_stay_in_the_worker_namespace_only_as_plain_data() -> None:
    from tapeviz.sandbox.process import results
    from tapeviz.sandbox.process.wire import Writer

    result = run("class A:\n    def __init__(self):\n        self.w = tf.Variable(1.0)\na = A()\n")
    doc = results.encode(result, Writer())
    assert "a" not in doc["namespace"]  # only tensors the tapes show cross the boundary


def test_methods_kept_after_the_run_do_not_run() -> None:
    result = run("class A:\n    def f(self):\n        while True:\n            pass\na = A()\n")
    method = result.namespace["a"].f
    with pytest.raises(Stop, match="the run is over"):
        method()


def test_a_data_sets_methods_kept_after_the_run_do_not_run() -> None:
    result = run(
        "class D:\n    def __len__(self):\n        return 2\n    def __getitem__(self, i):\n"
        "        if i >= 2:\n            raise IndexError(i)\n        return i * 10\n"
        "d = D()\nprint(len(d), d[1], list(d))\n"
    )
    assert result.error is None and result.output == "2 10 [0, 10]\n"
    with pytest.raises(Stop, match="the run is over"):
        len(result.namespace["d"])
    with pytest.raises(Stop, match="the run is over"):
        result.namespace["d"][0]


def test_class_statement_cost_is_counted() -> None:
    result = run(
        "for i in range(100000):\n    class A:\n        x = i\n", limits=Limits(max_steps=20_000)
    )
    assert result.error is not None and result.error.limit == "steps"
