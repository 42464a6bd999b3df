#include "ui/panels/dataset_panel.h"

#include "core/data/bundled.h"

#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace fdlab::ui {

DatasetPanel::DatasetPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* heading = new QLabel(tr("Bundled datasets and generators"), this);
    heading->setWordWrap(true);
    layout->addWidget(heading);

    m_list = new QListWidget(this);
    m_list->setObjectName("bundledList");
    for (const BundledInfo& info : bundledDatasets()) {
        auto* item = new QListWidgetItem(QString::fromStdString(info.name) +
                                         (info.synthetic ? tr("  (generator)") : QString()));
        item->setData(Qt::UserRole, QString::fromStdString("bundled:" + info.name));
        item->setToolTip(QString::fromStdString(info.title + "\n" + info.files + "\nLicence: " + info.licence));
        m_list->addItem(item);
    }
    layout->addWidget(m_list, 1);
    connect(m_list, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        emit datasetRequested(item->data(Qt::UserRole).toString());
    });
    connect(m_list, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        emit datasetRequested(item->data(Qt::UserRole).toString());
    });

    auto* open = new QPushButton(tr("Open file..."), this);
    open->setToolTip(tr("Load an IDX, CSV, LIBSVM or ARFF file"));
    connect(open, &QPushButton::clicked, this, &DatasetPanel::openFileRequested);
    layout->addWidget(open);
}

void DatasetPanel::setCurrentSource(const QString& source) {
    const QSignalBlocker block(m_list);
    for (int r = 0; r < m_list->count(); ++r)
        if (m_list->item(r)->data(Qt::UserRole).toString() == source) m_list->setCurrentRow(r);
}

}  // namespace fdlab::ui
