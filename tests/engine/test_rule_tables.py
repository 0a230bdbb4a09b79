"""Rule tables are complete: ``PRIMITIVES``, ``IMPL``, ``VJP`` and ``RULE_TEXT`` agree with each
other and with the number of inputs each op actually binds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import tapeviz as tv
from tapeviz.engine import primitives as P
from tapeviz.engine.core import bind
from tapeviz.engine.impl_rules import IMPL
from tapeviz.engine.primitives import PRIMITIVES, Primitive
from tapeviz.engine.vjp_rules import RULE_TEXT, VJP, Variadic

# ---------------------------------------------------------------------------------------------
# (a) the tables
# ---------------------------------------------------------------------------------------------


def _f(*values: Any) -> tv.Tensor:
    return tv.constant(np.asarray(values, dtype=np.float64))


def _b(*values: bool) -> tv.Tensor:
    return tv.constant(np.asarray(values, dtype=bool))


def _m(rows: int, cols: int) -> tv.Tensor:
    return tv.constant(np.ones((rows, cols)))


def _img() -> tv.Tensor:
    return tv.constant(np.ones((1, 1, 1, 1)))


_POOL = {"strides": (1, 1), "padding": "VALID"}
_CONV = {**_POOL, "dilations": (1, 1)}

# One call per primitive, binding it exactly once; used to read how many inputs each op binds.
CALLS: dict[str, Callable[[], Any]] = {
    "add": lambda: tv.add(_f(1.0), _f(2.0)),
    "subtract": lambda: tv.subtract(_f(1.0), _f(2.0)),
    "multiply": lambda: tv.multiply(_f(1.0), _f(2.0)),
    "divide": lambda: tv.divide(_f(1.0), _f(2.0)),
    "divide_no_nan": lambda: tv.divide_no_nan(_f(1.0), _f(2.0)),
    "floordiv": lambda: tv.floordiv(_f(3.0), _f(2.0)),
    "mod": lambda: tv.mod(_f(3.0), _f(2.0)),
    "negative": lambda: tv.negative(_f(1.0)),
    "pow": lambda: tv.pow(_f(2.0), _f(3.0)),
    "square": lambda: tv.square(_f(2.0)),
    "sqrt": lambda: tv.sqrt(_f(2.0)),
    "rsqrt": lambda: tv.rsqrt(_f(2.0)),
    "reciprocal": lambda: tv.reciprocal(_f(2.0)),
    "exp": lambda: tv.exp(_f(1.0)),
    "log": lambda: tv.log(_f(1.0)),
    "log1p": lambda: tv.log1p(_f(1.0)),
    "expm1": lambda: tv.expm1(_f(1.0)),
    "sin": lambda: tv.sin(_f(1.0)),
    "cos": lambda: tv.cos(_f(1.0)),
    "tan": lambda: tv.tan(_f(1.0)),
    "tanh": lambda: tv.tanh(_f(1.0)),
    "sigmoid": lambda: tv.sigmoid(_f(1.0)),
    "softplus": lambda: tv.softplus(_f(1.0)),
    "relu": lambda: tv.relu(_f(1.0)),
    "leaky_relu": lambda: tv.leaky_relu(_f(1.0)),
    "abs": lambda: tv.abs(_f(1.0)),
    "sign": lambda: tv.sign(_f(1.0)),
    "floor": lambda: tv.floor(_f(1.5)),
    "round": lambda: tv.round(_f(1.5)),
    "maximum": lambda: tv.maximum(_f(1.0), _f(2.0)),
    "minimum": lambda: tv.minimum(_f(1.0), _f(2.0)),
    "clip_by_value": lambda: tv.clip_by_value(_f(1.0), _f(0.0), _f(2.0)),
    "where": lambda: tv.where(_b(True), _f(1.0), _f(2.0)),
    "less": lambda: tv.less(_f(1.0), _f(2.0)),
    "less_equal": lambda: tv.less_equal(_f(1.0), _f(2.0)),
    "greater": lambda: tv.greater(_f(1.0), _f(2.0)),
    "greater_equal": lambda: tv.greater_equal(_f(1.0), _f(2.0)),
    "equal": lambda: tv.equal(_f(1.0), _f(2.0)),
    "not_equal": lambda: tv.not_equal(_f(1.0), _f(2.0)),
    "logical_and": lambda: tv.logical_and(_b(True), _b(False)),
    "logical_or": lambda: tv.logical_or(_b(True), _b(False)),
    "logical_not": lambda: tv.logical_not(_b(True)),
    "matmul": lambda: tv.matmul(tv.constant(np.eye(2)), tv.constant(np.eye(2))),
    "reduce_sum": lambda: tv.reduce_sum(_f(1.0, 2.0)),
    "reduce_mean": lambda: tv.reduce_mean(_f(1.0, 2.0)),
    "reduce_max": lambda: tv.reduce_max(_f(1.0, 2.0)),
    "reduce_min": lambda: tv.reduce_min(_f(1.0, 2.0)),
    "argmax": lambda: tv.argmax(_f(1.0, 2.0)),
    "argmin": lambda: tv.argmin(_f(1.0, 2.0)),
    "norm": lambda: tv.norm(_f(3.0, 4.0)),
    "stack": lambda: tv.stack([_f(1.0), _f(2.0), _f(3.0)]),
    "concat": lambda: tv.concat([_f(1.0), _f(2.0), _f(3.0)], axis=0),
    "reshape": lambda: tv.reshape(_f(1.0, 2.0), (2, 1)),
    "transpose": lambda: tv.transpose(tv.constant(np.ones((2, 3)))),
    "broadcast_to": lambda: tv.broadcast_to(_f(1.0), (3,)),
    "getitem": lambda: tv.getitem(_f(1.0, 2.0), 0),
    "cast": lambda: tv.cast(_f(1.0), tv.float32),
    "identity": lambda: tv.identity(_f(1.0)),
    "stop_gradient": lambda: tv.stop_gradient(_f(1.0)),
    "scatter": lambda: bind(P.scatter_p, tv.constant(np.float64(1.0)), shape=(3,), key=1),
    # activations, softmax and cross-entropies
    "elu": lambda: tv.elu(_f(1.0)),
    "selu": lambda: tv.selu(_f(1.0)),
    "gelu": lambda: tv.gelu(_f(1.0)),
    "relu6": lambda: tv.relu6(_f(1.0)),
    "softsign": lambda: tv.softsign(_f(1.0)),
    "silu": lambda: tv.silu(_f(1.0)),
    "softmax": lambda: tv.softmax(_f(1.0, 2.0)),
    "log_softmax": lambda: tv.log_softmax(_f(1.0, 2.0)),
    "softmax_cross_entropy": lambda: tv.softmax_cross_entropy_with_logits(
        labels=_f(0.0, 1.0), logits=_f(1.0, 2.0)
    ),
    "sparse_softmax_cross_entropy": lambda: tv.sparse_softmax_cross_entropy_with_logits(
        labels=tv.constant(1), logits=_f(1.0, 2.0)
    ),
    # more maths
    "sinh": lambda: tv.sinh(_f(1.0)),
    "cosh": lambda: tv.cosh(_f(1.0)),
    "asin": lambda: tv.asin(_f(0.5)),
    "acos": lambda: tv.acos(_f(0.5)),
    "atan": lambda: tv.atan(_f(0.5)),
    "asinh": lambda: tv.asinh(_f(0.5)),
    "acosh": lambda: tv.acosh(_f(1.5)),
    "atanh": lambda: tv.atanh(_f(0.5)),
    "atan2": lambda: tv.atan2(_f(1.0), _f(2.0)),
    "erf": lambda: tv.erf(_f(0.5)),
    "erfc": lambda: tv.erfc(_f(0.5)),
    "ceil": lambda: tv.ceil(_f(0.5)),
    "is_nan": lambda: tv.is_nan(_f(0.5)),
    "is_inf": lambda: tv.is_inf(_f(0.5)),
    "is_finite": lambda: tv.is_finite(_f(0.5)),
    "reduce_prod": lambda: tv.reduce_prod(_f(1.0, 2.0)),
    "reduce_logsumexp": lambda: tv.reduce_logsumexp(_f(1.0, 2.0)),
    "reduce_any": lambda: tv.reduce_any(_b(True, False)),
    "reduce_all": lambda: tv.reduce_all(_b(True, False)),
    "cumsum": lambda: tv.cumsum(_f(1.0, 2.0)),
    "cumprod": lambda: tv.cumprod(_f(1.0, 2.0)),
    # linear algebra, einsum, indexing
    "diag": lambda: tv.diag(_f(1.0, 2.0)),
    "diag_part": lambda: tv.diag_part(tv.constant(np.eye(2))),
    "solve": lambda: tv.solve(tv.constant(np.eye(2)), tv.constant(np.ones((2, 1)))),
    "inv": lambda: tv.inv(tv.constant(np.eye(2))),
    "det": lambda: tv.det(tv.constant(np.eye(2))),
    "einsum": lambda: tv.einsum("i,i,i->", _f(1.0), _f(2.0), _f(3.0)),
    "svd": lambda: tv.svd(tv.constant([[1.0, 2.0], [3.0, 4.0]]), compute_uv=False),
    "qr": lambda: bind(P.qr_p, tv.constant([[1.0, 2.0], [3.0, 4.0]]), part="r"),
    "eigh": lambda: tv.eigvalsh(tv.constant([[2.0, 1.0], [1.0, 2.0]])),
    "pad": lambda: tv.pad(_f(1.0, 2.0), [[1, 1]]),
    "tile": lambda: tv.tile(_f(1.0, 2.0), [2]),
    "gather": lambda: tv.gather(_f(1.0, 2.0), [1, 0]),
    "scatter_add": lambda: bind(
        P.scatter_add_p, _f(1.0, 2.0), tv.constant([0, 0]), axis=0, shape=(3,)
    ),
    "custom_gradient": lambda: _custom_square(_f(1.0), _f(2.0), _f(3.0)),
    # issue 34: convolution and pooling
    "conv2d": lambda: tv.conv2d(_img(), _img(), 1, "VALID"),
    "conv2d_backprop_input": lambda: tv.conv2d_transpose(_img(), _img(), (1, 1, 1, 1), 1),
    "conv2d_backprop_filter": lambda: bind(P.conv2d_backprop_filter_p, _img(), _img(),
                                           filter_shape=(1, 1, 1, 1), **_CONV),
    "max_pool": lambda: tv.max_pool2d(_img(), 1, 1, "VALID"),
    "max_pool_grad": lambda: bind(P.max_pool_grad_p, _img(), _img(), ksize=(1, 1), **_POOL),
    "max_pool_grad_grad": lambda: bind(P.max_pool_grad_grad_p, _img(), _img(), ksize=(1, 1),
                                       **_POOL),
    "avg_pool": lambda: tv.avg_pool2d(_img(), 1, 1, "VALID"),
    "avg_pool_grad": lambda: bind(P.avg_pool_grad_p, _img(), input_shape=(1, 1, 1, 1),
                                  ksize=(1, 1), **_POOL),
    # torch's layout (tapeviz/engine/impl_nchw.py)
    "conv_nchw": lambda: bind(P.conv_nchw_p, _img(), _img(), stride=(1, 1), padding=(0, 0),
                              dilation=(1, 1), groups=1),
    "conv_bias_nchw": lambda: bind(P.conv_bias_nchw_p, _img(), _img(), _f(1.0), stride=(1, 1),
                                   padding=(0, 0), dilation=(1, 1), groups=1),
    "max_pool_nchw": lambda: bind(P.max_pool_nchw_p, _img(), kernel_size=(1, 1), stride=(1, 1),
                                  padding=(0, 0), dilation=(1, 1), ceil_mode=False),
    "avg_pool_nchw": lambda: bind(P.avg_pool_nchw_p, _img(), kernel_size=(1, 1), stride=(1, 1),
                                  padding=(0, 0), ceil_mode=False, count_include_pad=True,
                                  divisor_override=None),
    "adaptive_avg_pool_nchw": lambda: bind(P.adaptive_avg_pool_nchw_p, _img(),
                                           output_size=(1, 1)),
    # the fused ops (tapeviz/engine/fused.py)
    "dense_linear": lambda: bind(P.dense_linear_p, _m(1, 1), _m(2, 1)),
    "dense_relu": lambda: bind(P.dense_relu_p, _m(1, 1), _m(2, 1)),
    "dense_tanh": lambda: bind(P.dense_tanh_p, _m(1, 1), _m(2, 1)),
    "dense_sigmoid": lambda: bind(P.dense_sigmoid_p, _m(1, 1), _m(2, 1)),
    "square_loss": lambda: bind(P.square_loss_p, _f(1.0), _f(2.0)),
    "hinge_loss": lambda: bind(P.hinge_loss_p, _f(1.0), _f(2.0)),
}  # fmt: skip


@tv.custom_gradient
def _custom_square(a: Any, b: Any, c: Any) -> Any:
    return a * b * c, lambda g: (g * b * c, g * a * c, g * a * b)


VARIADIC = {"stack", "concat", "einsum", "custom_gradient"}


def _recorded_arity(name: str) -> int:
    """Run CALLS[name] on a tape and return the input count of the single op it recorded."""
    with tv.GradientTape() as tape:
        CALLS[name]()
    matching = [r for r in tape.records if r.primitive is PRIMITIVES[name]]
    assert len(matching) == 1, [r.name for r in tape.records]
    return len(matching[0].inputs)


def test_calls_cover_every_primitive() -> None:
    assert set(CALLS) == set(PRIMITIVES)


def test_primitive_names_match_keys() -> None:
    for name, prim in PRIMITIVES.items():
        assert isinstance(prim, Primitive)
        assert prim.name == name
        assert prim.tf_name
        assert prim.formula
    # Every ``*_p`` constant of the module is registered, and under its own name.
    module_prims = {v for k, v in vars(P).items() if k.endswith("_p") and isinstance(v, Primitive)}
    assert module_prims == set(PRIMITIVES.values())
    assert len(module_prims) == len(PRIMITIVES)


def test_impl_table_matches_primitives() -> None:
    assert set(IMPL) == set(PRIMITIVES.values())
    assert all(callable(fn) for fn in IMPL.values())


def test_vjp_table_matches_primitives() -> None:
    assert set(VJP) == set(PRIMITIVES.values())


def test_rule_text_table_matches_primitives() -> None:
    assert set(RULE_TEXT) == set(PRIMITIVES.values())
    for prim, text in RULE_TEXT.items():
        assert isinstance(text, tuple) and text, prim
        assert all(isinstance(t, str) and t for t in text), prim


@pytest.mark.parametrize("name", sorted(PRIMITIVES))
def test_vjp_entry_has_one_rule_per_input(name: str) -> None:
    prim = PRIMITIVES[name]
    arity = _recorded_arity(name)
    rules = VJP[prim]
    if name in VARIADIC:
        assert isinstance(rules, Variadic)
        assert len(RULE_TEXT[prim]) == 1
        for argnum in range(arity):
            assert callable(rules[argnum])
        return
    assert rules is None or isinstance(rules, tuple), type(rules)
    if rules is not None:
        assert len(rules) == arity, (name, len(rules), arity)
        assert all(r is None or callable(r) for r in rules)
        # None as a whole means "no gradient"; a tuple holds at least one rule.
        assert any(r is not None for r in rules)
    assert len(RULE_TEXT[prim]) == arity, (name, RULE_TEXT[prim], arity)


NON_DIFFERENTIABLE = {
    "floordiv", "floor", "round", "less", "less_equal", "greater", "greater_equal", "equal",
    "not_equal", "logical_and", "logical_or", "logical_not", "argmax", "argmin", "stop_gradient",
    "ceil", "is_nan", "is_inf", "is_finite", "reduce_any", "reduce_all",
}  # fmt: skip


def test_exactly_the_non_differentiable_ops_have_no_vjp() -> None:
    no_vjp = {name for name, prim in PRIMITIVES.items() if VJP[prim] is None}
    assert no_vjp == NON_DIFFERENTIABLE


def test_where_condition_has_no_rule() -> None:
    rules = VJP[P.where_p]
    assert isinstance(rules, tuple)
    assert rules[0] is None
    assert rules[1] is not None and rules[2] is not None


WORDS = (
    "exp ln sin cos tan tanh max min mean sign round half to even argmax argmin reshape "
    "transpose broadcast cast gradient stopped zeros with where mod if else lo hi i α Σ "
    # the TensorFlow names tapeviz.tf added (issue 14)
    "λ Φ σ β log softmax sinh cosh asin acos atan asinh acosh atanh atan2 erf erfc is nan inf "
    "finite Π any all running diag diagonal of det einsum pad tile along an axis f its own "
    # issue 34: the matrix decompositions
    "svd qr eigh "
    # issue 34: convolution and pooling
    "conv2d conv2d_transpose conv2d_backprop_filter max_pool max_pool_grad max_pool_grad_grad "
    "avg_pool avg_pool_grad "
    # torch's layout
    "adaptive_avg_pool"
).split()


def test_formulas_name_each_input_as_a_word_of_its_own() -> None:
    """Views put the inputs' names in place of a, b, c: eᵃ or A @ B would leave an 'a' behind."""
    import re

    from tapeviz.engine.primitives import PRIMITIVES

    for prim in PRIMITIVES.values():
        named = re.sub(r"\b([abc])\b", lambda m: "v" + m.group(1), prim.formula)
        for word in re.findall(r"\w+", named):
            assert word in ("va", "vb", "vc", *WORDS) or word.isdigit(), (prim.name, word)
    assert PRIMITIVES["where"].formula == "a ? b : c"  # where(condition, x, y)
