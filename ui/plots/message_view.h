#pragma once
// The spammer's view: one message of a text test set as the reader sees it, for two learners
// side by side (the Heatmaps tab's A and B). Each side has a header (score before -> after,
// predicted classes, words deleted), a labelled legend of the diverging colour scale, the
// message as rich text -- every word tinted by its contribution y*w_j*x_j (blue: against the
// true class, red: for it), the words the attack deleted struck through in red -- and the
// model's top words by weight as a sorted bar chart (ui/plots/top_words_chart.h), below the
// text behind a splitter handle. Long messages scroll; the two sides scroll together.
//
// The spans and the body's HTML come from core (core/eval/message_view.h), computed on the
// Heatmaps tab's worker thread (ui/workers/attack_worker.h); this widget only shows them.
// The context menu of either side and the Export button save both as one standalone HTML file,
// or the view as PNG/PDF/SVG, or one side's top words as PNG/PDF/SVG; all written atomically.
//
// "Find a word" looks a word up (core's findWordInMessage): its weight for each learner, its
// value in the message, whether the attack deleted it, and its occurrences highlighted (yellow)
// in both texts.

#include "core/eval/message_view.h"

#include <QWidget>

#include <memory>
#include <string>
#include <vector>

class QLabel;
class QLineEdit;
class QMenu;
class QHBoxLayout;
class QSplitter;
class QTextBrowser;
class QToolButton;

namespace fdlab::ui {

class TopWordsChart;

class MessageViewWidget : public QWidget {
    Q_OBJECT
public:
    explicit MessageViewWidget(QWidget* parent = nullptr);

    /// Side `which` (0 = A, 1 = B): the message, how to label it, its body (messageBodyHtml of
    /// the view with `options`, or empty to build it here) and the model's top words.
    void setMessage(int which, std::shared_ptr<const MessageView> view, const MessageHtmlOptions& options,
                    const QString& bodyHtml = {}, const TopWords& topWords = {});
    /// What "find a word" needs for side `which`: the model's attack direction w (one weight per
    /// word; empty for non-linear models) and the clean message x.
    void setWordData(int which, std::vector<double> w, std::vector<double> x);
    /// The vocabulary (the test set's feature names) shared by both sides.
    void setVocabulary(std::shared_ptr<const std::vector<std::string>> words);
    /// Side `which` shows an error instead of a message.
    void setError(int which, const QString& learner, const QString& message);
    void clear();
    /// Sides shown: 2 (A and B), or 1 (a run of one learner: side B repeated A).
    void setSides(int sides);

    /// The message on side `which` (null when none).
    const MessageView* view(int which) const { return m_views[side(which)].get(); }
    QTextBrowser* browser(int which) const { return m_browser[side(which)]; }
    QLabel* header(int which) const { return m_header[side(which)]; }
    QLabel* legend(int which) const { return m_legend[side(which)]; }
    TopWordsChart* topWordsChart(int which) const { return m_top[side(which)]; }

    /// Looks `word` up and highlights it (empty: clears); the result shows in wordLabel().
    void findWord(const QString& word);
    /// The last lookup for side `which`.
    const WordInMessage& foundWord(int which) const { return m_found[side(which)]; }
    /// Characters [start, end) of browser(which)'s document highlighted by the last lookup.
    std::vector<std::pair<int, int>> highlighted(int which) const;
    QLineEdit* findEdit() const { return m_find; }
    QLabel* wordLabel() const { return m_word; }

    /// Saves this widget (both sides, as on screen) as PNG, PDF or SVG by the path's suffix.
    bool saveImage(const QString& path, QString* error = nullptr);
    /// Saves side `which`'s top words as PNG, PDF or SVG.
    bool saveTopWords(int which, const QString& path, QString* error = nullptr);

    /// Both sides as one standalone HTML document (empty when no message is shown).
    QString html() const;
    /// Writes html() to `path` atomically; false with *error set on failure.
    bool saveHtml(const QString& path, QString* error = nullptr) const;

signals:
    /// Side `which` shows a new message or level.
    void messageShown(int which);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    static int side(int which) { return which == 0 ? 0 : 1; }
    void showContextMenu(int which, const QPoint& pos);
    void addExportActions(QMenu* menu);
    void highlight(int which);
    QString fileStem() const;
    void syncScroll(int from);
    void syncSplit(int from);
    /// The splitter of side k keeps a few lines of text and the chart with its axis.
    void updateSplitMinimum(int k);
    /// Gives the text m_textShare of side k's splitter, the chart the rest.
    void applyTextShare(int k);

    std::shared_ptr<const MessageView> m_views[2];
    MessageHtmlOptions m_options[2];
    QLabel* m_header[2] = {nullptr, nullptr};
    QLabel* m_legend[2] = {nullptr, nullptr};
    QTextBrowser* m_browser[2] = {nullptr, nullptr};
    TopWordsChart* m_top[2] = {nullptr, nullptr};
    QSplitter* m_split[2] = {nullptr, nullptr};
    QHBoxLayout* m_sides = nullptr;   ///< the two sides' columns
    int m_sideCount = 2;              ///< setSides
    bool m_syncing = false;
    double m_textShare = 0.6;   // of each splitter, for the text (the handle moves it)

    QLineEdit* m_find = nullptr;
    QLabel* m_word = nullptr;
    QToolButton* m_export = nullptr;
    std::shared_ptr<const std::vector<std::string>> m_words;
    std::vector<double> m_w[2], m_x[2];
    WordInMessage m_found[2];
};

}  // namespace fdlab::ui
