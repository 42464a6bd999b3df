// The text pipeline on the bundled SpamAssassin corpus, by hand:
//     ./bench_text [--libsvm PREFIX]
//
// Times, for all 6,046 messages (train 4,232 + test 1,814): gunzip of the two bundle files;
// gunzip + MIME parsing + tokenising (parallel over messages, all hardware threads); fitting
// the vocabulary on the training part; vectorising both parts (binary, min df 2, Subject kept);
// and the one-call loadSpamAssassin() that does it all. Prints sizes, vocabulary, non-zeros and
// the unseen-word reports. With --libsvm, writes PREFIX.train and PREFIX.test (labels -1 = ham,
// +1 = spam; 1-based word indices) for a comparison with liblinear's train/predict.

#include "core/data/bundled.h"
#include "core/data/text_dataset.h"
#include "core/data/loaders.h"
#include "core/text/message_bundle.h"
#include "core/text/spamassassin.h"
#include "core/util/parallel.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>

using namespace fdlab;

namespace {

double seconds(const std::function<void()>& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void writeLibsvm(Dataset d, const std::string& path) {
    d.classNames = {"-1", "+1"};  // liblinear wants numeric labels; ham = class 0 = -1
    saveLibsvm(d, path);
    std::printf("wrote %s (%d rows)\n", path.c_str(), d.rows());
}

}  // namespace

int main(int argc, char** argv) {
    std::string libsvmPrefix;
    for (int a = 1; a < argc; ++a) {
        if (std::strcmp(argv[a], "--libsvm") == 0 && a + 1 < argc) {
            libsvmPrefix = argv[++a];
        } else {
            std::fprintf(stderr, "usage: %s [--libsvm PREFIX]\n", argv[0]);
            return 2;
        }
    }
    const std::string dir = datasetsDir();
    const TextCorpusOptions options;  // binary, min df 2, Subject kept: the bundled setting
    std::printf("threads: %d\n", hardwareThreads());

    std::size_t bytes = 0;
    const double tGunzip = seconds([&] {
        for (bool test : {false, true}) bytes += readMessageBundle(spamAssassinFile(dir, test)).bytes.size();
    });
    std::printf("gunzip both bundles:                 %7.3f s (%zu raw bytes)\n", tGunzip, bytes);

    TextCorpus train, test;
    const double tParse = seconds([&] {
        train = loadSpamAssassinCorpus(dir, false, options);
        test = loadSpamAssassinCorpus(dir, true, options);
    });
    std::size_t textBytes = 0, tokens = 0;
    for (const TextCorpus* c : {&train, &test})
        for (const auto& doc : c->documents.docs) {
            textBytes += doc.text.size();
            tokens += doc.tokens.size();
        }
    std::printf("gunzip + parse + tokenise:           %7.3f s (%d + %d messages, %zu display bytes, %zu tokens)\n",
                tParse, train.size(), test.size(), textBytes, tokens);

    Vocabulary vocabulary;
    const double tFit = seconds([&] { vocabulary = fitVocabulary(train.documents, options, train.source); });
    std::printf("fit vocabulary (training part):      %7.3f s (%d words)\n", tFit, vocabulary.size());

    TextDataset trainSet, testSet;
    const double tVec = seconds([&] {
        trainSet = vectorize(std::move(train), vocabulary, options, "spamassassin");
        testSet = vectorize(std::move(test), vocabulary, options, "spamassassin-test");
    });
    std::printf("vectorise both parts:                %7.3f s\n", tVec);
    std::printf("total parse + tokenise + vectorise:  %7.3f s\n", tParse + tFit + tVec);

    TextSplit split;
    const double tAll = seconds([&] { split = loadSpamAssassin(dir, options); });
    std::printf("loadSpamAssassin() in one call:      %7.3f s\n", tAll);

    for (const TextDataset* t : {&split.train, &split.test}) {
        const auto counts = t->data.classCounts();
        std::printf("%-18s %5d x %d, non-zeros %lld, ham %d, spam %d\n  %s\n", t->data.name.c_str(), t->data.rows(),
                    t->data.features(), static_cast<long long>(t->data.storedValues()), counts[0], counts[1],
                    t->report.summary().c_str());
    }
    if (!libsvmPrefix.empty()) {
        writeLibsvm(split.train.data, libsvmPrefix + ".train");
        writeLibsvm(split.test.data, libsvmPrefix + ".test");
    }
    return 0;
}
