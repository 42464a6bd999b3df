#include "ui/plots/message_view.h"

#include "core/util/atomic_file.h"
#include "ui/plots/top_words_chart.h"
#include "ui/plots/widget_export.h"

#include <QAction>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QTextCursor>
#include <QToolButton>
#include <QMenu>
#include <QMessageBox>
#include <QRegularExpression>
#include <QScrollBar>
#include <QEvent>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <cmath>

namespace fdlab::ui {

namespace {

// A looked-up word as the label shows it: long words (a pasted line, a 5,000-character token)
// are cut, since a word does not wrap and would widen the whole tab.
QString shownWord(const QString& word) {
    constexpr int kMost = 40;
    return word.size() <= kMost ? word : word.left(kMost) + QChar(0x2026) + QObject::tr(" (%1 characters)").arg(word.size());
}

}  // namespace

MessageViewWidget::MessageViewWidget(QWidget* parent) : QWidget(parent) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(3);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Find a word:"), this));
    m_find = new QLineEdit(this);
    m_find->setObjectName("messageFind");
    m_find->setPlaceholderText(tr("e.g. money"));
    m_find->setClearButtonEnabled(true);
    m_find->setMinimumWidth(140);
    m_find->setMaximumWidth(220);
    m_find->setToolTip(tr("Its weight for each learner, its value in this message, its occurrences highlighted"));
    bar->addWidget(m_find);
    m_word = new QLabel(this);
    m_word->setObjectName("messageWord");
    m_word->setTextFormat(Qt::RichText);
    m_word->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_word->setWordWrap(true);   // on its own line below: two learners' numbers do not fit beside the field
    m_word->setVisible(false);
    bar->addStretch(1);
    m_export = new QToolButton(this);
    m_export->setText(tr("Export"));
    m_export->setPopupMode(QToolButton::InstantPopup);
    auto* exportMenu = new QMenu(m_export);
    connect(exportMenu, &QMenu::aboutToShow, this, [this, exportMenu] {
        exportMenu->clear();
        addExportActions(exportMenu);
    });
    m_export->setMenu(exportMenu);
    bar->addWidget(m_export);
    outer->addLayout(bar);
    outer->addWidget(m_word);
    connect(m_find, &QLineEdit::textChanged, this, &MessageViewWidget::findWord);

    auto* row = m_sides = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(8);
    outer->addLayout(row, 1);
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
        m_top[k] = new TopWordsChart(this);
        m_top[k]->setObjectName(k == 0 ? "topWordsA" : "topWordsB");
        QFont small = font();
        small.setPointSizeF(small.pointSizeF() * 0.9);
        m_legend[k]->setFont(small);
        // The text above the chart; the handle between them trades one for the other.
        m_split[k] = new QSplitter(Qt::Vertical, this);
        m_split[k]->setChildrenCollapsible(false);
        m_split[k]->addWidget(m_browser[k]);
        m_split[k]->addWidget(m_top[k]);
        m_split[k]->setStretchFactor(0, 1);
        m_split[k]->setStretchFactor(1, 0);
        // The view sits in a scroll area that sizes it to its preferred height for the width
        // (the word-wrapped labels make it height-for-width), and the chart prefers room for
        // every word: at 800 px the view grew past the screen and the chart's weight axis was
        // cut off. Ignored: the splitter takes what is left, down to its explicit minimum
        // (a few lines of text and the chart's minimum, set in updateSplitMinimum).
        m_split[k]->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Ignored);
        col->addWidget(m_header[k]);
        col->addWidget(m_legend[k]);
        col->addWidget(m_split[k], 1);
        row->addLayout(col, 1);
        updateSplitMinimum(k);
        m_split[k]->installEventFilter(this);
        connect(m_split[k], &QSplitter::splitterMoved, this, [this, k] { syncSplit(k); });
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
    const bool two = options.classNames.size() == 2;
    m_top[k]->setTopWords(topWords, QString::fromStdString(options.learner),
                          two ? QString::fromStdString(options.classNames[1]) : QStringLiteral("+"),
                          two ? QString::fromStdString(options.classNames[0]) : QStringLiteral("-"));
    if (m_top[k]->isHidden() && !m_top[k]->isEmpty()) {
        m_top[k]->setVisible(true);
        applyTextShare(k);
    }
    m_top[k]->setVisible(!m_top[k]->isEmpty());
    updateSplitMinimum(k);
    if (!m_find->text().isEmpty()) findWord(m_find->text());
    emit messageShown(k);
}

void MessageViewWidget::updateSplitMinimum(int k) {
    const int text = 4 * m_browser[k]->fontMetrics().lineSpacing() + 2 * m_browser[k]->frameWidth() + 8;
    const int chart = m_top[k]->isHidden() ? 0 : m_top[k]->minimumSizeHint().height() + m_split[k]->handleWidth();
    m_split[k]->setMinimumHeight(text + chart);
}

void MessageViewWidget::setWordData(int which, std::vector<double> w, std::vector<double> x) {
    m_w[side(which)] = std::move(w);
    m_x[side(which)] = std::move(x);
}

void MessageViewWidget::setVocabulary(std::shared_ptr<const std::vector<std::string>> words) { m_words = std::move(words); }

void MessageViewWidget::findWord(const QString& word) {
    if (m_find->text() != word) m_find->setText(word);   // re-enters through textChanged
    const std::string query = word.toStdString();
    static const std::vector<std::string> none;
    QStringList parts;
    QString name;
    bool known = false;
    for (int k = 0; k < 2; ++k) {
        m_found[k] = {};
        if (m_views[k] && !query.empty()) m_found[k] = findWordInMessage(*m_views[k], query, m_words ? *m_words : none, m_w[k], m_x[k]);
        highlight(k);
        const WordInMessage& f = m_found[k];
        if (!m_views[k] || f.feature < 0) continue;
        known = true;
        name = QString::fromStdString(f.word);
        const QString learner = QString::fromStdString(m_options[k].learner).toHtmlEscaped();
        QString text = f.hasWeight ? tr("<b>%1</b>: w = %2").arg(learner).arg(f.weight, 0, 'f', 3) : tr("<b>%1</b>: no weights").arg(learner);
        if (f.spans.empty())
            text += tr(", not in this message");
        else
            text += f.spans.size() == 1 ? tr(", x = %1, once in the text").arg(f.value, 0, 'g', 4)
                                        : tr(", x = %1, %2 times in the text").arg(f.value, 0, 'g', 4).arg(f.spans.size());
        if (f.deleted) text += tr(", <span style='color:#d00000'>%1</span>").arg(QString::fromStdString(m_options[k].attackVerb).toHtmlEscaped());
        parts << text;
    }
    if (query.empty() || (!m_views[0] && !m_views[1]))
        m_word->clear();
    else if (!known)
        m_word->setText(tr("<i>%1</i> is not in the vocabulary").arg(shownWord(word.trimmed()).toHtmlEscaped()));
    else
        m_word->setText(QStringLiteral("<span style='background:#fff176'>&nbsp;%1&nbsp;</span> %2").arg(shownWord(name).toHtmlEscaped(), parts.join(QStringLiteral("; "))));
    m_word->setVisible(!m_word->text().isEmpty());
}

void MessageViewWidget::highlight(int which) {
    QList<QTextEdit::ExtraSelection> marks;
    for (const auto& [start, end] : highlighted(which)) {
        QTextEdit::ExtraSelection sel;
        sel.cursor = QTextCursor(m_browser[which]->document());
        sel.cursor.setPosition(start);
        sel.cursor.setPosition(end, QTextCursor::KeepAnchor);
        sel.format.setBackground(QColor(0xff, 0xf1, 0x76));
        sel.format.setFontUnderline(true);
        marks << sel;
    }
    m_browser[which]->setExtraSelections(marks);
    if (!marks.isEmpty()) {
        // Scroll to the first occurrence without moving the other side along.
        m_syncing = true;
        QTextCursor c = marks.front().cursor;
        c.clearSelection();
        m_browser[which]->setTextCursor(c);
        m_browser[which]->ensureCursorVisible();
        m_syncing = false;
    }
}

std::vector<std::pair<int, int>> MessageViewWidget::highlighted(int which) const {
    const int k = side(which);
    std::vector<std::pair<int, int>> out;
    if (!m_views[k]) return out;
    // Spans are UTF-8 byte ranges; the document counts UTF-16 code units.
    const std::string& text = m_views[k]->text;
    std::size_t byte = 0;
    qsizetype pos = 0;
    for (int s : m_found[k].spans) {
        const MessageSpan& span = m_views[k]->spans[static_cast<std::size_t>(s)];
        pos += QString::fromUtf8(text.data() + byte, static_cast<qsizetype>(span.offset - byte)).size();
        const auto len = QString::fromUtf8(text.data() + span.offset, span.length).size();
        out.emplace_back(static_cast<int>(pos), static_cast<int>(pos + len));
        pos += len;
        byte = span.offset + span.length;
    }
    return out;
}

QString MessageViewWidget::fileStem() const {
    const MessageView* v = m_views[0] ? m_views[0].get() : m_views[1].get();
    QString stem = v ? QString::fromStdString(v->id) : QStringLiteral("view");
    stem.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("_"));
    return stem;
}

bool MessageViewWidget::saveImage(const QString& path, QString* error) {
    if (!m_views[0] && !m_views[1]) {
        if (error) *error = tr("no message to save");
        return false;
    }
    return exportWidget(this, path, tr("Message %1").arg(fileStem()), error);
}

bool MessageViewWidget::saveTopWords(int which, const QString& path, QString* error) {
    return m_top[side(which)]->save(path, error);
}

void MessageViewWidget::addExportActions(QMenu* menu) {
    const bool any = m_views[0] || m_views[1];
    auto add = [this, menu, any](const QString& label, const QString& suggested, const QString& filter, auto save) {
        QAction* a = menu->addAction(label);
        a->setEnabled(any);
        connect(a, &QAction::triggered, this, [this, label, suggested, filter, save] {
            const QString path = QFileDialog::getSaveFileName(this, label, suggested, filter);
            if (path.isEmpty()) return;
            QString error;
            if (!save(path, &error)) QMessageBox::warning(this, tr("Could not save"), error);
        });
        return a;
    };
    const QString stem = fileStem();
    add(tr("Save as HTML..."), QStringLiteral("message-%1.html").arg(stem), tr("HTML (*.html *.htm)"),
        [this](const QString& p, QString* e) { return saveHtml(p, e); });
    add(tr("Save as image (PNG, PDF, SVG)..."), QStringLiteral("message-%1.png").arg(stem), exportFileFilter(),
        [this](const QString& p, QString* e) { return saveImage(p, e); });
    for (int k = 0; k < 2; ++k) {
        if (m_top[k]->isEmpty()) continue;
        const QString learner = QString::fromStdString(m_options[k].learner);
        QString fileLearner = learner;
        fileLearner.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("_"));
        add(tr("Save top words of %1 (PNG, PDF, SVG)...").arg(learner), QStringLiteral("top-words-%1.png").arg(fileLearner),
            exportFileFilter(), [this, k](const QString& p, QString* e) { return saveTopWords(k, p, e); });
    }
}

void MessageViewWidget::setError(int which, const QString& learner, const QString& message) {
    const int k = side(which);
    m_views[k].reset();
    m_found[k] = {};
    m_browser[k]->setExtraSelections({});
    m_header[k]->setText(QStringLiteral("<b>%1</b>: <span style='color:#b00'>%2</span>")
                             .arg(learner.toHtmlEscaped(), message.toHtmlEscaped()));
    m_legend[k]->clear();
    m_browser[k]->clear();
    m_top[k]->clear();
    m_top[k]->setVisible(false);
    updateSplitMinimum(k);
}

void MessageViewWidget::setSides(int sides) {
    for (QWidget* w : std::initializer_list<QWidget*>{m_header[1], m_legend[1], m_split[1]}) w->setVisible(sides > 1);
    m_sides->setStretch(1, sides > 1 ? 1 : 0);   // the one side takes the width
    m_sideCount = sides > 1 ? 2 : 1;
}

void MessageViewWidget::clear() {
    m_word->clear();
    m_word->setVisible(false);
    for (int k = 0; k < 2; ++k) {
        m_views[k].reset();
        m_found[k] = {};
        m_browser[k]->setExtraSelections({});
        m_header[k]->clear();
        m_legend[k]->clear();
        m_browser[k]->clear();
        m_top[k]->clear();
        updateSplitMinimum(k);
    }
}

bool MessageViewWidget::eventFilter(QObject* watched, QEvent* event) {
    // The splitter's own resize keeps its children's proportions; they are wrong when it was
    // first laid out at its minimum (both children clamped), so the text share is set again
    // at every resize (the geometry is already the new one here).
    if (event->type() == QEvent::Resize)
        for (int k = 0; k < 2; ++k)
            if (watched == m_split[k]) applyTextShare(k);
    return QWidget::eventFilter(watched, event);
}

void MessageViewWidget::applyTextShare(int k) {
    const int total = m_split[k]->height() - m_split[k]->handleWidth();
    if (m_top[k]->isHidden() || total <= 0) return;
    const int text = static_cast<int>(std::lround(m_textShare * total));
    m_split[k]->setSizes({text, total - text});   // clamped to the minimums by the splitter
}

void MessageViewWidget::syncSplit(int from) {
    // Both sides keep the same share for the text, so their lines stay side by side.
    const QList<int> sizes = m_split[from]->sizes();
    if (sizes.size() == 2 && sizes[0] + sizes[1] > 0) m_textShare = double(sizes[0]) / (sizes[0] + sizes[1]);
    if (m_split[1 - from]->sizes() != sizes) m_split[1 - from]->setSizes(sizes);
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
    for (int k = 0; k < m_sideCount; ++k)   // one learner: its side once
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
    return writeBytesAtomically(path, doc.toUtf8(), error);
}

void MessageViewWidget::showContextMenu(int which, const QPoint& pos) {
    QMenu* menu = m_browser[which]->createStandardContextMenu(pos);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->addSeparator();
    addExportActions(menu);
    menu->popup(m_browser[which]->viewport()->mapToGlobal(pos));
}

}  // namespace fdlab::ui
