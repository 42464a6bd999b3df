#pragma once
// "You are the adversary" (the Heatmaps tab's play page): the student deletes features of one
// test instance by hand -- clicks or brushes pixels of an image, clicks words of a message --
// within a budget (a count K, or a value N with each feature's price shown), and both learners'
// scores and classes follow every click (core/teach/deletion_game.h; a click is a toggle and two
// scorings, well under a millisecond: tests/bench/bench_play.cpp). "Reveal the optimal attack"
// shows the exact worst case at the same budget against each learner (greedy deletion for
// non-linear learners, labelled as such), and says how many deletions the student used and how
// many the optimal adversary needs to flip the instance. A scoreboard counts the rounds since the
// app started.

#include "core/teach/deletion_game.h"
#include "ui/workers/attack_worker.h"

#include <QWidget>

#include <memory>
#include <optional>

class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QTextBrowser;

namespace fdlab::ui {

class ColorMapWidget;
class JobRunner;

class AdversaryPlay : public QWidget {
    Q_OBJECT
public:
    explicit AdversaryPlay(QWidget* parent = nullptr);

    /// Plays on test instance `instance` of the context against learners a and b (indices into
    /// its models), with budget `limit` (K or N as the context's threat measures it; threats
    /// without a count or value budget play with a count). Starts a fresh round.
    /// A budget of 0 starts at the least that deletes something (K = 1; N = the instance's
    /// cheapest feature): a game in which nothing can be deleted teaches nothing.
    void setGame(HeatmapContextPtr ctx, int a, int b, int instance, double limit);
    void clear();
    /// The budget the game plays (the student may have changed it), and whether it plays on `ctx`.
    double limit() const;
    bool playsOn(const HeatmapContextPtr& ctx) const { return m_ctx && m_ctx == ctx; }

    /// What a click on feature j does (images: pixel j, row-major; text: word j's feature).
    DeletionGame::Move clickFeature(int j);
    /// A drag over feature j: deletes it (never restores).
    DeletionGame::Move brushFeature(int j);
    /// Restores every feature (a new round on the same instance).
    void reset();
    /// Finds the optimal adversary against both learners on a worker thread (an exact search can
    /// take a while, up to its step limit on hopeless instances), then shows it and scores the
    /// round as the student's deletions stood at the press; revealed() says when. A new round
    /// (another instance, budget or learners) drops a reveal still running.
    void reveal();
    /// True from reveal() until its result (or error) is shown.
    bool revealing() const;

    const DeletionGame* game() const { return m_game ? &*m_game : nullptr; }
    /// The student's current result against learner A (0) or B (1).
    PlayScore score(int which) const;
    /// After reveal(): the optimum and the deletions needed to flip, per learner.
    const std::optional<OptimalPlay>& optimum(int which) const { return m_optimum[which == 0 ? 0 : 1]; }
    const std::optional<FlipNeed>& need(int which) const { return m_need[which == 0 ? 0 : 1]; }

    QLabel* scoreLabel(int which) const { return m_score[which == 0 ? 0 : 1]; }
    QLabel* revealLabel() const { return m_revealText; }
    QLabel* scoreboardLabel() const { return m_board; }
    QLabel* budgetLabel() const { return m_used; }
    QTextBrowser* messageBrowser() const { return m_text; }
    ColorMapWidget* canvas() const { return m_canvas; }
    QDoubleSpinBox* limitSpin() const { return m_limit; }

    /// Rounds revealed since the app started, and how they went (shared by every play page).
    struct Scoreboard {
        int rounds = 0;          ///< reveals
        int learners = 0;        ///< learners played against (two per round, one when the run has one)
        int flipped = 0;         ///< learners the student flipped
        int matched = 0;         ///< learners flipped with no more deletions than the optimum needed
    };
    static const Scoreboard& scoreboard();

signals:
    /// The student's deletions or the revealed optimum changed.
    void changed();
    /// A reveal's result (or its error) is shown.
    void revealed();

private:
    struct RevealOutcome;
    /// Learners in play: 2, or 1 when the run has one learner or A = B is chosen (it was played,
    /// shown and counted twice).
    int sides() const;
    /// Shows `r`, computed for the round as `atPress` stood (the student's deletions then).
    void showReveal(const RevealOutcome& r, const DeletionGame& atPress);
    void startRound();
    void refresh();
    void drawImage();
    void drawText();
    QString learnerName(int which) const;
    QString budgetText(double v) const;
    /// Decimals (2 to 6) that show a value budget `level` exactly, to 1e-9 relative (else 6).
    static int budgetDecimals(double level);
    QString className(int k) const;
    const TrainedModel& model(int which) const;

    HeatmapContextPtr m_ctx;
    int m_learner[2] = {0, 0};
    int m_instance = -1;
    std::optional<DeletionGame> m_game;
    std::optional<OptimalPlay> m_optimum[2];
    std::optional<FlipNeed> m_need[2];
    bool m_textLayout = false;   ///< words or features in m_text (not an image)
    bool m_attacked = true;      ///< the threat attacks the instance's class (one-sided threats)
    std::shared_ptr<const MessageView> m_message;
    JobRunner* m_jobs = nullptr;   ///< the reveal's searches

    QLabel* m_intro = nullptr;
    QDoubleSpinBox* m_limit = nullptr;
    QLabel* m_used = nullptr;
    QPushButton* m_reset = nullptr;
    QPushButton* m_reveal = nullptr;
    QLabel* m_score[2] = {nullptr, nullptr};
    QWidget* m_images = nullptr;   ///< the image row (canvas, prices, optima)
    ColorMapWidget* m_canvas = nullptr;
    ColorMapWidget* m_prices = nullptr;
    ColorMapWidget* m_best[2] = {nullptr, nullptr};
    QTextBrowser* m_text = nullptr;
    QLabel* m_revealText = nullptr;
    QLabel* m_board = nullptr;
};

}  // namespace fdlab::ui
