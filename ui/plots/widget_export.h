#pragma once
// Saves a widget as it is on screen: PNG (QWidget::grab, device pixels), PDF (one page of the
// widget's size, text kept as text) or SVG, chosen by the file's suffix. The file is rendered
// in memory and written atomically (core/util/atomic_file.h), so a failed export never leaves
// half a file. QCustomPlot figures are drawn afresh at the requested size instead (vector
// paths and text in PDF and SVG, not the on-screen bitmap).

#include <QByteArray>
#include <QString>

class QCustomPlot;
class QWidget;

namespace fdlab::ui {

enum class ExportFormat { Png, Pdf, Svg };

/// .pdf and .svg (any case) by suffix; everything else PNG.
ExportFormat exportFormatForPath(const QString& path);

/// The widget rendered in `format` (empty when rendering failed).
QByteArray renderWidget(QWidget* widget, ExportFormat format, const QString& title = {});

/// renderWidget for the path's suffix, written atomically; false with *error set on failure.
bool exportWidget(QWidget* widget, const QString& path, const QString& title = {}, QString* error = nullptr);

/// The plot drawn at width x height pixels (points for PDF; 0: its on-screen size) in `format`
/// (empty when rendering failed).
QByteArray renderPlot(QCustomPlot* plot, ExportFormat format, int width = 0, int height = 0, const QString& title = {});

/// renderPlot for the path's suffix, written atomically; false with *error set on failure.
bool exportPlot(QCustomPlot* plot, const QString& path, int width = 0, int height = 0, const QString& title = {},
                QString* error = nullptr);

/// The file dialog's filter for the three formats.
QString exportFileFilter();

/// Writes bytes to path atomically (core/util/atomic_file.h); false with *error set on failure.
bool writeBytesAtomically(const QString& path, const QByteArray& bytes, QString* error = nullptr);

}  // namespace fdlab::ui
