"""What course notebooks import around their models: tqdm bars, and hints for what is not there.

``tqdm`` (documented: iterate it as its iterable; ``update``, ``set_description``,
``set_postfix``, ``with tqdm(total=n) as bar``, ``tqdm.write``, ``trange``) draws nothing in
tapeviz. Downloads, a course's own ``helper_functions.py``, torchmetrics and torchinfo get a hint
saying what to do instead.
"""

from __future__ import annotations

import pytest

from tapeviz.sandbox import run


def test_tqdm_gives_the_items_and_keeps_its_counters() -> None:
    r = run(
        "from tqdm.auto import tqdm\nimport tqdm as T\nfrom tqdm.notebook import trange\n"
        "total = 0\nfor epoch in tqdm(range(4), desc='train'):\n    total += epoch\n"
        "with tqdm(total=5) as bar:\n    bar.update(2)\n    bar.set_description(f'E {total}')\n"
        "    bar.set_postfix(loss=0.5)\n    print(bar.n, bar.desc, len(bar), bar.postfix)\n"
        "for i in trange(2):\n    tqdm.write(str(i))\n"
        "def gen():\n    yield 'a'\n    yield 'b'\n"
        "print(list(T.tqdm(gen())), [x for x in T.std.tqdm([3, 4])])"
    )
    assert r.error is None, r.error
    assert r.output.splitlines() == ["2 E 6 5 {'loss': 0.5}", "0", "1", "['a', 'b'] [3, 4]"]


def test_tqdm_keeps_the_limits_and_its_insides_shut() -> None:
    r = run("from tqdm import tqdm\nfor i in tqdm(range(10**12)):\n    pass")
    assert r.error is not None and r.error.limit is not None
    r = run("from tqdm import tqdm\nt = tqdm(range(3))\nprint(t._x)")
    assert r.error is not None and "not available" in r.error.message
    r = run("from tqdm import tqdm\ntqdm.write('x' * 10**8)")
    assert r.error is not None and r.error.limit is not None


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("import requests", "tapeviz downloads nothing"),
        ("import urllib.request", "tapeviz downloads nothing"),
        ("from helper_functions import plot_predictions, plot_decision_boundary",
         "paste the functions you need"),
        ("from torchmetrics import Accuracy", "(y_pred == y).float().mean()"),
        ("from torchinfo import summary", "print(model) lists the layers"),
    ],
)  # fmt: skip
def test_what_is_not_there_says_what_to_do(line: str, says: str) -> None:
    r = run(line)
    assert r.error is not None and says in (r.error.hint or ""), r.error
