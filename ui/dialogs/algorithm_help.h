#pragma once
// Help pages: one per learner of the catalogue (title, the problem it solves, the paper, and its
// parameters with ranges and defaults), built from fdlab::LearnerInfo.

#include <QString>

#include <string>

class QWidget;

namespace fdlab::ui {

/// HTML page for the learner `name` (registry key).
QString algorithmHelpHtml(const std::string& name);
/// Shows the page in a modeless dialog.
void showAlgorithmHelp(const std::string& name, QWidget* parent);

}  // namespace fdlab::ui
