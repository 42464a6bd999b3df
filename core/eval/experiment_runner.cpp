#include "core/eval/experiment_runner.h"

#include "core/eval/multi_task.h"
#include "core/eval/provenance.h"
#include "core/eval/sharding.h"

#include "core/data/bundled.h"
#include "core/attacks/threat_registry.h"
#include "core/data/split.h"
#include "core/eval/cross_validation.h"
#include "core/eval/level_evaluation.h"
#include "core/util/errors.h"
#include "core/util/param_check.h"
#include "core/util/parallel.h"
#include "core/util/rng.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <regex>
#include <tuple>

namespace fdlab {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
using json = nlohmann::json;

std::vector<double> importanceFor(const Dataset& train, const ImportanceSpec& s) {
    switch (s.kind) {
    case ImportanceSpec::Kind::Dataset: return train.importance;
    case ImportanceSpec::Kind::Uniform: return uniformImportance(train);
    case ImportanceSpec::Kind::MutualInformation: return mutualInformationImportance(train, s.mutualInfo);
    case ImportanceSpec::Kind::Csv: return importanceFromCsv(train, s.path);
    case ImportanceSpec::Kind::Values:
        if (static_cast<int>(s.values.size()) != train.features())
            throw std::invalid_argument("experiment field 'importance.values': " + std::to_string(s.values.size()) +
                                        " values for " + std::to_string(train.features()) + " features");
        return s.values;
    }
    return uniformImportance(train);
}

// The first minimum (ties go to the earlier candidate, so results do not depend on float noise
// in later ones).
std::size_t argmin(const std::vector<double>& v) {
    std::size_t best = 0;
    for (std::size_t k = 1; k < v.size(); ++k)
        if (v[k] < v[best]) best = k;
    return best;
}

// Selection::CrossValidation narrows the grid to the candidate with the lowest k-fold CV error
// on `train` (that error goes to *cvError); other selections keep every candidate. nullopt when
// cancelled.
std::optional<std::vector<json>> selectByCrossValidation(const LearnerSpec& ls, std::vector<json> cands,
                                                         const Dataset& train, std::uint64_t seed,
                                                         const RunControl& rc, double* cvError) {
    if (ls.selection != LearnerSpec::Selection::CrossValidation || cands.size() < 2) return cands;
    CrossValidationParams cp;
    cp.folds = ls.cvFolds;
    cp.seed = seed;
    const CrossValidationResult cv = crossValidateCandidates(ls.learner, train, cands, cp, rc);
    if (cv.status == Status::Cancelled) return std::nullopt;
    *cvError = cv.errors[cv.best];
    return std::vector<json>{cands[cv.best]};
}

// A validation split is needed only when candidates are chosen on it.
void requireValidationFor(const LearnerSpec& ls, std::size_t candidates, const PreparedSplit& ps) {
    if (candidates > 1 && ls.selection == LearnerSpec::Selection::Validation && ps.validation.rows() == 0)
        throw std::invalid_argument(ls.id + ": a parameter grid needs a validation split (or \"select\": \"cv\")");
}

}  // namespace

std::string constantModelWarning(const TrainedModel& m, const Dataset& train, Scaling preprocessing) {
    if (!m.linear || m.linear->W.size() == 0 || train.rows() == 0) return {};
    const LinearModel& lm = *m.linear;
    const Eigen::Index K = lm.W.cols();
    // The class the biases alone choose, and by how much (binary: score b, class 1 when b > 0).
    int top = 0;
    double lead = 0.0;
    if (K == 1) {
        top = lm.b(0) > 0.0 ? 1 : 0;
        lead = std::abs(lm.b(0));
    } else {
        Eigen::Index t = 0;
        lm.b.maxCoeff(&t);
        top = static_cast<int>(t);
        double second = -std::numeric_limits<double>::infinity();
        for (Eigen::Index k = 0; k < K; ++k)
            if (k != t) second = std::max(second, lm.b(k));
        lead = lm.b(t) - second;
    }
    // How far the weights can move a score (binary) or a difference of two scores (multi-class)
    // on row i: sum_j |x_ij| * spread_j. Deletions only drop terms, so the same bound holds after
    // any attack. Constant: below the biases' lead on every row; all ties: 0 and no lead.
    Eigen::VectorXd spread = K == 1 ? Eigen::VectorXd(lm.W.col(0).cwiseAbs())
                                    : Eigen::VectorXd(lm.W.rowwise().maxCoeff() - lm.W.rowwise().minCoeff());
    if (!spread.allFinite() || !std::isfinite(lead)) return {};
    bool constant = true, ties = true;
    long minusOne = 0;
    for (int i = 0; i < train.rows() && (constant || ties); ++i) {
        double reach = 0.0;
        train.forEachNonZero(i, [&](int j, float x) {
            reach += std::abs(static_cast<double>(x)) * spread(j);
            minusOne += x == -1.0f;
        });
        constant = constant && reach < lead;
        ties = ties && reach == 0.0 && lead == 0.0;
    }
    if (!constant && !ties) return {};
    std::string out = ties ? "learnt a constant classifier on its training data: no class wins on any training instance (the "
                             "weights add 0 and no bias decides), so every instance is a tie, counted as an error"
                           : "learnt a constant classifier on its training data: the weights cannot outweigh the bias on any "
                             "training instance, so it gives every training instance class '" +
                                 (top < static_cast<int>(lm.classNames.size()) ? lm.classNames[static_cast<std::size_t>(top)]
                                                                               : std::to_string(top)) +
                                 "' whatever features are deleted";
    out += ". Common causes: deletions in training that can cancel every weight (K or N too large), or a "
           "regularisation too strong for the data (C too small)";
    // Sparse features scaled to [-1, 1]: absent words become -1 and every one of them is worth
    // deleting (spambase: FDROP learns w = 0 from K = 2 on). Said only when most values are -1.
    if (preprocessing == Scaling::MinusOneOne &&
        2 * minusOne > static_cast<long>(train.rows()) * static_cast<long>(train.features()))
        out += "; here most training values are -1 after minus-one-one scaling (absent features become -1 and worth "
               "deleting): zero-one or none keeps them at 0";
    return out;
}

std::vector<std::string> groupedWarnings(const std::vector<std::string>& warnings) {
    // The runner's own "<id> (repetition N)" or "(repetition N, level L)", right before ": " or
    // " failed:" (the first such; an id or task name may hold "(repetition" too). At most 9
    // digits: a longer number is text, not a repetition (std::stol threw on 20 digits).
    static const std::regex kRepetition(R"(\(repetition (\d{1,9})(, level [^)]*)?\)(?=:| failed:))");
    std::vector<std::string> keys;                 // the text with the repetition taken out, in first order
    std::map<std::string, std::vector<long>> reps;
    for (const std::string& w : warnings) {
        std::smatch m;
        std::string key = w;
        long r = -1;
        if (std::regex_search(w, m, kRepetition)) {
            r = std::stol(m[1].str());
            key = m.prefix().str() + "(repetition #" + m[2].str() + ")" + m.suffix().str();
        }
        auto [it, fresh] = reps.try_emplace(key);
        if (fresh) keys.push_back(key);
        it->second.push_back(r);
    }
    std::vector<std::string> out;
    for (const std::string& key : keys) {
        std::vector<long> r = reps[key];
        const std::size_t at = key.find("(repetition #");
        if (at == std::string::npos) {   // no repetition: as it was, once
            out.push_back(key);
            continue;
        }
        std::sort(r.begin(), r.end());
        r.erase(std::unique(r.begin(), r.end()), r.end());
        std::string list;
        for (std::size_t a = 0; a < r.size();) {
            std::size_t b = a;
            while (b + 1 < r.size() && r[b + 1] == r[b] + 1) ++b;
            list += (list.empty() ? "" : ", ") + std::to_string(r[a]) + (b > a ? "-" + std::to_string(r[b]) : "");
            a = b + 1;
        }
        out.push_back(key.substr(0, at) + (r.size() > 1 ? "(repetitions " : "(repetition ") + list +
                      key.substr(at + std::string("(repetition #").size()));
    }
    return out;
}

namespace {

// Purposes of derivedSeed for the data of generator entries (the header's list).
constexpr int kDataDraw = 5, kTestDataDraw = 6;

// A generator entry is drawn anew for every repetition (rep >= 0) from its own seed; rep < 0 is
// the catalogue's default draw (seed 1). Files are the same in every repetition.
Dataset loadRef(const DatasetRef& r, const ExperimentSpec& spec, int rep, int purpose) {
    if (!r.bundled.empty() && rep >= 0 && isBundledGenerator(r.bundled))
        return generateBundled(r.bundled, derivedSeed(spec, rep, purpose));
    return r.bundled.empty() ? loadDataFile(r.file, r.options) : loadBundled(r.bundled);
}

bool drawsPerRepetition(const ExperimentSpec& spec) {
    return isBundledGenerator(spec.dataset.bundled) || (spec.testDataset && isBundledGenerator(spec.testDataset->bundled));
}

TaskData taskDataOf(const ExperimentSpec& spec, int rep) {
    TaskData t;
    const auto& tr = spec.dataset;
    const auto& te = spec.testDataset;
    const bool textPair = te && !tr.file.empty() && !te->file.empty() && isTextCorpus(tr.file, tr.options) &&
                          isTextCorpus(te->file, te->options);
    Dataset train, test;
    if (textPair) {   // the test documents over the training vocabulary
        loadTextPair(tr.file, tr.options, te->file, te->options, train, test, &t.testUnseenWords);
    } else {
        train = loadRef(tr, spec, rep, kDataDraw);
        if (te) test = loadRef(*te, spec, rep, kTestDataDraw);
    }
    t.data = applyTask(train, spec.task);
    t.data.requireNonEmptyClasses("task " + spec.task.describe());
    if (te) {
        const std::string where = "test data '" + (te->bundled.empty() ? te->file : te->bundled) + "'";
        t.test = alignToTraining(t.data, applyTask(test, spec.task), where, &t.testAlignment);
    }
    return t;
}

}  // namespace

TaskData loadTaskData(const ExperimentSpec& spec) {
    return taskDataOf(spec, -1);
}

AttackSpec resolvedAttack(const ExperimentSpec& spec, const Dataset& d) {
    AttackSpec a = spec.attack;
    a.attackedClasses.clear();
    for (const std::string& name : spec.attackedClasses) {
        const auto it = std::find(d.classNames.begin(), d.classNames.end(), name);
        if (it == d.classNames.end()) {
            std::string all;
            for (const auto& c : d.classNames) all += (all.empty() ? "" : ", ") + c;
            throw std::invalid_argument("attack.attacked_classes: no class '" + name + "' in the task (classes: " + all + ")");
        }
        a.attackedClasses.push_back(static_cast<int>(it - d.classNames.begin()));
    }
    return a;
}

int repetitionCount(const ExperimentSpec& spec) {
    return spec.split.kind == SplitSpec::Kind::KFold ? spec.repetitions * spec.split.folds : spec.repetitions;
}

std::uint64_t derivedSeed(const ExperimentSpec& spec, int repetition, int purpose) {
    return Rng(spec.seed).split(static_cast<std::uint64_t>(repetition)).split(static_cast<std::uint64_t>(purpose)).next();
}

PreparedSplit prepareRepetition(const TaskData& loaded, const ExperimentSpec& spec, int rep, const Preprocessor* fitted) {
    // Synthetic data: this repetition's own draw instead of the default one (under repeated
    // k-fold, one draw per shuffle, shared by its k folds).
    const int draw = spec.split.kind == SplitSpec::Kind::KFold ? rep / spec.split.folds : rep;
    const std::optional<TaskData> drawn = drawsPerRepetition(spec) ? std::optional(taskDataOf(spec, draw)) : std::nullopt;
    const TaskData& taskData = drawn ? *drawn : loaded;
    const Dataset& data = taskData.data;
    const std::uint64_t seed = derivedSeed(spec, rep, 0);
    std::vector<int> train, validation, test;
    switch (spec.split.kind) {
    case SplitSpec::Kind::Fraction: {
        if (taskData.test || spec.split.testFraction == 0.0) {
            // Everything trains (less the validation part): the test part is the test file, or none.
            if (spec.split.validationFraction > 0) {
                TrainTest s = stratifiedSplit(data, spec.split.validationFraction, seed);
                train = std::move(s.train), validation = std::move(s.test);
            } else {
                train.resize(static_cast<std::size_t>(data.rows()));
                for (int i = 0; i < data.rows(); ++i) train[static_cast<std::size_t>(i)] = i;
            }
        } else if (spec.split.validationFraction > 0) {
            TrainValTest s = stratifiedSplit3(data, spec.split.validationFraction, spec.split.testFraction, seed);
            train = std::move(s.train), validation = std::move(s.validation), test = std::move(s.test);
        } else {
            TrainTest s = stratifiedSplit(data, spec.split.testFraction, seed);
            train = std::move(s.train), test = std::move(s.test);
        }
        break;
    }
    case SplitSpec::Kind::Counts: {
        TrainValTest s = splitByCounts(data, spec.split.perClassTrain, spec.split.perClassValidation,
                                       spec.split.perClassTest, seed);
        train = std::move(s.train), validation = std::move(s.validation), test = std::move(s.test);
        break;
    }
    case SplitSpec::Kind::KFold: {
        // Repeated k-fold: repetition rep tests fold rep % k of shuffle rep / k, and each shuffle's
        // partition is seeded by the split seed of its first repetition (so one shuffle, R = 1,
        // is the partition seeded by repetition 0, as before repetitions applied to k-fold).
        const int k = spec.split.folds, first = rep - rep % k;
        const auto folds = stratifiedKFold(data, k, derivedSeed(spec, first, 0));
        test = folds.at(static_cast<std::size_t>(rep % k)).test;
        train = folds.at(static_cast<std::size_t>(rep % k)).train;
        if (spec.split.validationFraction > 0) {
            const Dataset trainPart = data.subset(train);
            const TrainTest inner = stratifiedSplit(trainPart, spec.split.validationFraction, seed);
            std::vector<int> t, v;
            for (int i : inner.train) t.push_back(train[static_cast<std::size_t>(i)]);
            for (int i : inner.test) v.push_back(train[static_cast<std::size_t>(i)]);
            train = std::move(t), validation = std::move(v);
        }
        break;
    }
    }
    PreparedSplit p;
    p.train = data.subset(train);
    p.validation = data.subset(validation);
    p.test = taskData.test ? *taskData.test : data.subset(test);
    p.preprocessor = fitted ? *fitted : Preprocessor::fit(p.train, spec.preprocessing);
    p.preprocessor.apply(p.train);
    p.preprocessor.apply(p.validation);
    p.preprocessor.apply(p.test);
    const std::vector<double> v = importanceFor(p.train, spec.importance);
    p.train.importance = p.validation.importance = p.test.importance = v;
    return p;
}

std::vector<json> gridCandidates(const LearnerSpec& l) {
    std::vector<json> out{l.params.is_object() ? l.params : json::object()};
    const LearnerInfo& info = learnerInfo(l.learner);
    for (const auto& [name, values] : l.grid) {
        bool integer = false;
        for (const auto& pi : info.params)
            if (pi.name == name) integer = pi.type == ParamInfo::Type::Integer;
        std::vector<json> next;
        for (const json& base : out)
            for (double v : values) {
                json c = base;
                if (integer) c[name] = static_cast<long long>(std::llround(v));
                else c[name] = v;
                next.push_back(c);
            }
        out = std::move(next);
    }
    return out;
}

std::vector<std::string> taskDataWarnings(const TaskData& data) {
    std::vector<std::string> out;
    if (!data.testAlignment.describe().empty()) out.push_back("test file: " + data.testAlignment.describe());
    if (!data.testUnseenWords.empty()) out.push_back("test corpus: " + data.testUnseenWords);
    return out;
}

ExperimentResult partialResult(const ExperimentSpec& spec, std::vector<CurvePoint> points) {
    ExperimentResult r;
    r.spec = spec;
    r.points = std::move(points);
    r.summary = summarizePoints(r.points);
    r.status = Status::Cancelled;
    return r;
}

std::vector<CurveSummary> summarizePoints(const std::vector<CurvePoint>& points) {
    std::vector<CurveSummary> out;
    std::vector<CurvePoint> sorted = points;
    std::sort(sorted.begin(), sorted.end(), pointLess);
    for (std::size_t a = 0; a < sorted.size();) {
        std::size_t b = a;
        std::vector<double> err, auc, errA, errO;
        while (b < sorted.size() && sorted[b].task == sorted[a].task && sorted[b].learnerIndex == sorted[a].learnerIndex &&
               sorted[b].levelIndex == sorted[a].levelIndex) {
            err.push_back(sorted[b].error);
            auc.push_back(sorted[b].auc);
            errA.push_back(sorted[b].errorAttacked);
            errO.push_back(sorted[b].errorOthers);
            ++b;
        }
        CurveSummary s;
        s.task = sorted[a].task;
        s.learner = sorted[a].learner;
        s.learnerIndex = sorted[a].learnerIndex;
        s.levelIndex = sorted[a].levelIndex;
        s.level = sorted[a].level;
        s.error = meanAndStandardError(err);
        s.auc = meanAndStandardError(auc);
        s.errorAttacked = meanAndStandardError(errA);
        s.errorOthers = meanAndStandardError(errO);
        out.push_back(s);
        a = b;
    }
    return out;
}

namespace {

// Algorithm 1's tainted training sets by (repetition, level, attacked SVM): learners facing the
// same attack share one computation (the result only depends on those and the derived seed).
class FlipCache {
public:
    std::optional<Dataset> find(const std::string& key) const {
        std::lock_guard lock(m_mutex);
        const auto it = m_sets.find(key);
        if (it == m_sets.end()) return std::nullopt;
        return it->second;
    }
    void store(const std::string& key, const Dataset& d) {
        std::lock_guard lock(m_mutex);
        m_sets.emplace(key, d);
    }

private:
    mutable std::mutex m_mutex;
    std::map<std::string, Dataset> m_sets;
};

// Training-time threats (label flips): at each level a fraction of the training labels is
// flipped (the same flips for every learner of a repetition that faces the same attack), every
// candidate is trained on the
// tainted set, the one with the lowest clean validation error is kept (or, with "select": "cv",
// the one with the lowest CV error on the tainted set is the only one trained), and it is
// scored on the untainted test set. Returns false when cancelled.
bool labelFlipPoints(const ExperimentSpec& spec, const PreparedSplit& ps, const LearnerSpec& ls, int li, int rep,
                     const RunControl& rc, FlipCache& cache, const std::function<void(CurvePoint)>& emit,
                     const std::function<void(const std::string&)>& warn) {
    const std::vector<json> grid = gridCandidates(ls);
    requireValidationFor(ls, grid.size(), ps);
    const RunControl inner{{}, rc.stop};
    const ThreatInfo& threat = threatInfo(spec.attack.threat);
    const json threatParams = spec.attack.completeParams();
    for (std::size_t l = 0; l < spec.levels.size(); ++l) {
        if (rc.cancelled()) return false;
        const int flips = static_cast<int>(std::lround(spec.levels[l] * ps.train.rows()));
        const std::uint64_t seed = Rng(derivedSeed(spec, rep, 3)).split(l).next();
        const json learnerParams = completeParams(ls.learner, ls.params);
        const TaintRequest request{ps.train, threatParams, flips, seed, ls.learner, learnerParams, inner};
        // Learners facing the same attack share one tainted set (ThreatInfo::taintKey).
        const std::string key = threat.taintKey ? std::to_string(rep) + "/" + std::to_string(l) + "/" +
                                                      threat.taintKey(threatParams, ls.learner, learnerParams)
                                                : std::string();
        Dataset tainted;
        if (std::optional<Dataset> hit = key.empty() ? std::nullopt : cache.find(key)) {
            tainted = std::move(*hit);
        } else {
            std::optional<Dataset> t = threat.taint(request);
            if (!t) return false;   // cancelled
            tainted = std::move(*t);
            if (!key.empty()) cache.store(key, tainted);
        }
        double bestVal = kNaN;
        // With "select": "cv" the candidate is chosen on this level's tainted training set.
        const std::optional<std::vector<json>> chosen =
            selectByCrossValidation(ls, grid, tainted, Rng(derivedSeed(spec, rep, 4)).split(l).next(), inner, &bestVal);
        if (!chosen) return false;
        const std::vector<json>& cands = *chosen;
        std::size_t best = 0;
        std::vector<TrainedModel> models;
        std::vector<double> seconds;
        for (std::size_t c = 0; c < cands.size(); ++c) {
            Stopwatch t;
            models.push_back(trainLearner(ls.learner, tainted, cands[c], inner));
            seconds.push_back(t.seconds());
            const FitResult& f = models.back().fit;
            if (f.status == Status::Cancelled || rc.cancelled()) return false;
            if (f.status == Status::Failed) throw std::runtime_error(f.message);
            if (f.status == Status::MaxIterations) warn(ls.id + ": stopped short of its tolerance (" + f.message + ")");
            if (cands.size() > 1) {
                const double v = scoreDataset(*models.back().scorer, ps.validation).error;
                if (c == 0 || v < bestVal) best = c, bestVal = v;
            }
        }
        if (const std::string w = constantModelWarning(models[best], tainted, spec.preprocessing); !w.empty())
            warn(ls.id + " (repetition " + std::to_string(rep) + ", level " + formatParam(spec.levels[l]) + "): " + w +
                 " (params " + cands[best].dump() + ")");
        const LevelScore score = scoreDataset(*models[best].scorer, ps.test);
        CurvePoint p;
        p.learner = ls.id;
        p.learnerIndex = li;
        p.levelIndex = static_cast<int>(l);
        p.level = spec.levels[l];
        p.repetition = rep;
        p.error = score.error;
        p.auc = score.auc;
        p.validationError = bestVal;
        p.params = completeParams(ls.learner, cands[best]);
        p.trainSeconds = seconds[best];
        emit(p);
    }
    return true;
}

}  // namespace

ExperimentResult runExperiment(const ExperimentSpec& spec, const RunControl& rc, const PointCallback& onPoint,
                               const RunOptions& options) {
    if (spec.multiTask()) return runTasks(spec, rc, onPoint, options);
    Stopwatch clock;
    spec.validate();
    ExperimentResult result;
    result.spec = spec;
    result.threads = spec.threads > 0 ? spec.threads : hardwareThreads();

    const TaskData data = loadTaskData(spec);
    result.provenance = makeProvenance(spec, result.threads, dataFingerprint(data, spec));
    if (options.onData) options.onData(data);
    result.warnings = taskDataWarnings(data);
    const int reps = repetitionCount(spec);
    const int L = static_cast<int>(spec.learners.size());
    std::vector<int> jobs = options.jobs;
    if (jobs.empty())
        for (int k = 0; k < reps * L; ++k) jobs.push_back(k);
    std::sort(jobs.begin(), jobs.end());
    jobs.erase(std::unique(jobs.begin(), jobs.end()), jobs.end());
    std::vector<bool> needed(static_cast<std::size_t>(reps), false);
    for (int k : jobs) {
        if (k < 0 || k >= reps * L)
            throw std::invalid_argument("job " + std::to_string(k) + " out of range (the experiment has " +
                                        std::to_string(reps * L) + " jobs)");
        needed[static_cast<std::size_t>(k / L)] = true;
    }
    // Only the repetitions the jobs use are split (a shard pays for its own data preparation).
    std::vector<PreparedSplit> splits(static_cast<std::size_t>(reps));
    const PreparedSplit* first = nullptr;
    for (int r = 0; r < reps; ++r)
        if (needed[static_cast<std::size_t>(r)]) {
            splits[static_cast<std::size_t>(r)] = prepareRepetition(data, spec, r);
            if (!first) first = &splits[static_cast<std::size_t>(r)];
        }
    if (!first) first = &(splits.front() = prepareRepetition(data, spec, 0));   // no jobs: still check the data
    if (first->test.rows() == 0)
        throw std::invalid_argument("split.test: the experiment has no test part (test fraction 0 and no \"test\" file)");
    const AttackSpec attack = resolvedAttack(spec, data.data);
    // Budgets are checked against the data before any training starts, named as the experiment
    // file's fields ("attack level: ..." comes from a level, any other attack error from "attack").
    for (double level : spec.levels) {
        try {
            attackAtLevel(attack, level).validate(first->test);
        } catch (const std::invalid_argument& e) {
            const std::string what = e.what();
            throw std::invalid_argument(std::string("experiment field '") + (what.rfind("attack level:", 0) == 0 ? "levels" : "attack") +
                                        "': " + what);
        }
    }

    const long totalPoints = static_cast<long>(jobs.size()) * static_cast<long>(spec.levels.size());
    std::mutex mutex;   // guards result.points, warnings, progress and onPoint
    long done = 0;
    auto emit = [&](CurvePoint p) {
        std::lock_guard lock(mutex);
        result.points.push_back(p);
        ++done;
        if (onPoint) onPoint(p);
        rc.report(static_cast<double>(done) / static_cast<double>(totalPoints), done,
                  p.learner + " at " + std::to_string(p.level));
    };
    // Warnings are kept per job and listed in job order at the end.
    std::vector<std::vector<std::string>> jobWarnings(jobs.size());
    bool failed = false;
    FlipCache flipCache;

    // Job k = repetition-major, so that every learner's first points arrive early.
    parallelFor(static_cast<int>(jobs.size()), result.threads, [&](int slot) {
        const int job = jobs[static_cast<std::size_t>(slot)];
        const int rep = job / L, li = job % L;
        auto warn = [&](const std::string& w) {
            std::lock_guard lock(mutex);
            jobWarnings[static_cast<std::size_t>(slot)].push_back(w);
            if (options.onJobWarning) options.onJobWarning(job, w);
        };
        const LearnerSpec& ls = spec.learners[static_cast<std::size_t>(li)];
        const PreparedSplit& ps = splits[static_cast<std::size_t>(rep)];
        const std::string where = ls.id + " (repetition " + std::to_string(rep) + ")";
        try {
            if (threatInfo(spec.attack.threat).trainingTime) {
                labelFlipPoints(spec, ps, ls, li, rep, rc, flipCache, emit, warn);
                return;
            }
            const RunControl learnerRc{{}, rc.stop};
            const std::vector<json> grid = gridCandidates(ls);
            requireValidationFor(ls, grid.size(), ps);
            double cvError = kNaN;
            const std::optional<std::vector<json>> chosenByCv =
                selectByCrossValidation(ls, grid, ps.train, derivedSeed(spec, rep, 4), learnerRc, &cvError);
            if (!chosenByCv) return;   // cancelled
            const std::vector<json>& cands = *chosenByCv;
            std::vector<TrainedModel> models;
            std::vector<double> seconds;
            // The grid's candidates follow one another (neighbouring (K, C)), so each fit starts
            // from the previous one's solver state (regularisation-path warm start; learners
            // without one ignore it, core/learners/registry.h).
            WarmStart warm, next;
            for (const json& c : cands) {
                Stopwatch t;
                models.push_back(trainLearner(ls.learner, ps.train, c, learnerRc, &warm, &next));
                std::swap(warm, next);
                seconds.push_back(t.seconds());
                const FitResult& f = models.back().fit;
                if (f.status == Status::Cancelled || rc.cancelled()) return;
                if (f.status == Status::Failed) throw std::runtime_error(f.message);
                if (f.status == Status::MaxIterations)
                    warn(where + ": stopped short of its tolerance (" + f.message + ") with params " + c.dump());
            }
            // Choose a candidate per level.
            const std::size_t nLevels = spec.levels.size();
            std::vector<std::size_t> chosen(nLevels, 0);
            std::vector<double> valError(nLevels, cvError);
            if (cands.size() > 1) {
                std::vector<std::vector<double>> val(cands.size());   // [candidate][level]
                for (std::size_t c = 0; c < cands.size(); ++c) {
                    if (spec.tunePerLevel) {
                        AttackSpec a = attack;
                        a.seed = derivedSeed(spec, rep, 2);
                        const auto scores = evaluateAtLevels(models[c], ps.validation, a, spec.levels, learnerRc, &ps.train);
                        if (scores.size() < nLevels) return;   // cancelled
                        for (const auto& s : scores) val[c].push_back(s.error);
                    } else {
                        val[c].assign(nLevels, scoreDataset(*models[c].scorer, ps.validation).error);
                    }
                }
                for (std::size_t l = 0; l < nLevels; ++l) {
                    std::vector<double> col;
                    for (std::size_t c = 0; c < cands.size(); ++c) col.push_back(val[c][l]);
                    chosen[l] = argmin(col);
                    valError[l] = col[chosen[l]];
                }
            }
            for (std::size_t c = 0; c < cands.size(); ++c)
                if (std::find(chosen.begin(), chosen.end(), c) != chosen.end())
                    if (const std::string w = constantModelWarning(models[c], ps.train, spec.preprocessing); !w.empty())
                        warn(where + ": " + w + " (params " + cands[c].dump() + ")");
            // Test: each distinct chosen model is attacked at the levels that chose it.
            AttackSpec testAttack = attack;
            testAttack.seed = derivedSeed(spec, rep, 1);
            for (std::size_t c = 0; c < cands.size(); ++c) {
                std::vector<double> lv;
                std::vector<std::size_t> idx;
                for (std::size_t l = 0; l < nLevels; ++l)
                    if (chosen[l] == c) lv.push_back(spec.levels[l]), idx.push_back(l);
                if (lv.empty()) continue;
                const bool oneShot = hasFastLevelPath(models[c], testAttack);
                for (std::size_t a = 0; a < lv.size();) {
                    // Slow attacks go level by level so that points stream as they finish.
                    const std::size_t b = oneShot ? lv.size() : a + 1;
                    const std::vector<double> part(lv.begin() + static_cast<std::ptrdiff_t>(a), lv.begin() + static_cast<std::ptrdiff_t>(b));
                    const auto scores = evaluateAtLevels(models[c], ps.test, testAttack, part, learnerRc, &ps.train);
                    if (scores.size() < part.size()) return;   // cancelled
                    for (std::size_t k = 0; k < part.size(); ++k) {
                        const std::size_t l = idx[a + k];
                        CurvePoint p;
                        p.learner = ls.id;
                        p.learnerIndex = li;
                        p.levelIndex = static_cast<int>(l);
                        p.level = spec.levels[l];
                        p.repetition = rep;
                        p.error = scores[k].error;
                        p.auc = scores[k].auc;
                        p.errorAttacked = scores[k].errorAttacked;
                        p.errorOthers = scores[k].errorOthers;
                        p.validationError = valError[l];
                        p.params = completeParams(ls.learner, cands[c]);
                        p.trainSeconds = seconds[c];
                        emit(p);
                    }
                    a = b;
                }
            }
        } catch (const std::exception& e) {
            warn(where + " failed: " + errorText(e));
            std::lock_guard lock(mutex);
            failed = true;
        }
    }, rc.stop);

    for (const auto& ws : jobWarnings) result.warnings.insert(result.warnings.end(), ws.begin(), ws.end());
    std::sort(result.points.begin(), result.points.end(), pointLess);
    result.elapsed = clock.seconds();
    finishResult(result, rc.cancelled(), failed, totalPoints);
    return result;
}

bool pointLess(const CurvePoint& a, const CurvePoint& b) {
    return std::tie(a.task, a.learnerIndex, a.levelIndex, a.repetition) < std::tie(b.task, b.learnerIndex, b.levelIndex, b.repetition);
}

void finishResult(ExperimentResult& result, bool cancelled, bool failed, long totalPoints) {
    result.summary = summarizePoints(result.points);
    if (cancelled) {
        result.status = Status::Cancelled;
        result.message = "cancelled with " + std::to_string(result.points.size()) + " of " + std::to_string(totalPoints) + " points";
    } else if (failed) {
        result.status = Status::Failed;
        result.message = "some learners failed (see warnings)";
    } else {
        result.status = Status::Converged;
        result.message = std::to_string(result.points.size()) + " points";
    }
}

}  // namespace fdlab
