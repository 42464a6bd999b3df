#include "ui/plots/type_message.h"

#include "ui/plots/own_input_verdicts.h"

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
    auto* intro = new QLabel(tr("<b>Your own input.</b> Type or paste a message. It is classified as you type, with "
                                "the words the learners were trained on (other words do not count)."),
                             this);
    intro->setWordWrap(true);
    side->addWidget(intro);
    m_words = new QLabel(this);
    m_words->setObjectName("typeMessageWords");
    m_words->setWordWrap(true);
    side->addWidget(m_words);
    m_verdicts = new OwnInputVerdicts(tr("Attack it: use as a test message"),
                                      tr("Adds the message to the test messages of the Heatmaps tab, with the class "
                                         "chosen above as its true class, and opens it there"),
                                      "typeMessage", this);
    side->addWidget(m_verdicts);
    side->addStretch(1);
    outer->addLayout(side, 2);

    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(150);
    connect(m_text, &QPlainTextEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_debounce, &QTimer::timeout, this, &TypeMessage::classify);
    connect(m_verdicts, &OwnInputVerdicts::intendedClassChanged, this, &TypeMessage::classify);
    connect(m_verdicts, &OwnInputVerdicts::useRequested, this, [this] {
        if (!m_ctx) return;
        try {
            emit useMessage(typedRow(), intendedClass());
        } catch (const std::exception& e) {
            m_words->setText(QString::fromStdString(e.what()));
        }
    });
}

TypedDocument TypeMessage::typedRow() const {
    TypedDocument typed = typedDocumentRow(*m_ctx->test, m_text->toPlainText().left(kMaxTypedChars).toStdString());
    // What the learners were trained on: the run's preprocessing (e.g. unit-norm) on the row.
    if (m_ctx->preprocessor) m_ctx->preprocessor->applySparse(typed.columns, typed.values, m_ctx->test->features());
    return typed;
}

void TypeMessage::setContext(HeatmapContextPtr ctx, int a, int b) {
    m_ctx = ctx;
    m_verdicts->setContext(std::move(ctx), a, b);
    classify();
}

QLabel* TypeMessage::verdict(int which) const { return m_verdicts->verdict(which); }
int TypeMessage::intendedClass() const { return m_verdicts->intendedClass(); }
void TypeMessage::setIntendedClass(int k) { m_verdicts->setIntendedClass(k); }

void TypeMessage::classify() {
    m_debounce->stop();
    if (!m_ctx) return;
    const Dataset& d = *m_ctx->test;
    const QString text = m_text->toPlainText();
    // The message was erased: the next one's class is asked again (a class chosen before typing stays).
    const bool empty = text.trimmed().isEmpty();
    if (empty && m_hadText) m_verdicts->forgetIntendedClass();
    m_hadText = !empty;
    TypedDocument typed;
    try {
        typed = typedRow();
    } catch (const std::exception& e) {
        m_words->setText(QString::fromStdString(e.what()));
        m_verdicts->useButton()->setEnabled(false);
        return;
    }
    const auto known = typed.columns.size();
    QString words = tr("%1 of its words %2 in the vocabulary, %3 %4 not (%5 not count).")
                        .arg(known)
                        .arg(known == 1 ? tr("is") : tr("are"))
                        .arg(typed.unseenWords)
                        .arg(typed.unseenWords == 1 ? tr("is") : tr("are"))
                        .arg(typed.unseenWords == 1 ? tr("it does") : tr("they do"));
    if (text.size() > kMaxTypedChars) words += tr(" Only its first %1 characters are read.").arg(kMaxTypedChars);
    m_words->setText(words);
    m_verdicts->classify(typed.row(d.features()), !typed.columns.empty());
}

}  // namespace fdlab::ui
