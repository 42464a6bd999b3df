#include "ui/panels/param_form.h"

#include "ui/panels/compact_spin_box.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QSpinBox>

#include <algorithm>

namespace fdlab::ui {

using Type = ParamInfo::Type;

QString paramToolTip(const ParamInfo& p, const QString& extraTip) {
    const std::string range = paramRangeText(p);
    return QStringLiteral("<b>%1</b>: %2<br>default %3%4%5")
        .arg(QString::fromStdString(p.name), QString::fromStdString(p.doc).toHtmlEscaped(),
             QString::fromStdString(paramToText(p, p.defaultValue)).toHtmlEscaped(),
             range.empty() ? QString() : QStringLiteral(", %1").arg(QString::fromStdString(range).toHtmlEscaped()),
             extraTip.isEmpty() ? QString() : QStringLiteral("<p>%1").arg(extraTip));
}

QWidget* createParamEditor(const ParamInfo& p, const nlohmann::json& value, const QString& objectName,
                           const QString& extraTip) {
    QWidget* editor = nullptr;
    switch (p.type) {
    case Type::Real: {
        auto* sb = new CompactDoubleSpinBox;
        sb->setDecimals(12);
        sb->setRange(p.min, p.max);
        sb->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
        editor = sb;
        break;
    }
    case Type::Integer: {
        auto* sb = new QSpinBox;
        sb->setRange(static_cast<int>(std::max(p.min, -2e9)), static_cast<int>(std::min(p.max, 2e9)));
        editor = sb;
        break;
    }
    case Type::Bool: editor = new QCheckBox; break;
    case Type::Choice: {
        auto* combo = new QComboBox;
        for (const auto& c : p.choices) combo->addItem(QString::fromStdString(c));
        editor = combo;
        break;
    }
    case Type::IntegerList:
    case Type::Json: {
        auto* line = new QLineEdit;
        line->setPlaceholderText(p.type == Type::IntegerList ? QObject::tr("e.g. 3, 7, 12") : QObject::tr("JSON"));
        editor = line;
        break;
    }
    }
    editor->setObjectName(objectName);
    editor->setToolTip(paramToolTip(p, extraTip));
    compactEditors(editor);
    setParamEditorValue(p, editor, value.is_null() ? p.defaultValue : value);
    return editor;
}

void setParamEditorValue(const ParamInfo& p, QWidget* editor, const nlohmann::json& value) {
    switch (p.type) {
    case Type::Real: static_cast<QDoubleSpinBox*>(editor)->setValue(value.is_number() ? value.get<double>() : 0.0); break;
    case Type::Integer: static_cast<QSpinBox*>(editor)->setValue(value.is_number() ? value.get<int>() : 0); break;
    case Type::Bool: static_cast<QCheckBox*>(editor)->setChecked(value.is_boolean() && value.get<bool>()); break;
    case Type::Choice:
        if (value.is_string()) static_cast<QComboBox*>(editor)->setCurrentText(QString::fromStdString(value.get<std::string>()));
        break;
    case Type::IntegerList:
    case Type::Json: {
        auto* line = static_cast<QLineEdit*>(editor);
        line->setText(QString::fromStdString(paramToText(p, value)));
        line->setCursorPosition(0);   // long JSON shows its beginning
        break;
    }
    }
}

nlohmann::json paramEditorValue(const ParamInfo& p, const QWidget* editor, const std::string& owner) {
    switch (p.type) {
    case Type::Real: return static_cast<const QDoubleSpinBox*>(editor)->value();
    case Type::Integer: return static_cast<const QSpinBox*>(editor)->value();
    case Type::Bool: return static_cast<const QCheckBox*>(editor)->isChecked();
    case Type::Choice: return static_cast<const QComboBox*>(editor)->currentText().toStdString();
    case Type::IntegerList:
    case Type::Json: {
        const std::string text = static_cast<const QLineEdit*>(editor)->text().trimmed().toStdString();
        if (text.empty()) return p.type == Type::IntegerList ? nlohmann::json::array() : p.defaultValue;
        return paramFromText(p, text, owner);
    }
    }
    return nullptr;
}

}  // namespace fdlab::ui
