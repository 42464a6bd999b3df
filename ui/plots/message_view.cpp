#include "ui/plots/message_view.h"

#include "core/util/atomic_file.h"

#include <QAction>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <cmath>

namespace fdlab::ui {

namespace {

QString topWordsHtml(const TopWords& top, const MessageHtmlOptions& o) {
    if (top.positive.empty() && top.negative.empty()) return {};
    const QString pos = o.classNames.size() == 2 ? QString::fromStdString(o.classNames[1]).toHtmlEscaped() : QStringLiteral("+");
    const QString neg = o.classNames.size() == 2 ? QString::fromStdString(o.classNames[0]).toHtmlEscaped() : QStringLiteral("-");
    auto list = [](const std::vector<WordWeight>& ws, int atExtreme) {
        QStringList parts;
        QString prefix;
        if (atExtreme > static_cast<int>(ws.size()))
            prefix = MessageViewWidget::tr("<i>%1 words share w = %2, e.g.</i> ").arg(atExtreme).arg(ws.front().weight, 0, 'f', 2);
        for (const WordWeight& w : ws)
            parts << QStringLiteral("%1&nbsp;<span style='color:#666'>%2</span>")
                         .arg(QString::fromStdString(w.word).toHtmlEscaped())
                         .arg(w.weight, 0, 'f', 2);
        return prefix + parts.join(QStringLiteral(", "));
    };
    return MessageViewWidget::tr("<b>Top %1 words</b> (w &gt; 0): %2<br><b>Top %3 words</b> (w &lt; 0): %4")
        .arg(pos, list(top.positive, top.positiveAtTop), neg, list(top.negative, top.negativeAtBottom));
}

}  // namespace

MessageViewWidget::MessageViewWidget(QWidget* parent) : QWidget(parent) {
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(8);
    for (int k = 0; k < 2; ++k) {
        auto* col = new QVBoxLayout;
        col->setSpacing(3);
        m_header[k] = new QLabel(this);
        m_header[k]->setObjectName(k == 0 ? "messageHeaderA" : "messageHeaderB");
        m_header[k]->setTextFormat(Qt::RichText);
        m_header[k]->setWordWrap(true);
        m_legend[k] = new QLabel(this);
        m_legend[k]->setTextFormat(Qt::RichText);
        m_legend[k]->setWordWrap(true);
        m_browser[k] = new QTextBrowser(this);
        m_browser[k]->setObjectName(k == 0 ? "messageA" : "messageB");
        m_browser[k]->setOpenLinks(false);   // the message's text is never markup, but be safe
        m_browser[k]->setContextMenuPolicy(Qt::CustomContextMenu);
        m_browser[k]->setToolTip(tr("Right-click: Save as HTML..."));
        m_top[k] = new QLabel(this);
        m_top[k]->setTextFormat(Qt::RichText);
        m_top[k]->setWordWrap(true);
        QFont small = font();
        small.setPointSizeF(small.pointSizeF() * 0.9);
        m_legend[k]->setFont(small);
        m_top[k]->setFont(small);
        col->addWidget(m_header[k]);
        col->addWidget(m_legend[k]);
        col->addWidget(m_browser[k], 1);
        col->addWidget(m_top[k]);
        row->addLayout(col, 1);
        connect(m_browser[k], &QWidget::customContextMenuRequested, this, [this, k](const QPoint& p) { showContextMenu(k, p); });
        connect(m_browser[k]->verticalScrollBar(), &QScrollBar::valueChanged, this, [this, k] { syncScroll(k); });
    }
}

void MessageViewWidget::setMessage(int which, std::shared_ptr<const MessageView> view, const MessageHtmlOptions& options,
                                   const QString& bodyHtml, const TopWords& topWords) {
    const int k = side(which);
    if (!view) {
        setError(which, QString::fromStdString(options.learner), tr("no message"));
        return;
    }
    // The same message at another budget keeps its scroll position (Play, the slider).
    const bool sameText = m_views[k] && m_views[k]->instance == view->instance && m_views[k]->text == view->text;
    const int scroll = m_browser[k]->verticalScrollBar()->value();
    m_views[k] = std::move(view);
    m_options[k] = options;
    m_header[k]->setText(QString::fromStdString(messageHeaderHtml(*m_views[k], options)));
    m_legend[k]->setText(QString::fromStdString(messageLegendHtml(*m_views[k], options)));
    m_syncing = true;   // setHtml scrolls to the top; do not drag the other side along
    m_browser[k]->setHtml(!bodyHtml.isEmpty() && options.scale <= 0 ? bodyHtml
                                                                     : QString::fromStdString(messageBodyHtml(*m_views[k], options)));
    if (sameText) m_browser[k]->verticalScrollBar()->setValue(scroll);
    m_syncing = false;
    const QString top = topWordsHtml(topWords, options);
    m_top[k]->setText(top);
    m_top[k]->setVisible(!top.isEmpty());
    emit messageShown(k);
}

void MessageViewWidget::setError(int which, const QString& learner, const QString& message) {
    const int k = side(which);
    m_views[k].reset();
    m_header[k]->setText(QStringLiteral("<b>%1</b>: <span style='color:#b00'>%2</span>")
                             .arg(learner.toHtmlEscaped(), message.toHtmlEscaped()));
    m_legend[k]->clear();
    m_browser[k]->clear();
    m_top[k]->clear();
    m_top[k]->setVisible(false);
}

void MessageViewWidget::clear() {
    for (int k = 0; k < 2; ++k) {
        m_views[k].reset();
        m_header[k]->clear();
        m_legend[k]->clear();
        m_browser[k]->clear();
        m_top[k]->clear();
    }
}

void MessageViewWidget::syncScroll(int from) {
    if (m_syncing) return;
    const QScrollBar* src = m_browser[from]->verticalScrollBar();
    QScrollBar* dst = m_browser[1 - from]->verticalScrollBar();
    if (src->maximum() <= 0 || dst->maximum() <= 0) return;
    m_syncing = true;
    dst->setValue(static_cast<int>(std::lround(static_cast<double>(src->value()) / src->maximum() * dst->maximum())));
    m_syncing = false;
}

QString MessageViewWidget::html() const {
    std::vector<MessageView> views;
    std::vector<MessageHtmlOptions> options;
    for (int k = 0; k < 2; ++k)
        if (m_views[k]) {
            views.push_back(*m_views[k]);
            options.push_back(m_options[k]);
        }
    if (views.empty()) return {};
    const MessageView& v = views.front();
    const auto& names = options.front().classNames;
    const std::string cls = v.label >= 0 && static_cast<std::size_t>(v.label) < names.size() ? names[static_cast<std::size_t>(v.label)] : "?";
    const std::string title = "Message " + v.id + " (test instance #" + std::to_string(v.instance) + ", class " + cls + ")";
    return QString::fromStdString(messageHtmlDocument(views, options, title));
}

bool MessageViewWidget::saveHtml(const QString& path, QString* error) const {
    const QString doc = html();
    if (doc.isEmpty()) {
        if (error) *error = tr("no message to save");
        return false;
    }
    try {
        writeFileAtomically(path.toStdString(), doc.toStdString());
    } catch (const std::exception& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
    return true;
}

void MessageViewWidget::showContextMenu(int which, const QPoint& pos) {
    QMenu* menu = m_browser[which]->createStandardContextMenu(pos);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->addSeparator();
    QAction* save = menu->addAction(tr("Save as HTML..."));
    save->setEnabled(m_views[0] || m_views[1]);
    connect(save, &QAction::triggered, this, [this] {
        const MessageView* v = m_views[0] ? m_views[0].get() : m_views[1].get();
        if (!v) return;
        QString stem = QString::fromStdString(v->id);
        stem.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("_"));
        const QString path = QFileDialog::getSaveFileName(this, tr("Save message as HTML"), QStringLiteral("message-%1.html").arg(stem),
                                                          tr("HTML (*.html *.htm)"));
        if (path.isEmpty()) return;
        QString error;
        if (!saveHtml(path, &error)) QMessageBox::warning(this, tr("Could not save the message"), error);
    });
    menu->popup(m_browser[which]->viewport()->mapToGlobal(pos));
}

}  // namespace fdlab::ui
