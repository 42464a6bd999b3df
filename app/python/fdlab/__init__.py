"""FDLab, the Feature Deletion Lab, from Python: the same C++ core as fdlab-cli and the GUI.

Learners robust to deleted/corrupted features (FDROP, Dekel-Shamir LP, MCF, LN-robust SVM,
FeatureBoost, ...), exact worst-case attacks and error-versus-budget curves on numpy arrays and
scipy.sparse CSR matrices. Training, attacks and curves copy the features once into FDLab's own
storage (see last_copy_info()); results come back as numpy arrays without a copy.

Any linear classifier goes under attack too: Model.linear(w, b) and from_sklearn(clf).
scikit-learn estimators over the registry's learners are in fdlab.sklearn (needs scikit-learn).
"""
import functools
import re

from . import _fdlab
from ._fdlab import DataError, Model, __version__

__all__ = ["DataError", "Model", "__version__", "attack", "bundled", "curve", "datasets", "export_curves", "from_sklearn",
           "last_copy_info", "learners", "load", "load_model", "prepare", "presets", "run", "threats", "train"]


def _parameters(fn):
    """[(name, annotation, has_default, keyword_only)] from pybind11's signature line of fn's doc."""
    first = (fn.__doc__ or "").split("\n", 1)[0]
    inside = first[first.find("(") + 1:first.rfind(") ->")]
    out, keyword_only = [], False
    for part in re.split(r",\s*(?![^\[\(]*[\]\)])", inside):
        part = part.strip()
        if not part:
            continue
        if part == "*":
            keyword_only = True
            continue
        name, _, rest = part.partition(":")
        out.append((name.strip(), rest.split("=")[0].strip(), "=" in rest, keyword_only))
    return out


def _argument_problem(qualname, fn, args, kwargs):
    """One line saying what is wrong with a call pybind11 refused (never the arguments' values)."""
    params = [p for p in _parameters(fn) if p[0] not in ("self", "**kwargs")]
    positional = [p for p in params if not p[3]]
    names = [p[0] for p in params]
    if len(args) > len(positional):
        return (f"{qualname}() takes {len(positional)} positional argument(s) ({', '.join(p[0] for p in positional)}), "
                f"got {len(args)}; the others are keywords: {', '.join(p[0] for p in params if p[3])}")
    for key in kwargs:
        if key not in names and not any(p[0] == "**kwargs" for p in _parameters(fn)):
            return f"{qualname}(): unknown argument '{key}' (it takes: {', '.join(names)})"
    given = dict(zip((p[0] for p in positional), args), **kwargs)
    for name, annotation, has_default, _ in params:
        if name not in given and not has_default:
            return f"{qualname}(): missing argument '{name}'"
        if name in given and annotation.endswith("Model") and not isinstance(given[name], Model):
            return f"{qualname}(): {name}: expected an fdlab.Model, got {type(given[name]).__name__}"
    return f"{qualname}(): wrong argument types; see help({qualname})"


def _one_line_errors(fn, qualname, method=False):
    """fn, whose pybind11 'incompatible function arguments' TypeError (which prints every argument,
    all of X and y) becomes a one-line TypeError naming the argument."""
    @functools.wraps(fn)
    def call(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except TypeError as e:
            if "incompatible function arguments" not in str(e):
                raise
            problem = _argument_problem(qualname, fn, args[1:] if method else args, kwargs)
        raise TypeError(problem)
    return call


for _name in ["attack", "bundled", "curve", "datasets", "export_curves", "last_copy_info", "learners", "load", "load_model", "prepare",
              "presets", "run", "threats", "train"]:
    globals()[_name] = _one_line_errors(getattr(_fdlab, _name), _name)


def _any_model(fn):
    """attack/curve taking, besides an fdlab.Model, a fitted fdlab.sklearn estimator, a fitted
    scikit-learn linear classifier or a Pipeline ending in either (fdlab.sklearn's
    _model_and_labels: X through the steps before, y and attacked_classes as the model's)."""
    @functools.wraps(fn)
    def call(model, X, y, **options):
        if not isinstance(model, Model) and hasattr(model, "fit"):
            from .sklearn import _attacked_as_model_names, _model_and_labels
            model, X, y, name_of = _model_and_labels(model, X, y)
            options = _attacked_as_model_names(options, name_of)
        return fn(model, X, y, **options)
    call.__doc__ = fn.__doc__ + ("\nmodel may also be a fitted fdlab.sklearn estimator, a fitted scikit-learn linear "
                                 "classifier (through from_sklearn) or a Pipeline ending in either (X goes through "
                                 "its earlier steps).")
    return call


attack = _any_model(attack)
curve = _any_model(curve)
for _name in ["decision_function", "predict", "save"]:
    setattr(Model, _name, _one_line_errors(getattr(Model, _name), "Model." + _name, method=True))


class _Linear:
    """Model.linear(w, b, ...) makes a model from weights (the class's constructor); model.linear
    is True when a model is linear (model.is_linear)."""

    def __init__(self, make):
        self.make = make
        self.__doc__ = make.__doc__

    def __get__(self, model, cls=None):
        return self.make if model is None else model.is_linear


Model.linear = _Linear(_one_line_errors(Model._linear, "Model.linear"))
Model.__module__ = "fdlab"
del _name


def from_sklearn(clf, *, feature_names=None):
    """from_sklearn(clf, *, feature_names=None) -> Model

    A fitted scikit-learn linear classifier (LinearSVC, LogisticRegression, SGDClassifier,
    RidgeClassifier, Perceptron, ...; binary or multi-class) as an fdlab.Model with the same
    decision function (coef_, intercept_) and classes (classes_, in their dtype), for attack(),
    curve() and save(). feature_names: the names a model file should carry (default: the
    estimator's feature_names_in_ when it was fitted on a DataFrame, else f1..fn); fdlab-cli eval
    checks them against named data (e.g. the bundled datasets' words).
    FDLab keeps feature values as float32 (last_copy_info() says when X is copied to it), so the
    scores are those of X rounded to float32: features that need more than float32's ~7
    significant digits (e.g. values near 1e5 whose label depends on a difference of 0.05) score
    differently than in scikit-learn. Centre or scale such features first.
    """
    import numpy as np
    import scipy.sparse as sp

    coef = getattr(clf, "coef_", None)
    if coef is None or not hasattr(clf, "classes_"):
        raise TypeError(f"clf: expected a fitted linear classifier with coef_, intercept_ and classes_ "
                        f"(LinearSVC, LogisticRegression, SGDClassifier, RidgeClassifier, ...), got {type(clf).__name__}")
    coef = np.asarray(coef.toarray() if sp.issparse(coef) else coef, dtype=np.float64)
    intercept = np.ravel(np.asarray(getattr(clf, "intercept_", 0.0), dtype=np.float64))
    classes = np.asarray(clf.classes_)
    if getattr(clf, "decision_function_shape", None) is not None and len(classes) > 2:
        # SVC and NuSVC keep one row of coef_ per pair of classes (one-vs-one), not per class.
        raise ValueError(f"clf: {type(clf).__name__} with {len(classes)} classes is one-vs-one: coef_ has a row per "
                         "pair of classes, not one per class; LinearSVC (one-vs-rest) gives a linear model per class")
    if coef.ndim != 2:
        raise ValueError(f"clf: coef_ has shape {coef.shape}; expected (1, n) or (K, n)")
    if coef.shape[0] == 1:   # binary: positive class classes_[1], as FDLab's class index 1
        w, b = coef[0], float(intercept[0]) if intercept.size else 0.0
    else:
        w, b = coef.T, intercept if intercept.size == coef.shape[0] else np.zeros(coef.shape[0])
    if feature_names is None and hasattr(clf, "feature_names_in_"):
        feature_names = [str(f) for f in clf.feature_names_in_]
    return Model.linear(w, b, class_names=classes, feature_names=feature_names, learner="sklearn." + type(clf).__name__)
