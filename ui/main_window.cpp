#include "ui/main_window.h"

#include "ui/panels/data_view.h"
#include "ui/panels/dataset_panel.h"

#include <QApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QTabWidget>

namespace fdlab::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("FDLab - Feature Deletion Lab"));
    resize(1200, 800);

    m_loader = new DatasetLoader(this);
    connect(m_loader, &DatasetLoader::loaded, this, &MainWindow::onLoaded);
    connect(m_loader, &DatasetLoader::failed, this, &MainWindow::onFailed);

    m_tabs = new QTabWidget(this);
    m_dataView = new DataView(m_tabs);
    m_tabs->addTab(m_dataView, tr("Data"));
    setCentralWidget(m_tabs);

    auto* dock = new QDockWidget(tr("Dataset"), this);
    dock->setObjectName("datasetDock");
    m_datasetPanel = new DatasetPanel(dock);
    dock->setWidget(m_datasetPanel);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    connect(m_datasetPanel, &DatasetPanel::datasetRequested, this, &MainWindow::openSource);
    connect(m_datasetPanel, &DatasetPanel::openFileRequested, this, &MainWindow::openFileDialog);

    buildMenus();
    statusBar()->showMessage(tr("Ready"));
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open dataset..."), this, &MainWindow::openFileDialog);
    open->setShortcut(QKeySequence::Open);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), qApp, &QApplication::quit);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About FDLab"), this, [this] {
        QMessageBox::about(this, tr("About FDLab"),
                           tr("<b>FDLab %1</b> - the Feature Deletion Lab.<p>How classifiers survive features "
                              "that vanish or are corrupted at test time, and labels flipped at training time.")
                               .arg(FDLAB_VERSION));
    });
}

void MainWindow::openFileDialog() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open dataset"), QString(),
        tr("Data files (*.csv *.arff *.gz *-ubyte *.idx* *.libsvm *.svm *.txt);;All files (*)"));
    if (!path.isEmpty()) openSource(path);
}

void MainWindow::openSource(const QString& source) {
    statusBar()->showMessage(tr("Loading %1...").arg(source));
    m_loader->request(source);
}

void MainWindow::onLoaded(const QString& source, DatasetPtr data, const QString& format) {
    m_data = std::move(data);
    m_dataView->setDataset(m_data, format);
    m_datasetPanel->setCurrentSource(source);
    statusBar()->showMessage(tr("%1: %2 instances, %3 features")
                                 .arg(QString::fromStdString(m_data->name))
                                 .arg(m_data->rows())
                                 .arg(m_data->features()));
    emit datasetShown(source);
}

void MainWindow::onFailed(const QString& source, const QString& message) {
    statusBar()->showMessage(tr("Could not load %1").arg(source));
    emit datasetFailed(source, message);
    if (!property("quietErrors").toBool()) QMessageBox::critical(this, tr("Could not load dataset"), message);
}

}  // namespace fdlab::ui
