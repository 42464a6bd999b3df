#include "ui/plots/adversary_play.h"

#include "core/attacks/threat_registry.h"
#include "core/eval/instance_view.h"
#include "core/eval/message_view.h"
#include "core/teach/robustness_map.h"

#include "ui/plots/color_map_widget.h"
#include "ui/workers/job_runner.h"

#include <qcustomplot.h>

#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace fdlab::ui {

namespace {

/// The budget box: as many decimals as the level needs (setGame), without trailing zeros, so that
/// a budget typed after a 6-decimal level reads "3", not "3.000000".
class BudgetSpinBox : public QDoubleSpinBox {
public:
    using QDoubleSpinBox::QDoubleSpinBox;
    QString textFromValue(double v) const override {
        QString t = QDoubleSpinBox::textFromValue(v);
        const QString point = locale().decimalPoint();
        if (decimals() > 0 && t.contains(point)) {
            while (t.endsWith(QLatin1Char('0'))) t.chop(1);
            if (t.endsWith(point)) t.chop(point.size());
        }
        return t;
    }
};

AdversaryPlay::Scoreboard& board() {
    static AdversaryPlay::Scoreboard b;   // since the app started
    return b;
}

const QString kRed = QStringLiteral("#c00000");
const QString kGreen = QStringLiteral("#007000");

}  // namespace

const AdversaryPlay::Scoreboard& AdversaryPlay::scoreboard() { return board(); }

AdversaryPlay::AdversaryPlay(QWidget* parent) : QWidget(parent) {
    m_jobs = new JobRunner(QStringLiteral("fdlab-reveal"), this);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    m_intro = new QLabel(this);
    m_intro->setWordWrap(true);
    outer->addWidget(m_intro);

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Your budget:"), this));
    m_limit = new BudgetSpinBox(this);
    m_limit->setObjectName("playBudget");
    m_limit->setMinimumWidth(90);
    bar->addWidget(m_limit);
    m_used = new QLabel(this);
    m_used->setObjectName("playUsed");
    m_used->setWordWrap(true);
    bar->addWidget(m_used, 1);
    m_reset = new QPushButton(tr("Start again"), this);
    m_reset->setToolTip(tr("Restore every deleted feature"));
    bar->addWidget(m_reset);
    m_reveal = new QPushButton(tr("Reveal the optimal attack"), this);
    m_reveal->setObjectName("playReveal");
    m_reveal->setToolTip(tr("Show what the optimal adversary deletes at the same budget, and how many deletions it needs"));
    bar->addWidget(m_reveal);
    outer->addLayout(bar);

    auto* scores = new QHBoxLayout;
    for (int k = 0; k < 2; ++k) {
        m_score[k] = new QLabel(this);
        m_score[k]->setObjectName(k == 0 ? "playScoreA" : "playScoreB");
        m_score[k]->setTextFormat(Qt::RichText);
        m_score[k]->setWordWrap(true);
        m_score[k]->setFrameShape(QFrame::StyledPanel);
        m_score[k]->setMargin(4);
        scores->addWidget(m_score[k], 1);
    }
    outer->addLayout(scores);

    // Images: the instance to click (with the prices of a value budget beside it), then the
    // optimal adversary's deletion against each learner once revealed.
    // In a box of their own, hidden with text data: an empty layout kept its stretch, and the
    // message sat under a 200 px gap at 1280x720.
    m_images = new QWidget(this);
    auto* images = new QHBoxLayout(m_images);
    images->setContentsMargins(0, 0, 0, 0);
    m_canvas = new ColorMapWidget(this);
    m_canvas->setObjectName("playCanvas");
    m_canvas->setGradient(ColorMapWidget::inkGradient());
    m_canvas->setScaleLabel(tr("x_j (red: deleted by you)"));
    images->addWidget(m_canvas, 2);
    m_prices = new ColorMapWidget(this);
    m_prices->setGradient(ColorMapWidget::heatGradient());
    m_prices->setScaleLabel(tr("price v_j"));
    m_prices->setTitle(tr("what each pixel costs"));
    images->addWidget(m_prices, 1);
    for (int k = 0; k < 2; ++k) {
        m_best[k] = new ColorMapWidget(this);
        m_best[k]->setGradient(ColorMapWidget::inkGradient());
        m_best[k]->setScaleLabel(tr("x_j (red: deleted)"));
        images->addWidget(m_best[k], 1);
    }
    outer->addWidget(m_images, 100);
    m_text = new QTextBrowser(this);
    m_text->setObjectName("playMessage");
    m_text->setOpenLinks(false);
    m_text->setOpenExternalLinks(false);
    outer->addWidget(m_text, 100);

    m_revealText = new QLabel(this);
    m_revealText->setObjectName("playRevealText");
    m_revealText->setTextFormat(Qt::RichText);
    m_revealText->setWordWrap(true);
    outer->addWidget(m_revealText);
    m_board = new QLabel(this);
    m_board->setObjectName("playScoreboard");
    m_board->setStyleSheet("color: palette(dark);");
    // Wrapped: unwrapped, the scoreboard asked 897 px and pushed the Play page's buttons off a
    // 1280x720 screen with the docks open.
    m_board->setWordWrap(true);
    outer->addWidget(m_board);
    // Takes the room only when the instance and its text are hidden (an unattacked class), so
    // that the explanation stays at the top instead of floating mid-page.
    outer->addStretch(1);

    connect(m_canvas, &ColorMapWidget::cellPressed, this, [this](int r, int c, Qt::MouseButtons) {
        clickFeature(r * m_canvas->imageCols() + c);
    });
    connect(m_canvas, &ColorMapWidget::cellDragged, this, [this](int r, int c, Qt::MouseButtons) {
        brushFeature(r * m_canvas->imageCols() + c);
    });
    connect(m_text, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        bool ok = false;
        const int j = url.toString().toInt(&ok);
        if (ok) clickFeature(j);
    });
    connect(m_reset, &QPushButton::clicked, this, &AdversaryPlay::reset);
    connect(m_reveal, &QPushButton::clicked, this, &AdversaryPlay::reveal);
    connect(m_limit, &QDoubleSpinBox::valueChanged, this, [this] {
        if (m_ctx && m_attacked) startRound();
    });
    clear();
}

double AdversaryPlay::limit() const { return m_limit->value(); }

int AdversaryPlay::sides() const {
    return m_ctx && (m_ctx->models.size() == 1 || m_learner[0] == m_learner[1]) ? 1 : 2;   // A = B: one learner
}

void AdversaryPlay::clear() {
    m_jobs->discard();
    m_ctx.reset();
    m_game.reset();
    m_message.reset();
    for (int k = 0; k < 2; ++k) {
        m_optimum[k].reset();
        m_need[k].reset();
    }
    m_intro->setText(tr("Run an experiment first: then delete features yourself and compare with the optimal adversary."));
    for (QWidget* w : std::initializer_list<QWidget*>{m_canvas, m_prices, m_best[0], m_best[1], m_text, m_score[0], m_score[1]})
        w->setVisible(false);
    m_revealText->clear();
    m_used->clear();
}

const TrainedModel& AdversaryPlay::model(int which) const {
    return m_ctx->models[static_cast<std::size_t>(m_learner[which])].second;
}

QString AdversaryPlay::learnerName(int which) const {
    return QString::fromStdString(m_ctx->models[static_cast<std::size_t>(m_learner[which])].first);
}

QString AdversaryPlay::className(int k) const {
    const Dataset& d = *m_ctx->test;
    return k >= 0 && k < d.numClasses() ? QString::fromStdString(d.classNames[static_cast<std::size_t>(k)]) : QStringLiteral("?");
}

QString AdversaryPlay::budgetText(double v) const {
    return m_game && m_game->budget().byValue ? QString::number(v, 'g', 6) : QString::number(std::lround(v));
}

int AdversaryPlay::budgetDecimals(double level) {
    for (int d = 2; d < 6; ++d) {
        const double scale = std::pow(10.0, d);
        if (std::abs(std::round(level * scale) / scale - level) <= 1e-9 * std::max(1.0, std::abs(level))) return d;
    }
    return 6;
}

void AdversaryPlay::setGame(HeatmapContextPtr ctx, int a, int b, int instance, double limit) {
    if (!ctx || !ctx->test || instance < 0 || instance >= ctx->test->rows()) {
        clear();
        return;
    }
    const int n = static_cast<int>(ctx->models.size());
    m_ctx = std::move(ctx);
    m_learner[0] = std::clamp(a, 0, n - 1);
    m_learner[1] = std::clamp(b, 0, n - 1);
    m_instance = instance;
    const Dataset& d = *m_ctx->test;
    const PlayBudget kind = budgetOfThreat(m_ctx->attack, d);
    const bool ownUnit = threatInfo(m_ctx->attack.threat).level == (kind.byValue ? LevelKind::Value : LevelKind::Count);
    // Words of a message, or (tables: pima, spambase, ...) the instance's features as a list of
    // names to click; images are clicked pixel by pixel. Tables had an empty page before.
    m_textLayout = !d.imageShape;
    const QSignalBlocker block(m_limit);
    // The game plays the spin box's value, which QDoubleSpinBox rounds to its decimals: a value
    // budget gets as many (2 to 6) as the run's level needs, so that the level the Heatmaps tab
    // shows (N = 2.0933) is the one played and shown here (it was played at 2.09).
    double start = ownUnit ? limit : 20.0;   // a probability or fraction is no count
    if (start <= 0.0) {
        start = 1.0;
        if (kind.byValue) {
            start = std::numeric_limits<double>::infinity();
            d.forEachNonZero(instance, [&](int j, float) { start = std::min(start, d.importance[static_cast<std::size_t>(j)]); });
            if (!std::isfinite(start)) start = 0.0;   // nothing to delete at all
        }
    }
    m_limit->setDecimals(kind.byValue ? budgetDecimals(start) : 0);
    m_limit->setRange(0.0, kind.byValue ? d.totalImportance() : static_cast<double>(d.features()));
    m_limit->setValue(start);
    m_limit->setPrefix(kind.byValue ? QStringLiteral("N = ") : QStringLiteral("K = "));
    m_message.reset();
    if (m_textLayout && d.documents) {
        const TrainedModel& t = model(0);
        const AttackResult clean = attackInstance(d, instance, *t.scorer, AttackSpec{});
        m_message = std::make_shared<MessageView>(buildMessageView(d, instance, *t.scorer, t.linear.get(), clean));
    }
    const bool scaled = m_ctx->preprocessor && m_ctx->preprocessor->scaling != Scaling::None;
    const QString what =
        d.documents && !d.imageShape ? tr("Click words of the message to delete them")
        : d.imageShape               ? tr("Click pixels to delete them, or drag to brush over several")
        : scaled ? tr("Click features (name = value, as the learners see it after %1 scaling; 0s are not listed) to delete them")
                       .arg(QString::fromUtf8(toString(m_ctx->preprocessor->scaling)))
                 : tr("Click features (name = value; 0s are not listed) to delete them");
    // A one-sided threat leaves the other classes alone: so does the game (the Heatmaps and
    // Robustness tabs show this instance unattacked; Play had the student attack it anyway).
    const int label = d.labels[static_cast<std::size_t>(instance)];
    m_attacked = m_ctx->attack.attacks(label);
    if (!m_attacked) {
        QStringList attacked;
        for (int c : m_ctx->attack.attackedClasses) attacked << className(c).toHtmlEscaped();
        m_jobs->discard();
        m_game.reset();
        for (int k = 0; k < 2; ++k) {
            m_optimum[k].reset();
            m_need[k].reset();
        }
        // One arg() call: a class named "10%3" was read as a place marker by a chained arg().
        m_intro->setText(tr("<b>You are the adversary.</b> This threat attacks only instances of %1 <b>%2</b>: "
                            "instance #%3 (class <b>%4</b>) is left alone, as on the Heatmaps and Robustness tabs. "
                            "Choose an instance of an attacked class to play.")
                             .arg(attacked.size() == 1 ? tr("class") : tr("classes"), attacked.join(QStringLiteral(", ")),
                                  QString::number(instance), className(label).toHtmlEscaped()));
        for (QWidget* w : std::initializer_list<QWidget*>{m_images, m_text, m_score[0], m_score[1]}) w->setVisible(false);
        m_revealText->clear();
        m_used->clear();
        m_limit->setEnabled(false);
        m_reset->setEnabled(false);
        m_reveal->setEnabled(false);
        emit changed();
        return;
    }
    m_limit->setEnabled(true);
    m_reset->setEnabled(true);
    m_reveal->setEnabled(true);
    m_intro->setText(tr("<b>You are the adversary.</b> %1; click a deleted one again to restore it. Your aim: make "
                        "the learners misclassify instance #%2 (true class <b>%3</b>) within your budget.%4")
                         .arg(what).arg(instance).arg(className(d.labels[static_cast<std::size_t>(instance)]).toHtmlEscaped())
                         .arg(kind.byValue ? tr(" Each feature has a price v_j; deletions may cost at most N in total.") : QString()));
    startRound();
}

void AdversaryPlay::startRound() {
    const Dataset& d = *m_ctx->test;
    PlayBudget budget = budgetOfThreat(m_ctx->attack, d);
    budget.limit = budget.byValue ? m_limit->value() : std::round(m_limit->value());
    m_jobs->discard();   // a reveal still searching is the last round's
    m_game.emplace(d.row(m_instance), d.labels[static_cast<std::size_t>(m_instance)], std::move(budget));
    for (int k = 0; k < 2; ++k) {
        m_optimum[k].reset();
        m_need[k].reset();
    }
    m_revealText->clear();
    refresh();
}

void AdversaryPlay::reset() {
    if (!m_ctx || !m_attacked) return;
    startRound();
}

DeletionGame::Move AdversaryPlay::clickFeature(int j) {
    if (!m_game || j < 0 || j >= m_ctx->test->features()) return DeletionGame::Move::AlreadyZero;
    const DeletionGame::Move m = m_game->toggle(j);
    if (m == DeletionGame::Move::OverBudget)
        m_used->setText(m_used->text().section(QStringLiteral(" \u00b7 "), 0, 0) + tr(" \u00b7 <b>over budget</b>: restore a feature first"));
    else if (m != DeletionGame::Move::AlreadyZero)
        refresh();
    return m;
}

DeletionGame::Move AdversaryPlay::brushFeature(int j) {
    if (!m_game || j < 0 || j >= m_ctx->test->features()) return DeletionGame::Move::AlreadyZero;
    const std::size_t before = m_game->deleted().size();
    const DeletionGame::Move m = m_game->erase(j);
    if (m_game->deleted().size() != before) refresh();
    return m;
}

PlayScore AdversaryPlay::score(int which) const { return m_game ? m_game->score(model(which)) : PlayScore{}; }

void AdversaryPlay::refresh() {
    const PlayBudget& b = m_game->budget();
    m_used->setText(tr("used %1 of %2 %3").arg(budgetText(m_game->spent()), m_limit->textFromValue(b.limit),
                                                b.byValue ? tr("(value)") : tr("deletions")));
    const int label = m_game->label();
    // A tie (every word erased under a model without bias) is an error, not the true class.
    auto predicted = [&](const PlayScore& p) {
        return QString::fromStdString(predictionName(m_ctx->test->classNames, p.predicted, label, p.margin));
    };
    for (int k = 0; k < 2; ++k) {
        m_score[k]->setVisible(k < sides());
        if (k >= sides()) continue;
        const PlayScore clean = scoreWithDeletions(model(k), m_game->row(), label, {});
        const PlayScore now = score(k);
        const bool binary = now.scores.size() == 1;
        const QString verdict = clean.margin <= 0 ? tr("<span style='color:%1'>wrong before you started</span>").arg(kRed)
                                : now.margin <= 0 ? tr("<span style='color:%1'><b>fooled: you flipped it</b></span>").arg(kRed)
                                                  : tr("<span style='color:%1'>still correct</span>").arg(kGreen);
        m_score[k]->setText(tr("<b>%1</b>: %2 %3 &rarr; <b>%4</b><br>predicted %5 &rarr; <b>%6</b> &nbsp; %7")
                                .arg(learnerName(k).toHtmlEscaped(), binary ? tr("score s(x)") : tr("margin"))
                                .arg(binary ? clean.scores[0] : clean.margin, 0, 'f', 3)
                                .arg(binary ? now.scores[0] : now.margin, 0, 'f', 3)
                                .arg(predicted(clean).toHtmlEscaped(), predicted(now).toHtmlEscaped(), verdict));
    }
    const Scoreboard& s = board();
    m_board->setText(tr("Scoreboard since FDLab started: %1 %2 revealed, you fooled %3 of %4 learners, %5 of them "
                        "with no more deletions than the optimal adversary needed.")
                         .arg(s.rounds)
                         .arg(s.rounds == 1 ? tr("round") : tr("rounds"))
                         .arg(s.flipped)
                         .arg(s.learners)
                         .arg(s.matched));
    if (m_textLayout) drawText();
    else if (m_ctx->test->imageShape) drawImage();
    emit changed();
}

void AdversaryPlay::drawImage() {
    const Dataset& d = *m_ctx->test;
    const ImageShape s = *d.imageShape;
    std::vector<double> x(static_cast<std::size_t>(d.features()), 0.0);
    m_game->row().forEachNonZero([&](int j, float v) { x[static_cast<std::size_t>(j)] = v; });
    const double hi = std::max(1e-9, *std::max_element(x.begin(), x.end()));
    const double lo = std::min(0.0, *std::min_element(x.begin(), x.end()));
    m_canvas->setImage(x, s.rows, s.cols);
    m_canvas->setRange(lo, hi);
    m_canvas->setMask(m_game->deleted());
    m_canvas->setTitle(tr("your deletions (%1)").arg(m_game->deleted().size()));
    m_images->setVisible(true);
    m_canvas->setVisible(true);
    m_text->setVisible(false);
    m_prices->setVisible(m_game->budget().byValue);
    if (m_game->budget().byValue) {
        m_prices->setImage(m_game->budget().prices, s.rows, s.cols);
        m_prices->setAutoRange();
    }
    for (int k = 0; k < 2; ++k) {
        m_best[k]->setVisible(m_optimum[k].has_value());
        if (!m_optimum[k]) continue;
        m_best[k]->setImage(x, s.rows, s.cols);
        m_best[k]->setRange(lo, hi);
        m_best[k]->setMask(m_optimum[k]->deleted);
        m_best[k]->setTitle(tr("optimal vs %1\n(%2)").arg(learnerName(k), QString::fromStdString(m_optimum[k]->method)));
    }
}

void AdversaryPlay::drawText() {
    m_images->setVisible(false);
    m_canvas->setVisible(false);
    m_prices->setVisible(false);
    for (ColorMapWidget* w : m_best) w->setVisible(false);
    m_text->setVisible(true);
    const std::vector<int>& mine = m_game->deleted();
    const auto in = [](const std::vector<int>& set, int j) { return std::binary_search(set.begin(), set.end(), j); };
    const bool byValue = m_game->budget().byValue;
    // One clickable word: struck when you deleted it, its price with a value budget, the optimal
    // adversary's marks once revealed.
    auto link = [&](int j, const QString& word) {
        QString style = QStringLiteral("text-decoration: none; color: #1a3c8c;");
        if (in(mine, j)) style = QStringLiteral("text-decoration: line-through; color: %1; background: #ffd6d6;").arg(kRed);
        QString marks;
        for (int k = 0; k < 2; ++k)
            if (m_optimum[k] && in(m_optimum[k]->deleted, j)) marks += k == 0 ? QStringLiteral("\u00b9") : QStringLiteral("\u00b2");
        // Qt's rich text drops border-bottom: the optimal adversary's words get a tint instead.
        if (!marks.isEmpty() && !in(mine, j)) style += QStringLiteral(" background: #ead8f5;");
        QString out = QStringLiteral("<a href='%1' style='%2'>%3</a>").arg(j).arg(style, word);
        if (byValue) out += QStringLiteral("<sub style='color:#666'>%1</sub>").arg(m_game->budget().prices[static_cast<std::size_t>(j)], 0, 'g', 3);
        if (!marks.isEmpty()) out += QStringLiteral("<sup style='color:#7030a0; font-size:large'><b>%1</b></sup>").arg(marks);
        return out;
    };
    QString html = QStringLiteral("<div style='white-space: pre-wrap'>");
    if (m_message) {
        const std::string& text = m_message->text;
        std::size_t at = 0;
        for (const MessageSpan& span : m_message->spans) {
            html += QString::fromUtf8(text.data() + at, static_cast<qsizetype>(span.offset - at)).toHtmlEscaped();
            const QString word = QString::fromUtf8(text.data() + span.offset, span.length).toHtmlEscaped();
            at = span.offset + span.length;
            html += span.feature < 0 ? word : link(span.feature, word);
        }
        html += QString::fromUtf8(text.data() + at, static_cast<qsizetype>(text.size() - at)).toHtmlEscaped();
    } else {
        // A table row: its non-zero features (deleting a zero changes nothing) as "name = value".
        const Dataset& d = *m_ctx->test;
        QStringList items;
        m_game->row().forEachNonZero([&](int j, float x) {
            QString name = j < static_cast<int>(d.featureNames.size()) ? QString::fromStdString(d.featureNames[static_cast<std::size_t>(j)])
                                                                      : QStringLiteral("f%1").arg(j + 1);
            // One item never parts at a line end: hyphens and spaces of the name do not break
            // (vote's "anti-satellite-" / "test-ban=n" read as two features).
            const bool oneHot = name.contains(QLatin1Char('=')) && x == 1.0f;   // vote's "crime=y": its value says it
            name = name.toHtmlEscaped().replace(QLatin1Char('-'), QChar(0x2011)).replace(QLatin1Char(' '), QChar(0x00a0));
            items << link(j, name) + (oneHot ? QString() : QStringLiteral("\u00a0=\u00a0%1").arg(static_cast<double>(x), 0, 'g', 6));
        });
        html += items.join(QStringLiteral("    "));
    }
    html += QStringLiteral("</div>");
    const int scroll = m_text->verticalScrollBar()->value();
    m_text->setHtml(html);
    m_text->verticalScrollBar()->setValue(scroll);
}

// Per learner: the optimum and the need, or what stopped the exact search.
struct AdversaryPlay::RevealOutcome {
    std::optional<OptimalPlay> optimum[2];
    std::optional<FlipNeed> need[2];
    QString error[2];
};

bool AdversaryPlay::revealing() const { return m_jobs->busy(); }

void AdversaryPlay::reveal() {
    if (!m_game) return;
    // The job owns what it reads: the context (shared, never changed) and a copy of the round.
    const HeatmapContextPtr ctx = m_ctx;
    const int learners[2] = {m_learner[0], m_learner[1]};
    const int sides = this->sides();
    auto atPress = std::make_shared<const DeletionGame>(*m_game);
    m_revealText->setText(sides == 1 ? tr("<i>Finding the optimal attack against %1...</i>").arg(learnerName(0).toHtmlEscaped())
                                     : tr("<i>Finding the optimal attack against %1 and %2...</i>")
                                           .arg(learnerName(0).toHtmlEscaped(), learnerName(1).toHtmlEscaped()));
    m_jobs->run(
        [ctx, learners, sides, atPress](const JobContext&) {
            RevealOutcome r;
            for (int k = 0; k < sides; ++k) {
                const TrainedModel& model = ctx->models[static_cast<std::size_t>(learners[k])].second;
                try {
                    r.optimum[k] = optimalPlay(model, atPress->row(), atPress->label(), atPress->budget());
                    r.need[k] = deletionsToFlip(model, atPress->row(), atPress->label(), atPress->budget());
                } catch (const std::exception& e) {
                    r.optimum[k].reset();
                    r.need[k].reset();
                    r.error[k] = QString::fromStdString(e.what());
                }
            }
            return r;
        },
        [this, atPress](const RevealOutcome& r) { showReveal(r, *atPress); },
        [this](const QString& error) {   // not expected (errors are per learner above), but never silent
            m_revealText->setText(tr("<span style='color:%1'>Could not find the optimal attack: %2</span>").arg(kRed, error.toHtmlEscaped()));
            emit revealed();
        });
}

void AdversaryPlay::showReveal(const RevealOutcome& r, const DeletionGame& atPress) {
    const int label = atPress.label();
    QStringList lines;
    const bool first = !m_optimum[0];
    int fooled = 0, matched = 0;
    for (int k = 0; k < sides(); ++k) {
        m_optimum[k] = r.optimum[k];
        m_need[k] = r.need[k];
        if (!r.optimum[k] || !r.need[k]) {
            lines << tr("<b>%1</b>: %2").arg(learnerName(k).toHtmlEscaped(), r.error[k].toHtmlEscaped());
            continue;
        }
        const OptimalPlay& o = *m_optimum[k];
        const FlipNeed& n = *m_need[k];
        const bool youFlipped = atPress.score(model(k)).margin <= 0 && scoreWithDeletions(model(k), atPress.row(), label, {}).margin > 0;
        const QString adversary = o.exact ? tr("the optimal adversary") : tr("the greedy adversary (a heuristic: %1 is not linear)").arg(learnerName(k).toHtmlEscaped());
        QString needText;
        if (n.need == 0) needText = tr("%1 is wrong on it before any deletion").arg(learnerName(k).toHtmlEscaped());
        else if (!n.flips()) needText = tr("no budget flips it: deleting every helpful feature leaves it right");
        else needText = tr("%1 needs %2 %3 to flip it%4").arg(adversary, budgetText(n.need), atPress.budget().byValue ? tr("(value)") : n.need == 1 ? tr("deletion") : tr("deletions"),
                                                       n.need > atPress.budget().limit ? tr(", more than your budget") : QString());
        needText[0] = needText[0].toUpper();   // it starts a sentence: "...marked 1). The optimal adversary needs"
        lines << tr("<b>%1</b>: within %2, %3 leaves score %4 (%5, marked %6). %7. You %8 with %9.")
                     .arg(learnerName(k).toHtmlEscaped(), m_limit->textFromValue(atPress.budget().limit), adversary)
                     .arg(o.after.scores.size() == 1 ? o.after.scores[0] : o.after.margin, 0, 'f', 3)
                     .arg(o.after.margin <= 0 ? (n.need == 0 ? tr("<span style='color:%1'>wrong, as before</span>").arg(kRed)
                                                             : tr("<span style='color:%1'>flipped</span>").arg(kRed))
                                              : tr("not flipped"),
                          m_textLayout ? (k == 0 ? QStringLiteral("\u00b9") : QStringLiteral("\u00b2")) : tr("in the image on the right"))
                     .arg(needText, youFlipped ? tr("<b>fooled it</b>") : tr("did not fool it"), budgetText(atPress.spent()));
        fooled += youFlipped;
        matched += youFlipped && n.flips() && atPress.spent() <= n.need + 1e-9;
    }
    if (first) {   // one round per instance and budget, however often Reveal is pressed
        Scoreboard& s = board();
        ++s.rounds;
        s.learners += sides();
        s.flipped += fooled;
        s.matched += matched;
    }
    m_revealText->setText(lines.join(QStringLiteral("<br>")));
    refresh();
    emit revealed();
}

}  // namespace fdlab::ui
