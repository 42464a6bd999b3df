"""scikit-learn estimators over FDLab's registry learners, and a scorer by error under attack.

One class per registry learner (fdlab.learners()): its parameters are the registry's, by the
registry's names and defaults (FDROPClassifier(K=10, C=1.0)), read from the registry when this
module is imported, and checked by FDLab's code when fit() runs (a bad value raises ValueError
with the CLI's message). fit/predict/decision_function/score, get_params/set_params, classes_,
n_features_in_, model_ (the fitted fdlab.Model, for fdlab.attack/curve), coef_/intercept_ for the
linear learners. X: numpy arrays (any real dtype) or scipy.sparse matrices (kept sparse for the
linear learners). They work in Pipeline, GridSearchCV (also n_jobs > 1: they pickle) and
cross_val_score, and pass sklearn.utils.estimator_checks.check_estimator except the checks each
class lists (with the reason) in its docstring.

    from fdlab.sklearn import FDROPClassifier, make_robust_scorer
    GridSearchCV(FDROPClassifier(K=10), {"C": [0.1, 1, 10]},
                 scoring=make_robust_scorer("worst-case-count", 10)).fit(X, y)
"""
import inspect

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.pipeline import Pipeline
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

from . import _fdlab, from_sklearn

_CATALOGUE = {entry["name"]: entry for entry in _fdlab.learners()}

# Checks of check_estimator a class does not pass, with the reason (its _xfail_checks tag), and
# checks it passes only relaxed by a tag (e.g. poor_score: no accuracy bar); both are listed in
# the class's docstring.
_XFAIL = {
    "FeatureBoostClassifier": {
        "check_fit2d_1feature": "the hard variant removes features round by round and needs at least two: a "
                                "one-feature X raises ValueError saying so, not sklearn's '1 feature(s)' wording",
    },
}
_RELAXED = {
    "MixtureClassifier": {
        "poor_score": "each member sees a random subset of the features; on check_classifiers_train's "
                      "two-feature blobs a member sees one, and the vote stays below the 0.83 accuracy bar",
    },
}


class FDLabClassifier(ClassifierMixin, BaseEstimator):
    """Base of the estimators: fits registry learner `_learner` with the instance's parameters."""

    _learner = None

    def _registry_params(self):
        return {name: getattr(self, name) for name in _CATALOGUE[self._learner]["params"]}

    def fit(self, X, y, importance=None):
        """Fits the registry learner on X (array or scipy.sparse) and labels y of any type.
        importance: one v_j > 0 per feature (value budgets, e.g. FDROP's useImportance)."""
        X, y = self._validate_data(X, y, accept_sparse="csr", dtype=(np.float32, np.float64))
        check_classification_targets(y)
        self.classes_, codes = np.unique(y, return_inverse=True)
        if len(self.classes_) < 2:
            raise ValueError(f"{type(self).__name__} needs samples of at least 2 classes in the data, but the data "
                             f"contains only one class: {self.classes_[0]!r}")
        info = _CATALOGUE[self._learner]
        if len(self.classes_) > 2 and info["multiclass"] == "refused":
            raise ValueError(f"{type(self).__name__} ({info['name']}) takes binary data only; y has "
                             f"{len(self.classes_)} classes")
        self.model_ = _fdlab.train(self._learner, X, codes.astype(np.int64), self._registry_params(), importance)
        if self.model_.linear:
            w = np.asarray(self.model_.weights)
            self.coef_ = w.reshape(1, -1) if w.ndim == 1 else w.T.copy()
            self.intercept_ = np.atleast_1d(np.asarray(self.model_.bias, dtype=np.float64))
        return self

    def _checked(self, X):
        check_is_fitted(self, "model_")
        return self._validate_data(X, reset=False, accept_sparse="csr", dtype=(np.float32, np.float64))

    def decision_function(self, X):
        """Scores: shape (m,) for two classes (positive = classes_[1]), (m, K) for K classes."""
        X = self._checked(X)
        return self.model_.decision_function(X)

    def predict(self, X):
        """Predicted labels (values of classes_), as FDLab's model decides."""
        X = self._checked(X)
        return self.classes_.take(self.model_.predict(X))

    def _more_tags(self):
        tags = {"binary_only": _CATALOGUE[self._learner]["multiclass"] == "refused"}
        name = type(self).__name__
        if name in _XFAIL:
            tags["_xfail_checks"] = dict(_XFAIL[name])
        tags.update({tag: True for tag in _RELAXED.get(name, {})})
        return tags


def _estimator_class(class_name, learner, summary):
    """A FDLabClassifier subclass whose __init__ takes the registry learner's parameters."""
    info = _CATALOGUE[learner]
    params = info["params"]
    defaults = {name: p["default"] for name, p in params.items()}

    def __init__(self, **given):
        for name in given:
            if name not in defaults:
                raise TypeError(f"{class_name}: unknown parameter '{name}' (it takes: {', '.join(defaults)})")
        for name, default in defaults.items():
            setattr(self, name, given.get(name, default))

    __init__.__qualname__ = f"{class_name}.__init__"   # "FDROPClassifier.__init__() takes 1 positional argument"
    __init__.__signature__ = inspect.Signature(
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        + [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=d) for name, d in defaults.items()])
    lines = [f"{summary}: registry learner '{learner}', {info['title']}.", "", f"{info['paper']}.",
             f"Objective: {info['formula']}.", "", "Parameters (the registry's; checked by FDLab when fit runs):"]
    for name, p in params.items():
        bounds = f" in [{p['min']:g}, {p['max']:g}]" if p["choices"] == [] and isinstance(p["default"], (int, float)) \
            and not isinstance(p["default"], bool) else ""
        choices = f" one of {', '.join(p['choices'])}" if p["choices"] else ""
        lines.append(f"    {name} = {p['default']!r}{bounds}{choices}: {p['doc']}")
    lines += ["", f"Multi-class data: {info['multiclass']}. Sparse X: {info['sparse']}."]
    lines.append("coef_ (1 x n or K x n) and intercept_ after fit." if info["linear"] else "Not linear: no coef_.")
    skipped, relaxed = _XFAIL.get(class_name, {}), _RELAXED.get(class_name, {})
    lines += ["", "check_estimator: every check passes." if not skipped and not relaxed else "check_estimator:"]
    lines += [f"    skipped {check}: {reason}" for check, reason in skipped.items()]
    lines += [f"    tag {tag}: {reason}" for tag, reason in relaxed.items()]
    cls = type(class_name, (FDLabClassifier,), {"__init__": __init__, "_learner": learner, "__doc__": "\n".join(lines),
                                                 "__module__": __name__})
    return cls


# Class name -> (registry learner, one-line summary). Parameters and documentation come from the registry.
ESTIMATORS = {
    "FDROPClassifier": ("fdrop", "FDROP, robust to K deleted features"),
    "DekelShamirLPClassifier": ("ds-lp", "Dekel-Shamir LP, robust to deletion of value N"),
    "DekelShamirPerceptronClassifier": ("ds-perceptron", "Dekel-Shamir online Perceptron"),
    "MCFClassifier": ("mcf", "Marginalized corrupted features"),
    "LNRobustSVMClassifier": ("kernel-svm", "Label-noise robust SVM (kernel SVM with mu = 0)"),
    "FeatureBoostClassifier": ("featureboost", "FeatureBoost"),
    "LiblinearSVMClassifier": ("svm", "liblinear's linear SVM baseline"),
    "LiblinearLogisticClassifier": ("logreg", "liblinear's logistic regression baseline"),
    "TreeClassifier": ("tree", "CART decision tree"),
    "KNNClassifier": ("knn", "k nearest neighbours"),
    "NeuralNetClassifier": ("net", "One-hidden-layer neural net"),
    "AdaBoostClassifier": ("adaboost", "AdaBoost (SAMME)"),
    "MixtureClassifier": ("mixture", "Mixture of experts on random feature subsets"),
}
for _name, (_learner, _summary) in ESTIMATORS.items():
    globals()[_name] = _estimator_class(_name, _learner, _summary)
del _name, _learner, _summary

__all__ = ["FDLabClassifier", "make_robust_scorer", *ESTIMATORS]


def _model_and_labels(estimator, X, y):
    """The fdlab.Model of a fitted estimator (an fdlab.sklearn one, a scikit-learn linear
    classifier, or a Pipeline ending in either: X goes through the steps before it), the
    features it sees, y as the model's labels and a function from a class label to the model's
    class name (for attacked_classes)."""
    if isinstance(estimator, Pipeline):
        for _, step in estimator.steps[:-1]:
            if step is not None and step != "passthrough":
                X = step.transform(X)
        estimator = estimator.steps[-1][1]
    if isinstance(estimator, FDLabClassifier):
        check_is_fitted(estimator, "model_")
        classes = estimator.classes_

        def code(label):   # model_ was trained on the indices into classes_
            k = int(np.clip(np.searchsorted(classes, label), 0, len(classes) - 1))
            if classes[k] != label:
                raise ValueError(f"label {label!r} is not one of the estimator's classes_")
            return k

        y = np.asarray(y)
        codes = np.clip(np.searchsorted(classes, y), 0, len(classes) - 1)
        unknown = classes.take(codes) != y
        if np.any(unknown):
            raise ValueError(f"y: label {y[np.argmax(unknown)]!r} (y[{np.argmax(unknown)}]) is not one of the "
                             "estimator's classes_")
        return estimator.model_, X, codes.astype(np.int64), lambda label: str(code(label))
    model = from_sklearn(estimator)
    names = dict(zip(model.classes.tolist(), model.class_names))
    return model, X, y, lambda label: names.get(label, str(label))


def _attacked_as_model_names(options, name_of):
    """curve/attack options with attacked_classes given as the estimator's labels (a list, or one
    string) mapped to the model's class names (name_of from _model_and_labels)."""
    classes = options.get("attacked_classes")
    if classes is None:
        return options
    # One label (a str, bytes, number or bool; np.ndim 0) or a sequence of them: b'spam' was
    # iterated into its byte values, 2 raised "'int' object is not iterable".
    one = isinstance(classes, (str, bytes)) or np.ndim(classes) == 0
    return {**options, "attacked_classes": [name_of(c) for c in ([classes] if one else list(classes))]}


def make_robust_scorer(threat, level, *, seed=1, repetitions=1, **curve_options):
    """make_robust_scorer(threat, level, *, seed=1, repetitions=1, **curve_options) -> scorer

    A scorer for GridSearchCV/cross_val_score: the accuracy (1 - error) of the fitted estimator
    on the validation rows attacked by `threat` at `level` (fdlab.curve with levels=[level]), so
    that the search chooses e.g. C by error under attack. Greater is better. The estimator: an
    fdlab.sklearn estimator, a fitted scikit-learn linear classifier (via fdlab.from_sklearn), or
    a Pipeline ending in either (the attack acts on the features its last step sees).
    curve_options: any other keyword of fdlab.curve (threat_params, attacked_classes, ...).
    """
    return _RobustAccuracy(threat, level, seed, repetitions, dict(curve_options))


class _RobustAccuracy:
    """The scorer make_robust_scorer returns: a module-level class, so that a fitted GridSearchCV
    holding it pickles (a closure did not: "Can't pickle local object")."""

    def __init__(self, threat, level, seed, repetitions, curve_options):
        self.threat, self.level, self.seed, self.repetitions = threat, level, seed, repetitions
        self.curve_options = curve_options
        self.__name__ = f"robust_accuracy_{threat}_{level}"

    def __call__(self, estimator, X, y):
        model, X, labels, name_of = _model_and_labels(estimator, X, y)
        if sp.issparse(X):
            X = X.tocsr()
        # attacked_classes are the estimator's labels; the model of an fdlab.sklearn estimator
        # names its classes by their codes (the attacked class was the wrong one, or none).
        c = _fdlab.curve(model, X, labels, threat=self.threat, levels=[self.level], seed=self.seed,
                         repetitions=self.repetitions, **_attacked_as_model_names(self.curve_options, name_of))
        return 1.0 - float(c["error"][0])

    def __repr__(self):
        return (f"make_robust_scorer({self.threat!r}, {self.level!r}, seed={self.seed!r}, "
                f"repetitions={self.repetitions!r}" +
                "".join(f", {k}={v!r}" for k, v in self.curve_options.items()) + ")")
