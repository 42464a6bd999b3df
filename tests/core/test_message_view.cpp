// The spammer's view (core/eval/message_view.h): spans of a hand-made message with exact
// words, byte ranges, contributions y*w_j*x_j and deletions under the exact worst-case attack;
// top words by weight; HTML escaping and struck words; and one message of the bundled
// SpamAssassin test set, where the contributions must add up to the margin.

#include "core/attacks/attack.h"
#include "core/data/bundled.h"
#include "core/eval/level_evaluation.h"
#include "core/eval/message_view.h"
#include "core/data/text_dataset.h"
#include "core/text/text_corpus.h"
#include "core/text/text_documents.h"
#include "core/text/tokenizer.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

using namespace fdlab;

namespace {

TextCorpus corpusOf(const std::vector<std::string>& texts, const std::vector<int>& labels) {
    TextCorpus c;
    c.classNames = {"ham", "spam"};
    c.source = "memory";
    for (std::size_t k = 0; k < texts.size(); ++k) {
        c.documents.docs.push_back(makeDocument(texts[k]));
        c.labels.push_back(labels[k]);
        c.ids.push_back("d" + std::to_string(k));
    }
    return c;
}

// Vocabulary of the training part (minimum document frequency 1): at, cheap, meeting, now,
// pills = columns 0..4. Test message 0 (spam):
//   "Cheap PILLS, cheap! Meeting at noon."
//    0     6      13     20      28 31       ("noon" is not in the vocabulary)
// Model w = (0, 2, -1, 0.5, 3), b = -1: s(x) = -1 + 0 + 2 - 1 + 3 = 3.
TextSplit tinySplit() {
    TextCorpusOptions o;
    o.minDocumentFrequency = 1;
    TextCorpus train = corpusOf({"cheap pills now", "cheap meeting at", "pills meeting"}, {1, 0, 1});
    TextCorpus test = corpusOf({"Cheap PILLS, cheap! Meeting at noon.", "<script>cheap</script> & \"pills\"\r\nnow"}, {1, 0});
    return vectorizeSplit(std::move(train), std::move(test), o, "tiny");
}

LinearModel tinyModel() {
    Eigen::VectorXd w(5);
    w << 0.0, 2.0, -1.0, 0.5, 3.0;
    return LinearModel::binary(w, -1.0, {"ham", "spam"});
}

AttackResult worstCase(const Dataset& test, int i, const LinearModel& m, int K) {
    AttackSpec spec;
    spec.threat = "worst-case-count";
    spec.level = K;
    const int idx[1] = {i};
    const LinearScorer s(m);
    return runAttack(test.subset(idx), s, spec);
}

}  // namespace

class TestMessageView : public QObject {
    Q_OBJECT
private slots:
    void tinyVocabulary() {
        const TextSplit s = tinySplit();
        QCOMPARE(s.vocabulary.words, (std::vector<std::string>{"at", "cheap", "meeting", "now", "pills"}));
        QVERIFY(s.test.data.documents);
    }

    void spansOfTheTinyMessage() {
        const TextSplit s = tinySplit();
        const Dataset& test = s.test.data;
        const LinearModel m = tinyModel();
        // K = 1: the adversary deletes the largest y*w_j*x_j, "pills" (3).
        const MessageView v = buildMessageView(test, 0, m, worstCase(test, 0, m, 1));
        const std::vector<MessageSpan> expected = {
            {0, 5, "cheap", 1, 2.0, false},   {6, 5, "pills", 4, 3.0, true},  {13, 5, "cheap", 1, 2.0, false},
            {20, 7, "meeting", 2, -1.0, false}, {28, 2, "at", 0, 0.0, false}, {31, 4, "noon", -1, 0.0, false},
        };
        QCOMPARE(v.spans.size(), expected.size());
        for (std::size_t k = 0; k < expected.size(); ++k) QCOMPARE(v.spans[k], expected[k]);
        QCOMPARE(v.text, std::string("Cheap PILLS, cheap! Meeting at noon."));
        QCOMPARE(v.label, 1);
        QCOMPARE(v.id, std::string("d0"));
        QVERIFY(v.hasContributions);
        QCOMPARE(v.deleted, std::vector<int>{4});
        QCOMPARE(v.deletedOccurrences, 1);
        QCOMPARE(v.maxAbsContribution, 3.0);
        QCOMPARE(v.scoreBefore, 3.0);
        QCOMPARE(v.scoreAfter, 0.0);
        QCOMPARE(v.marginBefore, 3.0);
        QCOMPARE(v.marginAfter, 0.0);
        QCOMPARE(v.predictedBefore, 1);
        QCOMPARE(v.predictedAfter, 0);   // s = 0 is not spam

        // K = 2: "cheap" goes too, in both of its occurrences.
        const MessageView v2 = buildMessageView(test, 0, m, worstCase(test, 0, m, 2));
        QCOMPARE(v2.deleted, (std::vector<int>{1, 4}));
        QCOMPARE(v2.deletedOccurrences, 3);
        QVERIFY(v2.spans[0].deleted && v2.spans[1].deleted && v2.spans[2].deleted && !v2.spans[3].deleted);
        QCOMPARE(v2.scoreAfter, -2.0);
    }

    /// Ham (y = -1): contributions flip sign; a one-sided attack on spam leaves ham alone.
    void hamAndOneSidedAttack() {
        const TextSplit s = tinySplit();
        const Dataset& test = s.test.data;
        const LinearModel m = tinyModel();
        AttackSpec spec;
        spec.threat = "worst-case-count";
        spec.level = 3;
        spec.attackedClasses = {1};
        const LinearScorer scorer(m);
        const AttackResult all = runAttack(test, scorer, spec);
        const MessageView v = buildMessageView(test, 1, m, all, 1);   // row 1 of the whole-set attack
        QVERIFY(v.deleted.empty());
        QCOMPARE(v.label, 0);
        // "<script>cheap</script> & \"pills\"\r\nnow": script (not in vocab), cheap, script, pills, now.
        QCOMPARE(v.spans.size(), std::size_t(5));
        QCOMPARE(v.spans[1].word, std::string("cheap"));
        QCOMPARE(v.spans[1].contribution, -2.0);
        QCOMPARE(v.spans[3].contribution, -3.0);
        QCOMPARE(v.spans[4].contribution, -0.5);
        QCOMPARE(v.scoreBefore, -1.0 + 2.0 + 3.0 + 0.5);
        QCOMPARE(v.marginBefore, -4.5);
        QCOMPARE(v.predictedBefore, 1);
        // Row 0 of the same result is the attacked spam message: the top 3 deleted.
        const MessageView v0 = buildMessageView(test, 0, m, all, 0);
        QVERIFY(std::binary_search(v0.deleted.begin(), v0.deleted.end(), 1));
        QVERIFY(std::binary_search(v0.deleted.begin(), v0.deleted.end(), 4));
        QCOMPARE(v0.marginAfter, -2.0);
    }

    void nonLinearAndErrors() {
        const TextSplit s = tinySplit();
        const Dataset& test = s.test.data;
        const LinearModel m = tinyModel();
        const LinearScorer scorer(m);
        const AttackResult r = worstCase(test, 0, m, 1);
        const MessageView v = buildMessageView(test, 0, scorer, nullptr, r);
        QVERIFY(!v.hasContributions);
        for (const MessageSpan& sp : v.spans) QCOMPARE(sp.contribution, 0.0);
        QCOMPARE(v.spans[1].deleted, true);
        QCOMPARE(v.scoreBefore, 3.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, buildMessageView(test, 2, m, r));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, buildMessageView(test, 0, m, r, 1));
        Dataset noDocs = test;
        noDocs.documents.reset();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, buildMessageView(noDocs, 0, m, r));
        const LinearModel wrong = LinearModel::binary(Eigen::VectorXd::Ones(3), 0.0, {"ham", "spam"});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, buildMessageView(test, 0, wrong, r));
    }

    void topWords() {
        const LinearModel m = tinyModel();
        const std::vector<std::string> words = {"at", "cheap", "meeting", "now", "pills"};
        const TopWords t = topWordsByWeight(m, words, 2);
        QCOMPARE(t.positive, (std::vector<WordWeight>{{4, "pills", 3.0}, {1, "cheap", 2.0}}));
        QCOMPARE(t.negative, (std::vector<WordWeight>{{2, "meeting", -1.0}}));
        QCOMPARE(t.positiveAtTop, 1);
        QCOMPARE(t.negativeAtBottom, 1);
        Eigen::VectorXd capped(4);
        capped << 0.5, 0.5, 0.2, 0.5;
        QCOMPARE(topWordsByWeight(LinearModel::binary(capped, 0.0, {"a", "b"}), {}, 1).positiveAtTop, 3);
        const TopWords all = topWordsByWeight(m, {}, 10);
        QCOMPARE(all.positive.size(), std::size_t(3));   // zero weights are neither
        QCOMPARE(all.positive[2].word, std::string("f4"));
        QVERIFY(topWordsByWeight(m, words, 0).positive.empty());
    }

    // FDROP-like weights: several words at the cap 0.5, scattered by the solver's tolerance.
    // max|w| = 0.50004, so the tie tolerance is 1e-3 * 0.50004 = 5.0004e-4: 0.5, 0.49993 and
    // 0.50004 tie at the top (0.4994 is 6.4e-4 below), -0.3 and -0.29985 at the bottom.
    void topWordsTiesAtACap() {
        Eigen::VectorXd w(8);
        w << 0.5, 0.49993, 0.2, 0.50004, 0.4994, -0.3, -0.29985, -0.1;
        const LinearModel m = LinearModel::binary(w, 0.0, {"ham", "spam"});
        const std::vector<std::string> words = {"xaew", "free", "the", "sz", "money", "meeting", "thanks", "and"};
        const std::vector<int> docs = {1, 7, 300, 2, 50, 4, 9, 1000};
        const TopWords t = topWordsByWeight(m, words, 4, 0, docs);
        QCOMPARE(t.positiveAtTop, 3);
        QCOMPARE(t.negativeAtBottom, 2);
        QCOMPARE(t.tieTolerance, 1e-3 * 0.50004);
        QVERIFY(t.tiesByDocuments);
        // The tie by training documents (7, 2, 1), then the rest by weight.
        QCOMPARE(t.positive, (std::vector<WordWeight>{{1, "free", 0.49993, 7}, {3, "sz", 0.50004, 2},
                                                      {0, "xaew", 0.5, 1}, {4, "money", 0.4994, 50}}));
        QCOMPARE(t.negative, (std::vector<WordWeight>{{6, "thanks", -0.29985, 9}, {5, "meeting", -0.3, 4},
                                                      {7, "and", -0.1, 1000}}));
        // Without document counts the tie goes by feature index.
        const TopWords plain = topWordsByWeight(m, words, 4);
        QVERIFY(!plain.tiesByDocuments);
        QCOMPARE(plain.positiveAtTop, 3);
        QCOMPARE(plain.positive[0].word, std::string("xaew"));
        QCOMPARE(plain.positive[1].word, std::string("free"));
        QCOMPARE(plain.positive[2].word, std::string("sz"));
        QCOMPARE(plain.positive[3].documents, -1);
        // A count vector of the wrong length is not used.
        QVERIFY(!topWordsByWeight(m, words, 4, 0, {1, 2}).tiesByDocuments);
    }

    // Training documents per word of the tiny split ("cheap pills now", "cheap meeting at",
    // "pills meeting"): at 1, cheap 2, meeting 2, now 1, pills 2 -- the vocabulary's own counts.
    void documentFrequencyOfTheTinySplit() {
        const TextSplit s = tinySplit();
        QCOMPARE(documentFrequency(s.train.data), (std::vector<int>{1, 2, 2, 1, 2}));
        QCOMPARE(documentFrequency(s.train.data), s.vocabulary.documentFrequency);
        QCOMPARE(documentFrequency(s.test.data), (std::vector<int>{1, 2, 1, 1, 2}));
    }

    void findWord() {
        const TextSplit split = tinySplit();
        const Dataset& test = split.test.data;
        const LinearModel m = tinyModel();
        const MessageView v = buildMessageView(test, 0, m, worstCase(test, 0, m, 1));
        const std::vector<double> w = {0.0, 2.0, -1.0, 0.5, 3.0};
        const std::vector<double> x = {1.0, 1.0, 1.0, 0.0, 1.0};   // binary: at, cheap, meeting present
        // "Cheap" twice (spans 0 and 2), c = y * w * x = +2, not deleted at K = 1 (pills is).
        WordInMessage f = findWordInMessage(v, "  CHEAP, ", test.featureNames, w, x);
        QCOMPARE(f.word, std::string("cheap"));
        QCOMPARE(f.feature, 1);
        QVERIFY(f.hasWeight);
        QCOMPARE(f.weight, 2.0);
        QCOMPARE(f.value, 1.0);
        QCOMPARE(f.contribution, 2.0);
        QVERIFY(!f.deleted);
        QCOMPARE(f.spans, (std::vector<int>{0, 2}));
        QCOMPARE(v.text.substr(v.spans[2].offset, v.spans[2].length), std::string("cheap"));
        f = findWordInMessage(v, "pills", test.featureNames, w, x);
        QVERIFY(f.deleted);
        QCOMPARE(f.contribution, 3.0);
        // In the vocabulary, not in the message: its weight, x = 0, no spans.
        f = findWordInMessage(v, "now", test.featureNames, w, {});
        QCOMPARE(f.feature, 3);
        QCOMPARE(f.weight, 0.5);
        QCOMPARE(f.value, 0.0);
        QVERIFY(f.spans.empty());
        // Not a vocabulary word (in the text but cut), two words, nothing; no weights given.
        QCOMPARE(findWordInMessage(v, "noon", test.featureNames, w, x).feature, -1);
        QCOMPARE(findWordInMessage(v, "cheap pills", test.featureNames, w, x).feature, -1);
        QCOMPARE(findWordInMessage(v, " ", test.featureNames, w, x).feature, -1);
        QVERIFY(!findWordInMessage(v, "cheap", test.featureNames, {}, x).hasWeight);
    }

    void colours() {
        QCOMPARE(contributionColor(0.0, 1.0), (Rgb{255, 255, 255}));
        QCOMPARE(contributionColor(1.0, 1.0), (Rgb{222, 77, 66}));
        QCOMPARE(contributionColor(-5.0, 1.0), (Rgb{72, 132, 196}));   // capped
        const Rgb quarter = contributionColor(0.25, 1.0);              // sqrt: half-way
        QCOMPARE(quarter, (Rgb{239, 166, 161}));
        QCOMPARE(hexColor({222, 77, 66}), std::string("#de4d42"));
    }

    // predict() names class 0 at score 0, but margin <= 0 is the error test: a ham message at
    // score 0 read "predicted ham (true ham)" next to "lost by the attack".
    void tiesAreNamedTies() {
        const std::vector<std::string> names = {"ham", "spam"};
        QCOMPARE(predictionName(names, 0, 0, 0.0), std::string("a tie"));
        QCOMPARE(predictionName(names, 0, 1, -0.0), std::string("a tie"));
        QCOMPARE(predictionName(names, 0, 0, 0.25), std::string("ham"));
        QCOMPARE(predictionName(names, 0, 1, -0.25), std::string("ham"));
        QCOMPARE(predictionName(names, 1, 1, 1e-300), std::string("spam"));
        QCOMPARE(predictionName({"a", "b", "c"}, 2, 1, 0.0), std::string("a tie"));
        QCOMPARE(predictionName({"a", "b", "c"}, 7, 1, -1.0), std::string("?"));
        QCOMPARE(predictionName(names, 0, 0, std::nan("")), std::string("no class (the score is not a number)"));
        // Ham message 1 under w = 0, b = 0 (what FDROP learns when two deletions break every
        // weight): score 0 before and after.
        const TextSplit s = tinySplit();
        const Dataset& test = s.test.data;
        QCOMPARE(test.labels[1], 0);
        const LinearModel zero = LinearModel::binary(Eigen::VectorXd::Zero(5), 0.0, {"ham", "spam"});
        const MessageView v = buildMessageView(test, 1, zero, worstCase(test, 1, zero, 1));
        QCOMPARE(v.scoreAfter, 0.0);
        QCOMPARE(v.predictedAfter, 0);   // predict() says ham ...
        MessageHtmlOptions o;
        o.classNames = names;
        const std::string header = messageHeaderHtml(v, o);
        // ... but it is a tie, and counted wrong
        QVERIFY2(header.find("predicted <b>a tie</b> &rarr; <b>a tie</b> (true ham)") != std::string::npos, header.c_str());
        QVERIFY(header.find("wrong before the attack") != std::string::npos);
    }

    void html() {
        QCOMPARE(escapeHtml("a<b>&\"c'\r\n\x01"), std::string("a&lt;b&gt;&amp;&quot;c&#39;\n"));
        const TextSplit s = tinySplit();
        const Dataset& test = s.test.data;
        const LinearModel m = tinyModel();
        const MessageView v = buildMessageView(test, 0, m, worstCase(test, 0, m, 1));
        MessageHtmlOptions o;
        o.learner = "SVM <linear>";
        o.classNames = {"ham", "spam"};
        o.attackLevel = "K = 1";
        const std::string body = messageBodyHtml(v, o);
        // Full colour at |c| = 3 (the message's maximum); "cheap" at 2/3; "pills" struck.
        const std::string cheap = "<span style=\"background-color:" + hexColor(contributionColor(2.0, 3.0)) + "\">Cheap</span>";
        QVERIFY2(body.find(cheap) != std::string::npos, body.c_str());
        QVERIFY(body.find("line-through; color: #d00000; background-color: #eeeeee; font-weight: bold\">PILLS</span>") !=
                std::string::npos);
        const std::string meeting =
            "<span style=\"background-color:" + hexColor(contributionColor(-1.0, 3.0)) + "\">Meeting</span> at noon.";
        QVERIFY2(body.find(meeting) != std::string::npos, body.c_str());   // 0 and unknown words untinted
        QVERIFY(body.rfind("<div style=\"white-space: pre-wrap\">", 0) == 0);
        const std::string header = messageHeaderHtml(v, o);
        QVERIFY2(header.find("SVM &lt;linear&gt;") != std::string::npos, header.c_str());
        QVERIFY(header.find("+3.000 &rarr; 0.000") != std::string::npos);
        // Score 0 after the attack is a tie, counted as an error whichever class predict() names.
        QVERIFY2(header.find("predicted <b>spam</b> &rarr; <b>a tie</b> (true spam)") != std::string::npos, header.c_str());
        QVERIFY(header.find("1 word deleted at K = 1") != std::string::npos);
        QVERIFY(header.find("lost by the attack") != std::string::npos);
        const std::string legend = messageLegendHtml(v, o);
        QVERIFY2(legend.find("\u22123.00") != std::string::npos && legend.find("+3.00") != std::string::npos, legend.c_str());
        QVERIFY(legend.find("for spam (true class)") != std::string::npos);

        // Markup in the message is text, never markup.
        const MessageView h = buildMessageView(test, 1, m, worstCase(test, 1, m, 0));
        const std::string hb = messageBodyHtml(h, o);
        QVERIFY(hb.find("<script>") == std::string::npos);
        QVERIFY2(hb.find("&lt;script&gt;") != std::string::npos, hb.c_str());
        QVERIFY(hb.find("&amp; &quot;") != std::string::npos);
        QVERIFY(hb.find('\r') == std::string::npos);
        const std::string doc = messageHtmlDocument({v, h}, {o, o}, "tiny <test>");
        QVERIFY(doc.rfind("<!DOCTYPE html>", 0) == 0);
        QVERIFY(doc.find("<meta charset=\"utf-8\">") != std::string::npos);
        QVERIFY(doc.find("<title>tiny &lt;test&gt;</title>") != std::string::npos);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, messageHtmlDocument({v}, {o, o}, "x"));
    }

    /// One message of the bundled SpamAssassin test set under a deterministic dense model: the
    /// spans are the document's tokens, the contributions of the distinct words present add up
    /// (with y*b) to the margin, and the worst-case deletion strikes exactly its words.
    void bundledMessage() {
        const Dataset test = loadBundled("spamassassin-test");
        QVERIFY(test.documents && test.isSparse());
        const int n = test.features();
        Eigen::VectorXd w(n);
        for (int j = 0; j < n; ++j) w(j) = std::sin(0.37 * j + 1.0);
        const LinearModel m = LinearModel::binary(w, 0.1, test.classNames);
        // The first spam message with at least 30 vocabulary words.
        int i = -1;
        for (int r = 0; r < test.rows() && i < 0; ++r)
            if (test.labels[static_cast<std::size_t>(r)] == 1 && test.nonZeros(r) >= 30) i = r;
        QVERIFY(i >= 0);
        const AttackResult r = worstCase(test, i, m, 10);
        const MessageView v = buildMessageView(test, i, m, r);
        const TextDocument& doc = test.documents->docs[static_cast<std::size_t>(test.sourceRow(i))];
        QCOMPARE(v.spans.size(), doc.tokens.size());
        QCOMPARE(v.deleted.size(), std::size_t(10));
        std::map<int, double> perWord;
        std::set<int> struck;
        for (const MessageSpan& s : v.spans) {
            QCOMPARE(s.word, foldCase(std::string_view(v.text).substr(s.offset, s.length)));
            if (s.feature < 0) {
                QCOMPARE(s.contribution, 0.0);
                continue;
            }
            QCOMPARE(test.featureNames[static_cast<std::size_t>(s.feature)], s.word);
            QVERIFY(test.value(i, s.feature) != 0.0f);
            perWord[s.feature] = s.contribution;
            if (s.deleted) struck.insert(s.feature);
        }
        QCOMPARE(std::set<int>(v.deleted.begin(), v.deleted.end()), struck);
        QCOMPARE(static_cast<int>(perWord.size()), test.nonZeros(i));   // every stored word occurs in the text
        double sum = 0.1;
        for (const auto& [j, c] : perWord) sum += c;
        QVERIFY(std::abs(sum - v.marginBefore) < 1e-9);
        double deletedSum = 0.0;
        for (int j : v.deleted) deletedSum += perWord.at(j);
        QVERIFY(std::abs(v.marginAfter - (v.marginBefore - deletedSum)) < 1e-9);
        // The deleted words are the 10 of largest contribution.
        std::vector<double> cs;
        for (const auto& [j, c] : perWord) cs.push_back(c);
        std::sort(cs.rbegin(), cs.rend());
        QVERIFY(std::abs(deletedSum - std::accumulate(cs.begin(), cs.begin() + 10, 0.0)) < 1e-9);
        const std::string body = messageBodyHtml(v, {});
        QVERIFY(body.size() > v.text.size());
    }
};

QTEST_APPLESS_MAIN(TestMessageView)
#include "test_message_view.moc"
