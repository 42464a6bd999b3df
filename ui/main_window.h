#pragma once
// The main window only assembles panels, views and workers; it computes nothing.

#include "ui/workers/dataset_loader.h"

#include <QMainWindow>

class QTabWidget;
class QLabel;

namespace fdlab::ui {

class DatasetPanel;
class DataView;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    /// Loads "bundled:NAME" or a file path in the background.
    void openSource(const QString& source);
    DatasetPtr currentDataset() const { return m_data; }
    DataView* dataView() const { return m_dataView; }
    DatasetPanel* datasetPanel() const { return m_datasetPanel; }

signals:
    /// Emitted after a dataset has been shown (for tests and later panels).
    void datasetShown(const QString& source);
    void datasetFailed(const QString& source, const QString& message);

private:
    void buildMenus();
    void openFileDialog();
    void onLoaded(const QString& source, DatasetPtr data, const QString& format);
    void onFailed(const QString& source, const QString& message);

    DatasetLoader* m_loader = nullptr;
    DatasetPanel* m_datasetPanel = nullptr;
    QTabWidget* m_tabs = nullptr;
    DataView* m_dataView = nullptr;
    DatasetPtr m_data;
};

}  // namespace fdlab::ui
