#pragma once
// The Heatmaps tab: what the adversary deletes from one test instance, for two learners side by
// side, at a budget the user steps one feature at a time (or plays as an animation).
//
// Image data, per learner: the instance with the deleted pixels in red ("SVM: deleted at
// K = 50"), the weight map w (diverging scale centred at 0) and the contribution map y*w*x, with
// the score before and after the attack and the predicted class; the clean original on the left.
// Non-image data: the same as bar charts over the features (deleted features in red). Text data
// (the test set has documents): the message itself for each learner, words tinted by y*w*x and
// the deleted words struck through (ui/plots/message_view.h).
// A FeatureBoost learner has no weights to draw; its row shows instead what each boosting round
// relied on (ui/plots/feature_rounds_view.h: rounds x features, or one image per round).
// A grid view shows many instances with their deletions (Figure 1.4 of the FDROP chapter).
// Navigation: spin box, previous/next, and "jump to the next instance learner A loses only
// after the attack while learner B keeps it" from an analysis of every test instance that runs
// on a worker thread (ui/workers/attack_worker.h); all attacks run off the GUI thread.

#include "core/attacks/attack.h"
#include "core/learners/registry.h"
#include "ui/workers/attack_worker.h"

#include <QWidget>

#include <algorithm>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QCheckBox;
class QComboBox;
class QBoxLayout;
class QGridLayout;
class QLabel;
class QProgressBar;
class QPushButton;
class QScrollArea;
class QSlider;
class QSpinBox;
class QStackedWidget;
class QTimer;
class QToolButton;

namespace fdlab {
struct TypedDocument;
}  // namespace fdlab

namespace fdlab::ui {

class AdversaryPlay;
class ColorMapWidget;
class DrawCanvas;
class TypeMessage;
class FeatureBars;
class FeatureRoundsView;
class MessageViewWidget;

class HeatmapView : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapView(QWidget* parent = nullptr);
    ~HeatmapView() override;

    /// What to show: the test set, trained models by name (learner A = the first, B = the second
    /// by default), the attack (its threat; the budget comes from `budget`) and the initial
    /// budget (K for count threats, N for value budgets, a probability/fraction otherwise).
    /// Starts the analysis of every test instance on a worker thread.
    void setContext(std::shared_ptr<const fdlab::Dataset> test,
                    std::vector<std::pair<QString, fdlab::TrainedModel>> models, fdlab::AttackSpec attack,
                    double budget, std::shared_ptr<const fdlab::Dataset> donors = nullptr,
                    std::shared_ptr<const fdlab::Preprocessor> preprocessor = nullptr);
    /// Shows nothing and stops any work.
    void clear();
    bool hasContext() const { return static_cast<bool>(m_ctx); }
    /// The test set, models and attack shown (null without one).
    HeatmapContextPtr context() const { return m_ctx; }
    /// The threat of the current context (None without one).
    std::string threat() const { return m_ctx ? m_ctx->attack.threat : std::string("none"); }

    /// Learners by index into the models of setContext (A is "loses", B is "keeps").
    void setLearners(int a, int b);
    /// By name; false when a name is unknown (nothing changes).
    bool setLearners(const QString& a, const QString& b);
    int learnerA() const;
    int learnerB() const;

    void setInstance(int i);
    int instance() const;

    /// The budget shown (snapped to the slider's steps).
    void setBudget(double budget);
    double budget() const;
    /// Largest budget on the slider (count threats default to max(2 * budget, 50), at most n).
    void setMaxBudget(double maxBudget);

    /// Moves to the next instance (after the current one, wrapping around) that learner A
    /// classifies correctly only before the attack and learner B classifies correctly before and
    /// after it. Returns whether one was found. If the analysis for the current budget and
    /// learners is still running, returns false, remembers the request and performs it when the
    /// analysis arrives (jumpFinished tells the outcome either way).
    bool jumpToLostByFirstKeptBySecond();
    /// True when the analysis for the current budget and learners is available.
    bool analysisReady() const;
    /// Number of instances A loses and B keeps at the current budget (-1 while analysing).
    int lostByFirstKeptBySecondCount() const;

    void setGridMode(bool grid);
    bool gridMode() const;
    /// "You are the adversary": the student deletes features of the current instance by hand
    /// (ui/plots/adversary_play.h), against learners A and B at the current budget.
    void setAdversaryMode(bool on);
    bool adversaryMode() const;
    AdversaryPlay* adversaryPlay() const { return m_adversary; }
    /// "Your own input": the drawing page for image data (ui/plots/draw_canvas.h), the typing
    /// page for text data (ui/plots/type_message.h).
    void setDrawMode(bool on);
    bool drawMode() const;
    DrawCanvas* drawCanvas() const { return m_draw; }
    TypeMessage* typeMessage() const { return m_type; }
    /// Appends x (dense, one value per feature) with true class `label` to the test set shown,
    /// keeping the models, attack and budget, and opens it (the last instance).
    void addOwnInstance(const std::vector<float>& x, int label);
    /// The same for a typed message (text data): appended as a document of the corpus.
    void addOwnMessage(const fdlab::TypedDocument& message, int label);
    /// Starts/stops the budget animation (one step per 150 ms, stops at the largest budget).
    void setPlaying(bool playing);
    bool playing() const;

    /// The view on screen (for tests and exports); instance -1 before the first one arrives.
    const InstanceView& currentView() const { return m_view; }
    /// Deleted features shown for learner 0 (A) or 1 (B).
    const std::vector<int>& deletedShown(int which) const;

    /// The rounds view in learner A's (0) or B's (1) row; visible only for FeatureBoost models.
    FeatureRoundsView* roundsView(int which) const { return m_rounds[which == 0 ? 0 : 1]; }
    /// The message view of text data (test set with documents); hidden otherwise.
    MessageViewWidget* messageView() const { return m_messages; }
    /// True when the test set is text and the detail page shows messages.
    bool textLayout() const { return m_textLayout; }

    /// Width in pixels of the images drawn on the detail page (learner A's attacked image; 0
    /// before one is laid out), for layout tests.
    int imageSide() const;

    /// The bar chart of learner A's (0) or B's (1) row, column 0 (x with the deletions), 1 (w)
    /// or 2 (y w x); shown for non-image, non-text data.
    FeatureBars* bars(int which, int column) const { return m_bars[which == 0 ? 0 : 1][std::clamp(column, 0, 2)]; }

    QSlider* budgetSlider() const { return m_slider; }
    QSpinBox* instanceSpin() const { return m_instance; }

signals:
    /// setContext or clear changed the context (context()).
    void contextChanged();
    /// A new instance view has been drawn.
    void viewUpdated();
    /// The grid images have been drawn.
    void gridUpdated();
    /// The analysis for the current budget and learners has arrived.
    void analysisFinished();
    /// Result of a (possibly deferred) jump request.
    void jumpFinished(bool found, int instance);

protected:
    /// Narrow (the docks beside it): the maps' colour scales go under the images.
    void resizeEvent(QResizeEvent* e) override;

private:
    /// Shows `d` (the test set with the student's instance as its last row) and opens that row.
    void openOwnInstance(std::shared_ptr<fdlab::Dataset> d, const QString& what);
    void buildUi();
    void buildDetailMaps(bool image);
    void updateRoundViews();
    /// True when B's row would repeat A's: one learner, or A = B chosen.
    bool oneRow() const;
    /// Shows or hides B's row, the grid's B column and the A-versus-B jump (oneRow()).
    void applySides();
    void requestView();
    void requestAnalysis();
    void requestGrid();
    void onSliderMoved();
    void onView(const InstanceView& v);
    void onAnalysis(const InstanceAnalysis& a);
    void onGrid(const QImage& a, const QImage& b);
    void onFailed(int kind, const QString& message);
    void onLearnersChanged();
    void stepPlay();
    /// followBudget: the game takes the budget shown (it changed, or Play opens); else (another
    /// instance, from the spin box or a Robustness click, or other learners) it keeps its own.
    void updateAdversaryGame(bool followBudget = false);
    bool doJump();
    void drawImageView();
    void drawBarView();
    void drawTextView();
    void updateStatus();
    /// "K = 40", "N = 2.9682" (value budgets with `digits` significant digits), "p = 0.30".
    QString levelText(double level, int digits = 5) const;
    /// What the attack did to the marked features: "deleted", "corrupted" or "replaced", and
    /// how ("set to 0", ...), for titles and the legend.
    QString attackVerb() const;
    QString attackHow() const;
    bool replacesByNoise() const;
    double levelOf(int position) const;
    void configureSlider(double budget);

    HeatmapContextPtr m_ctx;
    double m_maxAbsX = 0.0;   ///< the largest |x_ij| of the test set: the weights' scale in the bars
    AttackRunner* m_runner = nullptr;
    InstanceView m_view;
    std::optional<InstanceAnalysis> m_analysis;
    bool m_pendingJump = false;
    bool m_settingUp = false;
    double m_step = 1.0;
    double m_maxBudget = -1.0;

    // controls
    QSpinBox* m_instance = nullptr;
    QToolButton* m_prev = nullptr;
    QToolButton* m_next = nullptr;
    QComboBox* m_learnerA = nullptr;
    QComboBox* m_learnerB = nullptr;
    QPushButton* m_jump = nullptr;
    QLabel* m_labelB = nullptr;
    bool m_single = false;   ///< one learner: no B row, selector or A-versus-B jump
    QPushButton* m_gridToggle = nullptr;
    QPushButton* m_adversaryToggle = nullptr;
    AdversaryPlay* m_adversary = nullptr;
    QPushButton* m_drawToggle = nullptr;
    DrawCanvas* m_draw = nullptr;
    TypeMessage* m_type = nullptr;
    QSlider* m_slider = nullptr;
    QLabel* m_levelLabel = nullptr;
    QPushButton* m_play = nullptr;
    QTimer* m_playTimer = nullptr;
    QTimer* m_analysisDebounce = nullptr;
    QLabel* m_status = nullptr;
    QProgressBar* m_progress = nullptr;
    QStackedWidget* m_stack = nullptr;
    QBoxLayout* m_controlRows = nullptr;   ///< the learners' row and the budget's

    // detail page: original on the left, one row per learner
    QWidget* m_detail = nullptr;
    QGridLayout* m_detailGrid = nullptr;   ///< m_detail's layout (row stretch: maps vs bars)
    QLabel* m_header[2] = {nullptr, nullptr};
    ColorMapWidget* m_original = nullptr;
    ColorMapWidget* m_maps[2][3] = {};
    FeatureBars* m_bars[2][3] = {};
    FeatureRoundsView* m_rounds[2] = {nullptr, nullptr};
    QLabel* m_note[2] = {nullptr, nullptr};   ///< "not linear" in place of the weight maps
    QLabel* m_originalCaption = nullptr;
    bool m_imageLayout = true;
    bool m_textLayout = false;
    MessageViewWidget* m_messages = nullptr;

    // grid page
    QLabel* m_gridTitle[2] = {nullptr, nullptr};
    QLabel* m_gridImage[2] = {nullptr, nullptr};
};

}  // namespace fdlab::ui
