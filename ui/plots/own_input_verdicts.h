#pragma once
// The part of "Your own input" shared by the drawing page (draw_canvas.h) and the typing page
// (type_message.h): both learners' verdicts on the student's instance (core's scoreWithDeletions
// with nothing deleted), the class it is meant to be, and "Attack it".

#include "core/data/dataset.h"
#include "ui/workers/attack_worker.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;

namespace fdlab::ui {

class OwnInputVerdicts : public QWidget {
    Q_OBJECT
public:
    /// `what` names the instance on the button ("drawing", "message"); `prefix` the objects
    /// ("draw" gives drawVerdictA/B and drawUse).
    OwnInputVerdicts(const QString& useText, const QString& useToolTip, const QString& prefix, QWidget* parent = nullptr);
    /// The models and classes of the context's test set; learners a and b are compared.
    void setContext(HeatmapContextPtr ctx, int a, int b);
    /// Shows both learners' verdicts on x (their scores for the intended class); the button is
    /// enabled when `usable`.
    void classify(const RowView& x, bool usable);
    QLabel* verdict(int which) const { return m_verdict[which == 0 ? 0 : 1]; }
    QPushButton* useButton() const { return m_use; }
    /// The class chosen as meant, -1 when none is (after clearNeed(): the student says it again).
    int intendedClass() const;
    void setIntendedClass(int k);
    /// A new drawing or message starts: no class is meant until the student picks one (the last
    /// one's stayed, so a drawn 3 was attacked as a 5); "Attack it" waits for the choice.
    void forgetIntendedClass();

signals:
    void intendedClassChanged();
    void useRequested();

private:
    HeatmapContextPtr m_ctx;
    int m_learner[2] = {0, 0};
    QComboBox* m_class = nullptr;
    QLabel* m_verdict[2] = {nullptr, nullptr};
    QPushButton* m_use = nullptr;
    QString m_useToolTip;
};

}  // namespace fdlab::ui
