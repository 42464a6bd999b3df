#pragma once
// "Export plot": the file (PNG, PDF or SVG, by its suffix) and the size of the figure.

#include <QDialog>

class QLineEdit;
class QSpinBox;

namespace fdlab::ui {

class ExportDialog : public QDialog {
    Q_OBJECT
public:
    explicit ExportDialog(const QString& suggestedPath, QWidget* parent = nullptr);

    QString path() const;
    int exportWidth() const;
    int exportHeight() const;

private:
    QLineEdit* m_path = nullptr;
    QSpinBox* m_width = nullptr;
    QSpinBox* m_height = nullptr;
};

}  // namespace fdlab::ui
