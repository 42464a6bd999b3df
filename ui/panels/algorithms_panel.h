#pragma once
// Algorithms panel: a checkable list of the learners in fdlab::learnerCatalogue(), each with a
// parameter form generated from its ParamInfo (type, range, default; tool-tips with the doc
// line, the formula and the paper) and an optional grid of candidate values per numeric
// parameter (chosen on validation by core). The panel edits its own copy; learners() reads it.
// A learner's form is built when its row is first selected or ticked: opening a preset builds
// the forms of its two or three learners, not of the whole catalogue (which took ~25 ms of the
// GUI thread).

#include "core/eval/experiment_spec.h"
#include "core/util/param_info.h"

#include <QWidget>

#include <optional>
#include <vector>

class QComboBox;
class QListWidget;
class QSpinBox;
class QStackedWidget;
class QLineEdit;
class QLabel;

namespace fdlab::ui {

class AlgorithmsPanel : public QWidget {
    Q_OBJECT
public:
    explicit AlgorithmsPanel(QWidget* parent = nullptr);

    /// The checked learners, with their parameters and grids.
    std::vector<fdlab::LearnerSpec> learners() const;
    /// Shows `specs` (checked, in order) followed by the other catalogue learners (unchecked).
    void setLearners(const std::vector<fdlab::LearnerSpec>& specs);
    /// The label (learners()' id) of the selected row when it is ticked, else "". Two learners
    /// of one type (SVM-A and SVM-B) are told apart by it, never by their type.
    std::string selectedLearnerId() const;
    QListWidget* list() const { return m_list; }

signals:
    void changed();

private:
    struct Field {
        std::string name;
        int type = 0;               // ParamInfo::Type
        const fdlab::ParamInfo* param = nullptr;   // its declaration (the registry lives as long as the program)
        QWidget* editor = nullptr;  // spin box, check box or combo box
        QLineEdit* grid = nullptr;  // numeric parameters only
    };
    struct Entry {
        std::string learner;
        std::optional<fdlab::LearnerSpec> spec;   // what the form shows once built (none: defaults)
        bool built = false;
        QLineEdit* id = nullptr;
        std::vector<Field> fields;
        QComboBox* selection = nullptr;   // how grid values are chosen (LearnerSpec::Selection)
        QSpinBox* cvFolds = nullptr;
    };
    void addEntry(const std::string& learner, const fdlab::LearnerSpec* spec, bool checked);
    /// Builds the form of row r unless it is built.
    void buildForm(int r);
    void clearEntries();
    /// Row r's id as learners() reports it (its label, or the registry name when empty).
    std::string idOf(int r) const;

    QListWidget* m_list = nullptr;
    QStackedWidget* m_forms = nullptr;
    QLabel* m_about = nullptr;
    std::vector<Entry> m_entries;
};

}  // namespace fdlab::ui
