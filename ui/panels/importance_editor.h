#pragma once
// The importance editor: per-feature values v_j > 0 (the adversary's cost of deleting feature
// j). A sortable, filterable table (name, value; a model behind a QSortFilterProxyModel, so
// 34,000 words of a text corpus are one table, not 34,000 widgets) where one value can be set
// for many selected rows, presets
// (uniform, mutual information, CSV load/save through core), and for image data a canvas of the
// image shape on which the user paints values with a brush. The total V = sum v_j and the
// admissible value budgets N in [0, V) are shown live.
//
// The editor edits a local copy of the importance; importanceChanged hands it out. Errors from
// core (bad CSV) appear in a message box with core's message, unless the property
// "quietErrors" is true (tests); errorOccurred is emitted in both cases.

#include "core/data/dataset.h"
#include "ui/workers/dataset_loader.h"   // DatasetPtr and its metatype

#include <QThread>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <vector>

class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;

namespace fdlab::ui {

class ColorMapWidget;
class ImportanceFilterModel;
class ImportanceTableModel;

/// Computes the mutual-information importance off the GUI thread.
class MutualInfoWorker : public QObject {
    Q_OBJECT
public:
    void compute(fdlab::ui::DatasetPtr data, quint64 generation);
signals:
    void done(quint64 generation, const std::vector<double>& values, const QString& error);
};

class ImportanceEditor : public QWidget {
    Q_OBJECT
public:
    explicit ImportanceEditor(QWidget* parent = nullptr);
    ~ImportanceEditor() override;

    /// Shows the dataset's importance values (uniform when they are missing). Null clears.
    void setDataset(std::shared_ptr<const fdlab::Dataset> data);
    std::shared_ptr<const fdlab::Dataset> dataset() const { return m_data; }

    /// The edited values v_j, one per feature.
    const std::vector<double>& importance() const { return m_values; }
    /// Replaces all values (size must match the dataset; values must be finite and > 0).
    void setImportance(const std::vector<double>& values);
    /// V = sum v_j.
    double total() const;

    // Presets.
    void setUniform();
    /// Starts the mutual-information heuristic on a worker thread; importanceChanged follows.
    void startMutualInformation();
    bool mutualInformationRunning() const { return m_miRunning; }
    /// Loads "name,value" lines through core; false (and an error) on failure.
    bool loadCsv(const QString& path);
    bool saveCsv(const QString& path);

    /// Sets v_j = value for the given features (0-based indices).
    void setValues(const std::vector<int>& features, double value);
    /// Sets the value of the spin box next to "Set selected" for every selected table row.
    void applyToSelection(double value);
    /// Features of the selected table rows, increasing (only rows the filter shows can be selected).
    std::vector<int> selectedFeatures() const;
    /// Shows only the rows whose feature name contains `text` (case-insensitive); empty: all.
    void setFilter(const QString& text);
    QString filter() const;

    // Brush (image data).
    void setBrushValue(double v);
    double brushValue() const;
    void setBrushRadius(int r);
    int brushRadius() const;
    /// Paints the brush value onto every pixel within the brush radius of (row, col):
    /// (r - row)^2 + (c - col)^2 <= radius^2. Emits importanceChanged.
    void paintAt(int row, int col);

    QTableView* table() const { return m_table; }
    ColorMapWidget* canvas() const { return m_canvas; }
    QLabel* totalLabel() const { return m_total; }
    QLineEdit* filterEdit() const { return m_filter; }
    /// "N features" or "k of N features match".
    QLabel* shownLabel() const { return m_shown; }

signals:
    void importanceChanged(const std::vector<double>& values);
    void errorOccurred(const QString& message);
    /// Internal: hands a job to the worker thread.
    void miRequested(fdlab::ui::DatasetPtr data, quint64 generation);

private:
    void buildUi();
    void refresh(bool emitChange);
    void updateCanvas();
    void updateTotal();
    void updateShown();
    void paintCells(int row, int col, bool emitChange);
    void onMiDone(quint64 generation, const std::vector<double>& values, const QString& error);
    void reportError(const QString& message);
    void loadCsvDialog();
    void saveCsvDialog();

    std::shared_ptr<const fdlab::Dataset> m_data;
    std::vector<double> m_values;
    quint64 m_generation = 0;
    bool m_miRunning = false;
    bool m_stroke = false;   // a mouse stroke is painting; importanceChanged on release

    ImportanceTableModel* m_model = nullptr;
    ImportanceFilterModel* m_proxy = nullptr;
    QTableView* m_table = nullptr;
    QLineEdit* m_filter = nullptr;
    QLabel* m_shown = nullptr;
    QDoubleSpinBox* m_setValue = nullptr;
    QPushButton* m_setButton = nullptr;
    QPushButton* m_uniform = nullptr;
    QPushButton* m_mi = nullptr;
    QPushButton* m_load = nullptr;
    QPushButton* m_save = nullptr;
    QGroupBox* m_canvasBox = nullptr;
    ColorMapWidget* m_canvas = nullptr;
    QDoubleSpinBox* m_brushValue = nullptr;
    QSpinBox* m_brushRadius = nullptr;
    QLabel* m_total = nullptr;

    QThread m_thread;
    MutualInfoWorker* m_worker = nullptr;
};

}  // namespace fdlab::ui
