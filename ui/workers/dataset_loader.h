#pragma once
// Loads a dataset (bundled name or file) on a worker thread, so the window never freezes, and
// previews text corpora for the "Open text corpus" dialog (documents per class and the
// vocabulary size for the chosen options) on another. Both run on JobRunners
// (ui/workers/job_runner.h): a newer load supersedes an older one, a newer preview an older
// preview. The last corpus read for a preview is kept, so changing only the weighting or the
// minimum document frequency refits the vocabulary without reading the files.

#include "core/data/dataset.h"
#include "core/data/loaders.h"

#include <QObject>
#include <QString>

#include <memory>

namespace fdlab::ui {

class JobRunner;

using DatasetPtr = std::shared_ptr<const Dataset>;

class DatasetLoader : public QObject {
    Q_OBJECT
public:
    explicit DatasetLoader(QObject* parent = nullptr);
    ~DatasetLoader() override;

    /// source: "bundled:NAME" or a file path; loaded() or failed() answers.
    void request(const QString& source, const fdlab::LoadOptions& options = {});
    /// Previews the text corpus at `path`; previewReady(id, ...) answers.
    void requestPreview(quint64 id, const QString& path, const fdlab::LoadOptions& options);
signals:
    void previewReady(quint64 id, const fdlab::TextCorpusPreview& preview, const QString& error);
    /// format is the summary's format label.
    void loaded(const QString& source, fdlab::ui::DatasetPtr data, const QString& format);
    void failed(const QString& source, const QString& message);

private:
    /// The corpus read last for a preview, and the path and reading options it was read with.
    /// Only preview jobs touch it, one at a time on the preview thread.
    struct CorpusCache {
        QString key;
        std::shared_ptr<const fdlab::TextCorpus> corpus;
    };
    std::shared_ptr<CorpusCache> m_cache;
    JobRunner* m_load = nullptr;
    JobRunner* m_preview = nullptr;
};

}  // namespace fdlab::ui

Q_DECLARE_METATYPE(fdlab::ui::DatasetPtr)
Q_DECLARE_METATYPE(fdlab::LoadOptions)
Q_DECLARE_METATYPE(fdlab::TextCorpusPreview)
