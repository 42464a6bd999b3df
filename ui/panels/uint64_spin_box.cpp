#include "ui/panels/uint64_spin_box.h"

#include <QLineEdit>
#include <QStyleOptionSpinBox>

#include <limits>

namespace fdlab::ui {

namespace {
constexpr quint64 kMax = std::numeric_limits<quint64>::max();

/// The number `text` spells in decimal digits (no sign, no spaces), or false when it is not one
/// or does not fit in 64 bits.
bool parse(const QString& text, quint64* out) {
    if (text.isEmpty()) return false;
    for (const QChar c : text)
        if (c < u'0' || c > u'9') return false;
    bool ok = false;
    const quint64 v = text.toULongLong(&ok, 10);
    if (ok && out) *out = v;
    return ok;
}
}  // namespace

UInt64SpinBox::UInt64SpinBox(QWidget* parent) : QAbstractSpinBox(parent) {
    setCorrectionMode(QAbstractSpinBox::CorrectToPreviousValue);
    lineEdit()->setText(QString::number(m_value));
    connect(lineEdit(), &QLineEdit::textEdited, this, &UInt64SpinBox::onTextEdited);
    // Leading zeros typed or an emptied box: show the value that is used.
    connect(this, &QAbstractSpinBox::editingFinished, this, [this] { lineEdit()->setText(QString::number(m_value)); });
}

void UInt64SpinBox::setValue(quint64 v) {
    const QString text = QString::number(v);
    if (lineEdit()->text() != text) lineEdit()->setText(text);
    if (v == m_value) return;
    m_value = v;
    emit valueChanged(v);
}

void UInt64SpinBox::onTextEdited(const QString& text) {
    quint64 v = 0;
    if (!parse(text, &v) || v == m_value) return;
    m_value = v;
    emit valueChanged(v);
}

void UInt64SpinBox::stepBy(int steps) {
    // Saturating: one step below 0 or above 2^64 - 1 stays there.
    quint64 v = m_value;
    if (steps > 0)
        v = kMax - v < static_cast<quint64>(steps) ? kMax : v + static_cast<quint64>(steps);
    else if (steps < 0)
        v = v < static_cast<quint64>(-static_cast<qint64>(steps)) ? 0 : v - static_cast<quint64>(-static_cast<qint64>(steps));
    setValue(v);
    lineEdit()->selectAll();
}

QValidator::State UInt64SpinBox::validate(QString& input, int&) const {
    if (input.isEmpty()) return QValidator::Intermediate;
    return parse(input, nullptr) ? QValidator::Acceptable : QValidator::Invalid;
}

void UInt64SpinBox::fixup(QString& input) const { input = QString::number(m_value); }

QAbstractSpinBox::StepEnabled UInt64SpinBox::stepEnabled() const {
    StepEnabled e = StepNone;
    if (m_value > 0) e |= StepDownEnabled;
    if (m_value < kMax) e |= StepUpEnabled;
    return e;
}

QSize UInt64SpinBox::sizeHint() const {
    ensurePolished();
    // Room for ten digits (every seed below 2^32) and the cursor; longer seeds scroll.
    const int w = fontMetrics().horizontalAdvance(QStringLiteral("0000000000")) + 4;
    const int h = lineEdit()->sizeHint().height();
    QStyleOptionSpinBox opt;
    initStyleOption(&opt);
    return style()->sizeFromContents(QStyle::CT_SpinBox, &opt, QSize(w, h), this);
}

QSize UInt64SpinBox::minimumSizeHint() const {
    ensurePolished();
    const int w = fontMetrics().horizontalAdvance(QStringLiteral("000")) + 4;
    QStyleOptionSpinBox opt;
    initStyleOption(&opt);
    return style()->sizeFromContents(QStyle::CT_SpinBox, &opt, QSize(w, lineEdit()->minimumSizeHint().height()), this);
}

}  // namespace fdlab::ui
