#pragma once
// The small import dialog for text formats whose reading needs a choice: the label column of a
// CSV file, the class attribute and the '?' policy of an ARFF file. Other formats need none.

#include "core/data/loaders.h"

#include <QDialog>

class QComboBox;

namespace fdlab::ui {

class ImportDialog : public QDialog {
    Q_OBJECT
public:
    /// Reads the header of `path` (CSV first line, ARFF @attribute lines); throws nothing:
    /// a header it cannot read leaves the defaults (the loader will report the problem).
    ImportDialog(const QString& path, QWidget* parent = nullptr);

    /// True when the file's format has choices to make (CSV, ARFF).
    static bool needed(const QString& path);
    LoadOptions options() const;

    QComboBox* labelCombo() const { return m_label; }
    QComboBox* missingCombo() const { return m_missing; }

private:
    FileFormat m_format = FileFormat::Csv;
    QComboBox* m_label = nullptr;
    QComboBox* m_missing = nullptr;
};

/// Column names of a CSV header / attribute names of an ARFF file (empty when unreadable).
QStringList headerNames(const QString& path, FileFormat format);

}  // namespace fdlab::ui
