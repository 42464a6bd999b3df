#pragma once
// Attack panel: the threat model with its parameters (a form generated from the threat
// registry, core/attacks/threat_registry.h), the levels of the curve (from/to/step or a list), the
// repetitions, the seed and "tune per level" (the papers' protocol). Edits a local copy;
// applyTo() writes it into an experiment spec.
// The budget slider picks the adversary's budget the Heatmaps tab shows: K in [0, n] for count
// threats, N in [0, V) for value budgets (V = sum of the importance values, kept up to date by
// setBudgetBounds whenever the importance changes), a fraction or probability in [0, 1]
// otherwise.

#include "core/eval/experiment_spec.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;
class QCheckBox;
class QLineEdit;
class QRadioButton;
class QLabel;
class QSlider;
class QStackedWidget;

namespace fdlab::ui {

class UInt64SpinBox;

class AttackPanel : public QWidget {
    Q_OBJECT
public:
    explicit AttackPanel(QWidget* parent = nullptr);

    void setFromSpec(const fdlab::ExperimentSpec& spec);
    /// Writes the threat and its parameters, the levels, repetitions, seed and tune-per-level
    /// into `spec` (the one-sided classes are kept). Throws std::invalid_argument for a
    /// malformed level list or parameter text.
    void applyTo(fdlab::ExperimentSpec& spec) const;
    std::vector<double> levels() const;

    /// n features and the total importance V of the current data: the slider's bounds.
    void setBudgetBounds(int features, double totalValue);
    int budgetFeatures() const { return m_features; }
    double budgetTotalValue() const { return m_totalValue; }
    /// The budget on the slider (snapped to its steps; N always below V).
    double budget() const;
    void setBudget(double b);
    /// Largest budget the slider reaches for the current threat.
    double maxBudget() const;
    QSlider* budgetSlider() const { return m_budget; }
    UInt64SpinBox* seedBox() const { return m_seed; }
    /// The threat chosen in the panel (a registry name).
    std::string threat() const;
    /// Its parameters as the generated form shows them (std::invalid_argument for bad text).
    nlohmann::json params() const;

signals:
    void budgetChanged(double budget);

private:
    void updateEnabled();
    void configureBudget(double keep);
    void onBudgetMoved();
    double budgetStep() const;

    QComboBox* m_threat = nullptr;
    QStackedWidget* m_params = nullptr;           ///< one page per registry threat
    std::vector<std::vector<QWidget*>> m_editors; ///< per threat: one editor per ParamInfo
    QRadioButton* m_rangeMode = nullptr;
    QRadioButton* m_listMode = nullptr;
    QDoubleSpinBox* m_from = nullptr;
    QDoubleSpinBox* m_to = nullptr;
    QDoubleSpinBox* m_step = nullptr;
    QLineEdit* m_list = nullptr;
    QSpinBox* m_repetitions = nullptr;
    UInt64SpinBox* m_seed = nullptr;
    QCheckBox* m_tune = nullptr;
    QLabel* m_levelHint = nullptr;
    QSlider* m_budget = nullptr;
    QLabel* m_budgetLabel = nullptr;
    int m_features = 0;
    double m_totalValue = 0.0;
    double m_lastBudget = 0.0;   ///< what the user last chose; kept across threat and bound changes
};

}  // namespace fdlab::ui
