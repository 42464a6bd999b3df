#pragma once
// Loads a dataset (bundled name or file) on a worker thread, so the window never freezes.
// A worker QObject lives on its own QThread (Qt's worker pattern); results come back over
// queued connections. The destructor quits and waits for the thread.

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
signals:
    void loaded(const QString& source, fdlab::ui::DatasetPtr data, const QString& format);
    void failed(const QString& source, const QString& message);
};

class DatasetLoader : public QObject {
    Q_OBJECT
public:
    explicit DatasetLoader(QObject* parent = nullptr);
    ~DatasetLoader() override;

    void request(const QString& source, const fdlab::LoadOptions& options = {});
signals:
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
