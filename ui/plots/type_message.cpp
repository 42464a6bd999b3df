#include "ui/plots/type_message.h"

#include "core/teach/deletion_game.h"
#include "ui/plots/draw_canvas.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

namespace fdlab::ui {

namespace {

constexpr int kMaxTypedChars = 100000;   // a pasted message longer than this is cut (and said so)

}  // namespace

TypeMessage::TypeMessage(QWidget* parent) : QWidget(parent) {
    auto* outer = new QHBoxLayout(this);
    m_text = new QPlainTextEdit(this);
    m_text->setObjectName("typeMessageText");
    m_text->setPlaceholderText(tr("Type or paste a message here, e.g. \"Dear friend, claim your free prize now\""));
    outer->addWidget(m_text, 3);
    auto* side = new QVBoxLayout;
    auto* intro = new QLabel(tr("<b>Your own input.</b> Type or paste a message. Both learners classify it as you "
                                "type, with the words they were trained on (other words do not count)."),
                             this);
    intro->setWordWrap(true);
    side->addWidget(intro);
    m_words = new QLabel(this);
    m_words->setObjectName("typeMessageWords");
    m_words->setWordWrap(true);
    side->addWidget(m_words);
    for (int k = 0; k < 2; ++k) {
        m_verdict[k] = new QLabel(this);
        m_verdict[k]->setObjectName(k == 0 ? "typeVerdictA" : "typeVerdictB");
        m_verdict[k]->setTextFormat(Qt::RichText);
        m_verdict[k]->setWordWrap(true);
        m_verdict[k]->setFrameShape(QFrame::StyledPanel);
        m_verdict[k]->setMargin(4);
        side->addWidget(m_verdict[k]);
    }
    auto* use = new QHBoxLayout;
    use->addWidget(new QLabel(tr("It is meant to be:"), this));
    m_class = new QComboBox(this);
    use->addWidget(m_class, 1);
    side->addLayout(use);
    m_use = new QPushButton(tr("Attack it: use as a test message"), this);
    m_use->setObjectName("typeMessageUse");
    m_use->setToolTip(tr("Adds the message to the test messages of the Heatmaps tab, with the class chosen above as "
                         "its true class, and opens it there"));
    side->addWidget(m_use);
    side->addStretch(1);
    outer->addLayout(side, 2);

    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(150);
    connect(m_text, &QPlainTextEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_debounce, &QTimer::timeout, this, &TypeMessage::classify);
    connect(m_class, &QComboBox::currentIndexChanged, this, &TypeMessage::classify);
    connect(m_use, &QPushButton::clicked, this, [this] {
        if (!m_ctx) return;
        try {
            emit useMessage(typedDocumentRow(*m_ctx->test, m_text->toPlainText().left(kMaxTypedChars).toStdString()),
                            intendedClass());
        } catch (const std::exception& e) {
            m_words->setText(QString::fromStdString(e.what()));
        }
    });
}

void TypeMessage::setContext(HeatmapContextPtr ctx, int a, int b) {
    m_ctx = std::move(ctx);
    m_learner[0] = a;
    m_learner[1] = b;
    m_class->clear();
    if (!m_ctx) return;
    for (const std::string& c : m_ctx->test->classNames) m_class->addItem(QString::fromStdString(c));
    classify();
}

int TypeMessage::intendedClass() const { return std::max(0, m_class->currentIndex()); }
void TypeMessage::setIntendedClass(int k) { m_class->setCurrentIndex(k); }

void TypeMessage::classify() {
    m_debounce->stop();
    if (!m_ctx || m_ctx->models.empty()) return;
    const Dataset& d = *m_ctx->test;
    const QString text = m_text->toPlainText();
    TypedDocument typed;
    try {
        typed = typedDocumentRow(d, text.left(kMaxTypedChars).toStdString());
    } catch (const std::exception& e) {
        m_words->setText(QString::fromStdString(e.what()));
        m_use->setEnabled(false);
        return;
    }
    QString words = tr("%1 of its words are in the vocabulary, %2 are not (they do not count).")
                        .arg(typed.columns.size()).arg(typed.unseenWords);
    if (text.size() > kMaxTypedChars) words += tr(" Only its first %1 characters are read.").arg(kMaxTypedChars);
    m_words->setText(words);
    for (int k = 0; k < 2; ++k) {
        const auto& [name, model] = m_ctx->models[static_cast<std::size_t>(m_learner[k])];
        const PlayScore s = scoreWithDeletions(model, typed.row(d.features()), intendedClass(), {});
        m_verdict[k]->setText(ownInputVerdict(name, s, d));
    }
    m_use->setEnabled(!typed.columns.empty());
}

}  // namespace fdlab::ui
