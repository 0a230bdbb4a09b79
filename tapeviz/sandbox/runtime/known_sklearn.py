"""scikit-learn 1.9's public names (from its API reference; tapeviz never imports sklearn).

``from sklearn.linear_model import LogisticRegression`` gets "sklearn.linear_model is not
available in tapeviz" and why, instead of "no module named ...".
"""

from __future__ import annotations

_SKLEARN = """
base calibration cluster compose config_context covariance cross_decomposition datasets
decomposition discriminant_analysis dummy ensemble exceptions feature_extraction
feature_selection frozen gaussian_process get_config impute inspection isotonic
kernel_approximation kernel_ridge linear_model manifold metrics mixture model_selection
multiclass multioutput naive_bayes neighbors neural_network pipeline preprocessing
random_projection semi_supervised set_config show_versions svm tree utils clone
"""
_DATASETS = """
clear_data_home dump_svmlight_file fetch_20newsgroups fetch_20newsgroups_vectorized
fetch_california_housing fetch_covtype fetch_file fetch_kddcup99 fetch_lfw_pairs fetch_lfw_people
fetch_olivetti_faces fetch_openml fetch_rcv1 fetch_species_distributions get_data_home
load_breast_cancer load_diabetes load_digits load_files load_iris load_linnerud load_sample_image
load_sample_images load_svmlight_file load_svmlight_files load_wine make_biclusters make_blobs
make_checkerboard make_circles make_classification make_friedman1 make_friedman2 make_friedman3
make_gaussian_quantiles make_hastie_10_2 make_low_rank_matrix make_moons
make_multilabel_classification make_regression make_s_curve make_sparse_coded_signal
make_sparse_spd_matrix make_sparse_uncorrelated make_spd_matrix make_swiss_roll
"""
_MODEL_SELECTION = """
FixedThresholdClassifier GridSearchCV GroupKFold GroupShuffleSplit HalvingGridSearchCV
HalvingRandomSearchCV KFold LearningCurveDisplay LeaveOneGroupOut LeaveOneOut LeavePGroupsOut
LeavePOut ParameterGrid ParameterSampler PredefinedSplit RandomizedSearchCV RepeatedKFold
RepeatedStratifiedKFold ShuffleSplit StratifiedGroupKFold StratifiedKFold StratifiedShuffleSplit
TimeSeriesSplit TunedThresholdClassifierCV ValidationCurveDisplay check_cv cross_val_predict
cross_val_score cross_validate learning_curve permutation_test_score train_test_split
validation_curve
"""
_PREPROCESSING = """
Binarizer FunctionTransformer KBinsDiscretizer KernelCenterer LabelBinarizer LabelEncoder
MaxAbsScaler MinMaxScaler MultiLabelBinarizer Normalizer OneHotEncoder OrdinalEncoder
PolynomialFeatures PowerTransformer QuantileTransformer RobustScaler SplineTransformer
StandardScaler TargetEncoder add_dummy_feature binarize label_binarize maxabs_scale minmax_scale
normalize power_transform quantile_transform robust_scale scale
"""
_METRICS = """
ConfusionMatrixDisplay DetCurveDisplay PrecisionRecallDisplay PredictionErrorDisplay RocCurveDisplay
accuracy_score adjusted_mutual_info_score adjusted_rand_score auc average_precision_score
balanced_accuracy_score brier_score_loss classification_report cohen_kappa_score
confusion_matrix d2_absolute_error_score explained_variance_score f1_score fbeta_score
get_scorer hamming_loss hinge_loss jaccard_score log_loss make_scorer matthews_corrcoef
max_error mean_absolute_error mean_absolute_percentage_error mean_squared_error
mean_squared_log_error median_absolute_error multilabel_confusion_matrix pairwise
pairwise_distances precision_recall_curve precision_recall_fscore_support precision_score
r2_score recall_score roc_auc_score roc_curve root_mean_squared_error silhouette_score
top_k_accuracy_score zero_one_loss
"""
_UTILS = """
Bunch as_float_array assert_all_finite check_array check_random_state check_X_y
class_weight column_or_1d compute_class_weight compute_sample_weight deprecated estimator_html_repr
gen_batches gen_even_slices indexable murmurhash3_32 random resample safe_indexing safe_mask
shuffle validation
"""

SKLEARN_API: dict[str, frozenset[str]] = {
    "sklearn": frozenset(_SKLEARN.split()),
    "sklearn.datasets": frozenset(_DATASETS.split()),
    "sklearn.model_selection": frozenset(_MODEL_SELECTION.split()),
    "sklearn.preprocessing": frozenset(_PREPROCESSING.split()),
    "sklearn.metrics": frozenset(_METRICS.split()),
    "sklearn.utils": frozenset(_UTILS.split()),
}
MODELS = (
    "scikit-learn's models are not in tapeviz (its data sets, splits, scalers and scores are): "
    "build the model with tf or torch"
)
DOWNLOADS = (
    "tapeviz downloads nothing: use a bundled set (load_iris, load_digits, load_wine, "
    "load_breast_cancer, load_diabetes) or make one (make_moons, make_circles, make_blobs)"
)
_MODEL_MODULES = (
    "calibration cluster compose covariance cross_decomposition decomposition "
    "discriminant_analysis dummy ensemble gaussian_process impute isotonic kernel_approximation "
    "kernel_ridge linear_model manifold mixture multiclass multioutput naive_bayes neighbors "
    "neural_network pipeline semi_supervised svm tree"
).split()
SKLEARN_WHY_NOT: dict[str, str] = {
    **{f"sklearn.{m}": MODELS for m in _MODEL_MODULES},
    **{f"sklearn.datasets.{n}": DOWNLOADS for n in _DATASETS.split() if n.startswith("fetch_")},
}
