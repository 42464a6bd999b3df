#include "core/io/latex_export.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace fdlab {

namespace {

std::string num(double v, const char* format = "%.6g") {
    char buf[40];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

void checkSeries(const ChartSpec& chart) {
    if (std::all_of(chart.series.begin(), chart.series.end(), [](const ChartSeries& s) { return s.x.empty(); }))
        throw std::invalid_argument("LaTeX export: the chart has no point to export");
    for (const ChartSeries& s : chart.series) {
        if (s.x.size() != s.y.size() || (!s.se.empty() && s.se.size() != s.x.size()))
            throw std::invalid_argument("LaTeX export: series '" + s.name + "' has x, y and se of different lengths");
        for (std::size_t k = 0; k < s.x.size(); ++k)
            if (!std::isfinite(s.x[k]) || !std::isfinite(s.y[k]) || (!s.se.empty() && !std::isfinite(s.se[k])))
                throw std::invalid_argument("LaTeX export: series '" + s.name + "' has a non-finite value");
    }
}

std::string commentBlock(const std::vector<std::string>& comments) {
    std::string out;
    for (const std::string& c : comments) {
        out += "% ";
        for (char ch : c) out += static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f ? ' ' : ch;
        out += '\n';
    }
    return out;
}

/// RRGGBB for xcolor's HTML model.
std::string htmlColour(int index) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "%06X", chartColour(index) & 0xFFFFFFu);
    return buf;
}

}  // namespace

std::string latexEscape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '\\': out += "\\textbackslash{}"; break;
        case '{': out += "\\{"; break;
        case '}': out += "\\}"; break;
        case '$': out += "\\$"; break;
        case '&': out += "\\&"; break;
        case '#': out += "\\#"; break;
        case '%': out += "\\%"; break;
        case '_': out += "\\_"; break;
        case '^': out += "\\textasciicircum{}"; break;
        case '~': out += "\\textasciitilde{}"; break;
        default:
            // Line breaks would end a table row or a comment early; other control characters are
            // "invalid characters" to TeX (catcode 15) or a \par (form feed): all become spaces.
            out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? ' ' : c;
        }
    }
    return out;
}

std::string pgfplotsFigure(const ChartSpec& chart, const std::vector<std::string>& comments) {
    checkSeries(chart);
    std::string out = commentBlock(comments);
    out += "\\documentclass{standalone}\n\\usepackage[T1]{fontenc}\n\\usepackage{pgfplots}\n\\pgfplotsset{compat=1.16}\n";
    for (const ChartSeries& s : chart.series)
        out += "\\definecolor{fdlab" + std::to_string(s.colour) + "}{HTML}{" + htmlColour(s.colour) + "}\n";
    out += "\\begin{document}\n\\begin{tikzpicture}\n\\begin{axis}[\n";
    if (!chart.title.empty()) out += "  title={" + latexEscape(chart.title) + "},\n";
    out += "  xlabel={" + latexEscape(chart.xLabel) + "},\n  ylabel={" + latexEscape(chart.yLabel) + "},\n";
    out += "  ymin=0, grid=major, width=12cm, height=7.5cm,\n  legend pos=outer north east, legend cell align=left,\n]\n";
    for (const ChartSeries& s : chart.series) {
        if (s.x.empty()) continue;   // a learner without any finished point
        const std::string colour = "fdlab" + std::to_string(s.colour);
        std::string style = s.markersOnly ? "only marks, mark=o, " + colour
                            : s.dashed    ? "dashed, no marks, " + colour
                                          : "mark=*, mark size=1.5pt, " + colour;
        const bool bars = !s.se.empty() && !s.markersOnly && !s.dashed;
        if (bars) style += ", error bars/.cd, y dir=both, y explicit";
        out += "\\addplot[" + style + "] table[x=level, y=mean" + std::string(bars ? ", y error=se" : "") + "] {\n";
        out += bars ? "level mean se\n" : "level mean\n";
        for (std::size_t k = 0; k < s.x.size(); ++k)
            out += num(s.x[k]) + ' ' + num(s.y[k]) + (bars ? ' ' + num(s.se[k]) : std::string()) + '\n';
        out += "};\n\\addlegendentry{" + latexEscape(s.name) + "}\n";
    }
    out += "\\end{axis}\n\\end{tikzpicture}\n\\end{document}\n";
    return out;
}

std::string booktabsTable(const ChartSpec& chart, const std::vector<std::string>& comments, int decimals) {
    checkSeries(chart);
    if (decimals < 0 || decimals > 10) throw std::invalid_argument("LaTeX table: decimals must be in [0, 10]");
    std::vector<const ChartSeries*> columns;
    std::vector<double> levels;
    for (const ChartSeries& s : chart.series) {
        if (s.markersOnly || s.x.empty()) continue;
        columns.push_back(&s);
        levels.insert(levels.end(), s.x.begin(), s.x.end());
    }
    if (columns.empty()) throw std::invalid_argument("LaTeX table: the chart has no curve to tabulate");
    std::sort(levels.begin(), levels.end());
    levels.erase(std::unique(levels.begin(), levels.end()), levels.end());

    const std::string fmt = "%." + std::to_string(decimals) + "f";
    std::string out = commentBlock(comments);
    out += "% " + latexEscape(chart.yLabel) + ", mean $\\pm$ standard error; needs \\usepackage{booktabs}\n";
    if (!chart.title.empty()) out += "% " + latexEscape(chart.title) + "\n";
    out += "\\begin{tabular}{r" + std::string(columns.size(), 'c') + "}\n\\toprule\n" + latexEscape(chart.xLabel);
    for (const ChartSeries* s : columns) out += " & " + latexEscape(s->name);
    out += " \\\\\n\\midrule\n";
    for (double level : levels) {
        out += num(level);
        for (const ChartSeries* s : columns) {
            const auto it = std::find(s->x.begin(), s->x.end(), level);
            if (it == s->x.end()) {
                out += " & --";
                continue;
            }
            const auto k = static_cast<std::size_t>(it - s->x.begin());
            out += " & $" + num(s->y[k], fmt.c_str());
            if (!s->se.empty()) out += " \\pm " + num(s->se[k], fmt.c_str());
            out += "$";
        }
        out += " \\\\\n";
    }
    out += "\\bottomrule\n\\end{tabular}\n";
    return out;
}

}  // namespace fdlab
