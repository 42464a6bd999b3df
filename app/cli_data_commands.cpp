// fdlab-cli datasets / info / convert.

#include "cli_args.h"
#include "cli_commands.h"

#include "core/data/bundled.h"
#include "core/data/loaders.h"
#include "core/data/summary.h"
#include "core/io/json_file.h"
#include "core/text/message_bundle.h"
#include "core/text/mime_message.h"
#include "core/text/tokenizer.h"
#include "core/util/atomic_file.h"
#include "core/util/errors.h"
#include "core/util/file_bytes.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

namespace fdlab::cli {

namespace {

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

std::string classList(const DatasetSummary& s) {
    std::string out;
    for (std::size_t c = 0; c < s.classNames.size(); ++c)
        out += (c ? " " : "") + s.classNames[c] + ":" + std::to_string(s.classCounts[c]);
    return out;
}

int runDatasets(const std::vector<std::string>& argv) {
    const Args args(argv, {"format"}, {});
    if (!args.positional().empty()) throw UsageError("datasets takes no positional argument");
    const std::string format = args.choice("format", {"text", "csv", "json"}, "text");

    nlohmann::json all = nlohmann::json::array();
    if (format == "csv") std::cout << "name,kind,instances,features,classes,image_shape,title\n";
    if (format == "text") std::cout << "Bundled datasets in " << datasetsDir() << "\n\n";
    for (const BundledInfo& info : bundledDatasets()) {
        const Dataset d = loadBundled(info.name);
        const DatasetSummary s = summarize(d, info.synthetic ? "generator" : info.files);
        const std::string shape = s.imageShape ? std::to_string(s.imageShape->rows) + "x" +
                                                     std::to_string(s.imageShape->cols)
                                               : "";
        if (format == "json") {
            nlohmann::json j = toJson(s);
            j["title"] = info.title;
            j["files"] = info.files;
            j["licence"] = info.licence;
            j["synthetic"] = info.synthetic;
            all.push_back(j);
        } else if (format == "csv") {
            std::cout << csvField(info.name) << ',' << (info.synthetic ? "generator" : "file") << ','
                      << s.instances << ',' << s.features << ',' << csvField(classList(s)) << ',' << shape
                      << ',' << csvField(info.title) << '\n';
        } else {
            std::cout << info.name << (info.synthetic ? "  (generator)" : "") << "\n  " << info.title << "\n  "
                      << s.instances << " instances x " << s.features << " features"
                      << (shape.empty() ? "" : ", image " + shape) << "\n  classes " << classList(s) << "\n\n";
        }
    }
    if (format == "json") std::cout << jsonText(all) << '\n';
    return Ok;
}

/// The load options info and convert share: --label, --labels, --class, --missing, --text-column,
/// --weighting, --min-df.
const std::set<std::string> kLoadOptions = {"label", "labels", "class", "missing", "text-column", "weighting", "min-df"};

LoadOptions loadOptionsFrom(const Args& args) {
    LoadOptions opt;
    opt.labelColumn = args.value("label", "");
    opt.idxLabels = args.value("labels", "");
    opt.classAttribute = args.value("class", "");
    const std::string missing = args.choice("missing", {"impute", "drop", "error"}, "impute");
    opt.missing = missing == "drop" ? MissingPolicy::DropRow
                : missing == "error" ? MissingPolicy::Error
                                     : MissingPolicy::Impute;
    opt.textColumn = args.value("text-column", "");
    opt.weighting = args.choice("weighting", {"binary", "tf", "tf-idf"}, "binary");
    const std::string minDf = args.value("min-df", "2");
    try {
        std::size_t used = 0;
        opt.minDocumentFrequency = std::stoi(minDf, &used);
        if (used != minDf.size() || opt.minDocumentFrequency < 1) throw std::invalid_argument(minDf);
    } catch (const std::exception&) {
        throw UsageError("--min-df expects an integer >= 1, got '" + minDf + "'");
    }
    return opt;
}

/// --labels with a format that carries its own labels is a usage error, not something to ignore.
void checkLabelsOption(const std::string& path, const LoadOptions& opt) {
    if (const std::string why = labelsFileProblem(path, opt); !why.empty()) throw UsageError("--labels: " + why);
}

std::set<std::string> with(std::set<std::string> a, const std::set<std::string>& b) {
    a.insert(b.begin(), b.end());
    return a;
}

int runInfo(const std::vector<std::string>& argv) {
    const Args args(argv, with({"format"}, kLoadOptions), {});
    if (args.positional().size() != 1) throw UsageError("info needs exactly one FILE");
    const std::string format = args.choice("format", {"text", "json"}, "text");
    const std::string path = args.positional()[0];
    const LoadOptions opt = loadOptionsFrom(args);
    checkLabelsOption(path, opt);
    const bool text = isTextCorpus(path, opt);
    const std::string kind = text ? "text corpus" : toString(guessFormat(path));
    const Dataset d = loadDataFile(path, opt);
    const DatasetSummary s = summarize(d, kind);
    if (format == "json") std::cout << jsonText(toJson(s)) << '\n';
    else std::cout << toText(s);
    return Ok;
}

/// The vocabulary words of text, in order (what the bag of words counts).
nlohmann::json wordsOf(std::string_view text) {
    nlohmann::json words = nlohmann::json::array();
    for (const TokenSpan& t : tokenize(text)) words.push_back(foldCase(text.substr(t.offset, t.length)));
    return words;
}

/// One JSON line; invalid UTF-8 (only possible in --tokenize input) is replaced, never fatal.
void printLine(const nlohmann::json& j) {
    std::cout << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

void printMessage(const std::string& source, const std::string& id, std::string_view raw) {
    const MessageText m = messageText(raw, false);
    nlohmann::json j;
    j["source"] = source;
    j["id"] = id;
    j["subject"] = m.subject;
    j["body"] = m.text;
    j["subject_words"] = wordsOf(m.subject);
    j["body_words"] = wordsOf(m.text);
    printLine(j);
}

std::string readStdin() {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    return ss.str();
}

int runMessage(const std::vector<std::string>& argv) {
    const Args args(argv, {}, {"bundle", "tokenize"});
    if (args.positional().empty()) throw UsageError("message needs at least one FILE");
    if (args.has("bundle") && args.has("tokenize")) throw UsageError("--bundle and --tokenize exclude each other");
    for (const std::string& path : args.positional()) {
        if (args.has("tokenize")) {
            const std::string input = path == "-" ? readStdin() : detail::readFileBytes(path);
            std::istringstream lines(input);
            std::string line;
            for (long n = 1; std::getline(lines, line); ++n) {
                if (line.empty()) continue;
                // Through parseJsonText (depth and NUL checks): 200,000 nested brackets in "id"
                // crashed the printing of the line, and text after a NUL was ignored.
                nlohmann::json in;
                try {
                    in = parseJsonText(line, "line");   // "line: byte B: <what is wrong>"
                } catch (const DataError& e) {
                    throw DataError(path, n, "expected a JSON object with a string \"text\"; " + std::string(e.what()));
                }
                if (!in.is_object() || !in.contains("text") || !in["text"].is_string())
                    throw DataError(path, n, "expected a JSON object with a string \"text\"");
                nlohmann::json out;
                out["id"] = in.value("id", nlohmann::json());
                out["words"] = wordsOf(in["text"].get<std::string>());
                printLine(out);
            }
        } else if (args.has("bundle")) {
            const MessageBundle b = readMessageBundle(path);
            for (const BundledMessage& m : b.messages) printMessage(path, m.id, m.raw);
        } else {
            const std::string raw = path == "-" ? readStdin() : detail::readFileBytes(path);
            printMessage(path, path, raw);
        }
    }
    return Ok;
}

/// First line of the OUT.classes file convert writes beside a LIBSVM file with renamed classes.
constexpr const char* kClassesHeader = "# LIBSVM label\tclass name";

/// Removes `path` when it is an OUT.classes file an earlier convert wrote (its first line says so),
/// so that it does not describe a LIBSVM file whose labels are now the class names. A file of the
/// same name with other contents is the user's: kept. True when removed.
bool removeStaleClassesFile(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return false;
    std::ifstream in(path);
    std::string first;
    std::getline(in, first);
    if (!first.starts_with(kClassesHeader)) return false;
    in.close();
    if (!std::filesystem::remove(path, ec))
        throw std::runtime_error(path + ": cannot remove the stale class mapping of an earlier convert: " + ec.message());
    return true;
}

int runConvert(const std::vector<std::string>& argv) {
    const Args args(argv, with({"to"}, kLoadOptions), {});
    if (args.positional().size() != 2) throw UsageError("convert needs IN and OUT (fdlab-cli convert IN --to FORMAT OUT)");
    if (!args.has("to")) throw UsageError("convert needs --to libsvm|csv|npz");
    const std::string to = args.choice("to", {"libsvm", "csv", "npz"}, "");
    const std::string in = args.positional()[0], out = args.positional()[1];
    checkOutputPath(out, "OUT");
    if (std::filesystem::exists(in) && std::filesystem::exists(out) && std::filesystem::equivalent(in, out))
        throw UsageError("convert: OUT is IN (" + out + "); choose another output file");
    // IN is a file or folder, or else the name of a bundled dataset.
    const auto bundled = bundledDatasets();
    const bool isBundled = !std::filesystem::exists(in) &&
                           std::any_of(bundled.begin(), bundled.end(), [&](const BundledInfo& b) { return b.name == in; });
    const LoadOptions opt = loadOptionsFrom(args);
    if (isBundled && !opt.idxLabels.empty()) throw UsageError("--labels: " + in + " is a bundled dataset, which has its labels");
    if (!isBundled) checkLabelsOption(in, opt);
    const Dataset d = isBundled ? loadBundled(in) : loadDataFile(in, opt);
    if (to == "libsvm") {
        saveLibsvm(d, out);
        // LIBSVM labels are numbers: when the class names are not, say how they were renamed and
        // keep the mapping beside the file (a comment line would break LIBSVM's own tools).
        const std::vector<std::string> labels = libsvmLabels(d);
        const bool beside = isRegularFileTarget(out);   // no OUT.classes beside /dev/stdout or a pipe
        if (labels != d.classNames) {
            std::string table, shown;
            for (std::size_t c = 0; c < labels.size(); ++c) {
                table += labels[c] + '\t' + d.classNames[c] + '\n';
                if (c < 10) shown += (c ? ", " : "") + labels[c] + " = " + d.classNames[c];
            }
            if (beside)
                writeFileAtomically(out + ".classes", std::string(kClassesHeader) + " (fdlab-cli convert " + in + ")\n" + table);
            std::cerr << "convert: LIBSVM labels are numbers, so the classes are written as " << shown
                      << (labels.size() > 10 ? ", ..." : "")
                      << (beside ? "; the mapping is in " + out + ".classes\n"
                                 : " (" + out + " is not a regular file: no OUT.classes is written beside it)\n");
        } else if (beside && removeStaleClassesFile(out + ".classes")) {
            std::cerr << "convert: removed " << out << ".classes of an earlier convert (these class names are the labels)\n";
        }
    } else if (to == "csv") saveCsv(d, out);
    else saveNpz(d, out);
    std::cerr << "wrote " << out << ": " << d.rows() << " instances x " << d.features() << " features ("
              << (d.isSparse() ? "sparse, " + std::to_string(d.storedValues()) + " non-zeros" : std::string("dense")) << "), "
              << d.numClasses() << " classes\n";
    return Ok;
}

}  // namespace

const char* const kLoadHelp =
    "The format comes from the extension: .csv, .arff, .npy/.npz, *-ubyte[.gz]/.idx*, else LIBSVM.\n"
    "A FOLDER is a text corpus: one entry per class, each a sub-folder of .txt/.eml files, a Maildir\n"
    "(cur/, new/) or an mbox file CLASS.mbox; a CSV with --text-column is one too.\n"
    "  --label        CSV label column (default: the last column)\n"
    "  --labels FILE  labels of IDX images (default: derived from the images file name) or of X.npy / an\n"
    "                 .npz (replacing its 'y' member; default: 'y', else the file with X replaced by y:\n"
    "                 X.npy -> y.npy); other formats hold their labels, and --labels with them is an error\n"
    "  --class        ARFF class attribute (default: the last attribute)\n"
    "  --missing      ARFF '?' values: impute mean/mode (default), drop the row, or error\n"
    "  --text-column COL, --weighting binary|tf|tf-idf, --min-df N (default 2): text corpora\n";

std::vector<Command> dataCommands() {
    return {
        {"datasets", "list the bundled datasets and generators with sizes and classes",
         "usage: fdlab-cli datasets [--format text|csv|json]\n"
         "Lists every bundled dataset (datasets/, see datasets/README.md) and synthetic generator\n"
         "with its number of instances, features, classes (name:count) and image shape.\n"
         "The datasets directory is $FDLAB_DATA_DIR, else the source tree's datasets/.\n",
         runDatasets},
        {"info", "summarise any data file (IDX, CSV, LIBSVM, ARFF, NumPy) or text corpus",
         "usage: fdlab-cli info FILE|FOLDER [--format text|json] LOAD_OPTIONS\n"
         "Prints format, instances, features, classes with counts, image shape and value range.\n"
         + std::string(kLoadHelp) +
         "A malformed file gives a one-line error naming the file and line, and exit code 3.\n",
         runInfo},
        {"message", "print the text and words FDLab extracts from e-mail messages",
         "usage: fdlab-cli message FILE... [--bundle | --tokenize]\n"
         "Parses each FILE (- for standard input) as one raw e-mail message and prints one JSON line:\n"
         "  {\"source\", \"id\", \"subject\", \"body\", \"subject_words\", \"body_words\"}\n"
         "subject is the decoded Subject, body the decoded display text of the body (MIME parts,\n"
         "transfer encodings, charsets and HTML to text, as the text corpora read it), *_words their\n"
         "vocabulary words in order (the tokenizer and case folding of the bag of words).\n"
         "  --bundle    each FILE is a message bundle (datasets/spamassassin/*.gz): one line per message\n"
         "  --tokenize  each FILE holds JSON lines {\"id\", \"text\"}: prints {\"id\", \"words\"} for each\n"
         "A malformed file gives a one-line error naming the file, and exit code 3.\n",
         runMessage},
        {"convert", "write any loadable data (text corpora too) as LIBSVM, CSV or NumPy .npz",
         "usage: fdlab-cli convert IN --to libsvm|csv|npz OUT LOAD_OPTIONS\n"
         "IN is a data file, a text corpus or a bundled dataset's name; OUT is written atomically.\n"
         "Sparse data (text corpora, LIBSVM) stays sparse: npz holds scipy.sparse.save_npz's csr members\n"
         "(scipy.sparse.load_npz reads it) plus 'y', the labels; a dense set is 'X' (float32) and 'y'.\n"
         "'y' holds the class names (int64 when all are integers); 'feature_names' the words of a corpus.\n"
         "CSV writes every value (a header of feature names, the label last); LIBSVM only non-zeros.\n"
         "LIBSVM labels are numbers: numeric class names are kept; other names become -1/+1 (two classes,\n"
         "in sorted order) or 0, 1, ... (more), said on stderr, with the mapping written to OUT.classes\n"
         "(one line 'LABEL<TAB>CLASS' per class).\n"
         + std::string(kLoadHelp) +
         "Bad input: a one-line error naming the file, exit code 3.\n",
         runConvert},
    };
}

}  // namespace fdlab::cli
