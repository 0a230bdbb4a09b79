"""What a refused import says: the modules a script can import, or why one is missing."""

from __future__ import annotations

from tapeviz.sandbox import run
from tapeviz.sandbox.runtime.modules import MODULES


def test_the_import_hint_names_every_module_a_script_can_import() -> None:
    err = run("import somelib\n").error
    assert err is not None and err.kind == "refused" and err.line == 1
    roots = dict.fromkeys(m.split(".")[0] for m in MODULES)
    missing = [r for r in roots if r not in str(err.hint) and r != "keras"]  # (keras: tf.keras)
    assert missing == [], str(err.hint)
    assert "torch" in str(err.hint)


def test_torchvision_says_there_are_no_downloads_and_what_to_do() -> None:
    for module in ("torchvision", "torchvision.datasets", "torchaudio"):
        err = run(f"import {module}\n").error
        assert err is not None and err.kind == "refused"
        assert "no downloads" in str(err.hint) and "TensorDataset" in str(err.hint)
    err = run("from torchvision import datasets\n").error
    assert err is not None and "no downloads" in str(err.hint)


def test_torch_schedulers_and_samplers_tapeviz_lacks_say_so() -> None:
    opt = "opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.1)\n"
    for src, name in (
        ("import torch\n" + opt + "torch.optim.lr_scheduler.CyclicLR(opt, 0.01, 0.1)\n",
         "torch.optim.lr_scheduler.CyclicLR"),
        ("from torch.optim.lr_scheduler import CyclicLR\n", "torch.optim.lr_scheduler.CyclicLR"),
        ("from torch.utils.data import WeightedRandomSampler\n",
         "torch.utils.data.WeightedRandomSampler"),
    ):  # fmt: skip
        err = run(src).error
        assert err is not None and f"{name} is not available in tapeviz" in str(err), err
    err = run("import torch\ntorch.optim.lr_scheduler.NoSuchThing\n").error
    assert err is not None and "has no attribute 'NoSuchThing'" in str(err)
