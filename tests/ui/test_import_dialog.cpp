// The import dialog reads CSV headers (quoted names with commas) and ARFF attribute names, and
// its choices reach the loader: a CSV opened with the label column "class" loads as such.

#include "ui/dialogs/import_dialog.h"
#include "ui/main_window.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QTest>

using namespace fdlab;
using namespace fdlab::ui;

class TestImportDialog : public QObject {
    Q_OBJECT
private slots:
    void readsHeaders() {
        const QString csv = QStringLiteral(FDLAB_TEST_DATA) + "/tiny.csv";
        QCOMPARE(headerNames(csv, FileFormat::Csv), (QStringList{"width, cm", "height", "class", "weight"}));
        const QString arff = QStringLiteral(FDLAB_TEST_DATA) + "/tiny.arff";
        QCOMPARE(headerNames(arff, FileFormat::Arff), (QStringList{"out look", "temp", "humid", "windy", "play"}));
        QVERIFY(ImportDialog::needed(csv));
        QVERIFY(ImportDialog::needed(arff));
        QVERIFY(!ImportDialog::needed(QStringLiteral(FDLAB_TEST_DATA) + "/tiny.libsvm"));
    }

    void choicesBecomeLoadOptions() {
        ImportDialog d(QStringLiteral(FDLAB_TEST_DATA) + "/tiny.arff");
        QCOMPARE(d.labelCombo()->currentText(), QString("play"));   // the loaders' default: last
        d.labelCombo()->setCurrentText("windy");
        d.missingCombo()->setCurrentIndex(1);
        const LoadOptions o = d.options();
        QCOMPARE(o.classAttribute, std::string("windy"));
        QCOMPARE(o.missing, MissingPolicy::DropRow);
    }

    void windowLoadsWithTheChosenColumn() {
        MainWindow w;
        w.setProperty("quietErrors", true);
        QSignalSpy shown(&w, &MainWindow::datasetShown);
        LoadOptions o;
        o.labelColumn = "class";
        w.openSource(QStringLiteral(FDLAB_TEST_DATA) + "/tiny.csv", o);
        QVERIFY(shown.wait(20000));
        QCOMPARE(w.currentDataset()->features(), 3);
        QCOMPARE(w.currentDataset()->classNames, (std::vector<std::string>{"a", "b"}));
    }
};

QTEST_MAIN(TestImportDialog)
#include "test_import_dialog.moc"
