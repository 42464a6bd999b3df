#include "ui/workers/dataset_loader.h"

#include "core/data/bundled.h"
#include "core/data/loaders.h"
#include "ui/workers/job_runner.h"

#include <QStringList>

#include <utility>

namespace fdlab::ui {

namespace {

struct Loaded {
    DatasetPtr data;
    QString format;
};

Loaded load(const QString& source, const LoadOptions& options) {
    if (source.startsWith("bundled:")) {
        const std::string name = source.mid(8).toStdString();
        Loaded r{std::make_shared<Dataset>(loadBundled(name)), "bundled"};
        for (const auto& info : bundledDatasets())
            if (info.name == name) r.format = info.synthetic ? "generator" : QString::fromStdString(info.files);
        return r;
    }
    const std::string path = source.toStdString();
    // A corpus folder has no format to guess; a CSV file with a text column is text.
    const QString format = isTextCorpus(path, options) ? QStringLiteral("text corpus") : QString(toString(guessFormat(path)));
    return {std::make_shared<Dataset>(loadDataFile(path, options)), format};
}

}  // namespace

DatasetLoader::DatasetLoader(QObject* parent) : QObject(parent), m_cache(std::make_shared<CorpusCache>()) {
    qRegisterMetaType<DatasetPtr>();
    qRegisterMetaType<LoadOptions>();
    qRegisterMetaType<TextCorpusPreview>();
    m_load = new JobRunner("fdlab-dataset-loader", this);
    m_preview = new JobRunner("fdlab-corpus-preview", this);
}

DatasetLoader::~DatasetLoader() = default;   // the runners stop their jobs and wait

void DatasetLoader::request(const QString& source, const LoadOptions& options) {
    m_load->run([source, options](const JobContext&) { return load(source, options); },
                [this, source](const Loaded& r) { emit loaded(source, r.data, r.format); },
                [this, source](const QString& m) { emit failed(source, m); });
}

void DatasetLoader::requestPreview(quint64 id, const QString& path, const LoadOptions& options) {
    m_preview->run(
        [cache = m_cache, path, options](const JobContext&) {
            const QString key = QStringList{path, options.keepSubject ? "subject" : "no subject", QString::fromStdString(options.textColumn),
                                            QString::fromStdString(options.labelColumn), QString(QChar(options.separator))}
                                    .join('\n');
            if (key != cache->key || !cache->corpus) {
                cache->corpus.reset();
                cache->corpus = std::make_shared<const TextCorpus>(loadTextCorpusFile(path.toStdString(), options));
                cache->key = key;
            }
            return previewTextCorpus(*cache->corpus, options);
        },
        [this, id](const TextCorpusPreview& p) { emit previewReady(id, p, {}); },
        [this, id](const QString& m) { emit previewReady(id, {}, m); });
}

}  // namespace fdlab::ui
