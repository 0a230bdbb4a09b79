"""``torch.optim``: SGD, Adam, AdamW, RMSprop, Adagrad, Adadelta and ``lr_scheduler``.

torch's update rules; each step changes the parameters in place.
"""

from __future__ import annotations

from tapeviz.torch.optim import lr_scheduler
from tapeviz.torch.optim.adam import Adam, AdamW
from tapeviz.torch.optim.adaptive import Adadelta, Adagrad, RMSprop
from tapeviz.torch.optim.optimizer import Optimizer
from tapeviz.torch.optim.sgd import SGD

__all__ = ["SGD", "Adadelta", "Adagrad", "Adam", "AdamW", "Optimizer", "RMSprop", "lr_scheduler"]
