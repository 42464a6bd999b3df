#include "ui/plots/own_input_verdicts.h"

#include "core/eval/message_view.h"

#include "core/teach/deletion_game.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace fdlab::ui {

OwnInputVerdicts::OwnInputVerdicts(const QString& useText, const QString& useToolTip, const QString& prefix,
                                   QWidget* parent)
    : QWidget(parent) {
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    for (int k = 0; k < 2; ++k) {
        m_verdict[k] = new QLabel(this);
        m_verdict[k]->setObjectName(prefix + (k == 0 ? "VerdictA" : "VerdictB"));
        m_verdict[k]->setTextFormat(Qt::RichText);
        m_verdict[k]->setWordWrap(true);
        m_verdict[k]->setFrameShape(QFrame::StyledPanel);
        m_verdict[k]->setMargin(4);
        box->addWidget(m_verdict[k]);
    }
    auto* meant = new QHBoxLayout;
    meant->addWidget(new QLabel(tr("It is meant to be:"), this));
    m_class = new QComboBox(this);
    m_class->setObjectName(prefix + "MeantClass");
    m_class->setPlaceholderText(tr("(choose)"));
    meant->addWidget(m_class, 1);
    box->addLayout(meant);
    m_use = new QPushButton(useText, this);
    m_use->setObjectName(prefix + "Use");
    m_use->setToolTip(useToolTip);
    m_useToolTip = useToolTip;
    box->addWidget(m_use);
    connect(m_class, &QComboBox::currentIndexChanged, this, &OwnInputVerdicts::intendedClassChanged);
    connect(m_use, &QPushButton::clicked, this, &OwnInputVerdicts::useRequested);
}

void OwnInputVerdicts::setContext(HeatmapContextPtr ctx, int a, int b) {
    m_ctx = std::move(ctx);
    m_learner[0] = a;
    m_learner[1] = b;
    m_verdict[1]->setVisible(a != b);   // one learner (or A = B): its verdict once
    const QSignalBlocker block(m_class);
    m_class->clear();
    if (m_ctx)
        for (const std::string& c : m_ctx->test->classNames) m_class->addItem(QString::fromStdString(c));
}

int OwnInputVerdicts::intendedClass() const { return m_class->currentIndex(); }
void OwnInputVerdicts::setIntendedClass(int k) { m_class->setCurrentIndex(k); }
void OwnInputVerdicts::forgetIntendedClass() { m_class->setCurrentIndex(-1); }

void OwnInputVerdicts::classify(const RowView& x, bool usable) {
    if (!m_ctx || m_ctx->models.empty()) return;
    const Dataset& d = *m_ctx->test;
    const int meant = intendedClass();
    for (int k = 0; k < 2; ++k) {
        const auto& [name, model] = m_ctx->models[static_cast<std::size_t>(m_learner[k])];
        const PlayScore s = scoreWithDeletions(model, x, std::max(0, meant), {});
        const bool binary = s.scores.size() == 1;
        // At score 0 predict() names class 0, but a tie is what it is (and counts as an error).
        // A multi-class margin is the meant class's lead: without a meant class, none is shown.
        const QString cls = QString::fromStdString(
            meant >= 0 || binary ? predictionName(d.classNames, s.predicted, std::max(0, meant), s.margin)
                                 : d.classNames[static_cast<std::size_t>(s.predicted)]);
        const QString detail = binary ? tr(" (score %1)").arg(s.scores[0], 0, 'f', 3)
                               : meant >= 0 ? tr(" (margin %1)").arg(s.margin, 0, 'f', 3) : QString();
        m_verdict[k]->setText(tr("<b>%1</b> reads it as <b style='font-size:large'>%2</b>%3")
                                  .arg(QString::fromStdString(name).toHtmlEscaped(), cls.toHtmlEscaped(), detail));
    }
    m_use->setEnabled(usable && meant >= 0);
    m_use->setToolTip(meant >= 0 ? m_useToolTip : tr("First choose the class it is meant to be."));
}

}  // namespace fdlab::ui
