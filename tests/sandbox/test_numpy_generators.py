"""Notebooks' numpy generators (issue 33 item 7): default_rng and RandomState, sizes checked."""

from __future__ import annotations

import numpy as np

from tapeviz.sandbox import run


def test_default_rng_gives_numpys_numbers() -> None:
    r = run("rng = np.random.default_rng(0)\nprint(rng.normal(size=3).tolist())\n"
            "print(rng.integers(0, 10, 4).tolist())\n")  # fmt: skip
    assert r.error is None, r.error
    want = np.random.default_rng(0)
    assert r.output == f"{want.normal(size=3).tolist()}\n{want.integers(0, 10, 4).tolist()}\n"


def test_random_state_gives_numpys_numbers() -> None:
    r = run(
        "rs = np.random.RandomState(0)\nprint(rs.rand(2).tolist(), rs.randint(0, 5, 3).tolist())\n"
    )
    assert r.error is None, r.error
    want = np.random.RandomState(0)
    assert r.output == f"{want.rand(2).tolist()} {want.randint(0, 5, 3).tolist()}\n"


def test_a_generators_sizes_are_checked() -> None:
    err = run("rng = np.random.default_rng(1)\nx = rng.normal(size=10**9)\n").error
    assert err is not None and "1,000,000,000 elements" in err.message
    err = run("rs = np.random.RandomState(1)\nrs.choice(10**9, 3)\n").error
    assert err is not None and "population" in err.message


def test_a_runs_own_generator_is_not_remembered_by_its_id() -> None:
    # A run's np.random.RandomState(0) is a namespace freed with the run; its id is used again
    # by later objects (once an np.poly1d, whose coeffs were then refused, 1 run in ~3 of CI).
    from tapeviz.engine.namespace import Namespace
    from tapeviz.sandbox.runtime import numpy_random, policy

    own = numpy_random.RANDOM.RandomState(0)
    assert type(own) is Namespace and "rand" in policy.allowed_attrs(own)
    assert id(own) not in policy._OBJECT_ATTRS
    assert id(numpy_random.RANDOM) not in policy.SHARED or "seed" in policy.allowed_attrs(
        numpy_random.RANDOM
    )
