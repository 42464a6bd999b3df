#include "ui/panels/compact_spin_box.h"

namespace fdlab::ui {

CompactDoubleSpinBox::CompactDoubleSpinBox(QWidget* parent) : QDoubleSpinBox(parent) { setDecimals(12); }

QString CompactDoubleSpinBox::textFromValue(double v) const { return QString::number(v, 'g', 10); }

double CompactDoubleSpinBox::valueFromText(const QString& text) const { return locale().toDouble(text); }

QValidator::State CompactDoubleSpinBox::validate(QString& text, int&) const {
    bool ok = false;
    locale().toDouble(text, &ok);
    return ok ? QValidator::Acceptable : QValidator::Intermediate;
}

}  // namespace fdlab::ui
