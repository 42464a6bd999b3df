#pragma once
// The spammer's view: one message of a text test set as the reader sees it, for two learners
// side by side (the Heatmaps tab's A and B). Each side has a header (score before -> after,
// predicted classes, words deleted), a labelled legend of the diverging colour scale, the
// message as rich text -- every word tinted by its contribution y*w_j*x_j (blue: against the
// true class, red: for it), the words the attack deleted struck through in red -- and the
// model's top words by weight. Long messages scroll; the two sides scroll together.
//
// The spans and the body's HTML come from core (core/eval/message_view.h), computed on the
// Heatmaps tab's worker thread (ui/workers/attack_worker.h); this widget only shows them.
// The context menu of either side saves both as one standalone HTML file, written atomically.

#include "core/eval/message_view.h"

#include <QWidget>

#include <memory>

class QLabel;
class QTextBrowser;

namespace fdlab::ui {

class MessageViewWidget : public QWidget {
    Q_OBJECT
public:
    explicit MessageViewWidget(QWidget* parent = nullptr);

    /// Side `which` (0 = A, 1 = B): the message, how to label it, its body (messageBodyHtml of
    /// the view with `options`, or empty to build it here) and the model's top words.
    void setMessage(int which, std::shared_ptr<const MessageView> view, const MessageHtmlOptions& options,
                    const QString& bodyHtml = {}, const TopWords& topWords = {});
    /// Side `which` shows an error instead of a message.
    void setError(int which, const QString& learner, const QString& message);
    void clear();

    /// The message on side `which` (null when none).
    const MessageView* view(int which) const { return m_views[side(which)].get(); }
    QTextBrowser* browser(int which) const { return m_browser[side(which)]; }
    QLabel* header(int which) const { return m_header[side(which)]; }
    QLabel* legend(int which) const { return m_legend[side(which)]; }
    QLabel* topWordsLabel(int which) const { return m_top[side(which)]; }

    /// Both sides as one standalone HTML document (empty when no message is shown).
    QString html() const;
    /// Writes html() to `path` atomically; false with *error set on failure.
    bool saveHtml(const QString& path, QString* error = nullptr) const;

signals:
    /// Side `which` shows a new message or level.
    void messageShown(int which);

private:
    static int side(int which) { return which == 0 ? 0 : 1; }
    void showContextMenu(int which, const QPoint& pos);
    void syncScroll(int from);

    std::shared_ptr<const MessageView> m_views[2];
    MessageHtmlOptions m_options[2];
    QLabel* m_header[2] = {nullptr, nullptr};
    QLabel* m_legend[2] = {nullptr, nullptr};
    QTextBrowser* m_browser[2] = {nullptr, nullptr};
    QLabel* m_top[2] = {nullptr, nullptr};
    bool m_syncing = false;
};

}  // namespace fdlab::ui
