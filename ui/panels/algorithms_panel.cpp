#include "ui/panels/algorithms_panel.h"

#include "core/learners/registry.h"
#include "ui/panels/compact_spin_box.h"
#include "ui/panels/param_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QListWidget>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace fdlab::ui {
namespace {

QString gridText(const std::vector<double>& values) {
    QStringList parts;
    for (double v : values) parts << QString::number(v, 'g', 10);
    return parts.join(", ");
}

}  // namespace

AlgorithmsPanel::AlgorithmsPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* heading = new QLabel(tr("Tick the learners to compare; select one to edit its parameters."), this);
    heading->setWordWrap(true);
    layout->addWidget(heading);
    auto* split = new QSplitter(Qt::Vertical, this);
    m_list = new QListWidget(split);
    m_list->setObjectName("algorithmsList");
    // Long entries ("Dekel-Shamir online Perceptron  -  ds-perceptron") wrap instead of
    // scrolling sideways in a dock 240-320 px wide.
    m_list->setWordWrap(true);
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->setResizeMode(QListView::Adjust);
    m_forms = new QStackedWidget(split);
    split->addWidget(m_list);
    split->addWidget(m_forms);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    connect(m_list, &QListWidget::currentRowChanged, this, [this](int r) {
        if (r < 0) return;
        buildForm(r);
        m_forms->setCurrentIndex(r);
    });
    connect(m_list, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
        if (item->checkState() == Qt::Checked) buildForm(m_list->row(item));   // learners() reads its form
        emit changed();
    });
    setLearners({});
}

void AlgorithmsPanel::clearEntries() {
    m_list->clear();
    while (m_forms->count() > 0) {
        QWidget* w = m_forms->widget(0);
        m_forms->removeWidget(w);
        w->deleteLater();
    }
    m_entries.clear();
}

void AlgorithmsPanel::setLearners(const std::vector<LearnerSpec>& specs) {
    const QSignalBlocker block(m_list);
    clearEntries();
    for (const LearnerSpec& s : specs) addEntry(s.learner, &s, true);
    for (const LearnerInfo& info : learnerCatalogue()) {
        bool used = false;
        for (const LearnerSpec& s : specs) used = used || s.learner == info.name;
        if (!used) addEntry(info.name, nullptr, false);
    }
    m_list->setCurrentRow(0);   // signals blocked: show its form here
    buildForm(0);
    m_forms->setCurrentIndex(0);
}

void AlgorithmsPanel::addEntry(const std::string& learner, const LearnerSpec* spec, bool checked) {
    const LearnerInfo& info = learnerInfo(learner);
    Entry e;
    e.learner = learner;
    if (spec) e.spec = *spec;
    const QString id = QString::fromStdString(spec ? spec->id : info.title.substr(0, info.title.find(" (")));
    auto* item = new QListWidgetItem(id + "  -  " + QString::fromStdString(info.name));
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
    item->setToolTip(QStringLiteral("<b>%1</b><p><code>%2</code><p><i>%3</i>")
                         .arg(QString::fromStdString(info.title).toHtmlEscaped(),
                              QString::fromStdString(info.formula).toHtmlEscaped(),
                              QString::fromStdString(info.paper).toHtmlEscaped()));
    item->setData(Qt::UserRole, QString::fromStdString(learner));
    m_list->addItem(item);
    // The page stays empty until buildForm.
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    m_forms->addWidget(scroll);
    m_entries.push_back(std::move(e));
    if (checked) buildForm(m_list->count() - 1);
}

void AlgorithmsPanel::buildForm(int r) {
    if (r < 0 || r >= static_cast<int>(m_entries.size()) || m_entries[static_cast<std::size_t>(r)].built) return;
    Entry& e = m_entries[static_cast<std::size_t>(r)];
    e.built = true;
    const std::string learner = e.learner;
    const LearnerSpec* spec = e.spec ? &*e.spec : nullptr;
    const LearnerInfo& info = learnerInfo(learner);
    const QString tip = QStringLiteral("<b>%1</b><p><code>%2</code><p><i>%3</i>")
                            .arg(QString::fromStdString(info.title).toHtmlEscaped(),
                                 QString::fromStdString(info.formula).toHtmlEscaped(),
                                 QString::fromStdString(info.paper).toHtmlEscaped());
    QListWidgetItem* item = m_list->item(r);
    const QString id = QString::fromStdString(spec ? spec->id : info.title.substr(0, info.title.find(" (")));

    // The form: label, then one row per parameter.
    auto* scroll = static_cast<QScrollArea*>(m_forms->widget(r));
    auto* page = new QWidget;
    auto* form = new QFormLayout(page);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto* title = new QLabel(QStringLiteral("<b>%1</b><br><small>%2</small>")
                                 .arg(QString::fromStdString(info.title).toHtmlEscaped(),
                                      QString::fromStdString(info.formula).toHtmlEscaped()));
    title->setWordWrap(true);
    title->setToolTip(tip);
    form->addRow(title);
    e.id = new QLineEdit(id);
    e.id->setToolTip(tr("Label of this learner in plots and results (unique)"));
    form->addRow(tr("Label"), e.id);
    connect(e.id, &QLineEdit::textChanged, this, [item, learner](const QString& t) {
        item->setText(t + "  -  " + QString::fromStdString(learner));
    });

    const nlohmann::json given = spec ? spec->params : nlohmann::json::object();
    for (const ParamInfo& p : info.params) {
        Field f;
        f.name = p.name;
        f.type = static_cast<int>(p.type);
        f.param = &p;
        const nlohmann::json value = given.contains(p.name) ? given[p.name] : p.defaultValue;
        const QString extra = QStringLiteral("<code>%1</code><p><i>%2</i>")
                                  .arg(QString::fromStdString(info.formula).toHtmlEscaped(),
                                       QString::fromStdString(info.paper).toHtmlEscaped());
        const QString ptip = paramToolTip(p, extra);
        f.editor = createParamEditor(p, value, QString::fromStdString(learner + "." + p.name), extra);
        QWidget* field = f.editor;
        if (p.type == ParamInfo::Type::Real || p.type == ParamInfo::Type::Integer) {
            f.grid = new QLineEdit;
            f.grid->setPlaceholderText(tr("grid"));
            f.grid->setToolTip(tr("Optional candidate values, e.g. \"0, 10, 25, 50\": core trains one model per "
                                  "value and keeps the best (see \"grid chosen by\"; on the validation set per level with \"tune per level\")."));
            f.grid->setMaximumWidth(120);
            if (spec && spec->grid.count(p.name)) f.grid->setText(gridText(spec->grid.at(p.name)));
            auto* row = new QWidget;
            auto* h = new QHBoxLayout(row);
            h->setContentsMargins(0, 0, 0, 0);
            h->addWidget(f.editor, 1);
            h->addWidget(f.grid);
            field = row;
        }
        auto* label = new QLabel(QString::fromStdString(p.name));
        label->setToolTip(ptip);
        form->addRow(label, field);
        e.fields.push_back(f);
    }
    // How a grid's candidates are chosen: the validation split, or k-fold cross-validation on
    // the training set (Biggio et al.'s protocol for the RBF gamma; under label flips the
    // training set is the tainted one).
    e.selection = new QComboBox;
    e.selection->setObjectName(QString::fromStdString(learner + ".select"));
    e.selection->addItem(tr("validation set"), static_cast<int>(LearnerSpec::Selection::Validation));
    e.selection->addItem(tr("k-fold CV on the training set"), static_cast<int>(LearnerSpec::Selection::CrossValidation));
    e.selection->setToolTip(tr("How the values of a grid are chosen: lowest error on the validation set, or lowest "
                               "k-fold cross-validation error on the training set (needs no validation split)"));
    e.cvFolds = new QSpinBox;
    e.cvFolds->setRange(2, 100);
    e.cvFolds->setValue(spec ? spec->cvFolds : 5);
    e.cvFolds->setPrefix(tr("k = "));
    if (spec && spec->selection == LearnerSpec::Selection::CrossValidation) e.selection->setCurrentIndex(1);
    e.cvFolds->setEnabled(e.selection->currentIndex() == 1);
    connect(e.selection, &QComboBox::currentIndexChanged, e.cvFolds, [folds = e.cvFolds](int i) { folds->setEnabled(i == 1); });
    auto* selectRow = new QWidget;
    auto* sh = new QHBoxLayout(selectRow);
    sh->setContentsMargins(0, 0, 0, 0);
    sh->addWidget(e.selection, 1);
    sh->addWidget(e.cvFolds);
    form->addRow(tr("grid chosen by"), selectRow);
    compactEditors(page);   // built after the dock compacted its panel
    scroll->setWidget(page);
}


std::vector<LearnerSpec> AlgorithmsPanel::learners() const {
    std::vector<LearnerSpec> out;
    for (int r = 0; r < m_list->count(); ++r) {
        if (m_list->item(r)->checkState() != Qt::Checked) continue;
        const Entry& e = m_entries[static_cast<std::size_t>(r)];
        LearnerSpec s;
        s.learner = e.learner;
        s.id = idOf(r);
        for (const Field& f : e.fields) {
            s.params[f.name] = paramEditorValue(*f.param, f.editor, "learner " + s.id);
            if (f.grid && !f.grid->text().trimmed().isEmpty()) {
                std::vector<double> values;
                for (const QString& part : f.grid->text().split(QRegularExpression("[,;\\s]+"), Qt::SkipEmptyParts)) {
                    bool ok = false;
                    const double v = part.toDouble(&ok);
                    if (!ok) throw std::invalid_argument(s.id + ": grid of " + f.name + ": '" + part.toStdString() +
                                                         "' is not a number");
                    values.push_back(v);
                }
                s.grid[f.name] = values;
                s.params.erase(f.name);   // the grid decides
            }
        }
        s.selection = static_cast<LearnerSpec::Selection>(e.selection->currentData().toInt());
        s.cvFolds = e.cvFolds->value();
        out.push_back(std::move(s));
    }
    return out;
}

std::string AlgorithmsPanel::idOf(int r) const {
    const Entry& e = m_entries[static_cast<std::size_t>(r)];
    const std::string id = e.id ? e.id->text().trimmed().toStdString() : std::string();
    return id.empty() ? e.learner : id;
}

std::string AlgorithmsPanel::selectedLearnerId() const {
    const int r = m_list->currentRow();
    if (r < 0 || m_list->item(r)->checkState() != Qt::Checked) return {};
    return idOf(r);
}

}  // namespace fdlab::ui
