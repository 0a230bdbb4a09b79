"""The cases compared with scikit-learn 1.9.1, and how their oracle file was made.

``python tests/sklearn/cases.py`` run where scikit-learn 1.9.1 is installed (never a test or CI
dependency: a throwaway venv) rewrites ``sklearn_1_9_1.json`` with what scikit-learn returns;
the tests run the same cases on ``tapeviz.sklearn`` and compare: every array bit for bit (its
sha256), dtype and shape, every number and text exactly.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

ORACLE = Path(__file__).with_name("sklearn_1_9_1.json")


def cases(mod: Any) -> dict[str, Any]:
    """Every case's result, computed by ``mod`` (scikit-learn, or tapeviz.sklearn)."""
    d, ms, pp, mt, ut = mod.datasets, mod.model_selection, mod.preprocessing, mod.metrics, mod.utils
    out = {}
    out["moons"] = d.make_moons(200, noise=0.2, random_state=42)
    out["moons_t"] = d.make_moons((3, 5), shuffle=False)
    out["circles"] = d.make_circles(1000, noise=0.03, random_state=42)
    out["circles_f"] = d.make_circles(50, factor=0.5, noise=0.05, random_state=0)
    out["blobs"] = d.make_blobs(n_samples=10, centers=3, n_features=2, random_state=0)
    out["blobs_list"] = d.make_blobs(
        n_samples=[3, 3, 4], centers=None, n_features=2, random_state=0
    )
    out["blobs_c"] = d.make_blobs(
        n_samples=100,
        centers=[[-1, -1], [1, 1]],
        cluster_std=[0.3, 0.5],
        random_state=7,
        return_centers=True,
    )
    out["reg"] = d.make_regression(
        n_samples=50, n_features=3, n_informative=2, noise=10, coef=True, random_state=1
    )
    out["reg1"] = d.make_regression(n_samples=20, n_features=1, noise=5, bias=3, random_state=4)
    out["gq"] = d.make_gaussian_quantiles(n_samples=30, n_classes=3, random_state=3)
    out["cls"] = d.make_classification(
        n_samples=100,
        n_features=2,
        n_redundant=0,
        n_informative=2,
        n_clusters_per_class=1,
        random_state=1,
    )
    out["cls2"] = d.make_classification(
        n_samples=60,
        n_features=6,
        n_classes=3,
        n_informative=3,
        n_redundant=1,
        n_repeated=1,
        weights=[0.2, 0.3],
        flip_y=0.1,
        shift=None,
        scale=None,
        hypercube=False,
        random_state=5,
    )
    out["cls40"] = d.make_classification(
        n_samples=8, n_features=35, n_informative=33, n_redundant=0, random_state=2
    )
    np.random.seed(1337)
    out["moons_global"] = d.make_moons(n_samples=100, noise=0.1)
    X, y = np.arange(10).reshape((5, 2)), list(range(5))
    out["tts_doc"] = ms.train_test_split(X, y, test_size=0.33, random_state=42)
    out["tts_noshuffle"] = ms.train_test_split(y, shuffle=False)
    Xc, yc = out["circles"]
    out["tts_circ"] = ms.train_test_split(Xc, yc, test_size=0.2, random_state=42)
    yy = np.array([0] * 10 + [1] * 6 + [2] * 4)
    out["tts_strat"] = ms.train_test_split(
        np.arange(20), yy, test_size=0.25, stratify=yy, random_state=0
    )
    out["tts_sizes"] = ms.train_test_split(
        np.arange(17), train_size=0.5, test_size=3, random_state=9
    )
    out["shuffle"] = ut.shuffle(np.arange(8), np.arange(8) * 10, random_state=3)
    out["resample"] = ut.resample(np.arange(8), random_state=3)
    swr = (
        ut.random.sample_without_replacement
        if hasattr(ut, "random")
        else ut.sample_without_replacement
    )
    out["swr"] = [
        swr(10, 5, random_state=42),
        swr(1000, 5, random_state=1),
        swr(100, 99, random_state=2),
    ]
    data = [[0, 0], [0, 0], [1, 1], [1, 1]]
    s = pp.StandardScaler().fit(data)
    out["ss"] = [
        s.mean_,
        s.var_,
        s.scale_,
        s.transform(data),
        s.transform([[2, 2]]),
        s.inverse_transform([[3.0, 3.0]]),
    ]
    s2 = pp.StandardScaler().fit(Xc[:100].astype(np.float32))
    out["ss32"] = [s2.mean_, s2.scale_, s2.transform(Xc[100:105].astype(np.float32))]
    s3 = pp.StandardScaler().fit([[1.0, 5.0], [1.0, 7.0], [1.0, 9.0]])
    out["ss_const"] = [s3.scale_, s3.transform([[1.0, 5.0]])]
    m = pp.MinMaxScaler().fit([[-1, 2], [-0.5, 6], [0, 10], [1, 18]])
    out["mm"] = [
        m.data_min_,
        m.data_max_,
        m.scale_,
        m.min_,
        m.transform([[2, 2]]),
        m.inverse_transform([[0.5, 0.5]]),
    ]
    m2 = pp.MinMaxScaler(feature_range=(-1, 1), clip=True).fit([[1.0, 2.0], [3.0, 2.0]])
    out["mm2"] = [m2.transform([[5.0, 2.0], [0.0, 1.0]])]
    out["reprs"] = [
        repr(pp.StandardScaler()),
        repr(pp.StandardScaler(with_mean=False)),
        repr(pp.MinMaxScaler(feature_range=(-1, 1))),
        repr(pp.MinMaxScaler(clip=True)),
    ]
    le = pp.LabelEncoder()
    out["le"] = [
        le.fit_transform(["paris", "paris", "tokyo", "amsterdam"]),
        list(le.classes_),
        le.transform(["tokyo", "amsterdam"]),
        list(le.inverse_transform([2, 0])),
        pp.LabelEncoder().fit([1, 2, 2, 6]).transform([1, 1, 2, 6]),
        repr(le),
    ]
    out["acc"] = [
        mt.accuracy_score([0, 2, 1, 3], [0, 1, 2, 3]),
        mt.accuracy_score([0, 2, 1, 3], [0, 1, 2, 3], normalize=False),
        mt.accuracy_score(np.array([1.0, 0, 1, 1]), np.array([[1], [0], [0], [1]])),
    ]
    out["cm"] = [
        mt.confusion_matrix([2, 0, 2, 2, 0, 1], [0, 0, 2, 2, 0, 2]),
        mt.confusion_matrix(
            ["cat", "ant", "cat", "cat", "ant", "bird"],
            ["ant", "ant", "cat", "cat", "ant", "cat"],
            labels=["ant", "bird", "cat"],
        ),
    ]
    yt, yp = [3, -0.5, 2, 7], [2.5, 0.0, 2, 8]
    out["reg_m"] = [
        mt.mean_squared_error(yt, yp),
        mt.mean_absolute_error(yt, yp),
        mt.r2_score(yt, yp),
        mt.r2_score(
            [[0.5, 1], [-1, 1], [7, -6]], [[0, 2], [-1, 2], [8, -5]], multioutput="raw_values"
        ),
    ]
    ir = d.load_iris()
    out["iris"] = [
        ir.data[[0, 50, 149]],
        ir.target[[0, 50, 149]],
        list(ir.target_names),
        ir.feature_names,
        ir.data.shape,
    ]
    dg = d.load_digits()
    out["digits"] = [dg.data.shape, dg.images[5], dg.target[:20], dg.data.sum()]
    dg5 = d.load_digits(n_class=5, return_X_y=True)
    out["digits5"] = [dg5[0].shape, dg5[1][:10]]
    w = d.load_wine()
    out["wine"] = [w.data.shape, w.data[0], list(w.target_names), w.feature_names]
    bc = d.load_breast_cancer()
    out["bc"] = [
        bc.data.shape,
        bc.data[3],
        list(bc.target_names),
        list(bc.feature_names),
        bc.target[:10],
    ]
    db = d.load_diabetes()
    out["diab"] = [db.data.shape, db.data[0], db.target[:5]]
    db2 = d.load_diabetes(scaled=False, return_X_y=True)
    out["diab_raw"] = [db2[0][0], db2[1][:3]]
    return out


def summary(v: Any) -> Any:
    """A JSON-able digest: arrays by dtype, shape, sha256, first values (and float sums)."""
    if isinstance(v, np.ndarray):
        a = np.ascontiguousarray(v)
        return {"dtype": str(a.dtype), "shape": list(a.shape),
                "sha256": hashlib.sha256(a.tobytes()).hexdigest() if a.dtype.kind != "U" else "",
                "head": a.ravel()[:6].tolist(),
                **({"sum": float(a.sum()), "sumsq": float((a.astype(float) ** 2).sum())}
                   if a.dtype.kind == "f" else {})}  # fmt: skip
    if isinstance(v, list | tuple):
        return [summary(x) for x in v]
    if isinstance(v, np.generic):
        return v.item()
    return v


if __name__ == "__main__":  # pragma: no cover - run by hand with scikit-learn installed
    import sklearn
    import sklearn.datasets
    import sklearn.metrics
    import sklearn.model_selection
    import sklearn.preprocessing
    import sklearn.utils
    import sklearn.utils.random

    found = {k: summary(v) for k, v in cases(sklearn).items()}
    ORACLE.write_text(json.dumps({"sklearn": sklearn.__version__, "numpy": np.__version__,
                                  "cases": found}) + "\n")  # fmt: skip
    print(f"wrote {len(found)} cases to {ORACLE}", file=sys.stderr)
