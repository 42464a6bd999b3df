#pragma once
// The bundled SpamAssassin public corpus (datasets/spamassassin/, see datasets/README.md):
// 6,046 raw e-mail messages, ham (easy-ham-1, easy-ham-2, hard-ham-1) vs spam (spam-1,
// spam-2), with a fixed 70/30 train/test split (per group, by sha256 of the message id)
// written by datasets/fetch.sh. Parsing and tokenising happen here, at load time.
//
// Both parts have classes {"ham", "spam"} (spam = class 1, the positive class). Vectorised as
// Datasets by core/data/text_dataset.h.

#include "core/text/text_corpus.h"

#include <string>

namespace fdlab {

/// "spamassassin/spamassassin-train.gz" or "...-test.gz" under the datasets directory.
std::string spamAssassinFile(const std::string& datasetsDir, bool test);

/// One part's documents. Throws DataError for a missing or broken file, or classes other than
/// {"ham", "spam"}.
TextCorpus loadSpamAssassinCorpus(const std::string& datasetsDir, bool test, const TextCorpusOptions& options = {});

}  // namespace fdlab
