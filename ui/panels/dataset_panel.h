#pragma once
// Dataset panel: the bundled datasets and generators, "Open file...", "Open text corpus...", and how the experiment
// uses the data -- the task (a class pair, one class against the rest, or all classes), the
// split (counts per class, fractions or k-fold) and the preprocessing. It only asks for a
// dataset (signal); the main window's loader does the work. The task/split/preprocessing
// widgets are the panel's local copy; applyTo() writes them into an experiment spec.

#include "core/data/dataset.h"
#include "core/eval/experiment_spec.h"

#include <QWidget>

class QListWidget;
class QLabel;
class QComboBox;
class QSpinBox;
class QDoubleSpinBox;
class QStackedWidget;

namespace fdlab::ui {

class ClassPicker;

class DatasetPanel : public QWidget {
    Q_OBJECT
public:
    explicit DatasetPanel(QWidget* parent = nullptr);

    /// Selects the entry for `source` ("bundled:NAME") without emitting a request.
    void setCurrentSource(const QString& source);
    QString currentSource() const { return m_source; }
    QListWidget* list() const { return m_list; }
    ClassPicker* positivePicker() const { return m_positive; }
    ClassPicker* negativePicker() const { return m_negative; }

    /// The class names of the loaded dataset (offered in the task's class boxes). Keeps the
    /// current choice when it names existing classes, else picks the first two classes.
    void setClassNames(const std::vector<std::string>& names);
    /// Shows under the split what was adapted to the loaded data (the experiment state's
    /// sentences, core/eval/experiment_state.h); "" hides it.
    void setNote(const QString& note);
    QString note() const;
    /// Shows the task, split and preprocessing of `spec`.
    void setFromSpec(const fdlab::ExperimentSpec& spec);
    /// Writes dataset source, task, split and preprocessing into `spec`.
    void applyTo(fdlab::ExperimentSpec& spec) const;

signals:
    /// "bundled:NAME" or a file path.
    void datasetRequested(const QString& source);
    void openFileRequested();
    /// "Open text corpus...": the main window shows the TextCorpusDialog.
    void openTextCorpusRequested();

private:
    void updateTaskWidgets();

    QListWidget* m_list = nullptr;
    QString m_source;
    QComboBox* m_taskKind = nullptr;
    ClassPicker* m_positive = nullptr;
    ClassPicker* m_negative = nullptr;
    QComboBox* m_splitKind = nullptr;
    QStackedWidget* m_splitStack = nullptr;
    QSpinBox* m_train = nullptr;
    QSpinBox* m_validation = nullptr;
    QSpinBox* m_test = nullptr;
    QDoubleSpinBox* m_testFraction = nullptr;
    QDoubleSpinBox* m_validationFraction = nullptr;
    QSpinBox* m_folds = nullptr;
    QComboBox* m_preprocessing = nullptr;
    QLabel* m_splitNote = nullptr;
    std::vector<std::string> m_classNames;
};

}  // namespace fdlab::ui
