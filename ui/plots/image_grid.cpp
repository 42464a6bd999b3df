#include "ui/plots/image_grid.h"

#include <QPainter>

#include <algorithm>

namespace fdlab::ui {

QImage rowToImage(const Dataset& d, int i) {
    const ImageShape s = *d.imageShape;
    QImage img(s.cols, s.rows, QImage::Format_Grayscale8);
    const auto row = d.X.row(i);
    const float lo = std::min(0.0f, row.minCoeff());
    const float hi = std::max(lo + 1e-6f, row.maxCoeff());
    for (int r = 0; r < s.rows; ++r) {
        uchar* line = img.scanLine(r);
        for (int c = 0; c < s.cols; ++c) {
            const float t = (row(r * s.cols + c) - lo) / (hi - lo);
            line[c] = static_cast<uchar>(255.0f - std::clamp(t, 0.0f, 1.0f) * 255.0f);
        }
    }
    return img;
}

ImageGrid::ImageGrid(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
}

void ImageGrid::setImages(std::shared_ptr<const Dataset> data, std::vector<int> rows) {
    m_images.clear();
    m_captions.clear();
    if (data && data->imageShape) {
        for (int i : rows) {
            if (i < 0 || i >= data->rows()) continue;
            m_images.push_back(rowToImage(*data, i));
            m_captions.push_back(QString::fromStdString(data->classNames[static_cast<std::size_t>(data->labels[static_cast<std::size_t>(i)])]));
        }
    }
    updateGeometry();
    update();
}

int ImageGrid::columns() const { return std::max(1, width() / (m_cell + 8)); }

QSize ImageGrid::sizeHint() const { return {10 * (m_cell + 8), 4 * (m_cell + 24)}; }

void ImageGrid::paintEvent(QPaintEvent*) {
    QPainter p(this);
    if (m_images.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No image data to show"));
        return;
    }
    const int cols = columns();
    const QFontMetrics fm(font());
    const int cellH = m_cell + fm.height() + 8;
    for (std::size_t k = 0; k < m_images.size(); ++k) {
        const int r = static_cast<int>(k) / cols, c = static_cast<int>(k) % cols;
        const QRect target(4 + c * (m_cell + 8), 4 + r * cellH, m_cell, m_cell);
        if (target.top() > height()) break;
        p.drawImage(target, m_images[k]);
        p.setPen(palette().color(QPalette::Mid));
        p.drawRect(target.adjusted(0, 0, -1, -1));
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRect(target.left(), target.bottom() + 2, m_cell, fm.height()), Qt::AlignCenter, m_captions[k]);
    }
}

}  // namespace fdlab::ui
