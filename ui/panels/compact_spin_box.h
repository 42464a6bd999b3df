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

}  // namespace fdlab::ui
