#include "ui/plots/top_words_chart.h"

#include "ui/plots/widget_export.h"

#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace fdlab::ui {

namespace {

QColor scaleEnd(double sign) {
    const Rgb c = contributionColor(sign, 1.0);   // full colour at |c| = scale
    return {c.r, c.g, c.b};
}

/// "27 at w = 0.224" when the words shown of a side are a sample of a tie (core's relative
/// tolerance); empty otherwise.
QString tieNote(int atExtreme, const std::vector<WordWeight>& shown) {
    if (shown.empty() || atExtreme <= static_cast<int>(shown.size())) return {};
    return TopWordsChart::tr("%1 at w = %2").arg(QLocale().toString(atExtreme)).arg(shown.front().weight, 0, 'f', 3);
}

}  // namespace

TopWordsChart::TopWordsChart(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_plot = new QCustomPlot(this);
    m_plot->setObjectName("topWordsPlot");
    m_plot->setBackground(palette().color(QPalette::Base));
    layout->addWidget(m_plot);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    QFont bold = small;
    bold.setBold(true);
    m_plot->plotLayout()->insertRow(0);
    m_title = new QCPTextElement(m_plot, QString(), bold);
    m_plot->plotLayout()->addElement(0, 0, m_title);

    // Horizontal bars: the words are the keys on the (reversed) y axis, the weights the values.
    QCPAxis* words = m_plot->yAxis;
    QCPAxis* weights = m_plot->xAxis;
    words->setRangeReversed(true);
    words->grid()->setVisible(false);
    words->setTickLabelFont(small);
    words->setTickLength(0, 0);
    words->setSubTicks(false);
    weights->setTickLabelFont(small);
    weights->setLabelFont(small);
    weights->grid()->setZeroLinePen(QPen(Qt::black, 1));
    m_positive = new QCPBars(words, weights);
    m_negative = new QCPBars(words, weights);
    for (auto [bars, sign] : {std::pair{m_positive, 1.0}, std::pair{m_negative, -1.0}}) {
        bars->setWidth(0.72);
        bars->setBrush(scaleEnd(sign));
        bars->setPen(QPen(scaleEnd(sign).darker(130), 0.8));
    }
    // The exact weight, and the whole of an elided word, under the mouse.
    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        const int row = static_cast<int>(std::lround(m_plot->yAxis->pixelToCoord(e->position().y())));
        if (row < 0 || row >= m_words.size() || !m_plot->axisRect()->rect().contains(e->position().toPoint())) {
            QToolTip::hideText();
            return;
        }
        QString tip = tr("%1: w = %2").arg(m_words[row]).arg(m_weights[row], 0, 'g', 6);
        if (m_documents[row] >= 0) tip += tr(", in %1 training messages").arg(m_documents[row]);
        QToolTip::showText(e->globalPosition().toPoint(), tip, m_plot);
    });
    clear();
}

void TopWordsChart::setTopWords(const TopWords& top, const QString& learner, const QString& positiveClass,
                                const QString& negativeClass) {
    QString key = learner + '\n' + positiveClass + '\n' + negativeClass + '\n' +
                  QString::number(top.positiveAtTop) + ' ' + QString::number(top.negativeAtBottom) +
                  (top.tiesByDocuments ? " by documents" : "");
    for (const auto* side : {&top.positive, &top.negative})
        for (const WordWeight& w : *side) key += '\n' + QString::fromStdString(w.word) + ' ' + QString::number(w.weight, 'g', 17);
    if (key == m_shownKey) return;
    if (top.positive.empty() && top.negative.empty()) {
        clear();
        return;
    }
    m_shownKey = key;
    m_top = top;
    m_positiveClass = positiveClass;
    m_negativeClass = negativeClass;
    QStringList title{tr("Top words of %1 by weight").arg(learner)};
    // Short lines: the chart is ~300 px wide beside the other learner's.
    QStringList ties;
    for (const QString& note : {tieNote(top.positiveAtTop, top.positive), tieNote(top.negativeAtBottom, top.negative)})
        if (!note.isEmpty()) ties << note;
    if (!ties.isEmpty()) {
        title << tr("Tied: %1").arg(ties.join(", "));
        if (top.tiesByDocuments) title << tr("(most frequent in training first)");
    }
    m_title->setText(title.join('\n'));
    m_plot->xAxis->setLabel(tr("w_j  (< 0: %1,  > 0: %2)").arg(negativeClass, positiveClass));
    m_rows = -1;
    redraw();
    updateGeometry();
}

int TopWordsChart::rowHeight() const { return QFontMetrics(m_plot->yAxis->tickLabelFont()).height() + 2; }

int TopWordsChart::overheadHeight() const {
    const int titleLines = static_cast<int>(m_title->text().count('\n')) + 1;
    return (titleLines + 3) * (rowHeight() + 1) + 12;   // title, x tick labels and label, margins
}

int TopWordsChart::rowsFitting(int height) const { return std::max(kMinRows, (height - overheadHeight()) / rowHeight()); }

void TopWordsChart::redraw() {
    const auto P = static_cast<int>(m_top.positive.size()), Q = static_cast<int>(m_top.negative.size());
    const int rows = height() > 0 ? std::min(P + Q, rowsFitting(height())) : P + Q;
    if (rows == m_rows) return;
    m_rows = rows;
    // The strongest of each sign, half the rows each; a side with fewer words leaves its share
    // to the other.
    int p = std::min(P, (rows + 1) / 2);
    const int q = std::min(Q, rows - p);
    p = std::min(P, rows - q);

    // Sorted by weight: the positive words largest first, then the negative ones from the
    // smallest |w| down to the most negative at the bottom.
    m_words.clear();
    m_weights.clear();
    m_documents.clear();
    auto add = [this](const WordWeight& w) {
        m_words << QString::fromStdString(w.word);
        m_weights << w.weight;
        m_documents << w.documents;
    };
    for (int k = 0; k < p; ++k) add(m_top.positive[static_cast<std::size_t>(k)]);
    for (int k = q - 1; k >= 0; --k) add(m_top.negative[static_cast<std::size_t>(k)]);

    QVector<double> pk, pv, nk, nv;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    double lo = 0.0, hi = 0.0;
    for (int r = 0; r < m_words.size(); ++r) {
        const double w = m_weights[r];
        (w > 0 ? pk : nk) << r;
        (w > 0 ? pv : nv) << w;
        const QString& word = m_words[r];
        ticker->addTick(r, word.size() > 18 ? word.left(8) + QChar(0x2026) + word.right(8) : word);
        lo = std::min(lo, w);
        hi = std::max(hi, w);
    }
    m_positive->setData(pk, pv, true);
    m_negative->setData(nk, nv, true);
    m_plot->yAxis->setTicker(ticker);
    m_plot->yAxis->setRange(-0.6, m_words.size() - 0.4);
    const double pad = 0.06 * std::max(hi - lo, 1e-12);
    m_plot->xAxis->setRange(lo < 0 ? lo - pad : -pad, hi > 0 ? hi + pad : pad);
    // About one weight label per 60 px of axis: narrow charts (two learners side by side at
    // 1200 px) otherwise run their tick labels into each other ("-0.75-0.5-0.25").
    const int axisWidth = m_plot->axisRect()->width() > 0 ? m_plot->axisRect()->width() : m_plot->width() / 2;
    m_plot->xAxis->ticker()->setTickCount(std::clamp(axisWidth / 60, 2, 6));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TopWordsChart::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    if (!m_shownKey.isEmpty()) redraw();
}

void TopWordsChart::clear() {
    m_shownKey.clear();
    m_top = {};
    m_rows = -1;
    m_words.clear();
    m_weights.clear();
    m_documents.clear();
    m_positive->data()->clear();
    m_negative->data()->clear();
    m_title->setText(QString());
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QColor TopWordsChart::barColour(int row) const {
    if (row < 0 || row >= m_weights.size()) return {};
    return (m_weights[row] > 0 ? m_positive : m_negative)->brush().color();
}

QString TopWordsChart::title() const { return m_title->text(); }

bool TopWordsChart::save(const QString& path, QString* error) {
    if (isEmpty()) {
        if (error) *error = tr("no top words to save");
        return false;
    }
    return exportPlot(m_plot, path, 0, 0, title().section('\n', 0, 0), error);
}

QSize TopWordsChart::sizeHint() const {
    // Room for every word; the splitter above the chart decides how much of it is given.
    const int words = std::max<int>(6, static_cast<int>(m_top.positive.size() + m_top.negative.size()));
    return {320, words * rowHeight() + overheadHeight()};
}

// The title, kMinRows bars and the weight axis with its label: below that the axis was cut off.
QSize TopWordsChart::minimumSizeHint() const { return {200, kMinRows * rowHeight() + overheadHeight()}; }

}  // namespace fdlab::ui
