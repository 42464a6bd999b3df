#pragma once
// A grid of pixel images (rows of an image dataset), each with its class name underneath.
// Draws only what it is given; the caller chooses which rows.

#include "core/data/dataset.h"

#include <QImage>
#include <QWidget>

#include <memory>
#include <vector>

namespace fdlab::ui {

class ImageGrid : public QWidget {
    Q_OBJECT
public:
    explicit ImageGrid(QWidget* parent = nullptr);

    /// Shows rows `rows` of `data` (which must have an image shape); clears when data is null.
    void setImages(std::shared_ptr<const Dataset> data, std::vector<int> rows);
    int imageCount() const { return static_cast<int>(m_images.size()); }

    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent*) override;

private:
    int columns() const;
    std::vector<QImage> m_images;
    std::vector<QString> m_captions;
    int m_cell = 64;
};

/// Grayscale image of row i (values mapped from [min, max] of the row to black..white, ink dark
/// on a light background as on paper).
QImage rowToImage(const Dataset& d, int i);

}  // namespace fdlab::ui
