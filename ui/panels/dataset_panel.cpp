#include "ui/panels/dataset_panel.h"

#include "core/data/bundled.h"
#include "ui/panels/class_picker.h"
#include "ui/panels/compact_spin_box.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace fdlab::ui {

namespace {
bool allIn(const std::vector<std::string>& names, const std::vector<std::string>& classes) {
    for (const auto& n : names)
        if (std::find(classes.begin(), classes.end(), n) == classes.end()) return false;
    return !names.empty();
}
}  // namespace

DatasetPanel::DatasetPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* heading = new QLabel(tr("Bundled datasets and generators"), this);
    heading->setWordWrap(true);
    layout->addWidget(heading);

    m_list = new QListWidget(this);
    m_list->setObjectName("bundledList");
    for (const BundledInfo& info : bundledDatasets()) {
        auto* item = new QListWidgetItem(QString::fromStdString(info.name) +
                                         (info.synthetic ? tr("  (generator)") : QString()));
        item->setData(Qt::UserRole, QString::fromStdString("bundled:" + info.name));
        item->setToolTip(QString::fromStdString(info.title + "\n" + info.files + "\nLicence: " + info.licence));
        m_list->addItem(item);
    }
    layout->addWidget(m_list, 1);
    connect(m_list, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        emit datasetRequested(item->data(Qt::UserRole).toString());
    });
    connect(m_list, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        emit datasetRequested(item->data(Qt::UserRole).toString());
    });

    auto* open = new QPushButton(tr("Open file..."), this);
    open->setToolTip(tr("Load an IDX, CSV, LIBSVM or ARFF file"));
    connect(open, &QPushButton::clicked, this, &DatasetPanel::openFileRequested);
    auto* openText = new QPushButton(tr("Open text corpus..."), this);
    openText->setObjectName("openTextCorpus");
    openText->setToolTip(tr("A folder with one sub-folder per class, or a CSV file with a text column"));
    connect(openText, &QPushButton::clicked, this, &DatasetPanel::openTextCorpusRequested);
    auto* openRow = new QHBoxLayout;
    openRow->addWidget(open);
    openRow->addWidget(openText);
    layout->addLayout(openRow);

    // Task
    auto* taskBox = new QGroupBox(tr("Task"), this);
    auto* taskForm = new QFormLayout(taskBox);
    m_taskKind = new QComboBox(taskBox);
    m_taskKind->setObjectName("taskKind");
    m_taskKind->addItems({tr("Binary: class pair"), tr("One class vs rest"), tr("Multi-class")});
    taskForm->addRow(tr("Kind"), m_taskKind);
    // Classes are ticked in a list, never typed: a class name may contain any character.
    m_positive = new ClassPicker(taskBox);
    m_positive->setObjectName("positiveClasses");
    taskForm->addRow(tr("Positive"), m_positive);
    m_negative = new ClassPicker(taskBox);
    m_negative->setObjectName("negativeClasses");
    taskForm->addRow(tr("Negative"), m_negative);
    layout->addWidget(taskBox);
    connect(m_taskKind, &QComboBox::currentIndexChanged, this, &DatasetPanel::updateTaskWidgets);
    // A class is on one side at most: ticking it on one side unticks it on the other.
    connect(m_positive, &ClassPicker::toggled, this, [this](const QString& name, bool on) {
        if (on && m_taskKind->currentIndex() == 0) m_negative->setNameChecked(name.toStdString(), false);
    });
    connect(m_negative, &ClassPicker::toggled, this, [this](const QString& name, bool on) {
        if (on) m_positive->setNameChecked(name.toStdString(), false);
    });

    // Split and preprocessing
    auto* splitBox = new QGroupBox(tr("Split and preprocessing"), this);
    auto* splitForm = new QFormLayout(splitBox);
    m_splitKind = new QComboBox(splitBox);
    m_splitKind->addItems({tr("Counts per class"), tr("Fractions"), tr("k-fold")});
    splitForm->addRow(tr("Split"), m_splitKind);
    m_splitStack = new QStackedWidget(splitBox);
    {
        auto* page = new QWidget;
        auto* f = new QFormLayout(page);
        f->setContentsMargins(0, 0, 0, 0);
        m_train = new QSpinBox;
        m_train->setRange(1, 1000000);
        m_train->setValue(50);
        m_validation = new QSpinBox;
        m_validation->setRange(0, 1000000);
        m_validation->setValue(100);
        m_test = new QSpinBox;
        m_test->setRange(-1, 1000000);
        m_test->setValue(150);
        m_test->setSpecialValueText(tr("rest"));
        f->addRow(tr("Train / class"), m_train);
        f->addRow(tr("Validation / class"), m_validation);
        f->addRow(tr("Test / class"), m_test);
        m_splitStack->addWidget(page);
    }
    {
        auto* page = new QWidget;
        auto* f = new QFormLayout(page);
        f->setContentsMargins(0, 0, 0, 0);
        m_testFraction = new CompactDoubleSpinBox;
        m_testFraction->setObjectName("testFraction");
        // 0: no test part is carved from the data (a fixed test file, or a final model on all rows).
        m_testFraction->setRange(0.0, 0.99);
        m_testFraction->setSpecialValueText(tr("none"));
        m_testFraction->setSingleStep(0.05);
        m_testFraction->setValue(0.3);
        m_validationFraction = new CompactDoubleSpinBox;
        m_validationFraction->setRange(0.0, 0.9);
        m_validationFraction->setSingleStep(0.05);
        m_validationFraction->setValue(0.2);
        m_validationFraction->setToolTip(tr("carved from the training part"));
        f->addRow(tr("Test fraction"), m_testFraction);
        f->addRow(tr("Validation fraction"), m_validationFraction);
        m_splitStack->addWidget(page);
    }
    {
        auto* page = new QWidget;
        auto* f = new QFormLayout(page);
        f->setContentsMargins(0, 0, 0, 0);
        m_folds = new QSpinBox;
        m_folds->setRange(2, 100);
        m_folds->setValue(10);
        f->addRow(tr("Folds"), m_folds);
        m_splitStack->addWidget(page);
    }
    splitForm->addRow(m_splitStack);
    connect(m_splitKind, &QComboBox::currentIndexChanged, m_splitStack, &QStackedWidget::setCurrentIndex);
    m_preprocessing = new QComboBox(splitBox);
    for (Scaling s : {Scaling::None, Scaling::ZeroOne, Scaling::MinusOneOne, Scaling::UnitNorm, Scaling::Binarise})
        m_preprocessing->addItem(QString::fromStdString(toString(s)), static_cast<int>(s));
    m_preprocessing->setToolTip(tr("Fitted on the training part of each repetition, applied to all parts"));
    splitForm->addRow(tr("Preprocessing"), m_preprocessing);
    m_splitNote = new QLabel(splitBox);
    m_splitNote->setObjectName("splitNote");
    m_splitNote->setWordWrap(true);
    m_splitNote->setVisible(false);
    splitForm->addRow(m_splitNote);
    connect(m_splitKind, &QComboBox::currentIndexChanged, m_splitNote, &QWidget::hide);   // a note on the old choice
    layout->addWidget(splitBox);
    updateTaskWidgets();
}

void DatasetPanel::updateTaskWidgets() {
    const int k = m_taskKind->currentIndex();
    m_positive->setEnabled(k != 2);
    m_negative->setEnabled(k == 0);
    m_positive->setSingle(k == 1);   // one class against the rest
}

void DatasetPanel::setCurrentSource(const QString& source) {
    m_source = source;
    const QSignalBlocker block(m_list);
    m_list->clearSelection();
    for (int r = 0; r < m_list->count(); ++r)
        if (m_list->item(r)->data(Qt::UserRole).toString() == source) m_list->setCurrentRow(r);
}

void DatasetPanel::setClassNames(const std::vector<std::string>& names) {
    m_classNames = names;
    std::vector<std::string> pos = m_positive->checkedNames(), neg = m_negative->checkedNames();
    if (!allIn(pos, names)) pos = names.empty() ? std::vector<std::string>{} : std::vector<std::string>{names[0]};
    auto onPositive = [&](const std::string& n) { return std::find(pos.begin(), pos.end(), n) != pos.end(); };
    if (!allIn(neg, names) || std::any_of(neg.begin(), neg.end(), onPositive)) {
        neg.clear();
        const auto other = std::find_if_not(names.begin(), names.end(), onPositive);
        if (other != names.end()) neg.push_back(*other);
    }
    m_positive->setClassNames(names);
    m_negative->setClassNames(names);
    m_positive->setCheckedNames(pos);
    m_negative->setCheckedNames(neg);
}

void DatasetPanel::setNote(const QString& note) {
    m_splitNote->setText(note);
    m_splitNote->setVisible(!note.isEmpty());
}

QString DatasetPanel::note() const { return m_splitNote->text(); }

void DatasetPanel::setFromSpec(const ExperimentSpec& spec) {
    m_source = spec.dataset.bundled.empty() ? QString::fromStdString(spec.dataset.file)
                                            : QString::fromStdString("bundled:" + spec.dataset.bundled);
    setCurrentSource(m_source);
    m_taskKind->setCurrentIndex(spec.task.kind == TaskSpec::Kind::Binary      ? 0
                                : spec.task.kind == TaskSpec::Kind::OneVsRest ? 1
                                                                              : 2);
    m_positive->setCheckedNames(spec.task.positive);
    m_negative->setCheckedNames(spec.task.negative);
    m_splitNote->setVisible(false);
    const SplitSpec& s = spec.split;
    m_splitKind->setCurrentIndex(s.kind == SplitSpec::Kind::Counts ? 0 : s.kind == SplitSpec::Kind::Fraction ? 1 : 2);
    m_train->setValue(s.perClassTrain);
    m_validation->setValue(s.perClassValidation);
    m_test->setValue(s.perClassTest);
    m_testFraction->setValue(s.testFraction);
    // A fixed test file replaces the test part: the fraction does not apply (the runner ignores it).
    const bool fixedTest = spec.testDataset.has_value();
    m_testFraction->setEnabled(!fixedTest);
    m_testFraction->setToolTip(fixedTest ? tr("The experiment tests on the fixed file %1; all of the data trains (less "
                                              "the validation fraction)")
                                               .arg(QString::fromStdString(spec.testDataset->bundled.empty()
                                                                               ? spec.testDataset->file
                                                                               : spec.testDataset->bundled))
                                         : tr("Share of each class held out for testing; none: train on all rows"));
    m_validationFraction->setValue(s.validationFraction);
    m_folds->setValue(s.folds);
    m_preprocessing->setCurrentIndex(std::max(0, m_preprocessing->findData(static_cast<int>(spec.preprocessing))));
    updateTaskWidgets();
}

void DatasetPanel::applyTo(ExperimentSpec& spec) const {
    if (m_source.startsWith("bundled:")) {
        spec.dataset.bundled = m_source.mid(8).toStdString();
        spec.dataset.file.clear();
    } else if (!m_source.isEmpty()) {
        spec.dataset.file = m_source.toStdString();
        spec.dataset.bundled.clear();
    }
    switch (m_taskKind->currentIndex()) {
    case 0:
        spec.task.kind = TaskSpec::Kind::Binary;
        spec.task.positive = m_positive->checkedNames();
        spec.task.negative = m_negative->checkedNames();
        break;
    case 1:
        spec.task.kind = TaskSpec::Kind::OneVsRest;
        spec.task.positive = m_positive->checkedNames();
        spec.task.negative.clear();
        break;
    default:
        spec.task.kind = TaskSpec::Kind::MultiClass;
        spec.task.positive.clear();
        spec.task.negative.clear();
    }
    SplitSpec& s = spec.split;
    s.kind = m_splitKind->currentIndex() == 0   ? SplitSpec::Kind::Counts
             : m_splitKind->currentIndex() == 1 ? SplitSpec::Kind::Fraction
                                                : SplitSpec::Kind::KFold;
    s.perClassTrain = m_train->value();
    s.perClassValidation = m_validation->value();
    s.perClassTest = m_test->value();
    s.testFraction = m_testFraction->value();
    s.validationFraction = m_validationFraction->value();
    s.folds = m_folds->value();
    spec.preprocessing = static_cast<Scaling>(m_preprocessing->currentData().toInt());
}

}  // namespace fdlab::ui
