#pragma once
// "Open text corpus...": a folder with one sub-folder per class, or a CSV file with a text
// column, and the text pipeline's options (keep the Subject line, binary / tf / tf-idf values,
// minimum document frequency). Before anything is loaded it shows what the corpus will give --
// documents per class and the vocabulary size -- computed by the dataset loader's worker thread
// (ui/workers/dataset_loader.h) whenever the path or an option changes. OK is enabled once the
// preview for the current choices has arrived without an error.

#include "core/data/loaders.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTimer;
class QWidget;

namespace fdlab::ui {

class DatasetLoader;

class TextCorpusDialog : public QDialog {
    Q_OBJECT
public:
    explicit TextCorpusDialog(DatasetLoader* loader, QWidget* parent = nullptr);

    /// A folder or a CSV file; a CSV file's columns fill the text/label choices.
    void setPath(const QString& path);
    QString path() const;
    /// The options to load with (LoadOptions' text fields; textColumn set for a CSV file).
    fdlab::LoadOptions options() const;

    /// The last preview's vocabulary size for the current choices, -1 while computing or after
    /// an error.
    int previewVocabulary() const { return m_vocabulary; }
    QLabel* previewLabel() const { return m_preview; }
    QSpinBox* minDocumentFrequencySpin() const { return m_minDf; }
    QComboBox* weightingCombo() const { return m_weighting; }
    QCheckBox* keepSubjectCheck() const { return m_subject; }
    QComboBox* textColumnCombo() const { return m_textColumn; }
    QDialogButtonBox* buttons() const { return m_buttons; }

signals:
    /// A preview (or its error) is shown.
    void previewShown();

private:
    bool isCsv() const;
    void schedulePreview();
    void requestPreview();
    void onPreview(quint64 id, const fdlab::TextCorpusPreview& preview, const QString& error);

    DatasetLoader* m_loader;
    quint64 m_id = 0;   // answers to older requests are ignored
    int m_vocabulary = -1;
    QLineEdit* m_path = nullptr;
    QWidget* m_csvRow = nullptr;
    QComboBox* m_textColumn = nullptr;
    QComboBox* m_labelColumn = nullptr;
    QCheckBox* m_subject = nullptr;
    QComboBox* m_weighting = nullptr;
    QSpinBox* m_minDf = nullptr;
    QLabel* m_preview = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    QTimer* m_debounce = nullptr;
};

}  // namespace fdlab::ui
