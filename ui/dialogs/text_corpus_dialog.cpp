#include "ui/dialogs/text_corpus_dialog.h"

#include "ui/dialogs/import_dialog.h"   // headerNames
#include "ui/workers/dataset_loader.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

namespace fdlab::ui {

TextCorpusDialog::TextCorpusDialog(DatasetLoader* loader, QWidget* parent) : QDialog(parent), m_loader(loader) {
    setWindowTitle(tr("Open text corpus"));
    auto* form = new QFormLayout;

    auto* pathRow = new QHBoxLayout;
    m_path = new QLineEdit(this);
    m_path->setObjectName("corpusPath");
    m_path->setPlaceholderText(tr("a folder with one sub-folder, Maildir or .mbox file per class, or a CSV file"));
    m_path->setMinimumWidth(360);
    auto* folder = new QPushButton(tr("Folder..."), this);
    auto* csv = new QPushButton(tr("CSV file..."), this);
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(folder);
    pathRow->addWidget(csv);
    form->addRow(tr("Corpus:"), pathRow);

    m_csvRow = new QWidget(this);
    auto* columns = new QHBoxLayout(m_csvRow);
    columns->setContentsMargins(0, 0, 0, 0);
    m_textColumn = new QComboBox(m_csvRow);
    m_textColumn->setEditable(true);
    m_labelColumn = new QComboBox(m_csvRow);
    m_labelColumn->setEditable(true);
    columns->addWidget(new QLabel(tr("text column"), m_csvRow));
    columns->addWidget(m_textColumn, 1);
    columns->addWidget(new QLabel(tr("label column"), m_csvRow));
    columns->addWidget(m_labelColumn, 1);
    form->addRow(tr("CSV:"), m_csvRow);

    m_subject = new QCheckBox(tr("Keep the Subject line of e-mails (its words count)"), this);
    m_subject->setChecked(true);
    form->addRow(QString(), m_subject);
    m_weighting = new QComboBox(this);
    m_weighting->addItem(tr("binary (word present: 1)"), "binary");
    m_weighting->addItem(tr("tf (occurrences / words in the message)"), "tf");
    m_weighting->addItem(tr("tf-idf (tf x inverse document frequency)"), "tf-idf");
    form->addRow(tr("Values:"), m_weighting);
    m_minDf = new QSpinBox(this);
    m_minDf->setRange(1, 100000);
    m_minDf->setValue(LoadOptions{}.minDocumentFrequency);
    m_minDf->setToolTip(tr("A word enters the vocabulary when this many documents contain it"));
    form->addRow(tr("Minimum documents per word:"), m_minDf);

    m_preview = new QLabel(tr("Choose a folder or a CSV file."), this);
    m_preview->setObjectName("corpusPreview");
    m_preview->setWordWrap(true);
    m_preview->setMinimumWidth(460);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Load"));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);

    auto* outer = new QVBoxLayout(this);
    outer->addLayout(form);
    outer->addWidget(m_preview);
    outer->addWidget(m_buttons);

    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(200);   // typing a path or spinning the frequency: one request
    connect(m_debounce, &QTimer::timeout, this, &TextCorpusDialog::requestPreview);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(folder, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Corpus folder (one sub-folder, Maildir or .mbox file per class)"));
        if (!dir.isEmpty()) setPath(dir);
    });
    connect(csv, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Corpus CSV file"), {}, tr("CSV files (*.csv);;All files (*)"));
        if (!file.isEmpty()) setPath(file);
    });
    connect(m_path, &QLineEdit::textChanged, this, [this] { setPath(m_path->text()); });
    connect(m_textColumn, &QComboBox::currentTextChanged, this, &TextCorpusDialog::schedulePreview);
    connect(m_labelColumn, &QComboBox::currentTextChanged, this, &TextCorpusDialog::schedulePreview);
    connect(m_subject, &QCheckBox::toggled, this, &TextCorpusDialog::schedulePreview);
    connect(m_weighting, &QComboBox::currentIndexChanged, this, &TextCorpusDialog::schedulePreview);
    connect(m_minDf, &QSpinBox::valueChanged, this, &TextCorpusDialog::schedulePreview);
    connect(m_loader, &DatasetLoader::previewReady, this, &TextCorpusDialog::onPreview);
    m_csvRow->setEnabled(false);
}

void TextCorpusDialog::setPath(const QString& path) {
    if (m_path->text() != path) m_path->setText(path);   // re-enters through textChanged
    const bool csv = isCsv();
    m_csvRow->setEnabled(csv);
    if (csv) {
        // The columns of the header; "text" and "label" when present, as the CLI's defaults.
        const QStringList names = headerNames(path, FileFormat::Csv);
        const QSignalBlocker b1(m_textColumn), b2(m_labelColumn);
        m_textColumn->clear();
        m_labelColumn->clear();
        m_textColumn->addItems(names);
        m_labelColumn->addItems(names);
        m_textColumn->setCurrentText(names.contains("text") ? QStringLiteral("text") : names.value(0));
        m_labelColumn->setCurrentText(names.contains("label") ? QStringLiteral("label") : names.value(names.size() - 1));
    }
    schedulePreview();
}

QString TextCorpusDialog::path() const { return m_path->text().trimmed(); }

bool TextCorpusDialog::isCsv() const {
    const QFileInfo info(path());
    return info.isFile() && info.suffix().compare("csv", Qt::CaseInsensitive) == 0;
}

LoadOptions TextCorpusDialog::options() const {
    LoadOptions o;
    o.keepSubject = m_subject->isChecked();
    o.weighting = m_weighting->currentData().toString().toStdString();
    o.minDocumentFrequency = m_minDf->value();
    if (isCsv()) {
        o.textColumn = m_textColumn->currentText().toStdString();
        o.labelColumn = m_labelColumn->currentText().toStdString();
    }
    return o;
}

void TextCorpusDialog::schedulePreview() {
    ++m_id;   // what is on screen no longer matches the choices
    m_vocabulary = -1;
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    m_preview->setText(path().isEmpty() ? tr("Choose a folder or a CSV file.") : tr("Reading the corpus..."));
    if (!path().isEmpty()) m_debounce->start();
}

void TextCorpusDialog::requestPreview() {
    const QFileInfo info(path());
    if (!info.exists()) {
        m_preview->setText(tr("<span style='color:#b00'>%1: no such folder or file</span>").arg(path().toHtmlEscaped()));
        emit previewShown();
        return;
    }
    if (!info.isDir() && !isCsv()) {
        m_preview->setText(tr("<span style='color:#b00'>Expected a folder or a .csv file</span>"));
        emit previewShown();
        return;
    }
    m_loader->requestPreview(m_id, path(), options());
}

void TextCorpusDialog::onPreview(quint64 id, const TextCorpusPreview& preview, const QString& error) {
    if (id != m_id) return;
    if (!error.isEmpty()) {
        m_preview->setText(QStringLiteral("<span style='color:#b00'>%1</span>").arg(error.toHtmlEscaped()));
        emit previewShown();
        return;
    }
    const QLocale loc;
    QStringList perClass;
    for (std::size_t c = 0; c < preview.classNames.size(); ++c)
        perClass << QStringLiteral("%1 %2").arg(loc.toString(preview.classCounts[c]), QString::fromStdString(preview.classNames[c]).toHtmlEscaped());
    m_vocabulary = preview.vocabulary;
    m_preview->setText(tr("<b>%1 words</b> in the vocabulary (the features), from %2 documents: %3.")
                           .arg(loc.toString(preview.vocabulary), loc.toString(preview.documents), perClass.join(QStringLiteral(", "))));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(preview.vocabulary > 0);
    emit previewShown();
}

}  // namespace fdlab::ui
