#include "ui/plots/widget_export.h"

#include "core/util/atomic_file.h"

#include <QBuffer>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QPixmap>
#include <QSvgGenerator>
#include <QWidget>
#include <qcustomplot.h>

namespace fdlab::ui {

ExportFormat exportFormatForPath(const QString& path) {
    const QString lower = path.toLower();
    if (lower.endsWith(".pdf")) return ExportFormat::Pdf;
    if (lower.endsWith(".svg")) return ExportFormat::Svg;
    return ExportFormat::Png;
}

namespace {

/// PDF (one page of `size` points, no margins, text kept as text) or SVG of what `paint` draws
/// on a painter of `size`; PNG is not handled here (each caller has its own raster path).
template <class Painter, class Paint>
QByteArray renderVector(ExportFormat format, QSize size, const QString& title, Paint&& paint) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    bool ok = false;
    auto draw = [&](QPaintDevice* device) {
        Painter p;
        if ((ok = p.begin(device))) {
            paint(p);
            ok = p.end();
        }
    };
    if (format == ExportFormat::Pdf) {
        // One point per pixel: the page is the widget's size, without margins.
        QPdfWriter pdf(&buffer);
        pdf.setTitle(title);
        pdf.setCreator(QStringLiteral("FDLab"));
        pdf.setResolution(72);
        pdf.setPageSize(QPageSize(QSizeF(size), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        draw(&pdf);
    } else {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(title);
        svg.setDescription(QStringLiteral("FDLab"));
        draw(&svg);
    }
    buffer.close();
    return ok ? bytes : QByteArray();
}

QByteArray pngBytes(const QPixmap& pixmap) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    const bool ok = !pixmap.isNull() && pixmap.save(&buffer, "PNG");
    buffer.close();
    return ok ? bytes : QByteArray();
}

bool writeRendered(const QByteArray& bytes, const QString& path, QString* error) {
    if (bytes.isEmpty()) {
        if (error) *error = QObject::tr("could not render %1").arg(path);
        return false;
    }
    return writeBytesAtomically(path, bytes, error);
}

}  // namespace

QByteArray renderWidget(QWidget* widget, ExportFormat format, const QString& title) {
    if (format == ExportFormat::Png) return pngBytes(widget->grab());
    return renderVector<QPainter>(format, widget->size(), title, [widget](QPainter& p) { widget->render(&p); });
}

QByteArray renderPlot(QCustomPlot* plot, ExportFormat format, int width, int height, const QString& title) {
    if (width <= 0 || height <= 0) width = plot->width(), height = plot->height();
    if (width <= 0 || height <= 0) return {};
    if (format == ExportFormat::Png) return pngBytes(plot->toPixmap(width, height, 1.0));
    return renderVector<QCPPainter>(format, QSize(width, height), title, [&](QCPPainter& p) {
        // Vector output: no cached bitmaps of layers, pens as they are.
        p.setMode(QCPPainter::pmVectorized);
        p.setMode(QCPPainter::pmNoCaching);
        plot->toPainter(&p, width, height);
    });
}

bool exportWidget(QWidget* widget, const QString& path, const QString& title, QString* error) {
    return writeRendered(renderWidget(widget, exportFormatForPath(path), title), path, error);
}

bool exportPlot(QCustomPlot* plot, const QString& path, int width, int height, const QString& title, QString* error) {
    return writeRendered(renderPlot(plot, exportFormatForPath(path), width, height, title), path, error);
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
