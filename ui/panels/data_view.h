#pragma once
// The Data tab: the summary of the loaded dataset, and a look at the data itself -- a grid of
// images for pixel data (a few per class), a table of the first rows otherwise.

#include "core/data/dataset.h"

#include <QWidget>

#include <memory>

class QLabel;
class QTableWidget;
class QStackedWidget;

namespace fdlab::ui {

class ImageGrid;

class DataView : public QWidget {
    Q_OBJECT
public:
    explicit DataView(QWidget* parent = nullptr);

    void setDataset(std::shared_ptr<const Dataset> data, const QString& format);
    ImageGrid* imageGrid() const { return m_grid; }
    QTableWidget* table() const { return m_table; }

private:
    QLabel* m_summary = nullptr;
    QStackedWidget* m_stack = nullptr;
    ImageGrid* m_grid = nullptr;
    QTableWidget* m_table = nullptr;
};

/// Up to perClass rows of every class, in class order (first occurrences).
std::vector<int> samplePerClass(const Dataset& d, int perClass);

}  // namespace fdlab::ui
