#pragma once
// "Your own input" for text data: the student types or pastes a message and both learners
// classify it as it is typed (its row is the corpus's: core's typedDocumentRow, the vocabulary
// and weighting the learners were trained with; core's scoreWithDeletions with nothing deleted).
// "Attack it" hands the message to the Heatmaps tab, where the attack, the message view and
// play-the-adversary work on it like on any test message.

#include "core/data/text_dataset.h"
#include "ui/workers/attack_worker.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QTimer;

namespace fdlab::ui {

class OwnInputVerdicts;

class TypeMessage : public QWidget {
    Q_OBJECT
public:
    explicit TypeMessage(QWidget* parent = nullptr);
    /// The models to classify with and the corpus (the context's test set).
    void setContext(HeatmapContextPtr ctx, int a, int b);
    QPlainTextEdit* editor() const { return m_text; }
    QLabel* verdict(int which) const;
    QLabel* words() const { return m_words; }
    /// The class the message is meant to be (its true label for the attack).
    int intendedClass() const;
    void setIntendedClass(int k);
    /// Classifies the text now (typing does it after a short pause).
    void classify();

signals:
    /// "Attack it": the message as a row of the corpus, and its intended class.
    void useMessage(const fdlab::TypedDocument& message, int label);

private:
    /// The text as a row of the corpus, preprocessed as the run's rows were.
    fdlab::TypedDocument typedRow() const;
    HeatmapContextPtr m_ctx;
    QPlainTextEdit* m_text = nullptr;
    QLabel* m_words = nullptr;
    OwnInputVerdicts* m_verdicts = nullptr;
    QTimer* m_debounce = nullptr;
    bool m_hadText = false;   ///< the last classify() saw a message (erasing it forgets the meant class)
};

}  // namespace fdlab::ui
