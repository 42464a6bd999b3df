#include "core/eval/message_view.h"

#include "core/text/text_documents.h"
#include "core/text/tokenizer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <stdexcept>

namespace fdlab {

namespace {

std::string fmt(double x, int decimals = 3) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
    return buf;
}

/// Signed, with a real minus sign (U+2212) so that columns of numbers line up in the legend.
std::string signedFmt(double x, int decimals = 3) {
    if (x < 0) return "\u2212" + fmt(-x, decimals);
    return (x > 0 ? "+" : "") + fmt(x, decimals);
}

std::string className(const std::vector<std::string>& names, int k) {
    if (k < 0 || static_cast<std::size_t>(k) >= names.size()) return "?";
    return names[static_cast<std::size_t>(k)];
}

}  // namespace

std::string predictionName(const std::vector<std::string>& classNames, int predicted, int /*label*/, double margin) {
    // The label is not needed: the margin is the true class's, so 0 already says it ties.
    if (margin == 0.0) return "a tie";
    if (std::isnan(margin)) return "no class (the score is not a number)";
    return className(classNames, predicted);
}

MessageView buildMessageView(const Dataset& test, int instance, const Scorer& scorer, const LinearModel* linear,
                             const AttackResult& attack, int attackRow) {
    if (!test.documents) throw std::invalid_argument("message view: the test set \"" + test.name + "\" has no text documents");
    if (instance < 0 || instance >= test.rows())
        throw std::invalid_argument("message view: instance " + std::to_string(instance) + " out of range");
    if (attackRow < 0 || attackRow >= attack.attacked.rows() || static_cast<std::size_t>(attackRow) >= attack.deleted.size())
        throw std::invalid_argument("message view: attack row " + std::to_string(attackRow) + " out of range");
    const int n = test.features();
    if (scorer.features() != n || (linear && linear->features() != n))
        throw std::invalid_argument("message view: the model has " + std::to_string(scorer.features()) +
                                    " features, the test set " + std::to_string(n));
    const int source = test.sourceRow(instance);
    if (source < 0 || static_cast<std::size_t>(source) >= test.documents->docs.size())
        throw std::invalid_argument("message view: no document for instance " + std::to_string(instance));
    const TextDocument& doc = test.documents->docs[static_cast<std::size_t>(source)];

    MessageView v;
    v.instance = instance;
    v.label = test.labels.at(static_cast<std::size_t>(instance));
    v.id = test.instanceId(instance);
    v.text = doc.text;
    v.deleted = attack.deleted[static_cast<std::size_t>(attackRow)];
    std::sort(v.deleted.begin(), v.deleted.end());

    // Scores, margins and predictions, clean and attacked.
    const RowView x = test.row(instance);
    const RowView xa = attack.attacked.row(attackRow);
    std::vector<double> s0(static_cast<std::size_t>(scorer.outputs())), s1(s0.size());
    scorer.scoresRow(x, s0);
    scorer.scoresRow(xa, s1);
    v.marginBefore = Scorer::marginOf(s0, v.label);
    v.marginAfter = Scorer::marginOf(s1, v.label);
    v.scoreBefore = s0.size() == 1 ? s0[0] : v.marginBefore;
    v.scoreAfter = s1.size() == 1 ? s1[0] : v.marginAfter;
    v.predictedBefore = scorer.predict(x);
    v.predictedAfter = scorer.predict(xa);

    // The direction whose per-feature terms sum (with the bias) to the margin.
    Eigen::VectorXd dir;
    if (linear) {
        v.hasContributions = true;
        if (linear->isBinary()) {
            dir = linear->w(0) * static_cast<double>(test.y(instance));
        } else {
            int best = -1;
            for (int k = 0; k < static_cast<int>(s0.size()); ++k)
                if (k != v.label && (best < 0 || s0[static_cast<std::size_t>(k)] > s0[static_cast<std::size_t>(best)])) best = k;
            dir = linear->W.col(v.label) - linear->W.col(best);
        }
    }

    v.spans.reserve(doc.tokens.size());
    for (const TextToken& t : doc.tokens) {
        MessageSpan s;
        s.offset = t.offset;
        s.length = t.length;
        s.word = foldCase(doc.tokenText(t));
        // Guard against a test set whose columns are not the vocabulary (e.g. a selection of
        // features): a token counts only when its column is named by its own word.
        const int j = t.vocabIndex;
        if (j >= 0 && j < n &&
            (test.featureNames.size() != static_cast<std::size_t>(n) || test.featureNames[static_cast<std::size_t>(j)] == s.word)) {
            s.feature = j;
            if (linear) s.contribution = dir(j) * static_cast<double>(x.value(j));
            s.deleted = std::binary_search(v.deleted.begin(), v.deleted.end(), j);
        }
        v.deletedOccurrences += s.deleted ? 1 : 0;
        v.maxAbsContribution = std::max(v.maxAbsContribution, std::abs(s.contribution));
        v.spans.push_back(std::move(s));
    }
    return v;
}

MessageView buildMessageView(const Dataset& test, int instance, const LinearModel& model, const AttackResult& attack,
                             int attackRow) {
    const LinearScorer scorer(model);
    return buildMessageView(test, instance, scorer, &model, attack, attackRow);
}

WordInMessage findWordInMessage(const MessageView& v, std::string_view query, const std::vector<std::string>& words,
                                const std::vector<double>& w, const std::vector<double>& x) {
    WordInMessage out;
    // The tokenizer's rule, so that "Pills," finds "pills" and "don't" finds nothing.
    const std::vector<TokenSpan> tokens = tokenize(query);
    if (tokens.size() != 1) return out;
    out.word = foldCase(query.substr(tokens[0].offset, tokens[0].length));
    const auto it = std::find(words.begin(), words.end(), out.word);
    if (it == words.end()) return out;
    out.feature = static_cast<int>(it - words.begin());
    const auto j = static_cast<std::size_t>(out.feature);
    out.hasWeight = w.size() == words.size();
    out.weight = out.hasWeight ? w[j] : 0.0;
    out.value = j < x.size() ? x[j] : 0.0;
    for (std::size_t s = 0; s < v.spans.size(); ++s)
        if (v.spans[s].feature == out.feature) {
            out.spans.push_back(static_cast<int>(s));
            out.contribution = v.spans[s].contribution;
            out.deleted = v.spans[s].deleted;
        }
    out.deleted = out.deleted || std::binary_search(v.deleted.begin(), v.deleted.end(), out.feature);
    return out;
}

TopWords topWordsByWeight(const LinearModel& model, const std::vector<std::string>& words, int k, int column,
                          const std::vector<int>& documents) {
    if (column < 0 || column >= model.W.cols()) throw std::invalid_argument("top words: no column " + std::to_string(column));
    TopWords out;
    if (k <= 0) return out;
    const int n = model.features();
    const bool byDocuments = documents.size() == static_cast<std::size_t>(n);
    auto w = [&](int j) { return model.W(j, column); };
    std::vector<int> pos, neg;
    double maxAbs = 0.0, hi = 0.0, lo = 0.0;
    for (int j = 0; j < n; ++j) {
        if (w(j) > 0) pos.push_back(j);
        if (w(j) < 0) neg.push_back(j);
        maxAbs = std::max(maxAbs, std::abs(w(j)));
        hi = std::max(hi, w(j));
        lo = std::min(lo, w(j));
    }
    const double tol = kTopWordsTieTolerance * maxAbs;
    auto docs = [&](int j) { return byDocuments ? documents[static_cast<std::size_t>(j)] : -1; };
    auto take = [&](std::vector<int>& idx, double extreme, std::vector<WordWeight>& dst) {
        const bool largest = extreme > 0;
        auto tied = [&](int j) { return std::abs(w(j) - extreme) <= tol; };
        const auto m = std::min<std::size_t>(static_cast<std::size_t>(k), idx.size());
        std::partial_sort(idx.begin(), idx.begin() + static_cast<std::ptrdiff_t>(m), idx.end(), [&](int a, int b) {
            const bool ta = tied(a), tb = tied(b);
            if (ta != tb) return ta;
            if (ta && docs(a) != docs(b)) return docs(a) > docs(b);
            if (!ta && w(a) != w(b)) return largest ? w(a) > w(b) : w(a) < w(b);
            return a < b;
        });
        for (std::size_t p = 0; p < m; ++p) {
            const int j = idx[p];
            dst.push_back({j, static_cast<std::size_t>(j) < words.size() ? words[static_cast<std::size_t>(j)] : "f" + std::to_string(j + 1),
                           w(j), docs(j)});
        }
        return static_cast<int>(std::count_if(idx.begin(), idx.end(), tied));
    };
    out.positiveAtTop = take(pos, hi, out.positive);
    out.negativeAtBottom = take(neg, lo, out.negative);
    out.tieTolerance = tol;
    out.tiesByDocuments = byDocuments;
    return out;
}

std::vector<int> documentFrequency(const Dataset& d) {
    std::vector<int> df(static_cast<std::size_t>(d.features()), 0);
    for (int i = 0; i < d.rows(); ++i) d.row(i).forEachNonZero([&](int j, float) { ++df[static_cast<std::size_t>(j)]; });
    return df;
}

std::string escapeHtml(std::string_view text) {
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    for (const char ch : text) {
        switch (ch) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default:
            if (static_cast<unsigned char>(ch) < 0x20 && ch != '\n' && ch != '\t') break;   // \r, \f, NUL...
            out += ch;
        }
    }
    return out;
}

Rgb contributionColor(double c, double scale) {
    if (!(scale > 0) || !std::isfinite(c) || c == 0.0) return {};
    const double t = std::min(1.0, std::sqrt(std::abs(c) / scale));
    // ColorBrewer RdBu ends, a little lighter than the darkest so that black text stays legible.
    const Rgb end = c > 0 ? Rgb{222, 77, 66} : Rgb{72, 132, 196};
    auto mix = [t](int e) { return static_cast<int>(std::lround(255.0 + t * (e - 255.0))); };
    return {mix(end.r), mix(end.g), mix(end.b)};
}

std::string hexColor(Rgb c) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r & 0xff, c.g & 0xff, c.b & 0xff);
    return buf;
}

double colourScale(const MessageView& v, const MessageHtmlOptions& o) {
    if (o.scale > 0) return o.scale;
    if (v.maxAbsContribution > 0) return v.maxAbsContribution;
    return 1.0;
}

namespace {

const char* kStruckStyle = "text-decoration: line-through; color: #d00000; background-color: #eeeeee; font-weight: bold";

}  // namespace

std::string messageHeaderHtml(const MessageView& v, const MessageHtmlOptions& o) {
    const bool binary = o.classNames.size() == 2;
    std::string h = "<b>" + escapeHtml(o.learner.empty() ? std::string("model") : o.learner) + "</b> &nbsp; ";
    h += binary ? "score s(x) " : "margin ";
    h += signedFmt(v.scoreBefore) + " &rarr; " + signedFmt(v.scoreAfter);
    h += " &nbsp;&middot;&nbsp; predicted <b>" +
         escapeHtml(predictionName(o.classNames, v.predictedBefore, v.label, v.marginBefore)) + "</b> &rarr; <b>" +
         escapeHtml(predictionName(o.classNames, v.predictedAfter, v.label, v.marginAfter)) + "</b> (true " + escapeHtml(className(o.classNames, v.label)) + ")";
    const std::size_t words = v.deleted.size();
    h += " &nbsp;&middot;&nbsp; " + std::to_string(words) + (words == 1 ? " word " : " words ") + escapeHtml(o.attackVerb);
    if (!o.attackLevel.empty()) h += " at " + escapeHtml(o.attackLevel);
    h += " &nbsp;&middot;&nbsp; ";
    if (v.marginAfter > 0)
        h += "<span style=\"color:#007700\">correct after the attack</span>";
    else if (v.marginBefore > 0)
        h += "<span style=\"color:#bb0000\"><b>lost by the attack</b></span>";
    else
        h += "<span style=\"color:#bb0000\">wrong before the attack</span>";
    return h;
}

std::string messageLegendHtml(const MessageView& v, const MessageHtmlOptions& o) {
    const std::string trueClass = escapeHtml(className(o.classNames, v.label));
    if (!v.hasContributions)
        return "Non-linear model: no per-word contribution. <span style=\"" + std::string(kStruckStyle) + "\">struck</span>: " +
               escapeHtml(o.attackVerb) + " by the attack.";
    const double scale = colourScale(v, o);
    std::string h = "y&middot;w<sub>j</sub>&middot;x<sub>j</sub>: against " + trueClass + " ";
    // Seven swatches, evenly spaced in intensity (sqrt scale): values -scale .. +scale.
    for (int k = -3; k <= 3; ++k) {
        const double t = k / 3.0;
        const double c = (t < 0 ? -1.0 : 1.0) * t * t * scale;
        h += "<span style=\"background-color:" + hexColor(contributionColor(c, scale)) + "\">&nbsp;" + signedFmt(c, 2) +
             "&nbsp;</span>";
    }
    h += " for " + trueClass + " (true class) &nbsp;&middot;&nbsp; <span style=\"" + std::string(kStruckStyle) +
         "\">struck</span>: " + escapeHtml(o.attackVerb) + " by the attack (all occurrences)";
    return h;
}

std::string messageBodyHtml(const MessageView& v, const MessageHtmlOptions& o) {
    const double scale = colourScale(v, o);
    std::string h;
    h.reserve(v.text.size() * 2 + v.spans.size() * 48);
    h += "<div style=\"white-space: pre-wrap\">";
    std::size_t at = 0;
    const std::string_view text = v.text;
    for (const MessageSpan& s : v.spans) {
        if (s.offset < at || s.offset + s.length > text.size()) continue;   // overlapping or bad range: leave as text
        h += escapeHtml(text.substr(at, s.offset - at));
        const std::string word = escapeHtml(text.substr(s.offset, s.length));
        if (s.deleted) {
            h += "<span style=\"" + std::string(kStruckStyle) + "\">" + word + "</span>";
        } else if (s.feature >= 0 && s.contribution != 0.0) {
            h += "<span style=\"background-color:" + hexColor(contributionColor(s.contribution, scale)) + "\">" + word + "</span>";
        } else {
            h += word;
        }
        at = s.offset + s.length;
    }
    if (at < text.size()) h += escapeHtml(text.substr(at));
    h += "</div>";
    return h;
}

std::string messageHtmlDocument(const std::vector<MessageView>& views, const std::vector<MessageHtmlOptions>& options,
                                const std::string& title) {
    if (views.size() != options.size()) throw std::invalid_argument("message HTML: one options entry per view");
    std::string h = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + escapeHtml(title) +
                    "</title>\n<style>body{font-family:sans-serif;margin:1em} td{vertical-align:top;padding:0 1em} "
                    ".msg{font-family:monospace;border:1px solid #ccc;padding:0.5em}</style></head>\n<body>\n<h3>" +
                    escapeHtml(title) + "</h3>\n<table><tr>\n";
    for (std::size_t k = 0; k < views.size(); ++k) {
        h += "<td width=\"" + std::to_string(100 / std::max<std::size_t>(1, views.size())) + "%\">\n<p>" +
             messageHeaderHtml(views[k], options[k]) + "</p>\n<p>" + messageLegendHtml(views[k], options[k]) +
             "</p>\n<div class=\"msg\">" + messageBodyHtml(views[k], options[k]) + "</div>\n</td>\n";
    }
    h += "</tr></table>\n</body></html>\n";
    return h;
}

}  // namespace fdlab
