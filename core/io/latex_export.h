#pragma once
// Curves for papers: a standalone pgfplots figure (.tex that compiles on its own with pdflatex,
// or \input into a document loading pgfplots once its \documentclass lines are removed) and a
// booktabs table of mean +- se per level (a tabular to \input; needs \usepackage{booktabs}).
//
// Both take the ChartSpec the PNG charts draw (core/io/curve_chart.h), so the three show the
// same numbers. Every name and title is LaTeX-escaped (latexEscape); `comments` (e.g. the
// provenance record) open the file as "% " lines. Numbers are written with 6 significant digits
// in the figure; the table rounds to `decimals` places.

#include "core/io/curve_chart.h"

#include <string>
#include <string_view>
#include <vector>

namespace fdlab {

/// Text safe in LaTeX's text mode: \ { } $ & # ^ _ % ~ become their commands; line breaks
/// become spaces; other bytes (UTF-8 included) pass through.
std::string latexEscape(std::string_view text);

/// The figure: one \addplot per series (error bars from se when given; markersOnly series as
/// marks only, dashed ones dashed), a legend, the chart's title and axis labels.
/// std::invalid_argument for a chart without series or with x/y/se of different lengths.
std::string pgfplotsFigure(const ChartSpec& chart, const std::vector<std::string>& comments = {});

/// The table: a row per level (the union of the series' x), a column per series (markersOnly
/// series left out), cells "$mean \pm se$" (or "$mean$" without se; "--" where a series has no
/// point at that level). decimals in [0, 10].
std::string booktabsTable(const ChartSpec& chart, const std::vector<std::string>& comments = {}, int decimals = 3);

}  // namespace fdlab
