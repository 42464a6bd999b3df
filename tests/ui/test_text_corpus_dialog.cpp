// "Open text corpus..." (offscreen): the dialog's preview -- documents per class and the
// vocabulary size, computed on the loader's worker thread -- for a class-per-folder corpus and
// a CSV corpus, updated when the minimum document frequency or the Subject choice changes,
// equal to the feature count of the dataset then loaded with the dialog's options; errors for
// a missing path; and the Dataset panel's button that asks for the dialog.

#include "core/data/loaders.h"
#include "ui/dialogs/text_corpus_dialog.h"
#include "ui/panels/dataset_panel.h"
#include "ui/workers/dataset_loader.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

using namespace fdlab;
using namespace fdlab::ui;

namespace {

const QString kText = QStringLiteral(FDLAB_TEST_DATA "/text/");

/// Waits for the preview of the dialog's current choices (or an error).
bool waitForPreview(TextCorpusDialog& d) {
    QSignalSpy shown(&d, &TextCorpusDialog::previewShown);
    return shown.wait(20000);
}

}  // namespace

class TestTextCorpusDialog : public QObject {
    Q_OBJECT
private slots:
    void previewsAFolderAndLoadsWhatItSaid() {
        DatasetLoader loader;
        TextCorpusDialog d(&loader);
        QPushButton* ok = d.buttons()->button(QDialogButtonBox::Ok);
        QVERIFY(!ok->isEnabled());
        d.setPath(kText + "folder");
        QVERIFY(waitForPreview(d));
        // Fixture: 3 ham + 2 spam; words in >= 2 documents: cheap, meeting, now.
        QCOMPARE(d.previewVocabulary(), 3);
        QVERIFY2(d.previewLabel()->text().contains("<b>3 words</b>") && d.previewLabel()->text().contains("5 documents: 3 ham, 2 spam"),
                 qPrintable(d.previewLabel()->text()));
        QVERIFY(ok->isEnabled());

        d.minDocumentFrequencySpin()->setValue(1);
        QVERIFY(!ok->isEnabled());   // the shown preview is for the old choice
        QCOMPARE(d.previewVocabulary(), -1);
        QVERIFY(waitForPreview(d));
        const int all = d.previewVocabulary();
        QVERIFY(all > 3);
        d.keepSubjectCheck()->setChecked(false);   // "offer" is only in a Subject line
        QVERIFY(waitForPreview(d));
        QCOMPARE(d.previewVocabulary(), all - 1);
        d.weightingCombo()->setCurrentIndex(2);
        QVERIFY(waitForPreview(d));
        QCOMPARE(d.previewVocabulary(), all - 1);

        const LoadOptions o = d.options();
        QCOMPARE(o.minDocumentFrequency, 1);
        QVERIFY(!o.keepSubject);
        QCOMPARE(o.weighting, std::string("tf-idf"));
        QVERIFY(o.textColumn.empty());
        // What the dialog promised is what the loader gives.
        QSignalSpy loaded(&loader, &DatasetLoader::loaded);
        loader.request(d.path(), o);
        QVERIFY(loaded.wait(20000));
        const auto data = loaded.at(0).at(1).value<DatasetPtr>();
        QCOMPARE(data->features(), all - 1);
        QCOMPARE(loaded.at(0).at(2).toString(), QString("text corpus"));
        QVERIFY(data->documents != nullptr);
    }

    void previewsACsvFile() {
        DatasetLoader loader;
        TextCorpusDialog d(&loader);
        d.minDocumentFrequencySpin()->setValue(1);
        d.setPath(kText + "messages.csv");
        QCOMPARE(d.textColumnCombo()->currentText(), QString("text"));
        QVERIFY(waitForPreview(d));
        QVERIFY2(d.previewVocabulary() > 0, qPrintable(d.previewLabel()->text()));
        QVERIFY(d.previewLabel()->text().contains("3 documents: 2 ham, 1 spam"));
        const LoadOptions o = d.options();
        QCOMPARE(o.textColumn, std::string("text"));
        QCOMPARE(loadDataFile(d.path().toStdString(), o).features(), d.previewVocabulary());

        d.setPath(kText + "no_such_corpus");
        QVERIFY(waitForPreview(d));
        QVERIFY(d.previewLabel()->text().contains("no such folder or file"));
        QCOMPARE(d.previewVocabulary(), -1);
        QVERIFY(!d.buttons()->button(QDialogButtonBox::Ok)->isEnabled());
        d.setPath(kText + "folder_one_class");   // core's message
        QVERIFY(waitForPreview(d));
        QVERIFY2(d.previewLabel()->text().contains("expected one sub-folder, Maildir or mbox file per class"), qPrintable(d.previewLabel()->text()));
    }

    // Not a check: renders the dialog for a person to look at.
    void screenshot() {
        const QByteArray dir = qgetenv("FDLAB_SCREENSHOT_DIR");
        if (dir.isEmpty()) QSKIP("set FDLAB_SCREENSHOT_DIR to render screenshots");
        DatasetLoader loader;
        TextCorpusDialog d(&loader);
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        d.minDocumentFrequencySpin()->setValue(1);
        d.setPath(kText + "folder");
        QVERIFY(waitForPreview(d));
        d.grab().save(QString::fromUtf8(dir) + "/text_corpus_dialog.png");
    }

    void panelButtonAsksForTheDialog() {
        DatasetPanel panel;
        QSignalSpy asked(&panel, &DatasetPanel::openTextCorpusRequested);
        auto* button = panel.findChild<QPushButton*>("openTextCorpus");
        QVERIFY(button);
        button->click();
        QCOMPARE(asked.count(), 1);
    }
};

QTEST_MAIN(TestTextCorpusDialog)
#include "test_text_corpus_dialog.moc"
