#pragma once
// Error-versus-level charts as PNG files, drawn with cairo (Debian libcairo2-dev) so that the
// headless CLI and the reproduction report can draw the same curves the GUI shows, without Qt:
// one line per series with +-1 standard error bars, optional reference points (the paper's
// numbers: hollow circles, no line, in the series' colour), axes with ticks, a title and a legend.
// Text uses cairo's toy font API with "DejaVu Sans" (Debian fonts-dejavu-core).

#include "core/io/png_writer.h"

#include <string>
#include <vector>

namespace fdlab {

struct ChartSeries {
    std::string name;
    std::vector<double> x, y;
    std::vector<double> se;   ///< +-1 standard error per point; empty = no error bars
    bool markersOnly = false; ///< true: hollow circles, no line (reference numbers)
    bool dashed = false;      ///< a dashed line without markers or error bars (a secondary curve)
    int colour = 0;           ///< index into the palette; series with the same index share a colour
};

struct ChartSpec {
    std::string title;
    std::string xLabel = "attack level";
    std::string yLabel = "test error";
    std::vector<ChartSeries> series;
    int width = 900, height = 560;   ///< pixels; each in [200, 4000]
    /// The y axis starts at 0 and ends at the next round value above every point (+ se), at
    /// most 1 when every value is in [0, 1].
    void validate() const;
};

/// Draws the chart. Throws std::invalid_argument as writeChartPng.
RgbImage renderChart(const ChartSpec& chart);

/// Draws the chart into a PNG file, written atomically. Throws std::invalid_argument for bad
/// sizes, series with x and y of different lengths or non-finite values, and std::runtime_error
/// naming the path when the file cannot be written.
void writeChartPng(const ChartSpec& chart, const std::string& path);

/// The palette's colour `index` as 0xRRGGBB (the GUI's curve colours).
unsigned chartColour(int index);

}  // namespace fdlab
