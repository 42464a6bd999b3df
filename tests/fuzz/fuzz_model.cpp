// libFuzzer harness: a model file of any kind — linear, kernel SVM, classifier (tree, kNN, net,
// AdaBoost, mixture, FeatureBoost) — as `eval` reads it (core/io/model_file), then used to score
// one instance (a model that loads must be usable); and the same bytes through modelFromText.
#include "core/io/model_file.h"
#include "core/learners/scorer.h"
#include "tests/fuzz/fuzz_input.h"

#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace fdlab;
    const std::string path = fuzz::writeInput(fuzz::view(data, size), "model.json");
    fuzz::expectCleanErrors([&] {
        const LoadedModel m = loadModelFile(path);
        const Scorer& s = *m.trained.scorer;
        if (s.features() < 0 || s.outputs() < 1) std::abort();   // a loaded model is usable
        const std::vector<float> x(static_cast<std::size_t>(s.features()), 0.5f);
        std::vector<double> out(static_cast<std::size_t>(s.outputs()));
        s.scores(x, out);
    });
    // The same bytes as text (Python's load_model and unpickling read models this way).
    fuzz::expectCleanErrors([&] {
        const LoadedModel m = modelFromText(std::string(reinterpret_cast<const char*>(data), size), "model text");
        if (m.trained.scorer->outputs() < 1) std::abort();
    });
    return 0;
}
