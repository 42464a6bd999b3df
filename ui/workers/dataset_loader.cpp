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
            const FileFormat ff = guessFormat(path);
            auto d = std::make_shared<Dataset>(loadDataFile(path, options));
            emit loaded(source, d, toString(ff));
        }
    } catch (const std::exception& e) {
        emit failed(source, QString::fromStdString(e.what()));
    }
}

DatasetLoader::DatasetLoader(QObject* parent) : QObject(parent) {
    qRegisterMetaType<DatasetPtr>();
    qRegisterMetaType<LoadOptions>();
    m_worker = new DatasetLoadWorker;
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(this, &DatasetLoader::requested, m_worker, &DatasetLoadWorker::load);
    connect(m_worker, &DatasetLoadWorker::loaded, this, &DatasetLoader::loaded);
    connect(m_worker, &DatasetLoadWorker::failed, this, &DatasetLoader::failed);
    m_thread.setObjectName("fdlab-dataset-loader");
    m_thread.start();
}

DatasetLoader::~DatasetLoader() {
    m_thread.quit();
    m_thread.wait();
}

void DatasetLoader::request(const QString& source, const LoadOptions& options) { emit requested(source, options); }

}  // namespace fdlab::ui
