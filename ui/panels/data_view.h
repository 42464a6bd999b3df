#pragma once
// The Data tab: the summary of the loaded dataset, and a look at the data itself -- a grid of
// images for pixel data (a few per class), a table of the first rows otherwise. The table is a
// model over the dataset that formats only the cells in view, with fixed column widths: 200 x 61
// item widgets sized to their contents stalled the GUI thread for ~20 ms on the spam corpus.

#include "core/data/dataset.h"

#include <QWidget>

#include <memory>

class QLabel;
class QTableView;
class QStackedWidget;

namespace fdlab::ui {

class ImageGrid;
class DataPreviewModel;

class DataView : public QWidget {
    Q_OBJECT
public:
    explicit DataView(QWidget* parent = nullptr);

    void setDataset(std::shared_ptr<const Dataset> data, const QString& format);
    ImageGrid* imageGrid() const { return m_grid; }
    QTableView* table() const { return m_table; }

private:
    QLabel* m_summary = nullptr;
    QStackedWidget* m_stack = nullptr;
    ImageGrid* m_grid = nullptr;
    QTableView* m_table = nullptr;
    DataPreviewModel* m_model = nullptr;
};

/// Up to perClass rows of every class, in class order (first occurrences).
std::vector<int> samplePerClass(const Dataset& d, int perClass);

}  // namespace fdlab::ui
