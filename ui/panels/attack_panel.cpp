#include "ui/panels/attack_panel.h"

#include "core/attacks/threat_registry.h"
#include "core/eval/experiment_state.h"

#include "ui/panels/compact_spin_box.h"
#include "ui/panels/param_form.h"
#include "ui/panels/uint64_spin_box.h"
#include "ui/plots/curve_plot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSlider>
#include <QVBoxLayout>
#include <QSpinBox>
#include <QStackedWidget>

#include <algorithm>
#include <cmath>

namespace fdlab::ui {

AttackPanel::AttackPanel(QWidget* parent) : QWidget(parent) {
    auto* form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_threat = new QComboBox(this);
    m_threat->setObjectName("threatCombo");
    // One page of parameter editors per threat, generated from its registry entry.
    m_params = new QStackedWidget(this);
    m_params->setObjectName("threatParams");
    // No taller than the current page: on a tall screen the form's spare height went into the
    // stack, leaving a gap between the threat's parameters and the levels.
    m_params->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    for (const ThreatInfo& t : threatRegistry()) {
        m_threat->addItem(QString::fromStdString(t.name), QString::fromStdString(t.name));
        m_threat->setItemData(m_threat->count() - 1,
                              QStringLiteral("<b>%1</b><br>%2<br><i>%3</i>")
                                  .arg(QString::fromStdString(t.title).toHtmlEscaped(), QString::fromStdString(t.doc).toHtmlEscaped(),
                                       QString::fromStdString(t.source).toHtmlEscaped()),
                              Qt::ToolTipRole);
        auto* page = new QWidget;
        auto* pageForm = new QFormLayout(page);
        pageForm->setContentsMargins(0, 0, 0, 0);
        pageForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        std::vector<QWidget*> editors;
        for (const ParamInfo& p : t.params) {
            QWidget* editor = createParamEditor(p, p.defaultValue, QString::fromStdString("attack." + t.name + "." + p.name));
            auto* label = new QLabel(QString::fromStdString(p.name), page);
            label->setToolTip(editor->toolTip());
            pageForm->addRow(label, editor);
            editors.push_back(editor);
        }
        m_editors.push_back(std::move(editors));
        m_params->addWidget(page);
    }
    m_threat->setToolTip(tr("What the adversary does to each test instance. Worst-case threats need a linear "
                            "model; value budgets use the importance values v_j."));
    form->addRow(tr("Threat model"), m_threat);
    form->addRow(m_params);

    // Levels: a range or an explicit list.
    m_rangeMode = new QRadioButton(tr("range"), this);
    m_rangeMode->setToolTip(tr("from / to / step"));
    m_listMode = new QRadioButton(tr("list"), this);
    m_rangeMode->setChecked(true);
    auto* modes = new QHBoxLayout;
    modes->addWidget(m_rangeMode);
    modes->addWidget(m_listMode);
    form->addRow(tr("Levels"), modes);
    // from / to / step under small captions, on a row of their own so that the three boxes
    // share the whole width of the dock.
    auto* range = new QGridLayout;
    range->setContentsMargins(0, 0, 0, 0);
    range->setHorizontalSpacing(4);
    range->setVerticalSpacing(0);
    const QString captions[] = {tr("from"), tr("to"), tr("step")};
    int column = 0;
    for (QDoubleSpinBox** sb : {&m_from, &m_to, &m_step}) {
        *sb = new CompactDoubleSpinBox(this);
        (*sb)->setRange(0, 1e9);
        (*sb)->setMinimumWidth(40);
        (*sb)->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
        auto* caption = new QLabel(captions[column], this);
        caption->setStyleSheet("color: palette(mid);");
        range->addWidget(caption, 0, column);
        range->addWidget(*sb, 1, column);
        range->setColumnStretch(column, 1);
        ++column;
    }
    m_from->setObjectName("levelsFrom");
    m_to->setObjectName("levelsTo");
    m_step->setObjectName("levelsStep");
    m_from->setToolTip(tr("first level"));
    m_to->setToolTip(tr("last level (included)"));
    m_step->setToolTip(tr("step between levels"));
    m_step->setMinimum(1e-9);
    m_to->setValue(150);
    m_step->setValue(10);
    form->addRow(range);
    m_list = new QLineEdit(this);
    m_list->setPlaceholderText(tr("e.g. 0, 1, 2, 5, 10"));
    form->addRow(QString(), m_list);
    m_levelHint = new QLabel(this);
    m_levelHint->setWordWrap(true);
    m_levelHint->setStyleSheet("color: palette(mid);");
    form->addRow(QString(), m_levelHint);

    m_budget = new QSlider(Qt::Horizontal, this);
    m_budget->setObjectName("attackBudget");
    m_budget->setToolTip(tr("The adversary's budget shown in the Heatmaps tab: K deletions, or a value budget N "
                            "below the total importance V"));
    m_budgetLabel = new QLabel(this);
    m_budgetLabel->setObjectName("attackBudgetLabel");
    m_budgetLabel->setWordWrap(true);
    auto* budgetBox = new QVBoxLayout;
    budgetBox->setSpacing(0);
    budgetBox->addWidget(m_budget);
    budgetBox->addWidget(m_budgetLabel);
    form->addRow(tr("Budget"), budgetBox);

    m_repetitions = new QSpinBox(this);
    m_repetitions->setRange(1, 1000);
    m_repetitions->setValue(3);
    m_repetitions->setToolTip(tr("Random splits; the curves show mean +- standard error over them"));
    form->addRow(tr("Repetitions"), m_repetitions);
    m_seed = new UInt64SpinBox(this);   // seeds are 64-bit: a QSpinBox would wrap 3,000,000,000
    m_seed->setObjectName("seed");
    m_seed->setValue(1);
    m_seed->setToolTip(tr("Seed of every random draw (splits, random attacks); same seed, same numbers"));
    form->addRow(tr("Seed"), m_seed);
    m_tune = new QCheckBox(tr("Tune per level"), this);
    m_tune->setToolTip(tr("Choose grid values per level on a validation set attacked the same way "
                          "(the papers' protocol); otherwise once on the clean validation set"));
    form->addRow(QString(), m_tune);

    connect(m_threat, &QComboBox::currentIndexChanged, this, [this] { configureBudget(m_lastBudget); });
    connect(m_threat, &QComboBox::currentIndexChanged, this, &AttackPanel::updateEnabled);
    connect(m_budget, &QSlider::valueChanged, this, &AttackPanel::onBudgetMoved);
    connect(m_rangeMode, &QRadioButton::toggled, this, &AttackPanel::updateEnabled);
    updateEnabled();
}

void AttackPanel::updateEnabled() {
    const std::string t = threat();
    m_params->setCurrentIndex(std::max(0, m_threat->currentIndex()));
    // Only the current threat's page takes space.
    for (int i = 0; i < m_params->count(); ++i)
        m_params->widget(i)->setSizePolicy(QSizePolicy::Preferred, i == m_params->currentIndex() ? QSizePolicy::Preferred : QSizePolicy::Ignored);
    m_params->adjustSize();
    const bool range = m_rangeMode->isChecked();
    m_from->setEnabled(range);
    m_to->setEnabled(range);
    m_step->setEnabled(range);
    m_list->setEnabled(!range);
    m_levelHint->setText(tr("Level = %1").arg(CurvePlot::levelLabel(t)));
}

std::string AttackPanel::threat() const { return m_threat->currentData().toString().toStdString(); }

// Slider positions are multiples of the step: 1 feature (K), the shared value grid (N,
// valueBudgetStep in core/eval/experiment_state.h: round budgets are positions, as in the
// Heatmaps tab; the last position is below V so that N < V), 0.01 (fractions, probabilities).
double AttackPanel::budgetStep() const {
    const LevelKind k = threatInfo(threat()).level;
    if (k == LevelKind::Count) return 1.0;
    if (k == LevelKind::Value) return valueBudgetStep(m_totalValue);
    return 0.01;
}

double AttackPanel::maxBudget() const { return budgetAtPosition(m_budget->maximum(), budgetStep()); }

void AttackPanel::configureBudget(double keep) {
    const LevelKind k = threatInfo(threat()).level;
    int positions = 100;
    if (k == LevelKind::Count) positions = m_features;
    else if (k == LevelKind::Value) positions = static_cast<int>(maxValuePosition(m_totalValue));   // N < V
    else if (k == LevelKind::None) positions = 0;
    {
        const QSignalBlocker block(m_budget);   // one budgetChanged, from setBudget below
        m_budget->setRange(0, std::max(0, positions));
        m_budget->setPageStep(std::max(1, positions / 10));
    }
    m_budget->setEnabled(positions > 0);
    setBudget(keep);
}

void AttackPanel::setBudgetBounds(int features, double totalValue) {
    m_features = std::max(0, features);
    m_totalValue = std::max(0.0, totalValue);
    configureBudget(m_lastBudget);
}

double AttackPanel::budget() const { return budgetAtPosition(m_budget->value(), budgetStep()); }

void AttackPanel::setBudget(double b) {
    const int pos = std::clamp(static_cast<int>(std::lround(b / budgetStep())), 0, m_budget->maximum());
    if (pos == m_budget->value())
        onBudgetMoved();   // same position, but the step or the bounds may have changed
    else
        m_budget->setValue(pos);
    m_lastBudget = b;   // wanted, even if the bounds clamp it now (wider bounds bring it back)
}

void AttackPanel::onBudgetMoved() {
    const LevelKind k = threatInfo(threat()).level;
    const double b = budget();
    m_lastBudget = b;
    if (k == LevelKind::Count)
        m_budgetLabel->setText(tr("K = %1 of %2 features").arg(std::lround(b)).arg(m_features));
    else if (k == LevelKind::Value)
        m_budgetLabel->setText(tr("N = %1 (below V = %2)").arg(b, 0, 'g', 6).arg(m_totalValue, 0, 'g', 6));
    else
        m_budgetLabel->setText(
            tr("%1 = %2").arg(k == LevelKind::Fraction ? tr("fraction") : tr("p")).arg(b, 0, 'f', 2));
    emit budgetChanged(b);
}

void AttackPanel::setFromSpec(const ExperimentSpec& spec) {
    const int idx = m_threat->findData(QString::fromStdString(spec.attack.threat));
    m_threat->setCurrentIndex(std::max(0, idx));
    if (idx >= 0) {   // the threat's parameters, completed with its defaults
        const ThreatInfo& info = threatInfo(spec.attack.threat);
        const nlohmann::json values = spec.attack.completeParams();
        for (std::size_t k = 0; k < info.params.size(); ++k)
            setParamEditorValue(info.params[k], m_editors[static_cast<std::size_t>(idx)][k], values.at(info.params[k].name));
    }
    // Evenly spaced levels become a range, anything else a list.
    const auto& lv = spec.levels;
    bool even = lv.size() >= 2;
    for (std::size_t i = 2; even && i < lv.size(); ++i)
        even = std::abs((lv[i] - lv[i - 1]) - (lv[1] - lv[0])) < 1e-9 * std::max(1.0, std::abs(lv[1]));
    even = even && lv[1] > lv[0];
    QStringList parts;
    for (double v : lv) parts << QString::number(v, 'g', 10);
    m_list->setText(parts.join(", "));
    if (even) {
        m_from->setValue(lv.front());
        m_to->setValue(lv.back());
        m_step->setValue(lv[1] - lv[0]);
        m_rangeMode->setChecked(true);
    } else {
        m_listMode->setChecked(true);
    }
    m_repetitions->setValue(spec.repetitions);
    m_seed->setValue(spec.seed);
    m_tune->setChecked(spec.tunePerLevel);
    updateEnabled();
    setBudget(lv.empty() ? 0.0 : lv[lv.size() / 2]);   // the level the Heatmaps tab opens at
}

nlohmann::json AttackPanel::params() const {
    const int idx = std::max(0, m_threat->currentIndex());
    const ThreatInfo& info = threatInfo(threat());
    nlohmann::json out = nlohmann::json::object();
    for (std::size_t k = 0; k < info.params.size(); ++k)
        out[info.params[k].name] =
            paramEditorValue(info.params[k], m_editors[static_cast<std::size_t>(idx)][k], "attack " + info.name);
    return out;
}

std::vector<double> AttackPanel::levels() const {
    std::vector<double> out;
    if (m_rangeMode->isChecked()) {
        const double from = m_from->value(), to = m_to->value(), step = m_step->value();
        for (int i = 0;; ++i) {
            const double v = from + i * step;
            if (v > to + 1e-9 * std::max(1.0, to) || i > 100000) break;
            out.push_back(std::round(v * 1e9) / 1e9);
        }
        return out;
    }
    for (const QString& part : m_list->text().split(QRegularExpression("[,;\\s]+"), Qt::SkipEmptyParts)) {
        bool ok = false;
        const double v = part.toDouble(&ok);
        if (!ok) throw std::invalid_argument("levels: '" + part.toStdString() + "' is not a number");
        out.push_back(v);
    }
    return out;
}

void AttackPanel::applyTo(ExperimentSpec& spec) const {
    spec.attack.threat = threat();
    spec.attack.params = params();
    spec.levels = levels();
    spec.repetitions = m_repetitions->value();
    spec.seed = m_seed->value();
    spec.tunePerLevel = m_tune->isChecked();
}

}  // namespace fdlab::ui
