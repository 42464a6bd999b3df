"""fdlab.sklearn (issue 27, item 1): scikit-learn estimators over the registry's learners, and
fdlab.Model pickling. Run by ctest `python_fdlab`."""
import pickle
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MaxAbsScaler
from sklearn.utils.estimator_checks import check_estimator

import fdlab
import fdlab.sklearn as fs

# The families, plus every other registry learner.
REQUIRED = ["FDROPClassifier", "DekelShamirLPClassifier", "DekelShamirPerceptronClassifier", "MCFClassifier",
            "LNRobustSVMClassifier", "FeatureBoostClassifier", "LiblinearSVMClassifier", "LiblinearLogisticClassifier"]


@pytest.fixture(scope="module")
def vote():
    X, y, _ = fdlab.bundled("vote")
    return X, y


def test_one_estimator_per_registry_learner_with_the_registry_parameters():
    learners = {l["name"]: l for l in fdlab.learners()}
    assert {learner for learner, _ in fs.ESTIMATORS.values()} == set(learners)
    for name in REQUIRED:
        cls = getattr(fs, name)
        est = cls()
        registry = learners[cls._learner]["params"]
        assert est.get_params() == {k: p["default"] for k, p in registry.items()}, name
        assert all(k in cls.__doc__ for k in registry), name
    # the registry's names: FDROP's K and C, with its defaults
    assert fs.FDROPClassifier(K=7).set_params(C=0.5).get_params()["K"] == 7
    with pytest.raises(TypeError, match="unknown parameter 'k'.*K"):
        fs.FDROPClassifier(k=7)


def test_a_bad_parameter_value_is_refused_by_the_registry_at_fit(vote):
    X, y = vote
    with pytest.raises(ValueError, match="learner fdrop parameter K"):
        fs.FDROPClassifier(K=-1).fit(X, y)


@pytest.mark.parametrize("name", list(fs.ESTIMATORS))
def test_check_estimator(name):
    """sklearn's own conformance checks, one by one: every check passes except the ones the class
    declares in its _xfail_checks tag, each listed with its reason in the class's docstring."""
    from sklearn.utils._testing import SkipTest
    cls = getattr(fs, name)
    params = {"NeuralNetClassifier": {"maxEpochs": 30}, "FeatureBoostClassifier": {"rounds": 5},
              "AdaBoostClassifier": {"rounds": 5}}.get(name, {})
    est = cls(**params)
    ran, skipped = [], {}
    for estimator, check in check_estimator(est, generate_only=True):
        check_name = check.func.__name__
        try:
            check(estimator)
            ran.append(check_name)
        except SkipTest as e:
            skipped[check_name] = str(e)
    declared = est._more_tags().get("_xfail_checks", {})
    # sklearn skips the pandas half of check_classifier_data_not_an_array (after its numpy half
    # ran) where pandas is not installed, as on Debian without python3-pandas
    environment = {c for c, why in skipped.items() if why.startswith("pandas is not installed")}
    assert set(skipped) - environment == set(declared), skipped
    assert len(ran) >= 40, ran
    for check, reason in declared.items():
        assert check in cls.__doc__ and reason in cls.__doc__
    for tag, reason in fs._RELAXED.get(name, {}).items():
        assert est._more_tags()[tag] is True and reason in cls.__doc__


def test_fit_equals_fdlab_train_on_dense_and_sparse(vote):
    X, y = vote
    est = fs.FDROPClassifier(K=3, C=0.5).fit(X, y)
    m = fdlab.train("fdrop", X, y, {"K": 3, "C": 0.5})
    np.testing.assert_array_equal(est.coef_, m.weights.reshape(1, -1))
    assert est.intercept_.tolist() == [m.bias]
    assert list(est.classes_) == m.class_names and est.n_features_in_ == X.shape[1]
    np.testing.assert_array_equal(est.predict(X), m.predict(X))
    np.testing.assert_array_equal(est.decision_function(X), m.decision_function(X))
    dense_sparse = fs.FDROPClassifier(K=3, C=0.5).fit(sp.csr_matrix(X), y)
    np.testing.assert_allclose(dense_sparse.coef_, est.coef_, atol=1e-9)
    assert est.score(X, y) == np.mean(est.predict(X) == y)


def test_multiclass_coef_and_labels_of_any_type():
    X, y, _ = fdlab.bundled("mnist")
    X, y = X[:600], y[:600].astype(np.int64) * 10   # labels 0, 10, ..., 90
    est = fs.LiblinearSVMClassifier(C=0.1).fit(X, y)
    assert est.coef_.shape == (10, 784) and est.intercept_.shape == (10,)
    assert est.decision_function(X).shape == (600, 10)
    scores = X.astype(np.float64) @ est.coef_.T + est.intercept_
    np.testing.assert_array_equal(est.predict(X), est.classes_[np.argmax(scores, axis=1)])
    assert est.predict(X).dtype == y.dtype
    with pytest.raises(ValueError, match="binary data only"):
        fs.LNRobustSVMClassifier().fit(X, y)


def test_pipeline_grid_search_and_cross_val_score(vote):
    X, y = vote
    pipe = make_pipeline(MaxAbsScaler(), fs.FDROPClassifier(K=2))
    scores = cross_val_score(pipe, X, y, cv=3)
    assert scores.shape == (3,) and scores.min() > 0.85
    for jobs in (1, 2):
        g = GridSearchCV(fs.FDROPClassifier(K=2), {"C": [0.01, 1.0], "K": np.arange(0, 3)}, cv=3, n_jobs=jobs).fit(X, y)
        assert set(g.best_params_) == {"C", "K"} and g.best_score_ > 0.85
        assert isinstance(g.best_params_["K"], np.integer)   # numpy scalars reach the registry
    # n_jobs=2 pickles fitted estimators between processes: the results are the same
    a = GridSearchCV(fs.LiblinearSVMClassifier(), {"C": [0.01, 1.0]}, cv=3, n_jobs=1).fit(X, y)
    b = GridSearchCV(fs.LiblinearSVMClassifier(), {"C": [0.01, 1.0]}, cv=3, n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(a.cv_results_["mean_test_score"], b.cv_results_["mean_test_score"])


@pytest.mark.parametrize("learner", ["fdrop", "tree", "kernel-svm", "featureboost"])
def test_model_pickles_to_the_same_predictions(vote, learner):
    X, y = vote
    m = fdlab.train(learner, X, np.where(y == "democrat", 3, 7))
    back = pickle.loads(pickle.dumps(m))
    assert isinstance(back, fdlab.Model) and back.learner == m.learner
    np.testing.assert_array_equal(back.decision_function(X), m.decision_function(X))
    assert back.predict(X).dtype == m.predict(X).dtype and list(back.predict(X)) == list(m.predict(X))
    assert back.fit_info == m.fit_info


def test_estimator_pickles_to_the_same_predictions(vote):
    X, y = vote
    for est in (fs.FDROPClassifier(K=2).fit(X, y), fs.TreeClassifier().fit(X, y)):
        back = pickle.loads(pickle.dumps(est))
        np.testing.assert_array_equal(back.predict(X), est.predict(X))
        np.testing.assert_array_equal(back.decision_function(X), est.decision_function(X))


def test_robust_scorer_chooses_c_by_error_under_attack():
    """The scorer is 1 - fdlab.curve's error at the level; GridSearchCV's choice by it is the C
    with the best attacked validation accuracy, computed here independently."""
    from sklearn.svm import LinearSVC
    from sklearn.model_selection import StratifiedKFold
    data = fdlab.prepare(bundled="spambase", scale="zero-one")
    X, y, _ = data["train"]
    rows = np.random.default_rng(0).permutation(X.shape[0])[:900]   # the split keeps rows by class
    X, y = X[rows], y[rows]
    scorer = fs.make_robust_scorer("worst-case-count", 3)
    grid = {"C": [0.01, 0.1, 1.0, 10.0]}
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    g = GridSearchCV(fs.LiblinearSVMClassifier(), grid, cv=cv, scoring=scorer).fit(X, y)
    by_hand = []
    for C in grid["C"]:
        accs = []
        for tr, va in cv.split(X, y):
            m = fdlab.train("svm", X[tr], y[tr], {"C": C})
            # the worst-case count attack of an independent implementation: delete the 3
            # features that lower the true-class margin most
            margin = m.decision_function(X[va]) * np.where(y[va] == m.class_names[1], 1, -1)
            contrib = X[va] * m.weights * np.where(y[va] == m.class_names[1], 1, -1)[:, None]
            worst = np.sort(contrib, axis=1)[:, ::-1][:, :3]
            attacked = margin - np.maximum(worst, 0).sum(axis=1)
            accs.append(np.mean(attacked > 0))
        by_hand.append(np.mean(accs))
    np.testing.assert_allclose(g.cv_results_["mean_test_score"], by_hand, atol=1e-12)
    assert g.best_params_["C"] == grid["C"][int(np.argmax(by_hand))]
    # A fitted search holding the scorer pickles (a closure did not), and scores alike after.
    g2 = pickle.loads(pickle.dumps(g))
    assert g2.scorer_(g2.best_estimator_, X, y) == scorer(g.best_estimator_, X, y)
    # also an sklearn classifier (through from_sklearn) and a Pipeline
    s = GridSearchCV(LinearSVC(dual=True, max_iter=5000), grid, cv=cv, scoring=scorer).fit(X, y)
    assert len(s.cv_results_["mean_test_score"]) == 4
    p = make_pipeline(MaxAbsScaler(), fs.FDROPClassifier(K=3))
    assert 0 <= scorer(p.fit(X, y), X, y) <= 1


def test_robust_scorer_attacks_the_named_class():
    """make_robust_scorer(attacked_classes=...) passed the estimator's labels to a model that
    names its classes by their codes: with labels {1, 2} it attacked class 2 for [1], with string
    labels every score was NaN. It equals fdlab.curve's attacked accuracy for either class."""
    rng = np.random.RandomState(0)
    X = rng.randn(90, 6)
    for labels in ([1, 2], ["a", "b"]):
        y = np.where(X[:, 0] + X[:, 1] + X[:, 2] > 0, labels[0], labels[1])
        est = fs.FDROPClassifier(K=1).fit(X, y)
        accs = []
        for cls in labels:
            by_curve = 1 - fdlab.curve(est, X, y, threat="worst-case-count", levels=[1], attacked_classes=[cls])["error"][0]
            scored = fs.make_robust_scorer("worst-case-count", 1, attacked_classes=[cls])(est, X, y)
            assert scored == pytest.approx(by_curve, abs=1e-15)
            accs.append(scored)
        assert accs[0] != accs[1]   # the two classes' attacks differ on this data (0.711 / 0.844)
        # one label alone, also as a numpy scalar
        one = fs.make_robust_scorer("worst-case-count", 1, attacked_classes=np.asarray(labels)[0])(est, X, y)
        assert one == accs[0]
        assert fdlab.curve(est, X, y, threat="worst-case-count", levels=[1], attacked_classes=labels[1])["error"][0] == \
            pytest.approx(1 - accs[1], abs=1e-15)
    g = GridSearchCV(fs.FDROPClassifier(K=1), {"C": [0.1, 1.0]}, cv=3,
                     scoring=fs.make_robust_scorer("worst-case-count", 1, attacked_classes=["a"])).fit(X, y)
    assert np.all(np.isfinite(g.cv_results_["mean_test_score"]))


def test_empty_donors_and_repeated_fixed_features_are_errors():
    """An empty donors_X killed the interpreter (SIGFPE: a draw from 0 rows); fixed-deletion
    with a feature listed twice deleted one feature at K = 2."""
    rng = np.random.RandomState(0)
    X = rng.randn(30, 5)
    y = (X[:, 0] > 0).astype(int)
    M = fdlab.Model.linear(rng.randn(5), 0.1)
    for threat, params in (("feature-corruption", None), ("group-corruption", {"groups": [{"name": "a", "begin": 0, "end": 2}]})):
        with pytest.raises(ValueError, match="the donor set has no rows"):
            fdlab.curve(M, X, y, threat=threat, levels=[0.5], donors_X=X[:0], donors_y=y[:0],
                        **({"threat_params": params} if params else {}))
    with pytest.raises(ValueError, match="feature 1 is listed twice"):
        fdlab.curve(M, X, y, threat="fixed-deletion", levels=[2], threat_params={"features": [1, 1]})
