// "You are the adversary" in the Heatmaps tab (ui/plots/adversary_play.h), offscreen: on the
// hand-made 4x4 images (tiny_images.h) a real mouse click on the canvas deletes that pixel, the
// learners' scores follow (hand-computed), the budget refuses a fourth deletion at K = 3, and
// Reveal shows the worst-case attack (core's worstCaseCountDeletion) and the deletions needed to
// flip (3 for A, 10 for B, by hand); the scoreboard counts the round once. On a tiny spam message,
// words are links (tiny_fixtures.h): clicking "pills" flips A (by hand: 3 - 3 = 0) and strikes the word. Drawing:
// a mouse stroke along the top row of the 4x4 pad inks it, A reads it as "pos" (4 - 1.5), and the
// drawing becomes a test instance the attack and the game work on. Typing (text data): a typed
// message is classified as typed (by hand: A 4, B 2.5), becomes test message #2, and the game and
// Reveal work on it (A needs 2 deletions, B cannot be flipped).

#include "core/attacks/worst_case_linear.h"
#include "core/data/preprocess.h"
#include "core/util/rng.h"
#include "ui/plots/adversary_play.h"
#include "ui/plots/color_map_widget.h"
#include "ui/plots/draw_canvas.h"
#include "ui/plots/heatmap_view.h"
#include "ui/plots/type_message.h"
#include "wait_for_view.h"
#include "tiny_fixtures.h"

#include <QDoubleSpinBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QElapsedTimer>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>
#include <QUrl>
#include <qcustomplot.h>

using namespace fdlab;
using namespace fdlab::ui;

using testing::imageModels;
using testing::textModels;
using testing::tinyText;
using testing::textModel;
using testing::worstCaseCount;

namespace {

// Prices equal to the damages (p_j = v_j, 40 distinct sizes), the hopeless case of the exact
// value adversary (knapsack_bb.h): row 0 has every feature at 1 and a margin of half the total,
// so both the knapsack at N = 20.123457 and the cheapest flip search to their step limit (about
// 0.2 s each) and give up. Row 1 is easy: one feature, worth 1, against a bias of -0.5.
struct Hopeless {
    HeatmapContextPtr ctx;
    PlayBudget budget;
};

Hopeless hopeless() {
    const int n = 40;
    auto d = std::make_shared<Dataset>();
    d->name = "proportional";
    d->X = Dataset::Matrix::Zero(2, n);
    d->X.row(0).setOnes();
    d->X(1, 0) = 1.0f;
    d->labels = {1, 1};
    d->classNames = {"neg", "pos"};
    Rng rng(99);
    Eigen::VectorXd w(n);
    for (int j = 0; j < n; ++j) {
        w(j) = 1.0 + rng.uniform();
        d->importance.push_back(w(j));
    }
    d->fillDefaults();
    auto ctx = std::make_shared<InstanceViewContext>();
    ctx->test = d;
    ctx->models.emplace_back("A", testing::linearModel(w, -0.5 * w.sum() + 0.123456789));
    ctx->models.emplace_back("B", testing::linearModel(2.0 * w, -w.sum() + 0.25));
    ctx->attack.threat = "worst-case-value-exact";
    return {ctx, PlayBudget::value(0.5 * n + 0.123456789, d->importance)};
}

// The play page on screen at 1280x720 with the hopeless set's instance `row` and its budget.
void showHopeless(AdversaryPlay& p, const Hopeless& h, int row) {
    p.resize(1280, 720);
    p.show();
    p.setGame(h.ctx, 0, 1, row, h.budget.limit);
}

}  // namespace

class TestAdversaryPlay : public QObject {
    Q_OBJECT
private slots:
    // Review: Reveal ran the exact search on the GUI thread, which on this instance blocked for
    // the step limit per learner before showing the error. Now it runs as a job: the event loop
    // turns while it searches (a 0 ms timer fires before the result), the error is core's,
    // shown per learner, and a round changed meanwhile drops the stale result.
    void revealRunsOffTheGuiThread() {
        const Hopeless h = hopeless();
        AdversaryPlay p;
        showHopeless(p, h, 0);
        // The game plays what the spin box shows, with as many decimals (2 to 6) as the run's
        // level needs: it had 2, so the Heatmaps tab's N = 2.0933 was played at 2.09. Here
        // N = 20.123456789 is shown and played as 20.123457, and the budget line says the same.
        const PlayBudget budget = p.game()->budget();
        QCOMPARE(p.limitSpin()->decimals(), 6);
        QVERIFY2(budget.byValue && budget.limit == p.limitSpin()->value() && std::abs(budget.limit - h.budget.limit) < 1e-6 &&
                     budget.prices == h.budget.prices,
                 qPrintable(QString::number(budget.limit, 'g', 12)));
        QVERIFY2(p.budgetLabel()->text().contains("of 20.123457"), qPrintable(p.budgetLabel()->text()));
        for (const auto& [level, decimals] : {std::pair{2.0933, 4}, {20.125, 3}, {0.004, 3}, {20.0, 2}, {1.0 / 3.0, 6}}) {
            p.setGame(h.ctx, 0, 1, 0, level);
            QCOMPARE(p.limitSpin()->decimals(), decimals);
            QVERIFY2(std::abs(p.game()->budget().limit - level) < 5e-7, qPrintable(QString::number(level)));
            QCOMPARE(p.game()->budget().limit, p.limitSpin()->value());
        }
        p.limitSpin()->setValue(0.0);   // a student's 0 is 0 (the 0.004 level showed as 0.00 and allowed 0.004)
        QCOMPARE(p.game()->budget().limit, 0.0);
        showHopeless(p, h, 0);
        const double N = budget.limit;
        QString expected[2];
        for (int k = 0; k < 2; ++k) {
            try {
                (void)optimalPlay(h.ctx->models[static_cast<std::size_t>(k)].second, h.ctx->test->row(0), 1, budget);
                QFAIL("the exact value adversary solved the hopeless instance: no longer a test of a slow reveal");
            } catch (const std::invalid_argument& e) {
                expected[k] = QString::fromStdString(e.what()).toHtmlEscaped();
            }
        }
        QVERIFY(expected[0].contains("gave up after"));
        bool ticked = false, tickedBeforeResult = false;
        QTimer::singleShot(0, &p, [&] { ticked = true; });
        connect(&p, &AdversaryPlay::revealed, &p, [&] { tickedBeforeResult = ticked; });
        QSignalSpy shown(&p, &AdversaryPlay::revealed);
        p.reveal();
        QVERIFY(p.revealing());
        QCOMPARE(shown.count(), 0);
        QVERIFY2(p.revealLabel()->text().contains("Finding the optimal attack"), qPrintable(p.revealLabel()->text()));
        QVERIFY(shown.wait(60000));
        QVERIFY(tickedBeforeResult);   // the GUI thread was free while the search ran
        QVERIFY(!p.revealing());
        QVERIFY(!p.optimum(0) && !p.optimum(1));
        for (int k = 0; k < 2; ++k)
            QVERIFY2(p.revealLabel()->text().contains(expected[k]), qPrintable(p.revealLabel()->text()));

        // Switching instance while a reveal searches: its result never shows. The easy row's
        // reveal queues behind it, and only that one arrives, equal to core's answer.
        p.reveal();
        QVERIFY(p.revealing());
        p.setGame(h.ctx, 0, 1, 1, N);
        QVERIFY(!p.revealing());
        QVERIFY(p.revealLabel()->text().isEmpty());
        shown.clear();
        p.reveal();
        QVERIFY(shown.wait(60000));
        QTest::qWait(100);
        QCOMPARE(shown.count(), 1);
        for (int k = 0; k < 2; ++k) {
            const TrainedModel& m = h.ctx->models[static_cast<std::size_t>(k)].second;
            const OptimalPlay o = optimalPlay(m, h.ctx->test->row(1), 1, budget);
            const FlipNeed need = deletionsToFlip(m, h.ctx->test->row(1), 1, budget);
            QVERIFY(p.optimum(k) && p.need(k));
            QCOMPARE(p.optimum(k)->deleted, o.deleted);
            QCOMPARE(p.optimum(k)->after.scores, o.after.scores);
            QCOMPARE(p.need(k)->need, need.need);
        }
        QCOMPARE(p.optimum(0)->deleted, std::vector<int>{0});   // by hand: 1 - 0.5 > 0, deleting it flips
        QVERIFY2(p.revealLabel()->text().contains("<b>A</b>: within"), qPrintable(p.revealLabel()->text()));
    }

    // Review rev37: Reveal pressed twice before a result, a brush between the presses, and the
    // page destroyed while a reveal searches: one result, one scoreboard round, no crash.
    void revealTwiceAndCloseWhileSearching() {
        const Hopeless h = hopeless();
        {
            AdversaryPlay p;
            showHopeless(p, h, 1);
            const int before = AdversaryPlay::scoreboard().rounds;
            QSignalSpy shown(&p, &AdversaryPlay::revealed);
            p.reveal();
            p.reveal();
            QVERIFY(shown.wait(60000));
            QTest::qWait(200);
            QCOMPARE(shown.count(), 1);
            QCOMPARE(AdversaryPlay::scoreboard().rounds, before + 1);
            p.reveal();   // a second reveal of the same round is not a new round
            QVERIFY(shown.wait(60000));
            QCOMPARE(AdversaryPlay::scoreboard().rounds, before + 1);
        }
        QElapsedTimer t;
        {
            auto* p = new AdversaryPlay;
            p->setGame(h.ctx, 0, 1, 0, h.budget.limit);
            p->reveal();
            QVERIFY(p->revealing());
            t.start();
            delete p;   // waits for the worker: core's exact search does not poll a stop token
        }
        qInfo("page destroyed %lld ms after a hopeless reveal started", static_cast<long long>(t.elapsed()));
        QTest::qWait(200);   // nothing delivered to the deleted page
    }

    void playOnAnImage() {
        HeatmapView v;
        v.resize(1280, 720);
        v.show();
        v.setContext(testing::tinyImages(), imageModels(), worstCaseCount(), 3);
        v.setInstance(2);
        v.setAdversaryMode(true);
        QVERIFY(v.adversaryMode());
        AdversaryPlay* p = v.adversaryPlay();
        QVERIFY(p->game());
        QCOMPARE(p->game()->budget().limit, 3.0);
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        // A real click on the canvas, on the pixel of row 0, column 3.
        ColorMapWidget* c = p->canvas();
        QVERIFY(c->isVisible());
        c->plot()->replot();
        const QPoint at(static_cast<int>(c->plot()->xAxis->coordToPixel(3)), static_cast<int>(c->plot()->yAxis->coordToPixel(0)));
        QTest::mousePress(c->plot(), Qt::LeftButton, {}, at);
        QTest::mouseRelease(c->plot(), Qt::LeftButton, {}, at);
        QCOMPARE(p->game()->deleted(), std::vector<int>{3});
        QCOMPARE(p->score(0).scores[0], 4.0 - 1.0 - 1.5);
        QCOMPARE(p->clickFeature(0), DeletionGame::Move::Deleted);
        QCOMPARE(p->brushFeature(1), DeletionGame::Move::Deleted);
        QCOMPARE(p->clickFeature(5), DeletionGame::Move::OverBudget);   // K = 3 used up
        QCOMPARE(p->game()->deleted(), (std::vector<int>{0, 1, 3}));
        QVERIFY(std::abs(p->score(0).scores[0] - (-0.5)) <= 1e-12);   // A: 4 - 3 - 1.5
        QVERIFY(std::abs(p->score(1).scores[0] - 1.75) <= 1e-12);     // B: 4 - 0.75 - 1.5
        QVERIFY2(p->scoreLabel(0)->text().contains("-0.500") && p->scoreLabel(0)->text().contains("fooled"),
                 qPrintable(p->scoreLabel(0)->text()));
        QVERIFY(p->scoreLabel(1)->text().contains("1.750") && p->scoreLabel(1)->text().contains("still correct"));
        QVERIFY(p->budgetLabel()->text().contains("used 3 of 3"));

        const int rounds = AdversaryPlay::scoreboard().rounds;
        const int matched = AdversaryPlay::scoreboard().matched;
        QVERIFY(revealAndWait(p));
        const auto images = testing::tinyImages();   // kept: the row is a view into it
        const RowView x = images->row(2);
        QCOMPARE(p->optimum(0)->deleted, worstCaseCountDeletion(*imageModels()[0].second.linear, x, 1, 3).deleted);
        QVERIFY(p->optimum(0)->exact);
        QCOMPARE(p->optimum(0)->after.scores[0], -0.5);
        QCOMPARE(p->need(0)->need, 3.0);    // 2.5 / 1 per pixel
        QCOMPARE(p->need(1)->need, 10.0);   // 2.5 / 0.25 per pixel
        QVERIFY2(p->revealLabel()->text().contains("needs 3 deletions to flip it") &&
                     p->revealLabel()->text().contains("needs 10 deletions to flip it, more than your budget"),
                 qPrintable(p->revealLabel()->text()));
        QCOMPARE(AdversaryPlay::scoreboard().rounds, rounds + 1);
        QCOMPARE(AdversaryPlay::scoreboard().matched, matched + 1);   // A fooled with 3 = its need
        QVERIFY(revealAndWait(p));
        QCOMPARE(AdversaryPlay::scoreboard().rounds, rounds + 1);     // once per round
        QVERIFY(p->scoreboardLabel()->text().contains(QString("%1 rounds").arg(rounds + 1)));

        // A new instance starts a new round; the grid view leaves the game.
        v.setInstance(1);
        QVERIFY(p->game()->deleted().empty());
        QVERIFY(!p->optimum(0));
        v.setGridMode(true);
        QVERIFY(!v.adversaryMode() && v.gridMode());
    }

    void playOnAMessage() {
        HeatmapView v;
        v.resize(1280, 720);
        v.show();
        v.setContext(tinyText(), textModels(), worstCaseCount(), 2);
        v.setAdversaryMode(true);
        AdversaryPlay* p = v.adversaryPlay();
        QVERIFY(p->messageBrowser()->isVisible());
        QVERIFY(!p->canvas()->isVisible());
        QVERIFY(p->messageBrowser()->toHtml().contains("href=\"4\""));   // "pills" is a link
        emit p->messageBrowser()->anchorClicked(QUrl("4"));
        QCOMPARE(p->game()->deleted(), std::vector<int>{4});
        QCOMPARE(p->score(0).scores[0], 0.0);   // 3 - 3: on the boundary, misclassified
        QCOMPARE(p->score(0).predicted, 0);
        QVERIFY(p->scoreLabel(0)->text().contains("fooled"));
        QCOMPARE(p->messageBrowser()->toPlainText(), QString("Cheap PILLS, cheap! Meeting at noon."));
        QVERIFY(p->messageBrowser()->toHtml().contains("line-through"));
        QVERIFY(revealAndWait(p));
        QCOMPARE(p->need(0)->need, 1.0);
        QVERIFY(!p->need(1)->flips());   // B keeps 0.5 with every helpful word gone
        QVERIFY(p->revealLabel()->text().contains("No budget flips it"));
        QVERIFY2(p->revealLabel()->text().contains("The optimal adversary needs 1 deletion to flip it."), qPrintable(p->revealLabel()->text()));
        // Each sentence starts with a capital (review: "...marked 1). the optimal adversary needs").
        QVERIFY2(!p->revealLabel()->text().contains(QRegularExpression("\\. [a-z]")), qPrintable(p->revealLabel()->text()));
    }

    // Review (helper-43): on tables (pima, spambase, ...) the page said "Click features" and
    // showed nothing to click. The instance's non-zero features are links "name = value";
    // clicking one deletes it and the scores follow (by hand: A = -1 + 2*2 + 0.5*1 = 3.5,
    // without bmi 3.5 - 4 = -0.5, fooled). An instance already wrong reads "wrong, as before"
    // after Reveal, not "flipped".
    void playOnATable() {
        auto d = std::make_shared<Dataset>();
        d->name = "table";
        d->X = Dataset::Matrix::Zero(2, 3);
        d->X << 0.0f, 2.0f, 1.0f, 1.0f, 0.0f, 0.0f;
        d->labels = {1, 1};
        d->classNames = {"ham", "spam"};
        d->featureNames = {"age", "body mass-index", "crime=y"};   // vote-like one-hot name last
        d->fillDefaults();
        Eigen::VectorXd w(3);
        w << -3.0, 2.0, 0.5;
        std::vector<std::pair<QString, TrainedModel>> models = {{"A", textModel(w, -1.0)}, {"B", textModel(w, -1.0)}};
        HeatmapView v;
        v.resize(1280, 720);
        v.show();
        v.setContext(d, models, worstCaseCount(), 2);
        v.setAdversaryMode(true);
        AdversaryPlay* p = v.adversaryPlay();
        QVERIFY(p->messageBrowser()->isVisible());
        QVERIFY(!p->canvas()->isVisible());
        const QString plain = p->messageBrowser()->document()->toRawText();   // keeps the no-break spaces
        // A name and its value never part at a line end (no-break space and hyphen); a one-hot
        // feature "crime=y" at 1 reads as its name; zeros (age) are not listed.
        QVERIFY2(plain.contains(u"body\u00a0mass\u2011index\u00a0=\u00a02") && plain.contains("crime=y") &&
                     !plain.contains("crime=y\u00a0=") && !plain.contains("age"),
                 qPrintable(plain));
        QVERIFY(p->messageBrowser()->toHtml().contains("href=\"1\""));
        QCOMPARE(p->score(0).scores[0], 3.5);
        emit p->messageBrowser()->anchorClicked(QUrl("1"));
        QCOMPARE(p->game()->deleted(), std::vector<int>{1});
        QCOMPARE(p->score(0).scores[0], -0.5);
        QVERIFY(p->scoreLabel(0)->text().contains("fooled"));
        QVERIFY(p->messageBrowser()->toHtml().contains("line-through"));
        // Instance 1: -1 - 3 = -4, wrong before any deletion.
        v.setInstance(1);
        QVERIFY(waitForView(v, 1, 2));
        QCOMPARE(p->score(0).scores[0], -4.0);
        QVERIFY(revealAndWait(p));
        QVERIFY2(p->revealLabel()->text().contains("wrong, as before"), qPrintable(p->revealLabel()->text()));
        QVERIFY(!p->revealLabel()->text().contains("flipped"));
    }

    // Review (helper-43): with a one-sided threat (spam only) the Heatmaps and Robustness tabs
    // leave a ham message alone, but Play had the student attack it and Reveal "flip" it.
    void playLeavesUnattackedClassesAlone() {
        AttackSpec spamOnly = worstCaseCount();
        spamOnly.attackedClasses = {1};
        HeatmapView v;
        v.resize(1280, 720);
        v.show();
        auto d = tinyText();
        auto ham = std::make_shared<Dataset>(*d);
        ham->labels = {1, 0};   // message 1 as ham
        ham->classNames = {"ham", "sp%2am"};   // a place marker in a name (chained arg() garbled it)
        v.setContext(ham, textModels(), spamOnly, 2);
        v.setAdversaryMode(true);
        AdversaryPlay* p = v.adversaryPlay();
        QVERIFY(p->game());   // message 0: spam, attacked
        v.setInstance(1);
        QVERIFY(waitForView(v, 1, 2));
        QVERIFY(!p->game());
        const QLabel* intro = nullptr;
        for (const QLabel* l : p->findChildren<QLabel*>())
            if (l->text().contains("You are the adversary")) intro = l;
        QVERIFY(intro);
        QVERIFY2(intro->text().contains("attacks only instances of class <b>sp%2am</b>") && intro->text().contains("left alone"),
                 qPrintable(intro->text()));
        QVERIFY(!p->findChild<QPushButton*>("playReveal")->isEnabled());
        QVERIFY(!p->messageBrowser()->isVisible());
        emit p->messageBrowser()->anchorClicked(QUrl("4"));   // nothing to play
        QVERIFY(!p->game());
        v.setInstance(0);
        QVERIFY(waitForView(v, 0, 2));
        QVERIFY(p->game() && p->findChild<QPushButton*>("playReveal")->isEnabled());
    }

    void playBudgetIsTheStudentsUntilTheSliderMoves() {
        HeatmapView v;
        v.resize(1280, 720);
        v.show();
        v.setContext(testing::tinyImages(), imageModels(), worstCaseCount(), 0);
        QCOMPARE(v.budget(), 0.0);
        v.setAdversaryMode(true);
        AdversaryPlay* p = v.adversaryPlay();
        auto* box = p->findChild<QDoubleSpinBox*>("playBudget");
        QVERIFY(box);
        // Budget 0 on the Heatmaps tab (a lesson's clean step): the game starts at K = 1, not at
        // a budget that deletes nothing.
        QCOMPARE(p->limit(), 1.0);
        // The student's budget stays when another instance is chosen (the spin box, or a click
        // on the Robustness map: it went back to the slider's) ...
        box->setValue(2.0);
        v.setInstance(v.instance() == 0 ? 1 : 0);
        QCOMPARE(p->limit(), 2.0);
        // ... and the slider's budget is taken when the slider moves.
        v.setBudget(3.0);
        QCOMPARE(p->limit(), 3.0);
    }

    void drawYourOwn() {
        HeatmapView v;
        v.resize(1280, 720);
        v.show();
        v.setContext(testing::tinyImages(), imageModels(), worstCaseCount(), 3);
        v.setDrawMode(true);
        QVERIFY(v.drawMode());
        DrawCanvas* d = v.drawCanvas();
        InkPad* pad = d->pad();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        d->setIntendedClass(1);
        pad->setPen(0.5);   // one cell: the stroke stays on its row
        const int s = pad->cellSize();
        QVERIFY(s >= 20);
        const QPoint origin = pad->origin();
        const auto centre = [&](int r, int c) { return origin + QPoint(c * s + s / 2, r * s + s / 2); };
        QTest::mousePress(pad, Qt::LeftButton, {}, centre(0, 0));
        for (int c = 1; c <= 3; ++c) QTest::mouseMove(pad, centre(0, c));
        QTest::mouseRelease(pad, Qt::LeftButton, {}, centre(0, 3));
        // The top row inked (a pixel's centre is within half a pixel of the cell's), nothing else.
        double sum = 0.0;
        for (int j = 0; j < 16; ++j) {
            const float v = pad->values()[static_cast<std::size_t>(j)];
            if (j < 4) QVERIFY2(v > 0.9f && v <= 1.0f, qPrintable(QString::number(v)));
            else QCOMPARE(v, 0.0f);
            sum += v;
        }
        const QString expect = QString("reads it as <b style='font-size:large'>pos</b> (score %1)").arg(sum - 1.5, 0, 'f', 3);
        QVERIFY2(d->verdict(0)->text().contains(expect), qPrintable(d->verdict(0)->text()));
        QVERIFY(d->verdict(1)->text().contains("neg"));   // B: 1 - 1.5
        pad->setPen(9.0);
        QCOMPARE(pad->pen(), 4.0);
        // Attack it: the drawing is instance 4 and the game plays on it.
        emit d->useDrawing(pad->values(), 1);
        QVERIFY(!v.drawMode());
        QCOMPARE(v.instance(), 4);
        QCOMPARE(v.context()->test->rows(), 5);
        v.setAdversaryMode(true);
        QVERIFY(std::abs(v.adversaryPlay()->score(0).scores[0] - (sum - 1.5)) <= 1e-12);
        QVERIFY(revealAndWait(v.adversaryPlay()));
        QCOMPARE(v.adversaryPlay()->need(0)->need, 3.0);
        pad->clear();
        QCOMPARE(pad->values(), std::vector<float>(16, 0.0f));

        // Clear starts a new drawing: the class it is meant to be is asked again (it stayed at
        // the last drawing's, so a drawn 3 was attacked as a 5), and Attack it waits for it.
        v.setDrawMode(true);
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        d->setIntendedClass(1);
        QTest::mouseClick(d->findChild<QPushButton*>("drawClear"), Qt::LeftButton);
        QCOMPARE(d->intendedClass(), -1);
        QTest::mousePress(pad, Qt::LeftButton, {}, centre(1, 0));
        QTest::mouseRelease(pad, Qt::LeftButton, {}, centre(1, 0));
        QPushButton* use = d->findChild<QPushButton*>("drawUse");
        QVERIFY(!use->isEnabled());
        QVERIFY2(d->verdict(0)->text().contains("(score "), qPrintable(d->verdict(0)->text()));   // binary: still shown
        d->setIntendedClass(0);
        QVERIFY(use->isEnabled());
    }

    void typeYourOwn() {
        HeatmapView v;
        v.resize(1280, 720);
        v.show();
        v.setContext(tinyText(), textModels(), worstCaseCount(), 2);
        QCOMPARE(v.findChild<QPushButton*>("drawToggle")->text(), QString("Type your own"));
        v.setDrawMode(true);
        QVERIFY(v.drawMode());
        TypeMessage* t = v.typeMessage();
        QVERIFY(t->isVisible());
        t->setIntendedClass(1);
        // Vocabulary: at, cheap, meeting, now, pills. A = -1 + 2 (cheap) + 3 (pills) = 4 (a word
        // counts once: binary); B = 0.5 + 1 + 1 = 2.5; "hello" is not in the vocabulary.
        QTest::keyClicks(t->editor(), "Cheap pills, PILLS! hello");
        t->classify();
        QVERIFY2(t->verdict(0)->text().contains("<b style='font-size:large'>spam</b> (score 4.000)"), qPrintable(t->verdict(0)->text()));
        QVERIFY2(t->verdict(1)->text().contains("(score 2.500)"), qPrintable(t->verdict(1)->text()));
        QVERIFY2(t->words()->text().startsWith("2 of its words are in the vocabulary, 1 is not (it does not count)"), qPrintable(t->words()->text()));
        QPushButton* use = t->findChild<QPushButton*>("typeMessageUse");
        QVERIFY(use && use->isEnabled());
        QTest::mouseClick(use, Qt::LeftButton);
        QVERIFY(!v.drawMode());
        QCOMPARE(v.context()->test->rows(), 3);
        QCOMPARE(v.instance(), 2);
        QCOMPARE(v.context()->test->instanceId(2), std::string("your message"));
        v.setAdversaryMode(true);
        AdversaryPlay* p = v.adversaryPlay();
        QCOMPARE(p->messageBrowser()->toPlainText(), QString("Cheap pills, PILLS! hello"));
        QCOMPARE(p->score(0).scores[0], 4.0);
        emit p->messageBrowser()->anchorClicked(QUrl("4"));   // delete "pills"
        QCOMPARE(p->score(0).scores[0], 1.0);
        QVERIFY(revealAndWait(p));
        QCOMPARE(p->need(0)->need, 2.0);
        QVERIFY(!p->need(1)->flips());
        // Nothing in the vocabulary: nothing to attack.
        v.setAdversaryMode(false);
        v.setDrawMode(true);
        t->editor()->setPlainText("hello world");
        t->classify();
        QVERIFY(!use->isEnabled());
        // Erasing the message starts a new one: its class is asked again; a class chosen before
        // typing stays.
        t->setIntendedClass(1);
        QCOMPARE(t->intendedClass(), 1);
        t->editor()->clear();
        t->classify();
        QCOMPARE(t->intendedClass(), -1);
        t->setIntendedClass(0);
        t->editor()->setPlainText("cheap");
        t->classify();
        QCOMPARE(t->intendedClass(), 0);
        QVERIFY(use->isEnabled());
    }

    void ownInputIsPreprocessedAsTheRun() {
        // A run with unit-norm rows: the typed message is scored and attacked as a unit-norm row
        // (it was scored raw: the review found a message whose sign flipped), and so is a drawing
        // under zero-one scaling.
        auto pre = std::make_shared<Preprocessor>();
        pre->scaling = Scaling::UnitNorm;
        auto test = std::make_shared<Dataset>(*tinyText());
        pre->apply(*test);
        HeatmapView v;
        v.resize(1280, 720);
        v.show();
        v.setContext(test, textModels(), worstCaseCount(), 2, nullptr, pre);
        v.setDrawMode(true);
        TypeMessage* t = v.typeMessage();
        t->setIntendedClass(1);
        t->editor()->setPlainText("Cheap pills, PILLS! hello");
        t->classify();
        // (cheap, pills) = (1, 1) / sqrt(2): A = -1 + (2 + 3) / sqrt(2) = 2.536, B = 0.5 + 2 / sqrt(2) = 1.914.
        QVERIFY2(t->verdict(0)->text().contains("(score 2.536)"), qPrintable(t->verdict(0)->text()));
        QVERIFY2(t->verdict(1)->text().contains("(score 1.914)"), qPrintable(t->verdict(1)->text()));
        QTest::mouseClick(t->findChild<QPushButton*>("typeMessageUse"), Qt::LeftButton);
        QCOMPARE(v.context()->test->rows(), 3);
        QVERIFY(std::abs(v.context()->test->value(2, 1) - 0.70710678f) < 1e-6f);

        // A drawing under zero-one scaling fitted to [0, 2]: ink 1 becomes 0.5 before scoring.
        auto images = testing::tinyImages();
        Dataset doubled = *images;
        doubled.X *= 2.0f;   // trained on pixels in [0, 2]
        auto zeroOne = std::make_shared<Preprocessor>(Preprocessor::fit(doubled, Scaling::ZeroOne));
        std::vector<float> ink(16, 1.0f), want = ink;
        zeroOne->applyDense(want);
        QCOMPARE(want[5], 0.5f);
        Dataset one = *images;
        one.X = Dataset::Matrix::Constant(1, 16, 1.0f);
        one.labels = {1};
        zeroOne->apply(one);
        for (int j = 0; j < 16; ++j) QCOMPARE(want[static_cast<std::size_t>(j)], one.X(0, j));   // one row = the set's map
        HeatmapView w;
        w.setContext(images, imageModels(), worstCaseCount(), 3, nullptr, zeroOne);
        w.addOwnInstance(ink, 1);
        for (int j = 0; j < 16; ++j) QCOMPARE(w.context()->test->value(4, j), want[static_cast<std::size_t>(j)]);
    }

    void drawingIsInkedInTheDataUnits() {
        // Review: the pad took its ink from the already scaled test set, then classify() scaled
        // the drawing again. Pixels in [0, 2] under zero-one: the scaled set's darkest is 1, so a
        // full stroke was 1 raw = 0.5 scaled, half as dark as the data's darkest pixel (and
        // under zero-one on MNIST 3 vs 5, whose scaled test set reaches ~25, 25 times too dark).
        Dataset doubled = *testing::tinyImages();
        doubled.X *= 2.0f;
        for (const Scaling s : {Scaling::ZeroOne, Scaling::MinusOneOne}) {
            auto pre = std::make_shared<Preprocessor>(Preprocessor::fit(doubled, s));
            auto test = std::make_shared<Dataset>(doubled);
            pre->apply(*test);
            HeatmapView v;
            v.resize(1280, 720);
            v.show();
            v.setContext(test, imageModels(), worstCaseCount(), 3, nullptr, pre);
            v.setDrawMode(true);
            InkPad* pad = v.drawCanvas()->pad();
            pad->setPen(0.5);
            pad->stroke(0, 0);
            QCOMPARE(pad->values()[0], 2.0f);   // as dark as the darkest raw pixel
            std::vector<float> x = pad->values();
            pre->applyDense(x);
            QCOMPARE(x[0], 1.0f);                // which the run's scaling maps to the data's darkest
        }
    }
};

QTEST_MAIN(TestAdversaryPlay)
#include "test_adversary_play.moc"
