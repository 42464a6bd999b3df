#include "ui/panels/compact_spin_box.h"

#include <QComboBox>

namespace fdlab::ui {

CompactDoubleSpinBox::CompactDoubleSpinBox(QWidget* parent) : QDoubleSpinBox(parent) { setDecimals(12); }

QString CompactDoubleSpinBox::textFromValue(double v) const { return QString::number(v, 'g', 10); }

double CompactDoubleSpinBox::valueFromText(const QString& text) const { return locale().toDouble(text); }

QValidator::State CompactDoubleSpinBox::validate(QString& text, int&) const {
    bool ok = false;
    locale().toDouble(text, &ok);
    return ok ? QValidator::Acceptable : QValidator::Intermediate;
}

void compactEditors(QWidget* root) {
    auto combos = root->findChildren<QComboBox*>();
    auto spins = root->findChildren<QAbstractSpinBox*>();
    if (auto* c = qobject_cast<QComboBox*>(root)) combos.push_back(c);
    if (auto* sb = qobject_cast<QAbstractSpinBox*>(root)) spins.push_back(sb);
    for (QComboBox* c : combos) {
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        c->setMinimumContentsLength(6);
    }
    for (QAbstractSpinBox* sb : spins) {
        sb->setMinimumWidth(56);
        sb->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    }
}

}  // namespace fdlab::ui
