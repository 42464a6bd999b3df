#pragma once
// What each FeatureBoost round relied on (core's FeatureRounds, core/learners/registry.h): a
// rounds-by-features colour map (round t down, feature f across) of the sensitivity-analysis
// importance I_t(f) or the emphasis distribution D_t(f) round t was trained under, with a
// labelled colour scale. For image data the same numbers can be shown as one small image per
// round (tiles left to right, top to bottom, each labelled with its round), all on one scale.
// The view only draws what core recorded while training.

#include "core/data/dataset.h"
#include "core/learners/registry.h"

#include <QWidget>

#include <optional>
#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QCPColorMap;
class QCPColorScale;
class QCPItemText;
class QLabel;

namespace fdlab::ui {

class FeatureRoundsView : public QWidget {
    Q_OBJECT
public:
    enum class Quantity { Importance, Distribution };

    explicit FeatureRoundsView(QWidget* parent = nullptr);

    /// Shows `rounds` of the model called `learner`; `shape` enables the per-round image maps.
    void setRounds(const QString& learner, const fdlab::FeatureRounds& rounds, std::optional<fdlab::ImageShape> shape,
                   const std::vector<std::string>& featureNames);
    void clear();
    bool hasRounds() const { return !m_rounds.empty(); }

    void setQuantity(Quantity q);
    Quantity quantity() const { return m_quantity; }
    /// Per-round image maps (image data only; ignored otherwise).
    void setImageMode(bool images);
    bool imageMode() const { return m_imageMode; }

    /// The value drawn for round t (0-based) and feature f, read back from the colour map.
    double shownValue(int round, int feature) const;

    QCustomPlot* plot() const { return m_plot; }
    QCPColorMap* colorMap() const { return m_map; }
    QCPColorScale* colorScale() const { return m_scale; }

    QSize sizeHint() const override { return {420, 240}; }
    QSize minimumSizeHint() const override { return {200, 140}; }

private:
    void redraw();
    void drawMatrix(const Eigen::MatrixXd& values);
    void drawImages(const Eigen::MatrixXd& values);
    void updateAspect();
    const Eigen::MatrixXd& values() const;
    /// Tile grid of the image mode: columns of tiles (rows follow from the round count).
    int tileColumns() const;

    QLabel* m_title = nullptr;
    QComboBox* m_quantityBox = nullptr;
    QCheckBox* m_imagesBox = nullptr;
    QCustomPlot* m_plot = nullptr;
    QCPColorMap* m_map = nullptr;
    QCPColorScale* m_scale = nullptr;
    std::vector<QCPItemText*> m_tileLabels;

    QString m_learner;
    fdlab::FeatureRounds m_rounds;
    std::optional<fdlab::ImageShape> m_shape;
    std::vector<std::string> m_names;
    Quantity m_quantity = Quantity::Importance;
    bool m_imageMode = false;
};

}  // namespace fdlab::ui
