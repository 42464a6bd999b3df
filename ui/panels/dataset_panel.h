#pragma once
// Dataset panel: the bundled datasets and generators, and "Open file...". It only asks for a
// dataset (signal); the main window's loader does the work.

#include <QWidget>

class QListWidget;
class QLabel;

namespace fdlab::ui {

class DatasetPanel : public QWidget {
    Q_OBJECT
public:
    explicit DatasetPanel(QWidget* parent = nullptr);

    /// Selects the entry for `source` ("bundled:NAME") without emitting a request.
    void setCurrentSource(const QString& source);
    QListWidget* list() const { return m_list; }

signals:
    /// "bundled:NAME" or a file path.
    void datasetRequested(const QString& source);
    void openFileRequested();

private:
    QListWidget* m_list = nullptr;
};

}  // namespace fdlab::ui
