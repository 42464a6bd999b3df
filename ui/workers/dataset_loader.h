#pragma once
// Loads a dataset (bundled name or file) on a worker thread, so the window never freezes.
// A worker QObject lives on its own QThread (Qt's worker pattern); results come back over
// queued connections. The destructor quits and waits for the thread.
//
// It also previews text corpora for the "Open text corpus" dialog (documents per class and the
// vocabulary size for the chosen options). The last corpus read is kept, so changing only the
// weighting or the minimum document frequency refits the vocabulary without reading the files.

#include "core/data/dataset.h"
#include "core/data/loaders.h"

#include <QObject>
#include <QString>
#include <QThread>

#include <memory>

namespace fdlab::ui {

using DatasetPtr = std::shared_ptr<const Dataset>;

class DatasetLoadWorker : public QObject {
    Q_OBJECT
public:
    /// source: "bundled:NAME" or a file path. format is the summary's format label.
    void load(const QString& source, const fdlab::LoadOptions& options);
    void preview(quint64 id, const QString& path, const fdlab::LoadOptions& options);
signals:
    void previewed(quint64 id, const fdlab::TextCorpusPreview& preview, const QString& error);
    void loaded(const QString& source, fdlab::ui::DatasetPtr data, const QString& format);
    void failed(const QString& source, const QString& message);

private:
    QString m_corpusKey;   // path and reading options of m_corpus
    std::shared_ptr<const fdlab::TextCorpus> m_corpus;
};

class DatasetLoader : public QObject {
    Q_OBJECT
public:
    explicit DatasetLoader(QObject* parent = nullptr);
    ~DatasetLoader() override;

    void request(const QString& source, const fdlab::LoadOptions& options = {});
    /// Previews the text corpus at `path`; previewReady(id, ...) answers.
    void requestPreview(quint64 id, const QString& path, const fdlab::LoadOptions& options);
signals:
    void previewReady(quint64 id, const fdlab::TextCorpusPreview& preview, const QString& error);
    void previewRequested(quint64 id, const QString& path, const fdlab::LoadOptions& options);   // internal
    void loaded(const QString& source, fdlab::ui::DatasetPtr data, const QString& format);
    void failed(const QString& source, const QString& message);
    void requested(const QString& source, const fdlab::LoadOptions& options);   // internal: to the worker thread

private:
    QThread m_thread;
    DatasetLoadWorker* m_worker = nullptr;
};

}  // namespace fdlab::ui

Q_DECLARE_METATYPE(fdlab::ui::DatasetPtr)
Q_DECLARE_METATYPE(fdlab::LoadOptions)
Q_DECLARE_METATYPE(fdlab::TextCorpusPreview)
