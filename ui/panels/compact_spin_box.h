#pragma once
// A QDoubleSpinBox that keeps 12 decimals internally and shows the shortest text (1e-06, 0.5,
// 0.714 instead of "0.000001", "0.50", "0.71"), so that a value loaded from an experiment file
// is edited and written back exactly (QDoubleSpinBox rounds every value to its decimals).

#include <QDoubleSpinBox>

namespace fdlab::ui {

class CompactDoubleSpinBox : public QDoubleSpinBox {
public:
    explicit CompactDoubleSpinBox(QWidget* parent = nullptr);
    QString textFromValue(double v) const override;
    double valueFromText(const QString& text) const override;
    QValidator::State validate(QString& text, int& pos) const override;
};

/// Lets combo and spin boxes under `root` (root included) shrink with a narrow dock: by default
/// they size to their longest entry / largest value, which makes the docks wider than the plots
/// they frame. Applied by the main window to each dock's panel and by the parameter forms to
/// the editors they create later (forms are built when a learner is first selected).
void compactEditors(QWidget* root);

}  // namespace fdlab::ui
