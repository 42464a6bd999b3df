#include "ui/workers/dataset_loader.h"

#include "core/data/bundled.h"
#include "core/data/loaders.h"

namespace fdlab::ui {

void DatasetLoadWorker::load(const QString& source, const LoadOptions& options) {
    try {
        if (source.startsWith("bundled:")) {
            const std::string name = source.mid(8).toStdString();
            auto d = std::make_shared<Dataset>(loadBundled(name));
            QString format = "bundled";
            for (const auto& info : bundledDatasets())
                if (info.name == name) format = info.synthetic ? "generator" : QString::fromStdString(info.files);
            emit loaded(source, d, format);
        } else {
            const std::string path = source.toStdString();
            // A corpus folder has no format to guess; a CSV file with a text column is text.
            const QString format = isTextCorpus(path, options) ? QStringLiteral("text corpus") : QString(toString(guessFormat(path)));
            auto d = std::make_shared<Dataset>(loadDataFile(path, options));
            emit loaded(source, d, format);
        }
    } catch (const std::exception& e) {
        emit failed(source, QString::fromStdString(e.what()));
    }
}

void DatasetLoadWorker::preview(quint64 id, const QString& path, const LoadOptions& options) {
    try {
        const QString key = QStringList{path, options.keepSubject ? "subject" : "no subject", QString::fromStdString(options.textColumn),
                                        QString::fromStdString(options.labelColumn), QString(QChar(options.separator))}
                                .join('\n');
        if (key != m_corpusKey || !m_corpus) {
            m_corpus.reset();
            m_corpus = std::make_shared<const TextCorpus>(loadTextCorpusFile(path.toStdString(), options));
            m_corpusKey = key;
        }
        emit previewed(id, previewTextCorpus(*m_corpus, options), {});
    } catch (const std::exception& e) {
        emit previewed(id, {}, QString::fromStdString(e.what()));
    }
}

DatasetLoader::DatasetLoader(QObject* parent) : QObject(parent) {
    qRegisterMetaType<DatasetPtr>();
    qRegisterMetaType<LoadOptions>();
    qRegisterMetaType<TextCorpusPreview>();
    m_worker = new DatasetLoadWorker;
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(this, &DatasetLoader::requested, m_worker, &DatasetLoadWorker::load);
    connect(m_worker, &DatasetLoadWorker::loaded, this, &DatasetLoader::loaded);
    connect(m_worker, &DatasetLoadWorker::failed, this, &DatasetLoader::failed);
    connect(this, &DatasetLoader::previewRequested, m_worker, &DatasetLoadWorker::preview);
    connect(m_worker, &DatasetLoadWorker::previewed, this, &DatasetLoader::previewReady);
    m_thread.setObjectName("fdlab-dataset-loader");
    m_thread.start();
}

DatasetLoader::~DatasetLoader() {
    m_thread.quit();
    m_thread.wait();
}

void DatasetLoader::request(const QString& source, const LoadOptions& options) { emit requested(source, options); }

void DatasetLoader::requestPreview(quint64 id, const QString& path, const LoadOptions& options) {
    emit previewRequested(id, path, options);
}

}  // namespace fdlab::ui
