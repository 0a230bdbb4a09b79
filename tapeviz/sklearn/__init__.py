"""The part of scikit-learn course code leans on, in numpy: toy data, splits, scalers, scores.

Networks in courses start from ``make_moons``, ``make_circles``, ``load_iris`` or
``load_digits``, split with ``train_test_split``, scale with ``StandardScaler`` and end with
``accuracy_score``. These follow scikit-learn 1.9 draw for draw (the same seeded numbers), so a
pasted notebook cell runs in tapeviz unchanged; estimators (``LogisticRegression``, …) are not
here: the model is what the script builds with ``tf`` or ``torch``.
"""

from __future__ import annotations

from tapeviz.sklearn import datasets, metrics, model_selection, preprocessing, utils

__all__ = ["datasets", "metrics", "model_selection", "preprocessing", "utils"]
__version__ = "1.9.1"  # the scikit-learn whose behaviour this follows
