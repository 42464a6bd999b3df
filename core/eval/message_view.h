#pragma once
// The spammer's view: one text instance as the reader sees it, each word with what it
// contributes to the classifier's verdict and whether the attack deleted it.
//
// For a test instance i of a text Dataset (Dataset::documents set), a model and the result of
// an attack on that instance, every token of the display text (core/text/text_documents.h)
// becomes a span: its byte range, its vocabulary word, the contribution of its feature j to
// the margin,
//     binary:      c_j = y * w_j * x_j                    (y = +1 for class 1, -1 for class 0)
//     multi-class: c_j = (w_{y,j} - w_{k,j}) * x_j        (k: strongest competitor on the clean x)
// (sum_j c_j + the bias term is the margin; the worst-case adversary deletes the largest
// positive c_j, Globerson & Roweis 2006), and whether the attack deleted/changed feature j. A
// feature is a word, not an occurrence: every occurrence of a word shows the word's whole c_j,
// and a deleted word is struck in all its occurrences. Tokens outside the vocabulary (unseen in
// training, or cut by the frequency limits) have feature -1 and contribution 0.
//
// The HTML helpers render the same spans for Qt's rich text (QTextBrowser) and for export:
// one diverging scale (blue: against the true class, white: 0, red: for it), deleted words
// struck through in red on a neutral background (their contribution is gone after the attack).
// Everything the text holds is escaped.

#include "core/attacks/attack.h"
#include "core/data/dataset.h"
#include "core/learners/linear_model.h"
#include "core/learners/scorer.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fdlab {

/// One token of the display text.
struct MessageSpan {
    std::uint32_t offset = 0;     ///< byte offset in MessageView::text
    std::uint32_t length = 0;     ///< bytes
    std::string word;             ///< vocabulary word (case-folded token)
    int feature = -1;             ///< feature column, -1 when the word is not in the vocabulary
    double contribution = 0.0;    ///< c_j of the word's feature (see above); 0 for feature -1
    bool deleted = false;         ///< the attack deleted/changed the word's feature

    bool operator==(const MessageSpan&) const = default;
};

/// One instance, one model, one attack.
struct MessageView {
    int instance = -1;
    int label = -1;                  ///< true class index
    std::string id;                  ///< Dataset::instanceId
    std::string text;                ///< display text (valid UTF-8)
    std::vector<MessageSpan> spans;  ///< in text order
    bool hasContributions = false;   ///< false for non-linear models (all contributions 0)
    double scoreBefore = 0.0;        ///< binary: s(x) = b + w.x; multi-class: the margin
    double scoreAfter = 0.0;
    double marginBefore = 0.0;       ///< > 0: classified correctly
    double marginAfter = 0.0;
    int predictedBefore = -1;
    int predictedAfter = -1;
    std::vector<int> deleted;        ///< deleted/changed features, increasing
    int deletedOccurrences = 0;      ///< spans struck
    double maxAbsContribution = 0.0; ///< over the spans (the colour scale's default end)
};

/// The view of test instance `instance`. `attack` is an attack result of which row `attackRow`
/// is this instance attacked (0 for an attack on test.subset({instance}), `instance` for an
/// attack on the whole test set). `linear` gives the contributions (null: a non-linear model,
/// contributions 0); the scores come from `scorer`. Throws std::invalid_argument when the test
/// set has no documents, the indices are out of range or the model's feature count differs.
MessageView buildMessageView(const Dataset& test, int instance, const Scorer& scorer, const LinearModel* linear,
                             const AttackResult& attack, int attackRow = 0);
/// The same for a linear model.
MessageView buildMessageView(const Dataset& test, int instance, const LinearModel& model, const AttackResult& attack,
                             int attackRow = 0);

struct WordWeight {
    int feature = -1;
    std::string word;
    double weight = 0.0;
    int documents = -1;   ///< training documents containing the word; -1 when not given
    bool operator==(const WordWeight&) const = default;
};

/// Weights within this fraction of max_j |w_j| of the extreme weight tie with it. FDROP caps
/// |w_j| through its box-constrained dual and stops at a relative duality gap (1e-4 by default,
/// 1e-3 in the spam presets), so words "at the cap" are equal only up to the solver's
/// tolerance: on spam-fdrop-worst-case, the 27 largest weights lie within 2.0e-5 of the
/// largest (relative) and the 28th is 22% below it. The old 1e-6 called none of them a tie, and
/// their order was the solver's noise.
inline constexpr double kTopWordsTieTolerance = 1e-3;

/// The k words of largest weight (positive: w_j > 0, largest first; they push toward class 1 of
/// a binary model) and of most negative weight (negative: w_j < 0, most negative first), of
/// column `column` of the model. Words come from `words` (feature names; "f<j+1>" past its end).
/// Bounded-weight learners (FDROP caps each |w_j|) tie many words at the extreme weight, most
/// of them rare tokens seen in one or two training messages. Words within
/// kTopWordsTieTolerance * max|w_j| of the extreme therefore count as one tie: they come first,
/// ordered by `documents` (training documents containing each word, most first; e.g.
/// documentFrequency(train)) when it has one entry per feature, else by feature index; the
/// counts say how many share the extreme, so a view can say the list is a sample. Past the tie,
/// words follow by weight (equal weights: lower feature first).
struct TopWords {
    std::vector<WordWeight> positive;
    std::vector<WordWeight> negative;
    int positiveAtTop = 0;      ///< words whose weight ties with the largest
    int negativeAtBottom = 0;   ///< words whose weight ties with the most negative
    double tieTolerance = 0.0;  ///< absolute: kTopWordsTieTolerance * max_j |w_j|
    bool tiesByDocuments = false;   ///< ties are ordered by training document frequency
};
TopWords topWordsByWeight(const LinearModel& model, const std::vector<std::string>& words, int k, int column = 0,
                          const std::vector<int>& documents = {});

/// For each feature, the rows of `d` where it is non-zero (a bag of words: documents containing
/// the word).
std::vector<int> documentFrequency(const Dataset& d);

/// A word searched in a message ("find a word" in the spammer's view) for one model.
struct WordInMessage {
    std::string word;            ///< the query as a vocabulary word (trimmed, foldCase)
    int feature = -1;            ///< its column, -1 when it is not in the vocabulary
    bool hasWeight = false;      ///< false when the model gives no weights (non-linear)
    double weight = 0.0;         ///< w_j: the attack direction (binary w; multi-class w_y - w_k)
    double value = 0.0;          ///< x_j in the clean message
    double contribution = 0.0;   ///< c_j of the message's spans (0 when the word is absent)
    bool deleted = false;        ///< the attack deleted/changed it in this message
    std::vector<int> spans;      ///< indices into v.spans of its occurrences, in text order
};

/// Looks `query` up in the vocabulary `words` (feature names) and in message `v`: the weight
/// w[j] (hasWeight only when w has one entry per word), the value x[j] of the clean message
/// (0 when x is shorter), and its occurrences. A query of several tokens or none finds nothing
/// (feature -1, no spans).
WordInMessage findWordInMessage(const MessageView& v, std::string_view query, const std::vector<std::string>& words,
                                const std::vector<double>& w, const std::vector<double>& x);

// ---- HTML ------------------------------------------------------------------------------------

/// &, <, >, " and ' as entities; C0 controls other than \n and \t dropped.
std::string escapeHtml(std::string_view text);

struct Rgb {
    int r = 255, g = 255, b = 255;
    bool operator==(const Rgb&) const = default;
};
/// The diverging tint of contribution c when |c| = scale is full colour: white at 0, red
/// (c > 0, for the true class) or blue (c < 0, against it), intensity sqrt(|c| / scale) capped
/// at 1 so that the many small contributions stay visible next to a few large ones.
Rgb contributionColor(double c, double scale);
/// "#rrggbb".
std::string hexColor(Rgb c);

struct MessageHtmlOptions {
    std::string learner;          ///< name in the header, e.g. "SVM"
    std::vector<std::string> classNames;
    std::string attackLevel;      ///< e.g. "K = 10"
    std::string attackVerb = "deleted";
    double scale = 0.0;           ///< |c| of full colour; <= 0: the view's maxAbsContribution
};

/// The scale actually used: options.scale, else v.maxAbsContribution, else 1.
double colourScale(const MessageView& v, const MessageHtmlOptions& o);
/// The prediction as a header names it: the class name, or "a tie" when the true class ties with
/// another (margin exactly 0; binary: score 0, e.g. every word deleted under a model without
/// bias). predict() resolves a tie to a class (binary: class 0), possibly the true one, while
/// the error test margin <= 0 counts it wrong: the header said "predicted ham (true ham)" next to
/// "lost by the attack".
std::string predictionName(const std::vector<std::string>& classNames, int predicted, int label, double margin);
/// One line: learner, score before -> after, predicted before -> after (true class), words
/// deleted, and whether the attack made the model lose the instance.
std::string messageHeaderHtml(const MessageView& v, const MessageHtmlOptions& o);
/// The labelled colour legend (swatches from -scale to +scale, the struck-word sample).
std::string messageLegendHtml(const MessageView& v, const MessageHtmlOptions& o);
/// The text itself: one <span> per vocabulary token (tinted, or struck when deleted), escaped
/// text in between, line breaks kept (white-space: pre-wrap).
std::string messageBodyHtml(const MessageView& v, const MessageHtmlOptions& o);
/// A standalone UTF-8 HTML document of several views of the same message side by side (e.g.
/// learner A and B), each with header, legend and body, under a title.
std::string messageHtmlDocument(const std::vector<MessageView>& views, const std::vector<MessageHtmlOptions>& options,
                                const std::string& title);

}  // namespace fdlab
