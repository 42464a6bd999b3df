#include "core/eval/model_data.h"

#include "core/io/json_file.h"

#include <stdexcept>

namespace fdlab {

using json = nlohmann::json;

namespace {

struct RecordedSplit {
    SplitSpec split;
    std::uint64_t seed = 1;
    bool testFile = false;
};

std::string number(double v) { return json(v).dump(); }

RecordedSplit parseSplit(const json& j, const std::string& path) {
    const JsonReader r(path);
    RecordedSplit out;
    const std::string kind = r.string(r.field(j, "split", "kind"), "split.kind");
    SplitSpec& s = out.split;
    if (kind == "fraction") {
        s.kind = SplitSpec::Kind::Fraction;
        s.testFraction = r.number(r.field(j, "split", "test"), "split.test");
        s.validationFraction = r.number(r.field(j, "split", "validation"), "split.validation");
    } else if (kind == "counts") {
        s.kind = SplitSpec::Kind::Counts;
        s.perClassTrain = r.integer(r.field(j, "split", "train"), "split.train");
        s.perClassValidation = r.integer(r.field(j, "split", "validation"), "split.validation");
        s.perClassTest = r.integer(r.field(j, "split", "test"), "split.test");
        s.validationFraction = 0.0;
    } else if (kind == "kfold") {
        s.kind = SplitSpec::Kind::KFold;
        s.folds = r.integer(r.field(j, "split", "folds"), "split.folds");
        s.validationFraction = r.number(r.field(j, "split", "validation"), "split.validation");
    } else {
        r.fail("split.kind", "expected fraction, counts or kfold, got '" + kind + "'");
    }
    // The same ranges an experiment's split must satisfy (ExperimentSpec::validate): a hand-edited
    // record with 0 folds used to divide by zero in prepareRepetition.
    if (s.kind == SplitSpec::Kind::KFold && s.folds < 2) r.fail("split.folds", "must be >= 2");
    if (s.kind == SplitSpec::Kind::Fraction && !(s.testFraction >= 0 && s.testFraction < 1))
        r.fail("split.test", "must be in [0, 1)");
    if (!(s.validationFraction >= 0 && s.validationFraction < 1)) r.fail("split.validation", "must be in [0, 1)");
    if (s.kind == SplitSpec::Kind::Counts &&
        (s.perClassTrain < 1 || s.perClassValidation < 0 || s.perClassTest < 0))
        r.fail("split", "counts must be train >= 1, validation >= 0, test >= 0");
    const json& seed = r.field(j, "split", "seed");
    if (!seed.is_number_unsigned()) r.fail("split.seed", "expected a whole number >= 0");
    out.seed = seed.get<std::uint64_t>();
    const json& testFile = r.field(j, "split", "test_file");
    if (!testFile.is_boolean()) r.fail("split.test_file", "expected true or false");
    out.testFile = testFile.get<bool>();
    return out;
}

std::string describe(const SplitSpec& s, std::uint64_t seed) {
    std::string d;
    switch (s.kind) {
    case SplitSpec::Kind::Fraction:
        d = "test fraction " + number(s.testFraction) + ", validation fraction " + number(s.validationFraction);
        break;
    case SplitSpec::Kind::Counts:
        d = "per class " + std::to_string(s.perClassTrain) + " train, " + std::to_string(s.perClassValidation) +
            " validation, " + std::to_string(s.perClassTest) + " test";
        break;
    case SplitSpec::Kind::KFold:
        d = "fold 1 of " + std::to_string(s.folds) + "-fold, validation fraction " + number(s.validationFraction);
        break;
    }
    return d + ", seed " + std::to_string(seed);
}

}  // namespace

json splitRecord(const ExperimentSpec& spec, bool testFile) {
    const SplitSpec& s = spec.split;
    json j;
    switch (s.kind) {
    case SplitSpec::Kind::Fraction:
        j = {{"kind", "fraction"}, {"test", s.testFraction}, {"validation", s.validationFraction}};
        break;
    case SplitSpec::Kind::Counts:
        j = {{"kind", "counts"}, {"train", s.perClassTrain}, {"validation", s.perClassValidation}, {"test", s.perClassTest}};
        break;
    case SplitSpec::Kind::KFold:
        j = {{"kind", "kfold"}, {"folds", s.folds}, {"validation", s.validationFraction}};
        break;
    }
    j["seed"] = spec.seed;
    j["test_file"] = testFile;
    return j;
}

ExperimentSpec specForModel(ExperimentSpec spec, const LoadedModel& model, const ModelDataOptions& given,
                            const std::string& path, std::vector<std::string>& warnings) {
    const TrainingRecord& t = model.training;
    if (t.preprocessing) {
        const Scaling recorded = t.preprocessing->scaling;
        if (given.scaling && *given.scaling != recorded)
            throw std::invalid_argument(path + ": the model was trained with --scale " + toString(recorded) +
                                        (recorded == Scaling::None ? std::string(" (the data is used unscaled)")
                                                                   : std::string(" (its fitted scaling is applied to the data)")) +
                                        "; --scale " + toString(*given.scaling) + " contradicts it: leave --scale out");
        spec.preprocessing = recorded;
    } else {
        warnings.push_back(path + ": the file records no preprocessing (written by an older FDLab): --scale " +
                           toString(spec.preprocessing) +
                           " is refitted on the training part; the numbers hold only if the model was trained so");
    }
    if (t.split.is_object()) {
        const RecordedSplit rs = parseSplit(t.split, path);
        if (given.testFraction &&
            (rs.split.kind != SplitSpec::Kind::Fraction || *given.testFraction != rs.split.testFraction))
            throw std::invalid_argument(path + ": the model was trained on the split " + describe(rs.split, rs.seed) +
                                        "; --test-fraction " + number(*given.testFraction) +
                                        " contradicts it: leave --test-fraction out");
        if (given.seed && *given.seed != rs.seed)
            throw std::invalid_argument(path + ": the model was trained with --seed " + std::to_string(rs.seed) +
                                        " (the seed of its split); --seed " + std::to_string(*given.seed) +
                                        " contradicts it: leave --seed out");
        if (rs.testFile && !spec.testDataset)
            throw std::invalid_argument(path + ": the model was trained on all rows of its data and tested on a "
                                               "separate file: give that file as --test-data");
        spec.split = rs.split;
        spec.seed = rs.seed;
    } else {
        warnings.push_back(path + (t.hasSplitField ? ": the model was saved without a split (trained on data given directly)"
                                                   : ": the file records no split (written by an older FDLab)") +
                           ": using " + describe(spec.split, spec.seed) + " from the options");
    }
    return spec;
}

PreparedSplit prepareForModel(TaskData data, const ExperimentSpec& spec, const LoadedModel& model,
                              const std::string& path, std::vector<std::string>& warnings) {
    // Classes in the model's order before the split: the stratified split then sees training's labels.
    data.data = inModelClassOrder(model, std::move(data.data));
    checkModelFits(model, data.data, path);
    if (data.test) {
        *data.test = inModelClassOrder(model, std::move(*data.test));
        checkModelFits(model, *data.test, path);
    }
    const TrainingRecord& t = model.training;
    const Preprocessor* fitted = t.preprocessing ? &*t.preprocessing : nullptr;
    PreparedSplit ps = prepareRepetition(data, spec, 0, fitted);
    if (t.fingerprint.empty()) {
        warnings.push_back(path + ": the file records no training fingerprint (written by an older FDLab, or weights made outside "
                                  "FDLab's training, e.g. the Python module's Model.linear): "
                                  "nothing checks that the test part holds no training rows");
        return ps;
    }
    // The model's training part: this split's, unless a test file stands in for a test part the
    // model's own split made (then the data's split is rebuilt without it).
    const bool trainedWithTestFile = t.split.is_object() ? t.split.at("test_file").get<bool>() : data.test.has_value();
    std::optional<PreparedSplit> own;
    if (data.test && !trainedWithTestFile) {
        data.test.reset();
        own = prepareRepetition(data, spec, 0, fitted);
    }
    const Dataset& trainPart = own ? own->train : ps.train;
    const std::string got = fingerprintHex(trainPart.fingerprint());
    if (got == t.fingerprint) return ps;
    const std::string what = "the training part of this data (" + std::to_string(trainPart.rows()) + " rows under " +
                             describe(spec.split, spec.seed) + ") is not the data the model was trained on (fingerprint " +
                             got + ", the model records " + t.fingerprint + ")";
    if (t.hasSplitField && t.split.is_null()) {   // no split to rebuild: a difference proves nothing
        warnings.push_back(path + ": " + what);
        return ps;
    }
    throw std::invalid_argument(path + ": " + what +
                                ": another data file, task, label, split or scaling, so the test part may hold rows the "
                                "model was trained on. Give the options it was trained with; to evaluate it on other "
                                "data, give that data as --test-data next to its training data");
}

const LearnerSpec& learnerById(const ExperimentSpec& spec, const std::string& id) {
    for (const LearnerSpec& l : spec.learners)
        if (l.id == id) return l;
    throw std::invalid_argument("no learner \"" + id + "\" in the experiment");
}

nlohmann::json paramsAtRepetition0(const ExperimentResult* r, const LearnerSpec& l) {
    std::vector<const CurvePoint*> pts;
    if (r)
        for (const CurvePoint& p : r->points)
            if (p.learner == l.id && p.repetition == 0) pts.push_back(&p);
    if (!pts.empty()) return pts[pts.size() / 2]->params;
    return gridCandidates(l).front();
}

void exportLearnerModel(const ExperimentSpec& spec, const LearnerSpec& l, const nlohmann::json& params,
                        const std::string& path, const RunControl& rc) {
    const TaskData data = loadTaskData(spec);
    PreparedSplit split = prepareRepetition(data, spec, 0);
    TrainedModel m = trainLearner(l.learner, split.train, params, rc);
    if (!m.scorer || !m.fit.ok()) throw std::runtime_error(l.id + ": training failed: " + m.fit.message);
    saveTrainedModel(path, m, split.train, l.learner, completeParams(l.learner, params), split.preprocessor,
                     splitRecord(spec, spec.testDataset.has_value()));
}

}  // namespace fdlab
