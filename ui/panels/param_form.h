#pragma once
// Editors generated from ParamInfo declarations (core/util/param_info.h), shared by the
// Algorithms panel (learner parameters) and the Attack panel (threat parameters): a spin box
// for numbers, a check box, a combo box for choices, a line edit for lists ("3, 7, 12") and
// structured JSON values. Tool-tips carry the doc line, the default and the range.

#include "core/util/param_info.h"

#include <QString>
#include <QWidget>

namespace fdlab::ui {

/// An editor for `p` showing `value` (the default when value is null). Its object name is
/// objectName; `extraTip` is appended to the tool-tip (e.g. the learner's formula).
QWidget* createParamEditor(const ParamInfo& p, const nlohmann::json& value, const QString& objectName,
                           const QString& extraTip = {});
/// Shows `value` in an editor made by createParamEditor for p.
void setParamEditorValue(const ParamInfo& p, QWidget* editor, const nlohmann::json& value);
/// The editor's value as JSON. Text editors (lists, JSON) throw std::invalid_argument naming
/// `owner` and the parameter when their text does not parse.
nlohmann::json paramEditorValue(const ParamInfo& p, const QWidget* editor, const std::string& owner);
/// The tool-tip of p's editor and label.
QString paramToolTip(const ParamInfo& p, const QString& extraTip = {});

}  // namespace fdlab::ui
