// The bundled SpamAssassin corpus (see spamassassin.h).

#include "core/text/spamassassin.h"

#include "core/text/message_bundle.h"
#include "core/util/errors.h"

#include <filesystem>

namespace fdlab {

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

}  // namespace fdlab
