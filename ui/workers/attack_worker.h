#pragma once
// Runs the attacks the Heatmaps tab draws, off the GUI thread: the view of one test instance
// for two learners, a grid of instances (Figure 1.4 of the FDROP chapter), and the analysis of
// every test instance (clean and attacked margins) used to jump to the instances learner A
// loses and learner B keeps.
//
// Every instance is attacked on its own, as runAttack(test.subset({i}), ...) with the random
// stream of row i (AttackSpec::firstRowStream), so the view, the grid and the analysis agree
// exactly, and with the context's attack seeded as the curves' test attack of repetition 0
// (main_window), random threats show the very draw the curves were computed from.
//
// AttackRunner owns two worker threads (views and grids; the whole-test-set analysis) so that a
// long analysis never delays the picture. A newer request makes older pending ones of the same
// kind obsolete: they are skipped, and a running analysis is stopped through its stop token.

#include "core/attacks/attack.h"
#include "core/eval/message_view.h"
#include "core/learners/registry.h"

#include <QImage>
#include <QObject>
#include <QString>
#include <QThread>

#include <array>
#include <atomic>
#include <memory>
#include <stop_token>
#include <utility>
#include <vector>

namespace fdlab::ui {

/// What the Heatmaps tab looks at: a test set, trained models by name, and the attack.
struct HeatmapContext {
    std::shared_ptr<const Dataset> test;
    std::vector<std::pair<QString, TrainedModel>> models;
    AttackSpec attack;
    /// Where corruption threats take their values from: the training set, as the curves do
    /// (experiment_runner); null: the test set itself (the instance may then be its own donor).
    std::shared_ptr<const Dataset> donors;
};
using HeatmapContextPtr = std::shared_ptr<const HeatmapContext>;

/// One learner on one instance at one attack level.
struct LearnerView {
    QString learner;
    QString error;                      ///< non-empty when the attack failed (core's message)
    std::vector<int> deleted;           ///< deleted/corrupted features, increasing
    std::vector<double> attackedX;      ///< the instance after the attack
    /// The direction the worst-case adversary attacks: binary w; multi-class w_label - w_k with
    /// k the strongest competitor on the clean instance. Empty for non-linear models.
    std::vector<double> w;
    std::vector<double> contribution;   ///< y * w_j * x_j on the clean instance (empty when w is)
    double scoreBefore = 0.0;           ///< binary: s(x); multi-class: the margin
    double scoreAfter = 0.0;
    double marginBefore = 0.0;          ///< > 0: classified correctly
    double marginAfter = 0.0;
    int predictedBefore = -1;
    int predictedAfter = -1;
    /// Text data (Dataset::documents): the message with its words' contributions and deletions
    /// (null otherwise), its body as rich text (messageBodyHtml, built here off the GUI thread),
    /// and the model's top words by weight (binary linear models; empty otherwise).
    std::shared_ptr<const MessageView> message;
    QString messageBodyHtml;
    TopWords topWords;
};

struct InstanceView {
    int instance = -1;
    double level = 0.0;
    int label = -1;
    std::vector<double> x;   ///< the clean instance
    LearnerView a, b;
};

/// Margins of two learners on every test instance, clean and attacked at one level.
struct InstanceAnalysis {
    double level = 0.0;
    int a = 0, b = 0;
    std::vector<double> marginA0, marginA1, marginB0, marginB1;
    bool complete = false;   ///< false when cancelled

    /// A classifies i correctly only before the attack; B is right before and after.
    bool lostByAKeptByB(int i) const;
    int countLostByAKeptByB() const;
    int countLostByA() const;
};

/// runAttack on the one-row subset {i} with row i's random stream, i.e. exactly row i of
/// runAttack(test, model, spec, {}, donors) (throws what runAttack throws). Corruption needs
/// other rows to take values from: without donors they come from `test` (where, unlike in the
/// whole-set attack, row i itself may be drawn).
AttackResult attackInstance(const Dataset& test, int i, const Scorer& model, const AttackSpec& spec,
                            const Dataset* donors = nullptr);
LearnerView computeLearnerView(const HeatmapContext& ctx, int model, int instance, double level);
InstanceView computeInstanceView(const HeatmapContext& ctx, int a, int b, int instance, double level);
/// Cancelled runs return complete = false.
InstanceAnalysis analyseInstances(const HeatmapContext& ctx, int a, int b, double level, const RunControl& rc = {});
/// fdlab::deletionGrid of `rows` for one model, as a QImage.
QImage deletionGridImage(const HeatmapContext& ctx, int model, const std::vector<int>& rows, double level,
                         int columns = 5, int scale = 3);

struct AttackRequest {
    enum Kind { View = 0, Grid = 1, Analysis = 2 };
    Kind kind = View;
    quint64 generation = 0;
    HeatmapContextPtr context;
    int a = 0, b = 0;
    int instance = 0;
    std::vector<int> rows;   ///< Grid
    int columns = 5;         ///< Grid
    double level = 0.0;
    std::stop_token stop;
};

}  // namespace fdlab::ui

// Declared before any signal uses them (moc's metatype tables instantiate them).
Q_DECLARE_METATYPE(fdlab::ui::AttackRequest)
Q_DECLARE_METATYPE(fdlab::ui::InstanceView)
Q_DECLARE_METATYPE(fdlab::ui::InstanceAnalysis)

namespace fdlab::ui {

class AttackWorker : public QObject {
    Q_OBJECT
public:
    explicit AttackWorker(const std::array<std::atomic<quint64>, 3>* latest) : m_latest(latest) {}
    void run(const fdlab::ui::AttackRequest& r);
signals:
    void viewReady(quint64 generation, const fdlab::ui::InstanceView& view);
    void gridReady(quint64 generation, const QImage& a, const QImage& b);
    void analysisReady(quint64 generation, const fdlab::ui::InstanceAnalysis& analysis);
    void progress(quint64 generation, double fraction);
    void failed(quint64 generation, int kind, const QString& message);

private:
    bool stale(const AttackRequest& r) const;
    const std::array<std::atomic<quint64>, 3>* m_latest;
};

class AttackRunner : public QObject {
    Q_OBJECT
public:
    explicit AttackRunner(QObject* parent = nullptr);
    ~AttackRunner() override;

    void requestView(HeatmapContextPtr ctx, int a, int b, int instance, double level);
    void requestGrid(HeatmapContextPtr ctx, int a, int b, std::vector<int> rows, double level, int columns);
    void requestAnalysis(HeatmapContextPtr ctx, int a, int b, double level);
    /// Makes every pending request obsolete and stops a running analysis.
    void cancelAll();

signals:
    void viewReady(const fdlab::ui::InstanceView& view);
    void gridReady(const QImage& a, const QImage& b);
    void analysisReady(const fdlab::ui::InstanceAnalysis& analysis);
    void analysisProgress(double fraction);
    void failed(int kind, const QString& message);
    // internal: hand requests to the worker threads
    void toViewThread(const fdlab::ui::AttackRequest& r);
    void toAnalysisThread(const fdlab::ui::AttackRequest& r);

private:
    quint64 next(AttackRequest::Kind k);
    bool current(int kind, quint64 generation) const { return m_latest[static_cast<std::size_t>(kind)] == generation; }

    std::array<std::atomic<quint64>, 3> m_latest{};
    quint64 m_counter = 0;
    std::stop_source m_analysisStop;
    QThread m_viewThread, m_analysisThread;
};

}  // namespace fdlab::ui

