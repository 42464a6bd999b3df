#pragma once
// A spin box over the whole unsigned 64-bit range, for seeds: QSpinBox holds an int and would
// wrap or clamp a seed of 2^31 or more (a file's seed 3,000,000,000 became 0). Typing accepts
// digits only, up to 18446744073709551615; the arrows step by one and stop at 0 and 2^64 - 1.

#include <QAbstractSpinBox>

namespace fdlab::ui {

class UInt64SpinBox : public QAbstractSpinBox {
    Q_OBJECT
public:
    explicit UInt64SpinBox(QWidget* parent = nullptr);

    quint64 value() const { return m_value; }
    void setValue(quint64 v);

    void stepBy(int steps) override;
    QValidator::State validate(QString& input, int& pos) const override;
    void fixup(QString& input) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void valueChanged(quint64 value);

protected:
    StepEnabled stepEnabled() const override;

private:
    void onTextEdited(const QString& text);

    quint64 m_value = 0;
};

}  // namespace fdlab::ui
