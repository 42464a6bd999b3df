// The Heatmaps tab on text data (offscreen): a hand-made two-message corpus and two hand-made
// linear models. The tab shows the messages instead of the per-feature bar charts; the words
// are there, the ones the exact worst-case attack deletes are struck (all occurrences), the
// HTML carries the right spans, the budget slider changes the deletion, the jump finds the
// message A loses and B keeps, "Save as HTML" writes the standalone document, "find a word"
// shows weights and highlights occurrences, and PNG/PDF/SVG exports write real files.

#include "core/attacks/worst_case_linear.h"
#include "core/eval/message_view.h"
#include "core/learners/registry.h"
#include "core/data/text_dataset.h"
#include "core/text/text_corpus.h"
#include "ui/plots/heatmap_view.h"
#include "ui/plots/message_view.h"
#include "ui/plots/top_words_chart.h"
#include "tiny_fixtures.h"
#include "wait_for_view.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QLineEdit>
#include <QLabel>
#include <QScrollArea>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTextBlock>
#include <QTextDocument>
#include <qcustomplot.h>

#include <algorithm>

using namespace fdlab;
using namespace fdlab::ui;

namespace {

using testing::tinyText;
using testing::worstCaseCount;

std::vector<std::pair<QString, TrainedModel>> twoModels() { return testing::textModels(); }

/// The fragments of the browser's document struck through, and their text.
QStringList struckWords(QTextBrowser* b) {
    QStringList out;
    for (QTextBlock block = b->document()->begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it)
            if (it.fragment().charFormat().fontStrikeOut()) out << it.fragment().text();
    return out;
}

}  // namespace

class TestMessageViewUi : public QObject {
    Q_OBJECT
private slots:
    void showsTheMessageWithStruckWords() {
        auto d = tinyText();
        auto models = twoModels();
        HeatmapView v;
        v.resize(1200, 800);
        v.show();
        v.setContext(d, models, worstCaseCount(), 1);
        QVERIFY(v.textLayout());
        QVERIFY(v.messageView()->isVisible());
        QVERIFY(waitForView(v, 0, 1));
        MessageViewWidget* mv = v.messageView();
        QTextBrowser* a = mv->browser(0);
        QCOMPARE(a->toPlainText(), QString("Cheap PILLS, cheap! Meeting at noon."));
        QCOMPARE(struckWords(a), QStringList{"PILLS"});
        // B at K = 1 deletes one of its three equal words; whichever, exactly one is struck.
        const InstanceDeletion refB = worstCaseCountDeletion(*models[1].second.linear, d->row(0), d->labels[0], 1);
        QCOMPARE(mv->view(1)->deleted, refB.deleted);
        QCOMPARE(v.deletedShown(1), refB.deleted);
        QCOMPARE(mv->header(0)->text().contains("lost by the attack"), true);
        QVERIFY(mv->header(0)->text().contains("+3.000 &rarr; 0.000"));
        QVERIFY(mv->legend(0)->text().contains("for spam (true class)"));
        // The top words as sorted bars: A's weights from +3 (pills) down to -1 (meeting), the
        // positive ones in the scale's red, the negative in its blue; B's three tied words.
        TopWordsChart* topA = mv->topWordsChart(0);
        QVERIFY(topA->isVisible());
        QCOMPARE(topA->words(), (QStringList{"pills", "cheap", "now", "meeting"}));
        QCOMPARE(topA->weights(), (QVector<double>{3.0, 2.0, 0.5, -1.0}));
        const Rgb red = contributionColor(1.0, 1.0), blue = contributionColor(-1.0, 1.0);
        QCOMPARE(topA->barColour(0), QColor(red.r, red.g, red.b));
        QCOMPARE(topA->barColour(2), QColor(red.r, red.g, red.b));
        QCOMPARE(topA->barColour(3), QColor(blue.r, blue.g, blue.b));
        QCOMPARE(topA->title(), QString("Top words of A by weight"));
        QCOMPARE(topA->plot()->xAxis->label(), QString("w_j  (< 0: ham,  > 0: spam)"));
        QCOMPARE(mv->topWordsChart(1)->words(), (QStringList{"cheap", "now", "pills"}));

        // K = 2: both occurrences of "cheap" go too, for A and for B; B keeps the message.
        v.setBudget(2);
        QVERIFY(waitForView(v, 0, 2));
        QCOMPARE(struckWords(a), (QStringList{"Cheap", "PILLS", "cheap"}));
        QCOMPARE(struckWords(mv->browser(1)), (QStringList{"Cheap", "PILLS", "cheap"}));
        QVERIFY(mv->header(1)->text().contains("correct after the attack"));

        // The exported HTML: both sides, the right spans, escaped text.
        const std::string html = mv->html().toStdString();
        QVERIFY(html.find("<title>Message msg0 (test instance #0, class spam)</title>") != std::string::npos);
        const std::string struck = "line-through; color: #d00000; background-color: #eeeeee; font-weight: bold\">";
        QVERIFY(html.find(struck + "PILLS</span>") != std::string::npos);
        QVERIFY(html.find(struck + "Cheap</span>") != std::string::npos);
        const std::string meetingA =
            "<span style=\"background-color:" + hexColor(contributionColor(-1.0, 3.0)) + "\">Meeting</span> at noon.";
        QVERIFY2(html.find(meetingA) != std::string::npos, html.c_str());
        QVERIFY(html.find("<b>A</b>") != std::string::npos && html.find("<b>B</b>") != std::string::npos);

        QTemporaryDir dir;
        const QString path = dir.filePath("msg.html");
        QString error;
        QVERIFY2(mv->saveHtml(path, &error), qPrintable(error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(f.readAll()), mv->html());
        QVERIFY(!mv->saveHtml(dir.filePath("no/such/dir/x.html"), &error));
        QVERIFY(!error.isEmpty());
    }

    /// In the main window the view sits in a scroll area (the central area of a 1200x800 window
    /// is ~620x650): it must fit without scrolling, and each top-words chart keeps its weight
    /// axis on screen (the charts used to push the view past the bottom edge).
    void chartsFitAShortTab() {
        auto d = tinyText();
        QScrollArea scroll;
        auto* v = new HeatmapView;
        scroll.setWidget(v);
        scroll.setWidgetResizable(true);
        scroll.resize(620, 650);
        scroll.show();
        QVERIFY(QTest::qWaitForWindowExposed(&scroll));
        v->setContext(d, twoModels(), worstCaseCount(), 1);
        QVERIFY(waitForView(*v, 0, 1));
        QTest::qWait(50);
        QWidget* port = scroll.viewport();
        QVERIFY2(v->height() <= port->height(), qPrintable(QString("view %1 px in %2 px").arg(v->height()).arg(port->height())));
        for (int k = 0; k < 2; ++k) {
            TopWordsChart* chart = v->messageView()->topWordsChart(k);
            QVERIFY(chart->isVisible() && !chart->isEmpty());
            QVERIFY2(chart->height() >= chart->minimumSizeHint().height(),
                     qPrintable(QString("chart %1 px, minimum %2").arg(chart->height()).arg(chart->minimumSizeHint().height())));
            QVERIFY(chart->mapTo(port, QPoint(0, chart->height())).y() <= port->height());
            // The text keeps the larger share of the splitter.
            QVERIFY(v->messageView()->browser(k)->height() > chart->height());
        }
    }

    void escapesMarkupAndJumps() {
        auto d = tinyText();
        HeatmapView v;
        v.resize(1200, 800);
        v.show();
        v.setContext(d, twoModels(), worstCaseCount(), 2);
        v.setInstance(1);
        QVERIFY(waitForView(v, 1, 2));
        QTextBrowser* a = v.messageView()->browser(0);
        QCOMPARE(a->toPlainText(), QString("pills <now> & meeting"));   // text, not markup
        const QString html = v.messageView()->html();
        QVERIFY(!html.contains("<now>"));
        QVERIFY2(html.contains("pills</span> &lt;<span") && html.contains("now</span>&gt; &amp; <span"), qPrintable(html));
        // Message 0 is the one A loses and B keeps at K = 2.
        QSignalSpy jumped(&v, &HeatmapView::jumpFinished);
        v.jumpToLostByFirstKeptBySecond();
        QVERIFY(jumped.count() > 0 || jumped.wait(30000));
        QCOMPARE(jumped.last().at(0).toBool(), true);
        QCOMPARE(jumped.last().at(1).toInt(), 0);
        QVERIFY(waitForView(v, 0, 2));
        QCOMPARE(a->toPlainText(), QString("Cheap PILLS, cheap! Meeting at noon."));
    }

    /// "Find a word": each learner's weight, the value in the message, the occurrences
    /// highlighted in both texts, kept across budgets; then the view, the whole widget and the
    /// top words exported as PNG, PDF and SVG.
    void findsAWordAndExports() {
        auto d = tinyText();
        HeatmapView v;
        v.resize(1200, 800);
        v.show();
        v.setContext(d, twoModels(), worstCaseCount(), 1);
        QVERIFY(waitForView(v, 0, 1));
        MessageViewWidget* mv = v.messageView();
        QVERIFY(mv->wordLabel()->isHidden());   // no line for an empty search
        QTest::keyClicks(mv->findEdit(), "Cheap");
        QVERIFY(mv->wordLabel()->isVisible());
        QCOMPARE(mv->foundWord(0).feature, 1);
        QCOMPARE(mv->foundWord(0).weight, 2.0);
        QCOMPARE(mv->foundWord(1).weight, 1.0);
        QCOMPARE(mv->foundWord(0).value, 1.0);
        const std::vector<std::pair<int, int>> cheap = {{0, 5}, {13, 18}};
        QCOMPARE(mv->highlighted(0), cheap);
        QCOMPARE(mv->highlighted(1), cheap);
        QCOMPARE(mv->browser(0)->extraSelections().size(), 2);
        QCOMPARE(mv->browser(0)->extraSelections().at(1).cursor.selectedText(), QString("cheap"));
        const QString label = mv->wordLabel()->text();
        QVERIFY2(label.contains("<b>A</b>: w = 2.000, x = 1, 2 times") && label.contains("<b>B</b>: w = 1.000"), qPrintable(label));
        QVERIFY(!mv->foundWord(0).deleted);   // at K = 1 A deletes pills only
        const bool bDeletes = std::binary_search(mv->view(1)->deleted.begin(), mv->view(1)->deleted.end(), 1);
        QCOMPARE(mv->foundWord(1).deleted, bDeletes);
        QCOMPARE(label.count("deleted"), bDeletes ? 1 : 0);
        v.setBudget(2);
        QVERIFY(waitForView(v, 0, 2));
        QCOMPARE(mv->highlighted(0), cheap);
        QVERIFY(mv->foundWord(0).deleted);
        QVERIFY(mv->wordLabel()->text().contains("deleted"));
        mv->findWord("noon");   // in the text, cut from the vocabulary
        QVERIFY(mv->highlighted(0).empty());
        QVERIFY(mv->browser(0)->extraSelections().isEmpty());
        QVERIFY(mv->wordLabel()->text().contains("not in the vocabulary"));
        mv->findWord("now");    // in the vocabulary, not in this message
        QVERIFY(mv->wordLabel()->text().contains("w = 0.500, not in this message"));
        mv->findEdit()->clear();
        QVERIFY(mv->wordLabel()->isHidden() && mv->highlighted(0).empty());

        QTemporaryDir dir;
        QString error;
        auto bytes = [](const QString& path) {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        };
        QVERIFY2(mv->saveImage(dir.filePath("m.png"), &error), qPrintable(error));
        QImage png(dir.filePath("m.png"));
        QCOMPARE(png.size(), mv->size() * mv->devicePixelRatio());
        QVERIFY2(mv->saveImage(dir.filePath("m.pdf"), &error), qPrintable(error));
        QVERIFY(bytes(dir.filePath("m.pdf")).startsWith("%PDF"));
        QVERIFY2(mv->saveImage(dir.filePath("m.SVG"), &error), qPrintable(error));
        const QByteArray svg = bytes(dir.filePath("m.SVG"));
        QVERIFY(svg.contains("<svg") && svg.contains("Cheap"));
        QVERIFY2(mv->saveTopWords(0, dir.filePath("top.svg"), &error), qPrintable(error));
        const QByteArray topSvg = bytes(dir.filePath("top.svg"));
        QVERIFY(topSvg.contains("pills") && topSvg.contains("meeting") && topSvg.contains("</svg>"));
        QVERIFY2(mv->saveTopWords(1, dir.filePath("top.png"), &error), qPrintable(error));
        QCOMPARE(QImage(dir.filePath("top.png")).size(), mv->topWordsChart(1)->size());
        QVERIFY(!mv->saveImage(dir.filePath("no/such/dir/m.png"), &error));
        QVERIFY2(mv->saveTopWords(0, dir.filePath("top.pdf"), &error), qPrintable(error));
        QVERIFY(bytes(dir.filePath("top.pdf")).startsWith("%PDF"));
        QVERIFY(!mv->saveTopWords(0, dir.filePath("no/such/dir/top.png"), &error));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 6);   // no temporaries left
    }

    /// A sample of tied words says so in the title; negative words run from the smallest |w|
    /// down to the most negative; the same words again change nothing; empty words clear.
    void topWordsChartTiesAndOrder() {
        TopWords top;
        top.positive = {{0, "free", 0.5}, {3, "money", 0.5}};
        top.negative = {{1, "meeting", -0.25}, {2, "thanks", -0.125}};
        top.positiveAtTop = 40;
        top.negativeAtBottom = 1;
        TopWordsChart chart;
        chart.resize(320, 240);
        chart.show();   // resize events reach shown widgets only
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setTopWords(top, "FDROP", "spam", "ham");
        QCOMPARE(chart.words(), (QStringList{"free", "money", "thanks", "meeting"}));
        QCOMPARE(chart.weights(), (QVector<double>{0.5, 0.5, -0.125, -0.25}));
        QCOMPARE(chart.title(), QString("Top words of FDROP by weight\nTied: 40 at w = 0.500"));
        top.tiesByDocuments = true;   // core ordered the tie by training documents
        chart.setTopWords(top, "FDROP", "spam", "ham");
        QCOMPARE(chart.title(), QString("Top words of FDROP by weight\nTied: 40 at w = 0.500\n(most frequent in training first)"));
        auto* pos = qobject_cast<QCPBars*>(chart.plot()->plottable(0));
        auto* neg = qobject_cast<QCPBars*>(chart.plot()->plottable(1));
        QVERIFY(pos && neg);
        QCOMPARE(pos->data()->size(), 2);
        QCOMPARE(neg->data()->size(), 2);
        QCOMPARE(neg->data()->at(1)->key, 3.0);      // "meeting", the bottom bar
        QCOMPARE(neg->data()->at(1)->value, -0.25);
        QVERIFY(chart.plot()->yAxis->rangeReversed());   // row 0 at the top
        QCOMPARE(chart.plot()->xAxis->range().lower < -0.25 && chart.plot()->xAxis->range().upper > 0.5, true);
        chart.setTopWords(top, "FDROP", "spam", "ham");
        QCOMPARE(chart.words().size(), 4);
        // A short chart keeps the strongest words of each sign: room for four rows of five.
        chart.setTopWords({{{0, "a", 1.0}, {1, "b", 0.9}, {2, "c", 0.8}, {3, "d", 0.7}}, {{4, "e", -0.5}}, 1, 1}, "SVM",
                          "spam", "ham");
        int h = 400;
        while (chart.rowsFitting(h) > 4) --h;
        chart.resize(320, h);
        QCOMPARE(chart.words(), (QStringList{"a", "b", "c", "e"}));
        chart.resize(320, 400);
        QCOMPARE(chart.words(), (QStringList{"a", "b", "c", "d", "e"}));
        chart.setTopWords({}, "FDROP", "spam", "ham");
        QVERIFY(chart.isEmpty() && chart.title().isEmpty());
        QString error;
        QVERIFY(!chart.save("never-written.png", &error));
        QCOMPARE(error, QString("no top words to save"));
        QVERIFY(!QFile::exists("never-written.png"));
    }

    /// Byte offsets of UTF-8 spans map to the document's characters ("naïve" is 6 bytes, 5
    /// characters); without weights the label says so.
    void highlightsAfterNonAscii() {
        auto view = std::make_shared<MessageView>();
        view->instance = 0;
        view->label = 1;
        view->text = "na\xc3\xafve cheap cheap";
        view->spans = {{0, 6, "na\xc3\xafve", 0, 0.0, false}, {7, 5, "cheap", 1, 0.0, false}, {13, 5, "cheap", 1, 0.0, false}};
        MessageViewWidget mv;
        mv.setVocabulary(std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"na\xc3\xafve", "cheap"}));
        mv.setWordData(0, {}, {1.0, 2.0});
        MessageHtmlOptions o;
        o.learner = "kernel";
        o.classNames = {"ham", "spam"};
        mv.setMessage(0, view, o);
        QCOMPARE(mv.browser(0)->toPlainText(), QString::fromUtf8(view->text));
        mv.findWord("CHEAP");
        QCOMPARE(mv.highlighted(0), (std::vector<std::pair<int, int>>{{6, 11}, {12, 17}}));
        QCOMPARE(mv.browser(0)->extraSelections().at(0).cursor.selectedText(), QString("cheap"));
        QVERIFY2(mv.wordLabel()->text().contains("<b>kernel</b>: no weights, x = 2, 2 times"), qPrintable(mv.wordLabel()->text()));
    }

    /// A 5,000-character word in "Find a word" is cut in the label: the widget stays as narrow
    /// as before (it pushed half the tab off-screen: the label asked for the whole word's width).
    void longFindWordKeepsTheWidth() {
        auto view = std::make_shared<MessageView>();
        view->instance = 0;
        view->label = 1;
        view->text = "cheap pills";
        view->spans = {{0, 5, "cheap", 0, 0.0, false}};
        MessageViewWidget mv;
        mv.setVocabulary(std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"cheap"}));
        MessageHtmlOptions o;
        o.learner = "SVM";
        mv.setMessage(0, view, o);
        mv.resize(900, 600);
        mv.show();
        const int before = mv.minimumSizeHint().width();
        mv.findWord(QString(5000, QChar('q')));
        QVERIFY(mv.wordLabel()->isVisibleTo(&mv));
        QVERIFY2(mv.wordLabel()->text().contains("(5000 characters)"), qPrintable(mv.wordLabel()->text().left(200)));
        QVERIFY2(mv.wordLabel()->sizeHint().width() <= 900, qPrintable(QString::number(mv.wordLabel()->sizeHint().width())));
        QVERIFY2(mv.minimumSizeHint().width() <= std::max(before, 900), qPrintable(QString::number(mv.minimumSizeHint().width())));
        QVERIFY(mv.width() <= 900);
    }

    /// Dense data without documents keeps the bar charts.
    void nonTextKeepsBars() {
        auto d = std::make_shared<Dataset>();
        d->X = Dataset::Matrix::Ones(2, 5);
        d->labels = {1, 0};
        d->classNames = {"ham", "spam"};
        d->fillDefaults();
        HeatmapView v;
        v.resize(1200, 800);
        v.show();
        v.setContext(d, twoModels(), worstCaseCount(), 1);
        QVERIFY(!v.textLayout());
        QVERIFY(!v.messageView()->isVisible());
    }
};

QTEST_MAIN(TestMessageViewUi)
#include "test_message_view_ui.moc"
