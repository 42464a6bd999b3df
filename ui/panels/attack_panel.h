#pragma once
// Attack panel: the threat model, the levels of the curve (from/to/step or a list), the
// repetitions, the seed and "tune per level" (the papers' protocol). Edits a local copy;
// applyTo() writes it into an experiment spec.

#include "core/eval/experiment_spec.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;
class QCheckBox;
class QLineEdit;
class QRadioButton;
class QLabel;

namespace fdlab::ui {

class AttackPanel : public QWidget {
    Q_OBJECT
public:
    explicit AttackPanel(QWidget* parent = nullptr);

    void setFromSpec(const fdlab::ExperimentSpec& spec);
    /// Writes threat, replacement, feature, levels, repetitions, seed and tune-per-level into
    /// `spec` (other attack fields, e.g. fixed-deletion features, are kept). Throws
    /// std::invalid_argument for a malformed level list.
    void applyTo(fdlab::ExperimentSpec& spec) const;
    std::vector<double> levels() const;

private:
    void updateEnabled();

    QComboBox* m_threat = nullptr;
    QComboBox* m_replacement = nullptr;
    QSpinBox* m_feature = nullptr;
    QRadioButton* m_rangeMode = nullptr;
    QRadioButton* m_listMode = nullptr;
    QDoubleSpinBox* m_from = nullptr;
    QDoubleSpinBox* m_to = nullptr;
    QDoubleSpinBox* m_step = nullptr;
    QLineEdit* m_list = nullptr;
    QSpinBox* m_repetitions = nullptr;
    QSpinBox* m_seed = nullptr;
    QCheckBox* m_tune = nullptr;
    QLabel* m_levelHint = nullptr;
};

}  // namespace fdlab::ui
