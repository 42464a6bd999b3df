#include "ui/dialogs/export_dialog.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>

namespace fdlab::ui {

ExportDialog::ExportDialog(const QString& suggestedPath, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Export plot"));
    auto* form = new QFormLayout(this);
    auto* row = new QHBoxLayout;
    m_path = new QLineEdit(suggestedPath, this);
    m_path->setMinimumWidth(320);
    auto* browse = new QPushButton(tr("Browse..."), this);
    row->addWidget(m_path, 1);
    row->addWidget(browse);
    form->addRow(tr("File (.png, .pdf, .svg)"), row);
    QSettings settings;
    m_width = new QSpinBox(this);
    m_width->setRange(100, 10000);
    m_width->setValue(settings.value("export/width", 900).toInt());
    m_width->setSuffix(tr(" px"));
    m_height = new QSpinBox(this);
    m_height->setRange(100, 10000);
    m_height->setValue(settings.value("export/height", 600).toInt());
    m_height->setSuffix(tr(" px"));
    form->addRow(tr("Width"), m_width);
    form->addRow(tr("Height"), m_height);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        QSettings s;
        s.setValue("export/width", m_width->value());
        s.setValue("export/height", m_height->value());
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString p = QFileDialog::getSaveFileName(this, tr("Export plot"), m_path->text(),
                                                       tr("PNG image (*.png);;PDF (*.pdf);;SVG (*.svg)"));
        if (!p.isEmpty()) m_path->setText(p);
    });
}

QString ExportDialog::path() const { return m_path->text(); }
int ExportDialog::exportWidth() const { return m_width->value(); }
int ExportDialog::exportHeight() const { return m_height->value(); }

}  // namespace fdlab::ui
