#include "ui/panels/importance_editor.h"

#include "core/data/importance.h"
#include "ui/plots/color_map_widget.h"
#include "ui/workers/dataset_loader.h"

#include <qcustomplot.h>

#include <QAbstractTableModel>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QGroupBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <set>

namespace fdlab::ui {

// Two columns (feature name, value) over the editor's vector; edits go back through a callback
// so that the editor stays the single owner of the values.
class ImportanceTableModel : public QAbstractTableModel {
public:
    using QAbstractTableModel::QAbstractTableModel;

    void reset(const std::vector<std::string>* names, const std::vector<double>* values) {
        beginResetModel();
        m_values = values;
        // Converted once: filtering and sorting ask for every row's name on each keystroke.
        m_names.clear();
        if (values) {
            m_names.reserve(static_cast<qsizetype>(values->size()));
            for (std::size_t i = 0; i < values->size(); ++i)
                m_names.push_back(names && i < names->size() ? QString::fromStdString((*names)[i]) : QStringLiteral("f%1").arg(i + 1));
        }
        endResetModel();
    }
    void valuesChanged() {
        if (rowCount() > 0) emit dataChanged(index(0, 1), index(rowCount() - 1, 1));
    }
    std::function<void(int, double)> onEdit;

    const QString& name(int row) const { return m_names[row]; }

    int rowCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() || !m_values ? 0 : static_cast<int>(m_values->size());
    }
    int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : 2; }

    QVariant data(const QModelIndex& idx, int role) const override {
        if (!idx.isValid() || !m_values) return {};
        const auto i = static_cast<std::size_t>(idx.row());
        if (role == Qt::DisplayRole || role == Qt::EditRole) {
            if (idx.column() == 0) return m_names[static_cast<qsizetype>(i)];
            return (*m_values)[i];   // a double, so that sorting is numeric
        }
        if (role == Qt::TextAlignmentRole && idx.column() == 1) return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    bool setData(const QModelIndex& idx, const QVariant& value, int role) override {
        if (role != Qt::EditRole || idx.column() != 1) return false;
        bool ok = false;
        const double v = value.toDouble(&ok);
        if (!ok || !std::isfinite(v) || v <= 0.0) return false;   // v_j > 0 always
        if (onEdit) onEdit(idx.row(), v);
        return true;
    }
    Qt::ItemFlags flags(const QModelIndex& idx) const override {
        Qt::ItemFlags f = QAbstractTableModel::flags(idx);
        if (idx.column() == 1) f |= Qt::ItemIsEditable;
        return f;
    }
    QVariant headerData(int section, Qt::Orientation o, int role) const override {
        if (role != Qt::DisplayRole) return {};
        if (o == Qt::Horizontal) return section == 0 ? QStringLiteral("feature") : QStringLiteral("value v_j");
        return section + 1;
    }

private:
    QStringList m_names;
    const std::vector<double>* m_values = nullptr;
};

// Sorts like QSortFilterProxyModel and filters by a substring of the name. A new filter resets
// the proxy instead of letting it remove rows range by range: narrowing 40,000 rows to a few
// hundred that way took 110+ ms on the GUI thread, a reset takes a few.
class ImportanceFilterModel : public QSortFilterProxyModel {
public:
    ImportanceFilterModel(ImportanceTableModel* source, QObject* parent) : QSortFilterProxyModel(parent), m_source(source) {
        setSourceModel(source);
    }
    void setNeedle(const QString& needle) {
        if (needle == m_needle) return;
        beginResetModel();
        m_needle = needle;
        endResetModel();
    }
    const QString& needle() const { return m_needle; }

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override {
        return m_needle.isEmpty() || (!parent.isValid() && m_source->name(row).contains(m_needle, Qt::CaseInsensitive));
    }

private:
    ImportanceTableModel* m_source;
    QString m_needle;
};

void MutualInfoWorker::compute(std::shared_ptr<const Dataset> data, quint64 generation) {
    try {
        emit done(generation, mutualInformationImportance(*data), {});
    } catch (const std::exception& e) {
        emit done(generation, {}, QString::fromStdString(e.what()));
    }
}

ImportanceEditor::ImportanceEditor(QWidget* parent) : QWidget(parent) {
    qRegisterMetaType<DatasetPtr>();
    qRegisterMetaType<std::vector<double>>();
    buildUi();
    m_worker = new MutualInfoWorker;
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(this, &ImportanceEditor::miRequested, m_worker, &MutualInfoWorker::compute);
    connect(m_worker, &MutualInfoWorker::done, this, &ImportanceEditor::onMiDone);
    m_thread.setObjectName("fdlab-importance");
    m_thread.start();
    setDataset(nullptr);
}

ImportanceEditor::~ImportanceEditor() {
    m_thread.quit();
    m_thread.wait();
}

void ImportanceEditor::buildUi() {
    auto* outer = new QVBoxLayout(this);

    m_total = new QLabel(this);
    m_total->setObjectName("importanceTotal");
    m_total->setWordWrap(true);
    m_total->setTextInteractionFlags(Qt::TextSelectableByMouse);
    outer->addWidget(m_total);

    // Two rows of buttons and the table above the canvas: the dock is narrow (~260 px).
    auto* presets = new QGridLayout;
    m_uniform = new QPushButton(tr("Uniform"), this);
    m_uniform->setToolTip(tr("v_j = 1 for every feature"));
    m_mi = new QPushButton(tr("Mutual information"), this);
    m_mi->setToolTip(tr("v_j grows with the mutual information I(x_j; y) (8 bins), floor 0.1, sum = n"));
    m_load = new QPushButton(tr("Load CSV..."), this);
    m_save = new QPushButton(tr("Save CSV..."), this);
    int at = 0;
    for (QPushButton* b : {m_uniform, m_mi, m_load, m_save}) {
        presets->addWidget(b, at / 2, at % 2);
        ++at;
    }
    outer->addLayout(presets);
    connect(m_uniform, &QPushButton::clicked, this, &ImportanceEditor::setUniform);
    connect(m_mi, &QPushButton::clicked, this, &ImportanceEditor::startMutualInformation);
    connect(m_load, &QPushButton::clicked, this, &ImportanceEditor::loadCsvDialog);
    connect(m_save, &QPushButton::clicked, this, &ImportanceEditor::saveCsvDialog);

    auto* split = new QSplitter(Qt::Vertical, this);
    outer->addWidget(split, 1);

    // Table with "set one value for all selected rows".
    auto* tableBox = new QWidget(split);
    auto* tl = new QVBoxLayout(tableBox);
    tl->setContentsMargins(0, 0, 0, 0);
    m_model = new ImportanceTableModel(this);
    m_model->onEdit = [this](int row, double v) { setValues({row}, v); };
    m_proxy = new ImportanceFilterModel(m_model, this);
    m_proxy->setSortRole(Qt::EditRole);
    m_filter = new QLineEdit(tableBox);
    m_filter->setObjectName("importanceFilter");
    m_filter->setPlaceholderText(tr("Filter features (e.g. a word)..."));
    m_filter->setClearButtonEnabled(true);
    tl->addWidget(m_filter);
    connect(m_filter, &QLineEdit::textChanged, this, &ImportanceEditor::setFilter);
    m_table = new QTableView(tableBox);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder);   // file order until the user clicks a header
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    // Words get the room; the value column is sized once (ResizeToContents would measure every row).
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->horizontalHeader()->resizeSection(1, m_table->fontMetrics().horizontalAdvance(QStringLiteral("value v_j 0000.00")));
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);   // no per-row sizing on 34,000 rows
    tl->addWidget(m_table, 1);
    m_shown = new QLabel(tableBox);
    m_shown->setObjectName("importanceShown");
    tl->addWidget(m_shown);
    auto* setRow = new QHBoxLayout;
    setRow->addWidget(new QLabel(tr("Value:"), tableBox));
    m_setValue = new QDoubleSpinBox(tableBox);
    m_setValue->setDecimals(3);
    m_setValue->setRange(0.001, 1e9);
    m_setValue->setValue(1.0);
    // The range's width (1e9) would make the box wider than the ~260 px dock, and the layout
    // then squeezes it to nothing; a fixed minimum keeps it usable.
    m_setValue->setMinimumWidth(m_setValue->fontMetrics().horizontalAdvance(QStringLiteral("0000.000")) + 30);
    m_setValue->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    setRow->addWidget(m_setValue, 1);
    m_setButton = new QPushButton(tr("Set selected"), tableBox);
    m_setButton->setToolTip(tr("Give every selected row this value"));
    setRow->addWidget(m_setButton);
    setRow->addStretch();
    tl->addLayout(setRow);
    connect(m_setButton, &QPushButton::clicked, this, [this] { applyToSelection(m_setValue->value()); });

    // Canvas for image data.
    m_canvasBox = new QGroupBox(tr("Paint importance on the image"), split);
    auto* cl = new QVBoxLayout(m_canvasBox);
    m_canvas = new ColorMapWidget(m_canvasBox);
    m_canvas->setGradient(ColorMapWidget::heatGradient());
    m_canvas->setScaleLabel(tr("importance v_j"));
    m_canvas->setToolTip(tr("Drag with the left mouse button to paint the brush value"));
    m_canvas->setFitHeightToWidth(true);   // the image right under its title, the brush below
    cl->addWidget(m_canvas);
    auto* brush = new QGridLayout;
    brush->addWidget(new QLabel(tr("Brush value:"), m_canvasBox), 0, 0);
    m_brushValue = new QDoubleSpinBox(m_canvasBox);
    m_brushValue->setDecimals(3);
    m_brushValue->setRange(0.001, 1e9);
    m_brushValue->setValue(5.0);
    brush->addWidget(m_brushValue, 0, 1);
    brush->addWidget(new QLabel(tr("Radius:"), m_canvasBox), 1, 0);
    m_brushRadius = new QSpinBox(m_canvasBox);
    m_brushRadius->setRange(0, 50);
    m_brushRadius->setValue(2);
    m_brushRadius->setSuffix(tr(" px"));
    brush->addWidget(m_brushRadius, 1, 1);
    cl->addLayout(brush);
    cl->addStretch(1);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);

    connect(m_canvas, &ColorMapWidget::cellPressed, this, [this](int r, int c, Qt::MouseButtons b) {
        if (!(b & Qt::LeftButton)) return;
        m_stroke = true;
        paintCells(r, c, false);
    });
    connect(m_canvas, &ColorMapWidget::cellDragged, this, [this](int r, int c, Qt::MouseButtons b) {
        if (m_stroke && (b & Qt::LeftButton)) paintCells(r, c, false);
    });
    connect(m_canvas, &ColorMapWidget::mouseReleased, this, [this] {
        if (!m_stroke) return;
        m_stroke = false;
        emit importanceChanged(m_values);
    });
}

void ImportanceEditor::setDataset(std::shared_ptr<const Dataset> data) {
    ++m_generation;   // a running MI job for the old data is ignored
    m_miRunning = false;
    m_data = std::move(data);
    m_values.clear();
    if (m_data) {
        m_values = m_data->importance;
        if (m_values.size() != static_cast<std::size_t>(m_data->features())) m_values = uniformImportance(*m_data);
    }
    m_model->reset(m_data ? &m_data->featureNames : nullptr, m_data ? &m_values : nullptr);
    updateShown();
    const bool image = m_data && m_data->imageShape;
    m_canvasBox->setVisible(image);
    for (QWidget* w : std::initializer_list<QWidget*>{m_uniform, m_mi, m_load, m_save, m_setButton}) w->setEnabled(m_data != nullptr);
    if (!image) m_canvas->clearImage();
    updateCanvas();
    updateTotal();
}

void ImportanceEditor::setImportance(const std::vector<double>& values) {
    if (!m_data || values.size() != m_values.size()) {
        reportError(tr("importance: expected %1 values, got %2").arg(m_values.size()).arg(values.size()));
        return;
    }
    for (double v : values)
        if (!std::isfinite(v) || v <= 0.0) {
            reportError(tr("importance: every value must be finite and > 0"));
            return;
        }
    m_values = values;
    refresh(true);
}

double ImportanceEditor::total() const { return std::accumulate(m_values.begin(), m_values.end(), 0.0); }

void ImportanceEditor::setUniform() {
    if (!m_data) return;
    m_values = uniformImportance(*m_data);
    refresh(true);
}

void ImportanceEditor::startMutualInformation() {
    if (!m_data) return;
    m_miRunning = true;
    m_mi->setEnabled(false);
    m_total->setText(m_total->text() + tr("  (computing mutual information...)"));
    emit miRequested(m_data, ++m_generation);
}

void ImportanceEditor::onMiDone(quint64 generation, const std::vector<double>& values, const QString& error) {
    if (generation != m_generation) return;   // the dataset changed meanwhile
    m_miRunning = false;
    m_mi->setEnabled(m_data != nullptr);
    if (!error.isEmpty()) {
        updateTotal();
        reportError(error);
        return;
    }
    m_values = values;
    refresh(true);
}

bool ImportanceEditor::loadCsv(const QString& path) {
    if (!m_data) return false;
    try {
        m_values = importanceFromCsv(*m_data, path.toStdString());
    } catch (const std::exception& e) {
        reportError(QString::fromStdString(e.what()));
        return false;
    }
    refresh(true);
    return true;
}

bool ImportanceEditor::saveCsv(const QString& path) {
    if (!m_data) return false;
    try {
        saveImportanceCsv(*m_data, m_values, path.toStdString());
    } catch (const std::exception& e) {
        reportError(QString::fromStdString(e.what()));
        return false;
    }
    return true;
}

void ImportanceEditor::loadCsvDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Load importance"), {}, tr("CSV files (*.csv);;All files (*)"));
    if (!path.isEmpty()) loadCsv(path);
}

void ImportanceEditor::saveCsvDialog() {
    QString path = QFileDialog::getSaveFileName(this, tr("Save importance"), "importance.csv", tr("CSV files (*.csv)"));
    if (!path.isEmpty()) saveCsv(path);
}

void ImportanceEditor::setValues(const std::vector<int>& features, double value) {
    if (!std::isfinite(value) || value <= 0.0) {
        reportError(tr("importance values must be finite and > 0"));
        return;
    }
    bool any = false;
    for (int j : features)
        if (j >= 0 && j < static_cast<int>(m_values.size())) {
            m_values[static_cast<std::size_t>(j)] = value;
            any = true;
        }
    if (any) refresh(true);
}

std::vector<int> ImportanceEditor::selectedFeatures() const {
    std::set<int> rows;
    for (const QModelIndex& idx : m_table->selectionModel()->selectedIndexes())
        rows.insert(m_proxy->mapToSource(idx).row());
    return {rows.begin(), rows.end()};
}

void ImportanceEditor::applyToSelection(double value) { setValues(selectedFeatures(), value); }

void ImportanceEditor::setFilter(const QString& text) {
    if (m_filter->text() != text) m_filter->setText(text);   // re-enters through textChanged
    if (m_proxy->needle() == text) return;
    m_proxy->setNeedle(text);
    updateShown();
}

QString ImportanceEditor::filter() const { return m_filter->text(); }

void ImportanceEditor::updateShown() {
    const int all = m_model->rowCount();
    const int shown = m_proxy->rowCount();
    m_shown->setText(shown == all ? tr("%1 features").arg(all) : tr("%1 of %2 features match").arg(shown).arg(all));
}

void ImportanceEditor::setBrushValue(double v) { m_brushValue->setValue(v); }
double ImportanceEditor::brushValue() const { return m_brushValue->value(); }
void ImportanceEditor::setBrushRadius(int r) { m_brushRadius->setValue(r); }
int ImportanceEditor::brushRadius() const { return m_brushRadius->value(); }

void ImportanceEditor::paintAt(int row, int col) { paintCells(row, col, true); }

void ImportanceEditor::paintCells(int row, int col, bool emitChange) {
    if (!m_data || !m_data->imageShape) return;
    const ImageShape s = *m_data->imageShape;
    const int rad = brushRadius();
    const double v = brushValue();
    bool changed = false;
    for (int r = std::max(0, row - rad); r <= std::min(s.rows - 1, row + rad); ++r)
        for (int c = std::max(0, col - rad); c <= std::min(s.cols - 1, col + rad); ++c) {
            if ((r - row) * (r - row) + (c - col) * (c - col) > rad * rad) continue;
            double& x = m_values[static_cast<std::size_t>(r * s.cols + c)];
            changed = changed || x != v;
            x = v;
        }
    if (changed) refresh(emitChange);
}

void ImportanceEditor::refresh(bool emitChange) {
    m_model->valuesChanged();
    updateCanvas();
    updateTotal();
    if (emitChange) emit importanceChanged(m_values);
}

void ImportanceEditor::updateCanvas() {
    if (!m_data || !m_data->imageShape) return;
    const ImageShape s = *m_data->imageShape;
    m_canvas->setImage(m_values, s.rows, s.cols);
    // From 0 so that a uniform map reads as "all equal" rather than a degenerate range.
    const double hi = *std::max_element(m_values.begin(), m_values.end());
    m_canvas->setRange(0.0, hi);
    m_canvas->setTitle(tr("v_j on the %1 x %2 image").arg(s.rows).arg(s.cols));
}

void ImportanceEditor::updateTotal() {
    if (!m_data) {
        m_total->setText(tr("No dataset."));
        return;
    }
    const double V = total();
    const auto [lo, hi] = std::minmax_element(m_values.begin(), m_values.end());
    m_total->setText(tr("%1 features, v_j in [%2, %3]. Total V = %4; admissible value budget N in [0, %4).")
                         .arg(m_values.size())
                         .arg(*lo, 0, 'g', 4)
                         .arg(*hi, 0, 'g', 4)
                         .arg(V, 0, 'g', 6));
}

void ImportanceEditor::reportError(const QString& message) {
    emit errorOccurred(message);
    if (!property("quietErrors").toBool()) QMessageBox::critical(this, tr("Importance"), message);
}

}  // namespace fdlab::ui
