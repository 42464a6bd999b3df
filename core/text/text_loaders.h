#pragma once
// Loading a user's labelled text corpus, as documents ready for a vocabulary (text_corpus.h):
//
// (a) a folder with one entry per class (at least two; names starting with '.' are ignored):
//     - a sub-folder (its name is the class name) holding the class's documents as files:
//       `*.eml` (an e-mail message, parsed by mime_message.h; the Subject kept as
//       TextCorpusOptions::keepSubject says) and `*.txt` (plain text, UTF-8, or latin-1 when it
//       is not valid UTF-8; a UTF-8 byte-order mark is skipped). Extensions match in any case;
//       other files are ignored. Ids are "class/file name".
//     - a Maildir sub-folder (mailbox.h; it has cur/ or new/): every message in cur/ and new/,
//       ids "class/cur/file name".
//     - an mbox file `CLASS.mbox` (or .mbx, optionally gzip-compressed; mailbox.h), as mail
//       clients export a folder: every message, ids "CLASS/CLASS.mbox#N" (N = 1, 2, ... in the
//       file). E-mail from Maildirs and mbox files goes through the same MIME pipeline as .eml.
//     Documents are ordered by class, then file name (mbox: file order).
// (b) a CSV file (RFC 4180: a header row; fields separated by TextCsvOptions::separator;
//     quoted fields may hold separators, line breaks and doubled quotes "") with a text column
//     and a label column named in TextCsvOptions; other columns are ignored. Ids are "line N"
//     (the 1-based line where the record starts).
// Class names are sorted as for the other loaders (numerically when all are numbers, else
// bytewise). Line ends become "\n".
//
// Errors: DataError with one line naming the file (and the line for CSV and mbox): not a folder,
// fewer than two classes, a class without documents, an mbox file not starting with "From ", a binary or UTF-16 file (NUL bytes or
// a UTF-16 byte-order mark), a missing column, a record with the wrong number of fields, an
// unclosed quote, an empty label, fewer than two classes in a CSV file.

#include "core/text/text_corpus.h"

#include <string>

namespace fdlab {

struct TextCsvOptions {
    /// Header name of the column holding the document text. Non-empty; default "text".
    std::string textColumn = "text";
    /// Header name of the column holding the class label. Non-empty, not textColumn; default
    /// "label".
    std::string labelColumn = "label";
    /// Field separator; not '"', '\r' or '\n'. Default ','.
    char separator = ',';

    /// Throws std::invalid_argument naming the field.
    void validate() const;
};

/// (a): the documents of a class-per-sub-folder corpus.
TextCorpus loadTextFolder(const std::string& folder, const TextCorpusOptions& options = {});

/// (b): the documents of a CSV corpus.
TextCorpus loadTextCsv(const std::string& path, const TextCsvOptions& csv = {}, const TextCorpusOptions& options = {});

}  // namespace fdlab
