#pragma once
// The start page shown on first launch: the lessons, the default experiment, and "Don't show
// this again" (QSettings "startPage/show"). Tests and screenshot runs skip it with
// --no-start-page or FDLAB_NO_START_PAGE=1.

#include "core/teach/lesson.h"

#include <QDialog>

#include <vector>

class QCheckBox;

namespace fdlab::ui {

class StartPage : public QDialog {
    Q_OBJECT
public:
    StartPage(const std::vector<fdlab::Lesson>& lessons, QWidget* parent = nullptr);

    /// True unless the student asked not to see it again or FDLAB_NO_START_PAGE is set.
    static bool wanted();
    /// The "Don't show this again" box (it saves its state when the page closes).
    QCheckBox* dontShowAgain() const { return m_dontShow; }

signals:
    /// Lesson `index` (into the lessons given) was chosen.
    void lessonChosen(int index);
    /// "Explore the default experiment" was chosen.
    void defaultChosen();

protected:
    void done(int r) override;

private:
    QCheckBox* m_dontShow = nullptr;
};

}  // namespace fdlab::ui
