#pragma once
// "Your own input" for image data: the student draws a digit with the mouse on a rows x cols
// canvas (28 x 28 for MNIST), with a thicker or thinner pen and Clear, and both learners classify
// it live (core's scoreWithDeletions with nothing deleted: the learners' own scores). "Use as a
// test instance" hands the drawing to the Heatmaps tab, where the attack, the heatmaps and
// play-the-adversary work on it like on any test instance.

#include "core/learners/registry.h"
#include "ui/workers/attack_worker.h"

#include <QWidget>

#include <vector>

class QLabel;

namespace fdlab::ui {

class OwnInputVerdicts;

/// The paper: mouse strokes become ink; one cell per feature.
class InkPad : public QWidget {
    Q_OBJECT
public:
    explicit InkPad(QWidget* parent = nullptr);
    void setShape(int rows, int cols, float ink);
    void clear();
    /// Pen radius in cells (0.5 = one cell; up to 4).
    void setPen(double radius);
    double pen() const { return m_pen; }
    const std::vector<float>& values() const { return m_x; }
    /// Side of one cell in pixels, the top left corner of the grid (centred in the part of the
    /// pad on screen), and the cell under a widget pixel (false outside).
    int cellSize() const;
    QPoint origin() const;
    bool cellAt(const QPoint& p, int* row, int* col) const;
    /// Ink at cell (row, col): every cell within the pen radius darkens (never lightens).
    void stroke(double row, double col);
    QSize sizeHint() const override { return {320, 320}; }
    QSize minimumSizeHint() const override { return {160, 160}; }

signals:
    void changed();

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;

private:
    QPointF cellPoint(const QPointF& p) const;
    QRect area() const;
    int m_rows = 0, m_cols = 0;
    float m_ink = 1.0f;
    double m_pen = 1.2;
    std::vector<float> m_x;
    QPointF m_last{-1, -1};
    QRect m_painted;   ///< area() at the last paint
};

class DrawCanvas : public QWidget {
    Q_OBJECT
public:
    explicit DrawCanvas(QWidget* parent = nullptr);
    /// The models to classify with and the image shape (from the context's test set).
    void setContext(HeatmapContextPtr ctx, int a, int b);
    InkPad* pad() const { return m_pad; }
    QLabel* verdict(int which) const;
    /// The class the drawing is meant to be (its true label for the attack).
    int intendedClass() const;
    void setIntendedClass(int k);

signals:
    /// "Use as a test instance": the drawing and its intended class.
    void useDrawing(const std::vector<float>& x, int label);

private:
    void classify();
    HeatmapContextPtr m_ctx;
    InkPad* m_pad = nullptr;
    QLabel* m_penLabel = nullptr;
    OwnInputVerdicts* m_verdicts = nullptr;
};

}  // namespace fdlab::ui
