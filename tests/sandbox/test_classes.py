"""Class definitions in scripts: what Python does, under the sandbox's rules."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

import tapeviz.tf as real_tf
from tapeviz.engine.namespace import Namespace
from tapeviz.sandbox import Limits, UserCodeError, run
from tapeviz.sandbox.errors import Stop
from tapeviz.sandbox.runtime import classes, modules, policy


def ok(source: str, **kw: object) -> str:
    result = run(textwrap.dedent(source), **kw)  # type: ignore[arg-type]
    assert result.error is None, result.error
    return result.output


def error_of(source: str, **kw: object) -> UserCodeError:
    result = run(textwrap.dedent(source), **kw)  # type: ignore[arg-type]
    assert result.error is not None, result.output
    return result.error


def test_methods_init_call_and_attributes() -> None:
    out = ok(
        """
        class Counter:
            start = 10
            def __init__(self, step=1):
                self.n = Counter.start
                self.step = step
            def __call__(self):
                self.n += self.step
                return self.n
            def reset(self, to=0):
                self.n = to
                return self
        c = Counter(step=2)
        print(c(), c(), c.n, c.step, Counter.start, c.start)
        print(c.reset(5).n, c())
        Counter.start = 1
        print(Counter().n, c.start)
        """
    )
    assert out == "12 14 14 2 10 10\n5 7\n1 1\n"


def test_properties_static_and_class_methods() -> None:
    out = ok(
        """
        class Temperature:
            scale = "C"
            def __init__(self, c):
                self.c = c
            @property
            def kelvin(self):
                return self.c + 273.15
            @kelvin.setter
            def kelvin(self, k):
                self.c = k - 273.15
            @staticmethod
            def describe(x):
                return f"{x:.1f}"
            @classmethod
            def freezing(cls):
                return cls(0.0)
        t = Temperature(25.0)
        print(Temperature.describe(t.kelvin))
        t.kelvin = 300.0
        print(t.describe(t.c), Temperature.freezing().kelvin, t.scale)
        """
    )
    assert out == "298.1\n26.9 273.15 C\n"


def test_property_without_setter_says_so() -> None:
    err = error_of(
        """
        class A:
            @property
            def x(self):
                return 1
        a = A()
        a.x = 2
        """
    )
    assert err.line == 7 and "property 'x' of 'A' object has no setter" in err.message


def test_inheritance_super_and_overrides() -> None:
    out = ok(
        """
        class Base:
            def __init__(self, name):
                self.name = name
            def hello(self):
                return "base " + self.name
            def shout(self):
                return self.hello().upper()
        class Child(Base):
            def __init__(self, name, age):
                super().__init__(name)
                self.age = age
            def hello(self):
                return "child " + super().hello()
        class Old(Base):
            def __init__(self):
                super(Old, self).__init__("old")
        c = Child("ada", 3)
        print(c.hello(), c.shout(), c.age, Old().hello())
        print(isinstance(c, Base), isinstance(c, (int, Child)), isinstance(Old(), Child))
        print(type(c).__name__, Child.__name__, type(c) is Child, type(Child) is type)
        """
    )
    assert out == (
        "child base ada CHILD BASE ADA 3 base old\nTrue True False\nChild Child True True\n"
    )


def test_class_object_base_and_repr_without_address() -> None:
    out = ok("class A(object):\n    pass\na = A()\nprint(a, A, type(a))\n")
    assert out == "<__main__.A object> <class '__main__.A'> <class '__main__.A'>\n"


def test_method_scope_is_pythons() -> None:
    """A method sees module names and its closure, not the class body's names."""
    out = ok(
        """
        scale = 3
        def make(offset):
            class Shifted:
                bias = offset * 10
                doubled = bias * 2
                def apply(self, x):
                    return x * scale + offset
            return Shifted
        S = make(1)
        print(S().apply(2), S.bias, S.doubled)
        """
    )
    assert out == "7 10 20\n"
    err = error_of(
        """
        class A:
            size = 2
            def get(self):
                return size
        A().get()
        """
    )
    assert err.kind == "name" and err.line == 5 and "'size'" in err.message


def test_exceptions_can_be_subclassed() -> None:
    out = ok(
        """
        class ShapeError(ValueError):
            def __init__(self, shape):
                super().__init__(f"bad shape {shape}")
                self.shape = shape
        try:
            raise ShapeError((2, 3))
        except ValueError as e:
            print(type(e).__name__, e, e.shape)
        """
    )
    assert out == "ShapeError bad shape (2, 3) (2, 3)\n"
    err = error_of("class Oops(Exception):\n    pass\nraise Oops('no')\n")
    assert err.line == 3 and err.message == "Oops: no"


def test_a_class_based_model_trains_in_a_loop() -> None:
    """The "custom training: basics" model, as a plain class; same numbers as tapeviz.tf."""
    source = """
        TRUE_W, TRUE_B = 3.0, 2.0
        x = tf.constant(np.linspace(-2, 2, 50), dtype=tf.float32)
        y = x * TRUE_W + TRUE_B
        class Model:
            def __init__(self):
                self.w = tf.Variable(5.0)
                self.b = tf.Variable(0.0)
            def __call__(self, x):
                return self.w * x + self.b
            @property
            def trainable_variables(self):
                return [self.w, self.b]
        def loss(target, predicted):
            return tf.reduce_mean(tf.square(target - predicted))
        model = Model()
        for epoch in range(30):
            with tf.GradientTape() as t:
                current = loss(y, model(x))
            dw, db = t.gradient(current, model.trainable_variables)
            model.w.assign_sub(0.1 * dw)
            model.b.assign_sub(0.1 * db)
        print(model.w.numpy(), model.b.numpy(), current.numpy())
    """
    out = ok(source)
    tf = real_tf
    x = tf.constant(np.linspace(-2, 2, 50), dtype=tf.float32)
    y = x * 3.0 + 2.0
    w, b = tf.Variable(5.0), tf.Variable(0.0)
    for _ in range(30):
        with tf.GradientTape() as t:
            current = tf.reduce_mean(tf.square(y - (w * x + b)))
        dw, db = t.gradient(current, [w, b])
        w.assign_sub(0.1 * dw)
        b.assign_sub(0.1 * db)
    assert out == f"{w.numpy()!s} {b.numpy()!s} {current.numpy()!s}\n"
    assert abs(float(w.numpy()) - 3.0) < 0.05 and abs(float(b.numpy()) - 2.0) < 0.1
    result = run(textwrap.dedent(source))
    assert len(result.tapes) == 30  # every step's tape reaches the graph


def test_tf_function_on_a_method() -> None:
    out = ok(
        """
        class Square:
            @tf.function
            def __call__(self, x):
                return x * x
            @tf.function
            def twice(self, x):
                return self(x) * 2
        s = Square()
        print(s(tf.constant(3.0)).numpy(), s.twice(tf.constant(2.0)).numpy())
        """
    )
    assert out == "9.0 8.0\n"


def test_del_of_attributes_and_names() -> None:
    out = ok("class A:\n    pass\na = A()\na.x = 1\ndel a.x\nx = 2\ndel x\nprint('ok')\n")
    assert out == "ok\n"
    err = error_of("del tape\n")
    assert err.kind == "name" and err.line == 1
    assert err.message == "cannot delete 'tape': it is not defined"


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("class A:\n    def __eq__(self, o):\n        return True", "'__eq__' is not available"),
        ("class A:\n    def __hash__(self):\n        return 1", "'__hash__' is not available"),
        ("class A:\n    def __getattr__(self, n):\n        return 1", "'__getattr__'"),
        ("class A(tf.Module):\n    _flatten = 1", "'_flatten' is not available"),
        (
            "class A(tf.Module):\n    def _set_module_name(self):\n        pass",
            "'_set_module_name' is not available",
        ),
        ("class A:\n    _value = 1", "'_value' is not available"),
        ("class A:\n    __init__ = print", "'__init__' is not available"),
        ("class A(metaclass=type):\n    pass", "metaclass"),
        ("@print\nclass A:\n    pass", "class decorators are not supported"),
        ("class A(*[object]):\n    pass", "written out"),
        ("class A(tf.Variable):\n    pass", "Variable cannot be subclassed"),
        ("class A(tf.Tensor):\n    pass", "Tensor cannot be subclassed"),
        ("class A(tf.GradientTape):\n    pass", "GradientTape cannot be subclassed"),
        ("class A(tf.keras.optimizers.SGD):\n    pass", "SGD cannot be subclassed"),
        ("class A(list):\n    pass", "list cannot be subclassed"),
        ("class A(type):\n    pass", "type cannot be subclassed"),
        ("class A(print):\n    pass", "cannot be subclassed"),
        ("x = super()", "super(): no arguments"),
        ("x = object()", "object() is not available"),
        ("x = type('A', (), {})", "three arguments"),
        ("p = property(print)", "works only on functions defined in the script"),
    ],
)
def test_refusals_say_what_is_not_available(source: str, message: str) -> None:
    err = error_of(source)
    assert message in err.message, err


def test_limits_hold_inside_methods() -> None:
    err = error_of(
        "class A:\n    def __init__(self):\n        self.child = A()\nA()\n",
    )
    assert err.kind == "limit" and err.limit == "recursion"
    err = error_of(
        "class A:\n    @property\n    def x(self):\n        while True:\n            pass\nA().x\n",
        limits=Limits(wall_time=0.3),
    )
    assert err.kind == "limit" and err.limit == "wall time" and err.line == 4  # the loop


def test_functions_refuse_to_run_after_the_run() -> None:
    """A script's function or method kept past its run cannot run outside the limits."""
    result = run(
        "class A:\n    def f(self):\n        return 1\na = A()\ng = a.f\ndef h():\n    pass"
    )
    assert result.error is None
    for name in ("g", "h"):
        with pytest.raises(Stop, match="the run is over"):
            result.namespace[name]()


class FakeModule:
    """An engine base made for subclassing that calls its subclass's methods, like tf.Module."""

    __module__ = "tapeviz.tf.fake"

    def __init__(self, name: str | None = None) -> None:
        self.name = name or type(self).__name__
        self._calls = 0

    def __call__(self, x: object) -> object:
        self._calls += 1
        return self.call(x)  # type: ignore[attr-defined]

    @property
    def calls(self) -> int:
        return self._calls

    def _internal(self) -> str:
        return "private"


@pytest.fixture
def fake_base(monkeypatch: pytest.MonkeyPatch) -> None:
    ns = Namespace("fake", {"Module": FakeModule})
    monkeypatch.setitem(modules.MODULES, "fake", ns)
    monkeypatch.setattr(classes, "ROOTS", [*classes.ROOTS, FakeModule])
    policy.allow_callables([FakeModule])


@pytest.mark.usefixtures("fake_base")
def test_subclassing_an_engine_base_made_for_it() -> None:
    out = ok(
        """
        import fake
        class Dense(fake.Module):
            def __init__(self, units):
                super().__init__(name="dense")
                self.units = units
                self.w = tf.Variable(2.0)
            def call(self, x):
                return self.w * x * self.units
        d = Dense(3)
        print(d(tf.constant(1.0)).numpy(), d.calls, d.name, isinstance(d, fake.Module))
        """
    )
    assert out == "6.0 1 dense True\n"


@pytest.mark.usefixtures("fake_base")
def test_engine_code_calling_a_method_spends_the_budget() -> None:
    err = error_of(
        "import fake\nclass Spin(fake.Module):\n    def call(self, x):\n"
        "        while True:\n            x = x + 1\nSpin()(1)\n",
        limits=Limits(wall_time=0.3),
    )
    assert err.kind == "limit" and err.line == 4  # the loop, inside call()


def test_tensors_held_by_objects_are_named_by_where_they_are() -> None:
    result = run(
        "class Model:\n    def __init__(self):\n        self.w = tf.Variable(1.0)\n"
        "        self.steps = 0\nmodel = Model()\nw = model.w\nb = tf.Variable(2.0)\n"
    )
    assert result.error is None
    names = {k for k, v in result.namespace.items() if k.startswith("model.")}
    assert names == {"model.w"}  # (model.steps is no tensor)
    assert list(result.namespace).index("model.w") < list(result.namespace).index("w")


def test_script_functions_report_their_signature_to_library_code() -> None:
    """Keras passes ``training=`` to ``call`` only if its signature takes it (inspect)."""
    import inspect

    result = run(
        "def f(a, b=2, *c, d, e=5, **k):\n    pass\n"
        "class A:\n    def call(self, x, training=False):\n        pass\n"
        "    @tf.function\n    def traced(self, x):\n        pass\na = A()\n"
    )
    ns = result.namespace
    assert str(inspect.signature(ns["f"])) == "(a, b=2, *c, d, e=5, **k)"
    assert str(inspect.signature(ns["A"].call)) == "(self, x, training=False)"
    assert str(inspect.signature(ns["a"].call)) == "(x, training=False)"
    assert str(inspect.signature(ns["a"].traced)) == "(x)"
