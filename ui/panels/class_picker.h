#pragma once
// A combo box whose popup lists the data's classes with check boxes: one side of a task (the
// positive or the negative classes) as a set of separate items. Class names are never parsed
// from text, so they may contain any character the data has ("+1", "a, b", "x+y"); the closed
// box shows the checked names joined by ", " (display only). The checked names keep the order
// in which they were set or ticked (a task's "3+8" is not "8+3").

#include <QComboBox>

#include <string>
#include <vector>

namespace fdlab::ui {

class ClassPicker : public QComboBox {
    Q_OBJECT
public:
    explicit ClassPicker(QWidget* parent = nullptr);

    /// The classes offered. Checked names that are no longer offered are dropped.
    void setClassNames(const std::vector<std::string>& names);
    std::vector<std::string> classNames() const;
    /// Checks exactly `names`, in this order. A name not offered (a spec's class before its
    /// data has loaded) is added as an item, so that what the spec says is what the box shows.
    void setCheckedNames(const std::vector<std::string>& names);
    std::vector<std::string> checkedNames() const { return m_checked; }
    /// Ticks or unticks one class (emits toggled when it changes).
    void setNameChecked(const std::string& name, bool checked);
    /// At most one class (one-vs-rest): ticking a class unticks the others.
    void setSingle(bool single);
    /// What the closed box shows: the checked names, or "(none)".
    QString displayText() const;

signals:
    /// A class was ticked (true) or unticked (false), by the user or by setNameChecked.
    void toggled(const QString& name, bool checked);

protected:
    void paintEvent(QPaintEvent* e) override;
    bool eventFilter(QObject* watched, QEvent* e) override;

private:
    void toggleRow(int row);
    /// Item check states and the tool-tip from m_checked.
    void syncItems();

    std::vector<std::string> m_checked;
    bool m_single = false;
};

}  // namespace fdlab::ui
