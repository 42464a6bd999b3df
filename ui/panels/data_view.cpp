#include "ui/panels/data_view.h"

#include "core/data/summary.h"
#include "ui/plots/image_grid.h"

#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QStackedWidget>
#include <QAbstractTableModel>
#include <QTableView>
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

// The first rows and columns of a dataset, label first; cells are formatted when drawn.
class DataPreviewModel : public QAbstractTableModel {
public:
    using QAbstractTableModel::QAbstractTableModel;

    void setDataset(std::shared_ptr<const Dataset> data, int rows, int cols) {
        beginResetModel();
        m_data = std::move(data);
        m_rows = m_data ? rows : 0;
        m_cols = m_data ? cols : 0;
        endResetModel();
    }
    int rowCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : m_rows; }
    int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() || m_rows == 0 ? 0 : m_cols + 1; }
    QVariant data(const QModelIndex& idx, int role) const override {
        if (!idx.isValid() || !m_data || role != Qt::DisplayRole) return {};
        const auto i = static_cast<std::size_t>(idx.row());
        if (idx.column() == 0)
            return QString::fromStdString(m_data->classNames[static_cast<std::size_t>(m_data->labels[i])]);
        return QString::number(m_data->value(idx.row(), idx.column() - 1), 'g', 5);
    }
    QVariant headerData(int section, Qt::Orientation o, int role) const override {
        if ((role != Qt::DisplayRole && role != Qt::ToolTipRole) || !m_data) return {};
        if (o == Qt::Vertical) return section + 1;
        if (section == 0) return DataView::tr("class");
        return QString::fromStdString(m_data->featureName(section - 1));
    }

private:
    std::shared_ptr<const Dataset> m_data;
    int m_rows = 0, m_cols = 0;
};

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
    m_model = new DataPreviewModel(this);
    m_table = new QTableView;
    m_table->setModel(m_model);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // Fixed sizes: ResizeToContents would format and measure every cell of the preview.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setDefaultSectionSize(m_table->fontMetrics().horizontalAdvance(QStringLiteral("-0.00000e-00")));
    m_table->horizontalHeader()->setTextElideMode(Qt::ElideMiddle);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_stack->addWidget(m_table);
    layout->addWidget(m_stack, 1);
}

void DataView::setDataset(std::shared_ptr<const Dataset> data, const QString& format) {
    if (!data) {
        m_summary->setText(tr("No dataset loaded."));
        m_grid->setImages(nullptr, {});
        m_model->setDataset(nullptr, 0, 0);
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
        m_model->setDataset(nullptr, 0, 0);
        m_stack->setCurrentIndex(0);
        return;
    }
    // Table preview: the first rows and columns, label first.
    m_model->setDataset(data, std::min(data->rows(), 200), std::min(data->features(), 60));
    m_stack->setCurrentIndex(1);
}

}  // namespace fdlab::ui
