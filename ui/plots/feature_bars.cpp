#include "ui/plots/feature_bars.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace fdlab::ui {

namespace {

constexpr double kRotated = 60.0;   ///< degrees, when the names do not fit side by side
constexpr int kNameChars = 12;      ///< longer names are shortened to this with an ellipsis
constexpr double kNameShare = 0.3;  ///< rotated names take at most this share of the chart's height

/// The longest a name is drawn: kNameChars characters (the cut itself is layoutTicks' choice).
QString shortName(const QString& s) { return s.size() > kNameChars ? s.left(kNameChars - 1) + QChar(0x2026) : s; }

}  // namespace

FeatureBars::FeatureBars(QWidget* parent) : QWidget(parent) {
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    m_plot = new QCustomPlot(this);
    m_plot->setBackground(palette().color(QPalette::Base));
    l->addWidget(m_plot);
    m_plot->plotLayout()->insertRow(0);
    m_title = new QCPTextElement(m_plot, QString(), QFont(font().family(), font().pointSize() + 1, QFont::Bold));
    m_plot->plotLayout()->addElement(0, 0, m_title);
    m_normal = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_normal->setPen(Qt::NoPen);
    m_normal->setBrush(QColor(70, 110, 170));
    m_normal->setWidth(0.8);
    m_marked = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_marked->setPen(Qt::NoPen);
    m_marked->setBrush(QColor(220, 30, 30));
    m_marked->setWidth(0.8);
    m_marked->setName(tr("deleted"));
    // No "feature" under the names: they say it, and the line is worth more to the bars in the
    // short cells of presentation mode.
    m_plot->xAxis->grid()->setVisible(false);
    m_plot->yAxis->grid()->setZeroLinePen(QPen(Qt::black, 1));
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    m_zeroNote = new QCPItemText(m_plot);
    m_zeroNote->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_zeroNote->position->setCoords(0.5, 0.25);
    m_zeroNote->setText(tr("all 0"));
    m_zeroNote->setVisible(false);
    connect(m_plot, &QCustomPlot::afterLayout, this, &FeatureBars::layoutTicks);
}

void FeatureBars::setTitle(const QString& title) {
    m_fullTitle = title;
    elideTitle();
}

QString FeatureBars::shownTitle() const { return m_title->text(); }

// The title element is as wide as the plot; a longer text was drawn centred and cut off at both
// ends ("M: deleted at N = 2.96" for "SVM: deleted at N = 2.9682"). Eliding at the right keeps
// the beginning, which says what the chart shows.
void FeatureBars::elideTitle() {
    const int room = std::max(20, width() - 8);
    const QString shown = QFontMetrics(m_title->font()).elidedText(m_fullTitle, Qt::ElideRight, room);
    if (shown == m_title->text()) return;
    m_title->setText(shown);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void FeatureBars::setValueLabel(const QString& label) { m_plot->yAxis->setLabel(label); }

void FeatureBars::setData(const std::vector<int>& shown, const std::vector<double>& values,
                          const std::vector<char>& marked, const std::vector<std::string>& names, double zeroBelow) {
    QVector<double> kx, kv, mx, mv;
    m_names.clear();
    double lo = 0.0, hi = 0.0;
    bool allZero = true;   // false also for a NaN value, which no comparison passes
    bool finite = true;
    for (int p = 0; p < static_cast<int>(shown.size()); ++p) {
        const auto j = static_cast<std::size_t>(shown[static_cast<std::size_t>(p)]);
        const double v = j < values.size() ? values[j] : 0.0;
        allZero = allZero && std::abs(v) <= zeroBelow;
        finite = finite && std::isfinite(v);
        if (std::isfinite(v)) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        const bool red = j < marked.size() && marked[j];
        (red ? mx : kx).push_back(p);
        (red ? mv : kv).push_back(v);
        m_names << (j < names.size() ? QString::fromStdString(names[j]) : QString("f%1").arg(j + 1));
    }
    m_normal->setData(kx, kv, true);
    m_marked->setData(mx, mv, true);
    m_plot->xAxis->setRange(-0.7, static_cast<double>(shown.size()) - 0.3);
    // A model that learnt nothing (w = 0 up to rounding, e.g. FDROP's optimum when two
    // deletions already break every weight) drew its axis in units of 1e-10, which reads as a
    // real scale: such bars are drawn flat on a plain [-1, 1] axis and said to be all 0.
    // A span too small for an axis (QCPRange needs more than 1e-280) is drawn as 0 as well,
    // unless a value is NaN or infinite: that is never "all 0" (the axis is then [-1, 1]).
    m_allZero = allZero || (finite && !(hi - lo > 1e-250));
    m_zeroNote->setVisible(m_allZero && !shown.empty());
    if (m_allZero || !(hi - lo > 1e-250)) {
        m_plot->yAxis->setRange(-1.0, 1.0);
    } else {
        const double pad = 0.08 * (hi - lo);
        m_plot->yAxis->setRange(lo - (lo < 0 ? pad : 0), hi + (hi > 0 ? pad : 0));
    }
    m_every = 0;   // new names: choose again at the next layout
    layoutTicks();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void FeatureBars::clearData(const QString& why) {
    m_normal->data()->clear();
    m_marked->data()->clear();
    m_names.clear();
    m_every = 0;
    m_allZero = false;
    m_zeroNote->setVisible(false);
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    setTitle(why);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

// Names side by side need their width apart; rotated names are parallel strips one line high,
// which do not overlap when their centres are at least height / sin(angle) apart. Whichever way
// shows more names wins; a name every `every` bars, from the first.
void FeatureBars::layoutTicks() {
    const int n = static_cast<int>(m_names.size());
    const int axisWidth = m_plot->axisRect()->width();
    if (n == 0 || axisWidth <= 0) return;
    // Value ticks two lines apart at most (a short axis ran "0.25 0.2 0.15" into each other).
    const int lineHeight = QFontMetrics(m_plot->yAxis->tickLabelFont()).height();
    const int valueTicks = std::clamp(m_plot->axisRect()->height() / (2 * lineHeight), 2, 5);
    if (m_plot->yAxis->ticker()->tickCount() != valueTicks) {
        m_plot->yAxis->ticker()->setTickCount(valueTicks);
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
    const double perBar = axisWidth / (n + 0.4);   // the range is [-0.7, n - 0.3]
    const QFontMetrics fm(m_plot->xAxis->tickLabelFont());
    int widest = 0;   // of the names shortened to kNameChars
    for (const QString& s : m_names) widest = std::max(widest, fm.horizontalAdvance(shortName(s)));
    const int flat = std::max(1, static_cast<int>(std::ceil((widest + 8) / perBar)));
    const int rotated =
        std::max(1, static_cast<int>(std::ceil((fm.height() + 2) / std::sin(kRotated * M_PI / 180.0) / perBar)));
    const int every = std::min(flat, rotated);
    const double rotation = flat <= rotated ? 0.0 : kRotated;
    // Rotated names stand as tall as width * sin + height * cos: twelve characters of
    // presentation mode's font left the bars a strip of 40 of a cell's 220 pixels (spambase at
    // 1280x720). They are cut further, to what fits in kNameShare of the chart's height.
    int nameWidth = widest;
    if (rotation != 0.0) {
        const double a = kRotated * M_PI / 180.0;
        const double room = (kNameShare * m_plot->height() - fm.height() * std::cos(a)) / std::sin(a);
        nameWidth = std::min(widest, std::max(fm.horizontalAdvance(QStringLiteral("ab\u2026")), static_cast<int>(room)));
    }
    if (every == m_every && rotation == m_rotation && nameWidth == m_nameWidth) return;
    m_every = every;
    m_rotation = rotation;
    m_nameWidth = nameWidth;
    // Cut names that share a beginning ("word_freq_make", "word_freq_address") all read
    // "word_freq_..." when cut at the right: where the shown names share more of their
    // beginnings than of their ends (counted between neighbours, the names that stand side by
    // side), they are cut at the left and keep the ends that differ.
    QStringList shownNames;
    for (int p = 0; p < n; p += every) shownNames << m_names[p];
    if (std::any_of(shownNames.begin(), shownNames.end(),
                    [&](const QString& s) { return fm.horizontalAdvance(s) > nameWidth; })) {
        long heads = 0, tails = 0;
        for (int a = 1; a < shownNames.size(); ++a) {
            const QString &x = shownNames[a - 1], &y = shownNames[a];
            const int k = static_cast<int>(std::min(x.size(), y.size()));
            int h = 0, t = 0;
            while (h < k && x[h] == y[h]) ++h;
            while (t < k && x[x.size() - 1 - t] == y[y.size() - 1 - t]) ++t;
            heads += h;
            tails += t;
        }
        const Qt::TextElideMode mode = heads > tails ? Qt::ElideLeft : Qt::ElideRight;
        for (QString& s : shownNames) s = fm.elidedText(s, mode, nameWidth);
    }
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int k = 0; k < shownNames.size(); ++k) ticker->addTick(k * every, shownNames[k]);
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setTickLabelRotation(rotation);
    m_plot->replot(QCustomPlot::rpQueuedReplot);   // the bottom margin follows the new names
}

std::vector<FeatureBars::TickLabel> FeatureBars::tickLabels() const {
    std::vector<TickLabel> out;
    auto ticker = m_plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    if (!ticker) return out;
    const QPoint origin = m_plot->mapTo(this, QPoint(0, 0));
    for (auto it = ticker->ticks().cbegin(); it != ticker->ticks().cend(); ++it)
        out.push_back({origin.x() + m_plot->xAxis->coordToPixel(it.key()), it.value()});
    return out;
}

double FeatureBars::tickLabelRotation() const { return m_plot->xAxis->tickLabelRotation(); }

QFont FeatureBars::tickLabelFont() const { return m_plot->xAxis->tickLabelFont(); }

void FeatureBars::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    elideTitle();
}

void FeatureBars::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange) {
        // Presentation mode enlarges the window's font: the plot's texts follow it.
        m_title->setFont(QFont(font().family(), font().pointSize() + 1, QFont::Bold));
        m_plot->xAxis->setTickLabelFont(font());
        m_plot->yAxis->setTickLabelFont(font());
        m_plot->xAxis->setLabelFont(font());
        m_plot->yAxis->setLabelFont(font());
        m_zeroNote->setFont(font());
        m_every = 0;
        elideTitle();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

}  // namespace fdlab::ui
