// GUI flows of the foundation window (offscreen): the bundled list, MNIST digits shown on
// start, a non-image dataset as a table, and a malformed file reported with its name.

#include "core/data/bundled.h"
#include "core/eval/experiment_spec.h"
#include "ui/main_window.h"
#include "ui/panels/data_view.h"
#include "ui/panels/dataset_panel.h"
#include "ui/plots/image_grid.h"

#include <QDockWidget>
#include <QLabel>
#include <QListWidget>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

using namespace fdlab;
using namespace fdlab::ui;

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void listsEveryBundledDataset() {
        MainWindow w;
        QCOMPARE(w.datasetPanel()->list()->count(), static_cast<int>(bundledDatasets().size()));
        QVERIFY(w.datasetPanel()->list()->count() >= 8);
    }

    void showsMnistDigits() {
        MainWindow w;
        w.show();
        QSignalSpy shown(&w, &MainWindow::datasetShown);
        w.openSource("bundled:mnist");
        QVERIFY(shown.wait(20000));
        QVERIFY(w.currentDataset());
        QCOMPARE(w.currentDataset()->rows(), 10000);
        // 6 digits of each of the 10 classes
        QCOMPARE(w.dataView()->imageGrid()->imageCount(), 60);
        const QString summary = w.findChild<QLabel*>("datasetSummary")->text();
        QVERIFY2(summary.contains("10000 instances"), qPrintable(summary));
        const QImage shot = w.grab().toImage();
        QVERIFY(shot.width() > 400 && shot.height() > 300);
    }

    void showsTableForNonImageData() {
        MainWindow w;
        QSignalSpy shown(&w, &MainWindow::datasetShown);
        w.openSource("bundled:heart_scale");
        QVERIFY(shown.wait(20000));
        QCOMPARE(w.dataView()->table()->model()->rowCount(), 200);          // first 200 of 270 rows
        QCOMPARE(w.dataView()->table()->model()->columnCount(), 13 + 1);    // class + 13 features
        const QAbstractItemModel& m = *w.dataView()->table()->model();
        const Dataset& d = *w.currentDataset();
        QCOMPARE(m.data(m.index(4, 0)).toString(), QString::fromStdString(d.classNames[static_cast<std::size_t>(d.labels[4])]));
        QCOMPARE(m.data(m.index(4, 3)).toString(), QString::number(d.value(4, 2), 'g', 5));
        QCOMPARE(m.headerData(3, Qt::Horizontal).toString(), QString::fromStdString(d.featureName(2)));
    }

    void loadsEveryBundledDataset() {
        MainWindow w;
        w.setProperty("quietErrors", true);
        for (const BundledInfo& info : bundledDatasets()) {
            QSignalSpy shown(&w, &MainWindow::datasetShown);
            QSignalSpy failed(&w, &MainWindow::datasetFailed);
            w.openSource(QString::fromStdString("bundled:" + info.name));
            QVERIFY2(shown.wait(60000), info.name.c_str());
            QCOMPARE(failed.count(), 0);
            QVERIFY(w.currentDataset()->rows() > 0);
            QCOMPARE(w.currentDataset()->name.empty(), false);
        }
    }

    void reportsMalformedFile() {
        MainWindow w;
        w.setProperty("quietErrors", true);
        QSignalSpy failed(&w, &MainWindow::datasetFailed);
        const QString path = QStringLiteral(FDLAB_TEST_DATA) + "/malformed/csv_ragged_row.csv";
        w.openSource(path);
        QVERIFY(failed.wait(20000));
        const QString message = failed.at(0).at(1).toString();
        QVERIFY2(message.contains("csv_ragged_row.csv:"), qPrintable(message));
        QVERIFY(!w.currentDataset());
    }

    // The window fits a 1200x800 screen (and 1024x768): neither the docks' panels nor a tab
    // may force it wider or taller, with the default experiment and with the spam preset.
    void fitsSmallScreens() {
        MainWindow w;
        w.setProperty("quietErrors", true);
        w.resize(1024, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto report = [&w] {
            QStringList parts{QStringLiteral("window %1x%2").arg(w.minimumSizeHint().width()).arg(w.minimumSizeHint().height())};
            for (int i = 0; i < w.tabs()->count(); ++i) {
                const QSize m = w.tabs()->widget(i)->minimumSizeHint();
                parts << QStringLiteral("%1 %2x%3").arg(w.tabs()->tabText(i)).arg(m.width()).arg(m.height());
            }
            for (QDockWidget* d : w.findChildren<QDockWidget*>()) {
                const QSize m = d->minimumSizeHint().expandedTo(d->minimumSize());
                parts << QStringLiteral("%1 %2x%3").arg(d->objectName()).arg(m.width()).arg(m.height());
            }
            return parts.join(", ");
        };
        auto fits = [&w](QSize screen) {
            const QSize m = w.minimumSizeHint().expandedTo(w.minimumSize());
            return m.width() <= screen.width() && m.height() <= screen.height() - 40;   // a panel or title bar
        };
        QSignalSpy shown(&w, &MainWindow::datasetShown);
        w.loadSpec(MainWindow::defaultExperiment(), false);
        QVERIFY(shown.wait(20000));
        QTest::qWait(50);
        qInfo("default experiment: %s", qPrintable(report()));
        QVERIFY2(fits({1024, 768}), qPrintable(report()));
        w.loadSpec(loadExperimentFile(FDLAB_TEST_DATA "/../../resources/presets/spam-fdrop-value-budget.json"), false);
        QVERIFY(shown.wait(60000));
        for (int i = 0; i < w.tabs()->count(); ++i) {
            w.tabs()->setCurrentIndex(i);
            QTest::qWait(20);
        }
        qInfo("spam preset: %s", qPrintable(report()));
        QVERIFY2(fits({1024, 768}), qPrintable(report()));
        QVERIFY(w.width() <= 1024 && w.height() <= 768);
    }

    void samplePerClassTakesFirstOccurrences() {
        Dataset d;
        d.X = Dataset::Matrix::Zero(6, 1);
        d.labels = {1, 0, 1, 1, 0, 1};
        d.classNames = {"a", "b"};
        d.fillDefaults();
        const std::vector<int> expected{1, 4, 0, 2};
        QCOMPARE(samplePerClass(d, 2), expected);
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
