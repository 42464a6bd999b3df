// The classroom views on real data, as a student sees them at 1280x720 and 1920x1080 (docks
// hidden: the Heatmaps and Robustness tabs alone): play-the-adversary on an MNIST 3 vs 5 digit and
// on a SpamAssassin spam message (the student deletes the features that help the learner most,
// then reveals the optimum), the drawing canvas, and the robustness map. Checks what the views
// show against core (the scores, the optimum, the map's needs) and saves the screenshots into
// $FDLAB_SCREENSHOT_DIR (a temporary directory when unset).

#include "core/eval/experiment_runner.h"
#include "core/eval/presets.h"
#include "core/teach/deletion_game.h"
#include "ui/plots/adversary_play.h"
#include "ui/plots/draw_canvas.h"
#include "ui/plots/heatmap_view.h"
#include "ui/plots/robustness_view.h"
#include "ui/plots/type_message.h"
#include "wait_for_view.h"

#include <QApplication>
#include <QDir>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTextBrowser>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>

using namespace fdlab;
using namespace fdlab::ui;

namespace {

struct Setting {
    std::shared_ptr<const Dataset> test, train;
    std::vector<std::pair<QString, TrainedModel>> models;
    AttackSpec attack;
};

Setting load(const std::string& preset, const std::string& lb, const nlohmann::json& pb) {
    const ExperimentSpec spec = loadPresetOrFile(preset);
    const TaskData data = loadTaskData(spec);
    PreparedSplit split = prepareRepetition(data, spec, 0);
    Setting s;
    s.models.emplace_back("SVM", trainLearner("svm", split.train, {{"C", 1}}));
    s.models.emplace_back(QString::fromStdString(lb == "fdrop" ? "FDROP" : "SVM C=0.1"), trainLearner(lb, split.train, pb));
    s.attack = resolvedAttack(spec, data.data);
    s.attack.threat = "worst-case-count";
    s.test = std::make_shared<const Dataset>(std::move(split.test));
    s.train = std::make_shared<const Dataset>(std::move(split.train));
    return s;
}

/// The tabs as in the main window: Heatmaps in a scroll area, then Robustness.
struct Screen {
    QTabWidget tabs;
    HeatmapView* heatmaps = new HeatmapView;
    RobustnessView* robustness = nullptr;
    explicit Screen(QSize size) {
        auto* scroll = new QScrollArea;
        scroll->setWidget(heatmaps);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        tabs.addTab(scroll, "Heatmaps");
        robustness = addRobustnessTab(&tabs, heatmaps);
        tabs.resize(size);
        tabs.show();
    }
};

/// The k non-zero features of the instance with the largest y w_j x_j for learner `which`: what
/// a student who read the contribution map would delete.
std::vector<int> bestGuess(const Setting& s, int i, int which, int k) {
    const LinearModel& m = *s.models[static_cast<std::size_t>(which)].second.linear;
    const double y = s.test->labels[static_cast<std::size_t>(i)] == 1 ? 1.0 : -1.0;
    std::vector<std::pair<double, int>> p;
    s.test->forEachNonZero(i, [&](int j, float v) { p.emplace_back(-y * m.W(j, 0) * v, j); });
    std::sort(p.begin(), p.end());
    std::vector<int> out;
    for (int t = 0; t < k && t < static_cast<int>(p.size()); ++t) out.push_back(p[static_cast<std::size_t>(t)].second);
    return out;
}

QString outDir() {
    static QTemporaryDir tmp;
    const QString env = qEnvironmentVariable("FDLAB_SCREENSHOT_DIR");
    const QString dir = env.isEmpty() ? tmp.path() : env;
    QDir().mkpath(dir);
    return dir;
}

void shoot(QWidget& w, const QString& name) {
    QApplication::processEvents();
    QTest::qWait(300);
    const QImage img = w.grab().toImage();
    QVERIFY(!img.isNull());
    QVERIFY(img.save(outDir() + "/" + name));
}

/// The Robustness tab computed on the whole test set, then shot.
void showMap(Screen& screen, const Dataset& test, const QString& name) {
    screen.tabs.setCurrentWidget(screen.robustness);
    QSignalSpy ready(screen.robustness, &RobustnessView::mapReady);
    screen.robustness->compute();
    QVERIFY(ready.wait(120000));
    QCOMPARE(screen.robustness->map()->done, test.rows());
    shoot(screen.tabs, name);
}

/// The first test instance of class `label` that learner 0 classifies right and the exact
/// adversary flips with at most `most` deletions.
int pick(const Setting& s, int label, double most) {
    for (int i = 0; i < s.test->rows(); ++i) {
        if (s.test->labels[static_cast<std::size_t>(i)] != label) continue;
        const FlipNeed n = deletionsToFlip(s.models[0].second, s.test->row(i), label, PlayBudget::count(0));
        if (n.need > 0 && n.need <= most) return i;
    }
    return 0;
}

}  // namespace

class TestPlayScreens : public QObject {
    Q_OBJECT
private slots:
    void mnist() {
        const Setting s = load("mnist-digit-pairs", "fdrop", {{"C", 1}, {"K", 10}});
        const int i = pick(s, 1, 25);
        for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
            Screen screen(size);
            const QString tag = QString("%1x%2").arg(size.width()).arg(size.height());
            screen.heatmaps->setContext(s.test, s.models, s.attack, 30, s.train);
            screen.heatmaps->setInstance(i);
            QTRY_VERIFY_WITH_TIMEOUT(screen.heatmaps->currentView().instance == i, 30000);
            QApplication::processEvents();
            QTest::qWait(200);
            shoot(screen.tabs, "heatmaps-mnist-" + tag + ".png");
            // Docks hidden at 1280x720 (presentation): images of at least 220 px.
            qInfo("%s: heatmap image side %d px", qPrintable(tag), screen.heatmaps->imageSide());
            QVERIFY2(screen.heatmaps->imageSide() >= (size.width() == 1280 ? 220 : 330),
                     qPrintable(QString::number(screen.heatmaps->imageSide())));
            screen.heatmaps->setAdversaryMode(true);
            AdversaryPlay* p = screen.heatmaps->adversaryPlay();
            QCOMPARE(p->game()->budget().limit, 30.0);
            for (int j : bestGuess(s, i, 0, 20)) QCOMPARE(p->clickFeature(j), DeletionGame::Move::Deleted);
            const PlayScore core = scoreWithDeletions(s.models[0].second, s.test->row(i), 1, p->game()->deleted());
            QCOMPARE(p->score(0).scores[0], core.scores[0]);
            QVERIFY(revealAndWait(p));
            QVERIFY(p->optimum(0)->exact && p->need(0)->flips());
            shoot(screen.tabs, "play-mnist-" + tag + ".png");

            screen.heatmaps->setDrawMode(true);
            InkPad* pad = screen.heatmaps->drawCanvas()->pad();
            // A "3": two bows on the right of a vertical line of ink.
            for (double t = 0; t <= 1.0; t += 0.02) {
                const double a = -std::numbers::pi / 2 + std::numbers::pi * t;
                pad->stroke(9.5 + 4.5 * std::sin(a), 13.5 + 5.5 * std::cos(a));
                pad->stroke(18.5 + 4.5 * std::sin(a), 13.5 + 5.5 * std::cos(a));
            }
            QVERIFY(screen.heatmaps->drawCanvas()->verdict(0)->text().contains("reads it as"));
            shoot(screen.tabs, "draw-mnist-" + tag + ".png");
            screen.heatmaps->setDrawMode(false);

            showMap(screen, *s.test, "robustness-mnist-" + tag + ".png");
        }
    }

    void spam() {
        const Setting s = load("spam-fdrop-worst-case", "svm", {{"C", 0.1}});
        const int i = pick(s, 1, 10);
        for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
            Screen screen(size);
            const QString tag = QString("%1x%2").arg(size.width()).arg(size.height());
            screen.heatmaps->setContext(s.test, s.models, s.attack, 10, s.train);
            screen.heatmaps->setInstance(i);
            screen.heatmaps->setAdversaryMode(true);
            AdversaryPlay* p = screen.heatmaps->adversaryPlay();
            QVERIFY(p->messageBrowser()->isVisible());
            for (int j : bestGuess(s, i, 1, 4)) QCOMPARE(p->clickFeature(j), DeletionGame::Move::Deleted);
            const PlayScore core = scoreWithDeletions(s.models[0].second, s.test->row(i), 1, p->game()->deleted());
            QCOMPARE(p->score(0).scores[0], core.scores[0]);
            QVERIFY(revealAndWait(p));
            shoot(screen.tabs, "play-spam-" + tag + ".png");
            if (size.width() == 1280) showMap(screen, *s.test, "robustness-spam-" + tag + ".png");
            screen.tabs.setCurrentIndex(0);

            // Type your own: both learners' scores are core's on the typed row; attacked as a test message.
            screen.heatmaps->setAdversaryMode(false);
            screen.heatmaps->setDrawMode(true);
            TypeMessage* t = screen.heatmaps->typeMessage();
            t->setIntendedClass(1);
            const QString text = "Subject: FREE money\n\nClick here to claim your free prize, limited offer, act now!";
            t->editor()->setPlainText(text);
            t->classify();
            const TypedDocument typed = typedDocumentRow(*s.test, text.toStdString());
            for (int k = 0; k < 2; ++k) {
                const PlayScore want = scoreWithDeletions(s.models[static_cast<std::size_t>(k)].second,
                                                          typed.row(s.test->features()), 1, {});
                QVERIFY2(t->verdict(k)->text().contains(QString("(score %1)").arg(want.scores[0], 0, 'f', 3)),
                         qPrintable(t->verdict(k)->text()));
            }
            shoot(screen.tabs, "type-spam-" + tag + ".png");
            screen.heatmaps->addOwnMessage(typed, 1);
            QCOMPARE(screen.heatmaps->instance(), s.test->rows());
            QTRY_VERIFY2_WITH_TIMEOUT(screen.heatmaps->currentView().instance == s.test->rows(),
                                      qPrintable(screen.heatmaps->findChild<QLabel*>("heatmapStatus")->text() + " / view of " +
                                                 QString::number(screen.heatmaps->currentView().instance)),
                                      30000);
            QApplication::processEvents();
            QTest::qWait(200);
            shoot(screen.tabs, "typed-spam-heatmaps-" + tag + ".png");
        }
    }
};

QTEST_MAIN(TestPlayScreens)
#include "test_play_screens.moc"
