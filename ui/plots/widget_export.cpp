#include "ui/plots/widget_export.h"

#include "core/util/atomic_file.h"

#include <QBuffer>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QPixmap>
#include <QSvgGenerator>
#include <QWidget>

namespace fdlab::ui {

ExportFormat exportFormatForPath(const QString& path) {
    const QString lower = path.toLower();
    if (lower.endsWith(".pdf")) return ExportFormat::Pdf;
    if (lower.endsWith(".svg")) return ExportFormat::Svg;
    return ExportFormat::Png;
}

QByteArray renderWidget(QWidget* widget, ExportFormat format, const QString& title) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    const QSize size = widget->size();
    bool ok = false;
    switch (format) {
    case ExportFormat::Png: ok = widget->grab().save(&buffer, "PNG"); break;
    case ExportFormat::Pdf: {
        // One point per pixel: the page is the widget's size, without margins.
        QPdfWriter pdf(&buffer);
        pdf.setTitle(title);
        pdf.setCreator(QStringLiteral("FDLab"));
        pdf.setResolution(72);
        pdf.setPageSize(QPageSize(QSizeF(size), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        QPainter p;
        if ((ok = p.begin(&pdf))) {
            widget->render(&p);
            ok = p.end();
        }
        break;
    }
    case ExportFormat::Svg: {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(title);
        svg.setDescription(QStringLiteral("FDLab"));
        QPainter p;
        if ((ok = p.begin(&svg))) {
            widget->render(&p);
            ok = p.end();
        }
        break;
    }
    }
    buffer.close();
    return ok ? bytes : QByteArray();
}

bool exportWidget(QWidget* widget, const QString& path, const QString& title, QString* error) {
    const QByteArray bytes = renderWidget(widget, exportFormatForPath(path), title);
    if (bytes.isEmpty()) {
        if (error) *error = QObject::tr("could not render %1").arg(path);
        return false;
    }
    return writeBytesAtomically(path, bytes, error);
}

bool writeBytesAtomically(const QString& path, const QByteArray& bytes, QString* error) {
    try {
        writeFileAtomically(path.toStdString(), bytes.toStdString());
    } catch (const std::exception& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
    return true;
}

QString exportFileFilter() {
    return QObject::tr("PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg)");
}

}  // namespace fdlab::ui
