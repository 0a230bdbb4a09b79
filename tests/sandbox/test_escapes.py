"""Red-team corpus: known Python-sandbox escapes must all be stopped and leave no trace.

Every payload runs in a fresh, empty working directory. ``SENTINEL`` in a payload is replaced by
a path the payload tries to create; after the run the working directory must still be empty, the
sentinel must not exist, ``os.environ`` must be unchanged and the interpreter must still work.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tapeviz.sandbox import run

ALLOWED_KINDS = ("refused", "name", "type", "value", "runtime", "limit", "syntax")

# (id, payload). Payloads are plain scripts; SENTINEL becomes a file path inside tmp_path.
CORPUS: list[tuple[str, str]] = [
    # -- the classics: object graph walks ---------------------------------------------------
    ("subclasses", "().__class__.__bases__[0].__subclasses__()"),
    ("subclasses_comprehension", "[c for c in ().__class__.__base__.__subclasses__()]"),
    ("object_subclasses", "object.__subclasses__()"),
    ("mro_walk", "(1).__class__.__mro__[-1]"),
    ("str_class_dict", "''.__class__.__dict__"),
    # -- builtins that run or load code ------------------------------------------------------
    ("dunder_import", "__import__('os').system('touch SENTINEL')"),
    ("open_write", "open('SENTINEL', 'w').write('pwned')"),
    ("open_read", "open('/etc/passwd').read()"),
    ("with_open", "with open('SENTINEL', 'w') as f:\n    f.write('pwned')"),
    ("eval", "eval(\"__import__('os').system('touch SENTINEL')\")"),
    ("exec", "exec('import os')"),
    ("compile", "compile('1', 'f', 'eval')"),
    ("breakpoint", "breakpoint()"),
    ("help", "help()"),
    ("input", "input('password: ')"),
    ("exit", "exit()"),
    ("quit", "quit(0)"),
    ("raise_systemexit", "raise SystemExit(0)"),
    ("raise_keyboardinterrupt", "raise KeyboardInterrupt"),
    ("memoryview", "memoryview(b'abc')"),
    ("bytearray", "bytearray(10)"),
    ("builtins_name", "__builtins__"),
    # -- introspection builtins --------------------------------------------------------------
    ("getattr", "getattr((), '__class__')"),
    ("setattr", "setattr(print, 'x', 1)"),
    ("hasattr", "hasattr(print, '__globals__')"),
    ("vars", "vars()"),
    ("globals", "globals()['__builtins__']"),
    ("locals", "locals()"),
    ("dir", "dir()"),
    ("type_three_args", "type('X', (), {})"),
    ("type_of_mro", "type(1).mro()"),
    ("type_of_tensor_call", "type(tf.constant(1.0))('x', tf.float32)"),
    ("class_attr_tensor_call", "tf.constant(1.0).__class__('x', tf.float32)"),
    ("class_attr_type_mro", "(1).__class__.__class__.mro()"),
    ("class_attr_init_globals", "print.__class__.__init__.__globals__"),
    ("super", "super()"),
    ("object", "object()"),
    ("classmethod", "classmethod(print)"),
    # -- format strings ----------------------------------------------------------------------
    ("format_attr", "'{0.__class__.__mro__}'.format(1)"),
    ("format_globals", "'{0.__globals__}'.format(print)"),
    ("format_index", "'{0[0]}'.format(['a'])"),
    ("format_nested_spec_attr", "'{0:{1.__class__}}'.format(1, 2)"),
    ("format_keyword_attr", "'{x.__class__}'.format(x=1)"),
    ("format_map", "'{x.__class__}'.format_map({'x': 1})"),
    ("format_runtime_string", "fmt = '{0.' + '__class__}'\nfmt.format(1)"),
    ("fstring_dunder", "f'{(1).__class__.__mro__}'"),  # (__class__ alone is type(1))
    ("fstring_nested_spec_dunder", "f'{1:{(2).__class__}}'"),
    ("fstring_conversion_dunder", "f'{print.__module__!r}'"),
    # -- frames, code objects, closures -------------------------------------------------------
    ("generator_frame", "g = (x for x in [1])\ng.gi_frame.f_globals"),
    ("generator_code", "g = (x for x in [1])\ng.gi_code"),
    ("generator_send", "g = (x for x in [1])\ng.send(None)"),
    ("function_globals", "def f():\n    pass\nf.__globals__"),
    ("function_code", "def f():\n    pass\nf.__code__.co_consts"),
    ("function_closure", "def f():\n    x = 1\n    return lambda: x\nf().__closure__"),
    ("function_defaults", "def f(a=1):\n    pass\nf.__defaults__"),
    ("function_body", "def f():\n    pass\nf.body"),
    ("function_closure_frame", "def f():\n    pass\nf.closure.vars"),
    ("lambda_default_globals", "(lambda g=globals: g())()"),
    ("lambda_default_dunder", "(lambda c=(1).__class__.__bases__: c)()"),
    (
        "exception_traceback",
        "try:\n    1 / 0\nexcept Exception as e:\n    e.__traceback__.tb_frame",
    ),
    ("exception_with_traceback", "try:\n    1 / 0\nexcept Exception as e:\n    e.with_traceback"),
    ("exception_args_class", "try:\n    1 / 0\nexcept Exception as e:\n    e.args.__class__"),
    ("builtin_self", "len.__self__"),
    ("method_self", "[].append.__self__"),
    # -- unicode and syntax tricks -------------------------------------------------------------
    ("fullwidth_import", "＿＿import＿＿('os').system('touch SENTINEL')"),
    ("fullwidth_attr", "().＿＿class＿＿.＿＿bases＿＿"),
    ("fullwidth_builtins", "＿＿builtins＿＿"),
    ("dunder_parameter", "def f(__x):\n    return __x\nf(1)"),
    ("dunder_keyword", "dict(**{'__class__': 1})"),
    ("dunder_global", "def f():\n    global __builtins__\n    return __builtins__\nf()"),
    ("class_slots", "class A:\n    __slots__ = ()"),
    ("metaclass", "class A(metaclass=type):\n    pass"),
    ("walrus", "(x := 1)"),
    ("generator_expression_yield", "def f():\n    x = yield 1\nf()"),
    ("generator_function_send", "def f():\n    yield 1\nf().send(None)"),
    ("generator_function_frame", "def f():\n    yield 1\nf().gi_frame"),
    ("async_function", "async def f():\n    pass"),
    ("decorator_print", "@print\ndef f():\n    pass"),
    ("decorator_exec", "@exec\ndef f():\n    pass"),
    ("decorator_lambda", "@(lambda f: f)\ndef g():\n    pass"),
    ("star_import", "from math import *"),
    ("relative_import", "from . import sandbox"),
    # -- imports ----------------------------------------------------------------------------
    ("import_os", "import os\nos.system('touch SENTINEL')"),
    ("from_os_system", "from os import system\nsystem('touch SENTINEL')"),
    ("import_subprocess", "import subprocess\nsubprocess.run(['touch', 'SENTINEL'])"),
    ("import_importlib", "import importlib\nimportlib.import_module('os')"),
    ("import_builtins", "import builtins\nbuiltins.open('SENTINEL', 'w')"),
    ("sys_modules", "import sys\nsys.modules['os'].system('touch SENTINEL')"),
    ("import_pickle", "import pickle"),
    ("import_ctypes", "import ctypes"),
    ("import_numpy_submodule", "import numpy.ctypeslib"),
    ("import_numpy_lib_format", "from numpy.lib import format"),
    ("from_numpy_load", "from numpy import load"),
    ("import_tapeviz_engine", "import tapeviz.engine"),
    ("import_tapeviz_sandbox", "from tapeviz.sandbox import policy"),
    ("import_tensorflow_submodule", "import tensorflow.python"),
    ("import_as_dunder", "import math as __m"),
    # -- numpy I/O and memory ------------------------------------------------------------------
    ("np_save", "import numpy as np\nnp.save('SENTINEL', np.zeros(3))"),
    ("np_savetxt", "import numpy as np\nnp.savetxt('SENTINEL', np.zeros(3))"),
    ("np_load", "import numpy as np\nnp.load('/etc/passwd')"),
    ("np_loadtxt", "import numpy as np\nnp.loadtxt('/etc/passwd')"),
    ("np_fromfile", "import numpy as np\nnp.fromfile('/etc/passwd', dtype=np.int32)"),
    ("np_memmap", "import numpy as np\nnp.memmap('SENTINEL', mode='w+', shape=(3,))"),
    ("arr_tofile", "import numpy as np\nnp.zeros(3).tofile('SENTINEL')"),
    ("arr_dump", "import numpy as np\nnp.zeros(3).dump('SENTINEL')"),
    ("arr_dumps", "import numpy as np\nnp.zeros(3).dumps()"),
    ("arr_ctypes", "import numpy as np\nnp.zeros(3).ctypes.data"),
    ("arr_data", "import numpy as np\nnp.zeros(3).data"),
    ("arr_view", "import numpy as np\nnp.zeros(3).view(np.int64)"),
    ("arr_reduce", "import numpy as np\nnp.zeros(3).__reduce__()"),
    ("np_lib_format", "import numpy as np\nnp.lib.format.open_memmap('SENTINEL', mode='w+')"),
    ("np_ctypeslib", "import numpy as np\nnp.ctypeslib.as_array(0, (3,))"),
    ("np_frombuffer", "import numpy as np\nnp.frombuffer(b'abcdefgh', dtype=np.int64)"),
    ("np_ndarray_construct", "import numpy as np\nnp.ndarray((3,), buffer=b'x' * 24)"),
    ("np_ndarray_uninitialised", "import numpy as np\nnp.ndarray((4,), dtype=np.int64).tolist()"),
    (
        "np_ndarray_alias",
        "import numpy as np\nb = np.zeros(2)\n"
        "w = np.ndarray((1,), dtype=np.int64, buffer=b, offset=8)\nw[0] = 1\nb",
    ),
    ("np_object_dtype", "import numpy as np\nnp.array([print], dtype='O')"),
    ("np_array_of_functions", "import numpy as np\nnp.array([print, len])"),
    ("np_random_internals", "import numpy as np\nnp.random.bit_generator"),
    ("np_dtype_type", "import numpy as np\nnp.zeros(1).dtype.type"),
    ("np_scalar_class_method", "import numpy as np\nnp.float32.fromhex('0x1p0')"),
    ("np_sum_where_callback", "import numpy as np\nnp.ones(3).sort(kind=print)"),
    # -- callables smuggled past check_callable ---------------------------------------------
    (
        "tf_function_ndarray",
        "import tensorflow as tf\nimport numpy as np\n"
        "leak = tf.function(np.ndarray)((4,), dtype=np.int64)\nleak.tolist()",
    ),
    (
        "tf_function_tensor_forge",
        "import tensorflow as tf\n"
        "t = tf.function(tf.Tensor)('not a number', tf.float32, 'forged', 1)\nt.id",
    ),
    ("list_sort_key_ndarray", "import numpy as np\nx = [(3,)]\nx.sort(key=np.ndarray)"),
    ("iter_sentinel_ndarray", "import numpy as np\nnext(iter(np.ndarray, 1))"),
    (
        "variable_callable_init",
        "import tensorflow as tf\nimport numpy as np\ntf.Variable(np.ndarray)",
    ),
    ("tv_function_class", "import tapeviz as tv\ntv.Function(print)"),
    ("tensor_class_call", "import tensorflow as tf\ntf.Tensor(1, tf.float32)"),
    ("tensorshape_class_call", "import tensorflow as tf\ntf.TensorShape([1])"),
    ("dtype_class_call", "import tensorflow as tf\ntf.DType('float32')"),
    ("namespace_class", "import tensorflow as tf\ntf.Namespace('os', {'system': print})"),
    ("np_astype_object", "import numpy as np\nnp.zeros(2).astype('O')"),
    # -- tf / tv internals ----------------------------------------------------------------------
    ("tf_dict", "import tensorflow as tf\ntf.__dict__"),
    ("tf_names_method", "import tensorflow as tf\ntf.names()"),
    ("tf_private_names", "import tensorflow as tf\ntf._names"),
    ("tv_engine", "import tapeviz as tv\ntv.engine"),
    ("tv_gradcheck", "import tapeviz as tv\ntv.gradcheck"),
    ("tv_backward_steps", "import tapeviz as tv\ntv.backward_steps"),
    ("tensor_value", "import tensorflow as tf\nx = tf.constant(1.0)\nx._value"),
    (
        "tape_tracked",
        "import tensorflow as tf\nwith tf.GradientTape() as tape:\n    pass\ntape._tracked",
    ),
    (
        "tape_records",
        "import tensorflow as tf\nwith tf.GradientTape() as tape:\n    pass\ntape.records",
    ),
    (
        "tape_gradient_calls",
        "import tensorflow as tf\ntape = tf.GradientTape()\ntape.gradient_calls",
    ),
    ("optimizer_state", "import tensorflow as tf\nopt = tf.keras.optimizers.Adam()\nopt._state"),
    (
        "optimizer_setattr",
        "import tensorflow as tf\nopt = tf.keras.optimizers.SGD()\nopt.apply_gradients = print",
    ),
    (
        "function_python_function",
        "import tensorflow as tf\n@tf.function\ndef f(x):\n    return x\nf.python_function",
    ),
    (
        "function_last_trace",
        "import tensorflow as tf\n@tf.function\ndef f(x):\n    return x\nf(1)\nf.last_trace",
    ),
    ("variable_handle", "import tensorflow as tf\nv = tf.Variable(1.0)\nv.handle"),
    ("namespace_setattr", "import tensorflow as tf\ntf.constant = print"),
    ("namespace_item_assign", "import math\nmath['pi'] = 3"),
    ("str_item_assign", "s = 'abc'\ns[0] = 'x'"),
    ("print_file", "print('pwned', file='SENTINEL')"),
    ("print_to_open", "print('pwned', file=open('SENTINEL', 'w'))"),
    ("with_non_tape", "with print:\n    pass"),
    # -- limits that protect the host ---------------------------------------------------------
    ("math_factorial_huge", "import math\nmath.factorial(10**7)"),
    ("math_comb_huge", "import math\nmath.comb(10**7, 5 * 10**6)"),
]


def test_corpus_is_large_and_unique() -> None:
    ids = [name for name, _ in CORPUS]
    assert len(ids) >= 45
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize(("name", "payload"), CORPUS, ids=[name for name, _ in CORPUS])
def test_escape_is_stopped(name: str, payload: str, escape_is_stopped: Callable[..., None]) -> None:
    escape_is_stopped(name, payload, ALLOWED_KINDS)


def test_tf_print_output_stream_stays_in_the_console(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """tf.print(output_stream=...) must not reach a file or stream outside the run."""
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "stream.txt"
    result = run(f"import tensorflow as tf\ntf.print('hello', output_stream='file://{target}')")
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []
    assert result.error is not None or result.output == "hello\n"


def test_refusal_reports_the_line() -> None:
    result = run("x = 1\ny = 2\nimport sys")
    assert result.error is not None
    assert result.error.kind == "refused"
    assert result.error.line == 3


@pytest.mark.parametrize(
    "make",
    ["np.ndarray", "tf.function(np.ndarray)"],
    ids=["attribute_call", "tf_function_wrapper"],
)
def test_uninitialised_memory_is_not_readable(make: str) -> None:
    """np.ndarray(shape) without a buffer exposes whatever the heap held (pointers, secrets)."""
    result = run(
        "import tensorflow as tf\nimport numpy as np\n"
        f"a = {make}((4096,), dtype=np.int64)\n"
        "a.tolist()"
    )
    assert result.error is not None, f"{make} constructed an uninitialised array"
    assert result.error.kind == "refused"
