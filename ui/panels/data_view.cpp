#include "ui/panels/data_view.h"

#include "core/data/summary.h"
#include "ui/plots/image_grid.h"

#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace fdlab::ui {

std::vector<int> samplePerClass(const Dataset& d, int perClass) {
    std::vector<std::vector<int>> byClass(d.classNames.size());
    for (int i = 0; i < d.rows(); ++i) {
        auto& v = byClass[static_cast<std::size_t>(d.labels[static_cast<std::size_t>(i)])];
        if (static_cast<int>(v.size()) < perClass) v.push_back(i);
    }
    std::vector<int> out;
    for (const auto& v : byClass) out.insert(out.end(), v.begin(), v.end());
    return out;
}

DataView::DataView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    m_summary = new QLabel(tr("No dataset loaded."), this);
    m_summary->setObjectName("datasetSummary");
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);

    m_stack = new QStackedWidget(this);
    m_grid = new ImageGrid;
    auto* scroll = new QScrollArea;
    scroll->setWidget(m_grid);
    scroll->setWidgetResizable(true);
    m_stack->addWidget(scroll);
    m_table = new QTableWidget;
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_stack->addWidget(m_table);
    layout->addWidget(m_stack, 1);
}

void DataView::setDataset(std::shared_ptr<const Dataset> data, const QString& format) {
    if (!data) {
        m_summary->setText(tr("No dataset loaded."));
        m_grid->setImages(nullptr, {});
        m_table->clear();
        return;
    }
    const DatasetSummary s = summarize(*data, format.toStdString());
    QString classes;
    for (std::size_t c = 0; c < s.classNames.size(); ++c)
        classes += (c ? ", " : "") + QString::fromStdString(s.classNames[c]) + QStringLiteral(": ") +
                   QString::number(s.classCounts[c]);
    QString text = tr("<b>%1</b> (%2) &mdash; %3 instances &times; %4 features")
                       .arg(QString::fromStdString(s.name).toHtmlEscaped(), format.toHtmlEscaped())
                       .arg(s.instances)
                       .arg(s.features);
    if (s.imageShape) text += tr(", images %1&times;%2").arg(s.imageShape->rows).arg(s.imageShape->cols);
    text += tr("<br>Classes: %1<br>Values in [%2, %3], %4% non-zero; total importance V = %5<br><small>%6</small>")
                .arg(classes.toHtmlEscaped())
                .arg(s.minValue)
                .arg(s.maxValue)
                .arg(100.0 * s.density, 0, 'f', 1)
                .arg(s.totalImportance)
                .arg(QString::fromStdString(s.provenance).toHtmlEscaped());
    m_summary->setText(text);

    if (data->imageShape) {
        const int perClass = std::max(1, 60 / std::max(1, data->numClasses()));
        m_grid->setImages(data, samplePerClass(*data, perClass));
        m_stack->setCurrentIndex(0);
        return;
    }
    // Table preview: the first rows and columns, label first.
    const int rows = std::min(data->rows(), 200), cols = std::min(data->features(), 60);
    m_table->clear();
    m_table->setRowCount(rows);
    m_table->setColumnCount(cols + 1);
    QStringList headers{tr("class")};
    for (int j = 0; j < cols; ++j) headers << QString::fromStdString(data->featureNames[static_cast<std::size_t>(j)]);
    m_table->setHorizontalHeaderLabels(headers);
    for (int i = 0; i < rows; ++i) {
        m_table->setItem(i, 0, new QTableWidgetItem(QString::fromStdString(
                                   data->classNames[static_cast<std::size_t>(data->labels[static_cast<std::size_t>(i)])])));
        for (int j = 0; j < cols; ++j)
            m_table->setItem(i, j + 1, new QTableWidgetItem(QString::number(data->value(i, j), 'g', 5)));
    }
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_stack->setCurrentIndex(1);
}

}  // namespace fdlab::ui
