#include "core/io/curve_chart.h"

#include "core/io/png_writer.h"

#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace fdlab {

namespace {

// Okabe-Ito, as the GUI's curves (ui/plots/curve_plot.cpp).
constexpr unsigned kPalette[] = {0x0072B2, 0xD55E00, 0x009E73, 0xCC79A7, 0xE69F00, 0x56B4E9, 0x787878, 0x000000};

void setColour(cairo_t* cr, unsigned rgb, double alpha = 1.0) {
    cairo_set_source_rgba(cr, ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0, (rgb & 0xff) / 255.0, alpha);
}

// A "nice" tick step (1, 2, 2.5 or 5 times a power of ten) for about `ticks` intervals.
double niceStep(double range, int ticks) {
    if (!(range > 0)) return 1.0;
    const double raw = range / ticks;
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (m * p >= raw) return m * p;
    return 10.0 * p;
}

// Enough decimals to tell ticks `step` apart (0.25 -> 2, 0.1 -> 1, 25 -> 0).
std::string tickText(double v, double step) {
    int decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
    const double scaled = step * std::pow(10.0, decimals);
    if (std::abs(scaled - std::round(scaled)) > 1e-6) ++decimals;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", std::min(decimals, 6), v);
    return buf;
}

void text(cairo_t* cr, const std::string& s, double x, double y, double alignX, double alignY, double angle = 0.0) {
    cairo_text_extents_t e;
    cairo_text_extents(cr, s.c_str(), &e);
    cairo_save(cr);
    cairo_translate(cr, x, y);
    cairo_rotate(cr, angle);
    cairo_move_to(cr, -e.x_bearing - alignX * e.width, -e.y_bearing - alignY * e.height);
    cairo_show_text(cr, s.c_str());
    cairo_restore(cr);
}

double textWidth(cairo_t* cr, const std::string& s) {
    cairo_text_extents_t e;
    cairo_text_extents(cr, s.c_str(), &e);
    return e.x_advance;
}

// `s` broken at spaces into lines no wider than `width` in the current font, at most `maxLines`;
// what is left past the last line is cut there with "...". A single word wider than a line is cut.
std::vector<std::string> wrapText(cairo_t* cr, const std::string& s, double width, std::size_t maxLines) {
    std::vector<std::string> words;
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t j = std::min(s.find(' ', i), s.size());
        if (j > i) words.push_back(s.substr(i, j - i));
        i = j + 1;
    }
    const auto cut = [&](std::string line) {   // shortened, with "...", to fit (UTF-8 kept whole)
        while (!line.empty() && textWidth(cr, line + "...") > width) {
            line.pop_back();
            while (!line.empty() && (static_cast<unsigned char>(line.back()) & 0xC0) == 0x80) line.pop_back();
            if (!line.empty() && (static_cast<unsigned char>(line.back()) & 0xC0) == 0xC0) line.pop_back();
        }
        return line + "...";
    };
    std::vector<std::string> lines;
    std::string line;
    for (std::size_t w = 0; w < words.size(); ++w) {
        const std::string longer = line.empty() ? words[w] : line + " " + words[w];
        if (textWidth(cr, longer) <= width) {
            line = longer;
            continue;
        }
        const bool alone = line.empty();   // this word alone is wider than a line
        if (alone) line = words[w];
        if (lines.size() + 1 == maxLines) {
            lines.push_back(cut(longer));
            return lines;
        }
        lines.push_back(textWidth(cr, line) <= width ? line : cut(line));
        line = alone ? std::string() : words[w];
    }
    if (!line.empty()) lines.push_back(textWidth(cr, line) <= width ? line : cut(line));
    return lines;
}

}  // namespace

unsigned chartColour(int index) {
    const auto n = std::size(kPalette);
    return kPalette[static_cast<std::size_t>(((index % static_cast<int>(n)) + static_cast<int>(n)) % static_cast<int>(n))];
}

void ChartSpec::validate() const {
    if (width < 200 || width > 4000 || height < 200 || height > 4000)
        throw std::invalid_argument("chart size must be within 200..4000 pixels, got " + std::to_string(width) + " x " +
                                    std::to_string(height));
    for (const ChartSeries& s : series) {
        if (s.x.size() != s.y.size() || (!s.se.empty() && s.se.size() != s.y.size()))
            throw std::invalid_argument("chart series '" + s.name + "': x, y (and se) differ in length");
        for (std::size_t i = 0; i < s.x.size(); ++i)
            if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i]) || (!s.se.empty() && !std::isfinite(s.se[i])))
                throw std::invalid_argument("chart series '" + s.name + "': point " + std::to_string(i + 1) +
                                            " is not finite");
    }
}

RgbImage renderChart(const ChartSpec& chart) {
    chart.validate();
    const double W = chart.width, H = chart.height;
    std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> surface(
        cairo_image_surface_create(CAIRO_FORMAT_RGB24, chart.width, chart.height), cairo_surface_destroy);
    std::unique_ptr<cairo_t, decltype(&cairo_destroy)> ctx(cairo_create(surface.get()), cairo_destroy);
    cairo_t* cr = ctx.get();
    cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    setColour(cr, 0xFFFFFF);
    cairo_paint(cr);

    // Data ranges: x over every point, y from 0 to a round value above every point + se.
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, yTop = 0.0;
    bool unit = true;
    for (const ChartSeries& s : chart.series)
        for (std::size_t i = 0; i < s.x.size(); ++i) {
            x0 = std::min(x0, s.x[i]);
            x1 = std::max(x1, s.x[i]);
            const double hi = s.y[i] + (s.se.empty() ? 0.0 : s.se[i]);
            yTop = std::max(yTop, hi);
            unit = unit && s.y[i] >= 0.0 && s.y[i] <= 1.0;
        }
    if (!std::isfinite(x0)) x0 = 0.0, x1 = 1.0;
    if (x1 <= x0) x0 -= 0.5, x1 += 0.5;
    const double yStep = niceStep(std::max(yTop, 1e-3) * 1.05, 5);
    double y1 = std::ceil(std::max(yTop, 1e-3) * 1.05 / yStep) * yStep;
    if (unit) y1 = std::min(y1, 1.0);
    const double xStep = niceStep(x1 - x0, 6);
    const double pad = 0.03 * (x1 - x0);
    const double xa = x0 - pad, xb = x1 + pad;

    // The title in up to three lines across the chart (a preset's name can be long).
    cairo_set_font_size(cr, 17);
    const std::vector<std::string> titleLines =
        chart.title.empty() ? std::vector<std::string>{} : wrapText(cr, chart.title, W - 24, 3);
    const double left = 78, right = 24, top = 24 + 24.0 * static_cast<double>(titleLines.size()), bottom = 64;
    const double pw = W - left - right, ph = H - top - bottom;
    const auto px = [&](double x) { return left + (x - xa) / (xb - xa) * pw; };
    const auto py = [&](double y) { return top + (1.0 - y / y1) * ph; };

    // Title, grid, axes, ticks and labels.
    setColour(cr, 0x202020);
    for (std::size_t i = 0; i < titleLines.size(); ++i) text(cr, titleLines[i], W / 2, 12 + 24.0 * i, 0.5, 0.0);
    cairo_set_font_size(cr, 13);
    cairo_set_line_width(cr, 1.0);
    for (double y = 0.0; y <= y1 + 1e-9 * y1; y += yStep) {
        setColour(cr, 0xE4E4E4);
        cairo_move_to(cr, left, std::round(py(y)) + 0.5);
        cairo_line_to(cr, left + pw, std::round(py(y)) + 0.5);
        cairo_stroke(cr);
        setColour(cr, 0x202020);
        text(cr, tickText(y, yStep), left - 8, py(y), 1.0, 0.5);
    }
    for (double x = std::ceil(x0 / xStep) * xStep; x <= x1 + 1e-9 * std::abs(x1) + 1e-12; x += xStep) {
        setColour(cr, 0x202020);
        cairo_move_to(cr, std::round(px(x)) + 0.5, top + ph);
        cairo_line_to(cr, std::round(px(x)) + 0.5, top + ph + 5);
        cairo_stroke(cr);
        text(cr, tickText(std::abs(x) < 1e-12 ? 0.0 : x, xStep), px(x), top + ph + 9, 0.5, 0.0);
    }
    setColour(cr, 0x202020);
    cairo_rectangle(cr, left + 0.5, top + 0.5, pw, ph);
    cairo_stroke(cr);
    cairo_set_font_size(cr, 14);
    text(cr, chart.xLabel, left + pw / 2, H - 22, 0.5, 0.0);
    text(cr, chart.yLabel, 18, top + ph / 2, 0.5, 0.5, -M_PI / 2);

    // Series, clipped to the plot area.
    cairo_save(cr);
    cairo_rectangle(cr, left, top, pw, ph);
    cairo_clip(cr);
    for (const ChartSeries& s : chart.series) {
        const unsigned c = chartColour(s.colour);
        setColour(cr, c);
        cairo_set_line_width(cr, 1.5);
        if (s.markersOnly) {
            for (std::size_t i = 0; i < s.x.size(); ++i) {
                cairo_new_sub_path(cr);
                cairo_arc(cr, px(s.x[i]), py(s.y[i]), 5.5, 0, 2 * M_PI);
            }
            cairo_stroke(cr);
            continue;
        }
        if (s.dashed) {
            const double dash[] = {9.0, 5.0};
            cairo_set_dash(cr, dash, 2, 0.0);
            cairo_set_line_width(cr, 2.0);
            for (std::size_t i = 0; i < s.x.size(); ++i)
                (i == 0 ? cairo_move_to : cairo_line_to)(cr, px(s.x[i]), py(s.y[i]));
            cairo_stroke(cr);
            cairo_set_dash(cr, nullptr, 0, 0.0);
            continue;
        }
        for (std::size_t i = 0; i < s.se.size(); ++i) {   // error bars
            const double xx = px(s.x[i]);
            cairo_move_to(cr, xx, py(s.y[i] - s.se[i]));
            cairo_line_to(cr, xx, py(s.y[i] + s.se[i]));
            cairo_move_to(cr, xx - 4, py(s.y[i] - s.se[i]));
            cairo_line_to(cr, xx + 4, py(s.y[i] - s.se[i]));
            cairo_move_to(cr, xx - 4, py(s.y[i] + s.se[i]));
            cairo_line_to(cr, xx + 4, py(s.y[i] + s.se[i]));
        }
        cairo_stroke(cr);
        cairo_set_line_width(cr, 2.2);
        for (std::size_t i = 0; i < s.x.size(); ++i)
            (i == 0 ? cairo_move_to : cairo_line_to)(cr, px(s.x[i]), py(s.y[i]));
        cairo_stroke(cr);
        for (std::size_t i = 0; i < s.x.size(); ++i) {
            cairo_new_sub_path(cr);
            cairo_arc(cr, px(s.x[i]), py(s.y[i]), 3.0, 0, 2 * M_PI);
        }
        cairo_fill(cr);
    }
    cairo_restore(cr);

    // Legend: top left inside the plot, on a white box.
    cairo_set_font_size(cr, 13);
    double legendW = 0;
    for (const ChartSeries& s : chart.series) {
        cairo_text_extents_t e;
        cairo_text_extents(cr, s.name.c_str(), &e);
        legendW = std::max(legendW, e.x_advance);
    }
    if (!chart.series.empty()) {
        const double lx = left + 10, ly = top + 10, row = 19;
        setColour(cr, 0xFFFFFF, 0.88);
        cairo_rectangle(cr, lx, ly, legendW + 48, row * static_cast<double>(chart.series.size()) + 8);
        cairo_fill_preserve(cr);
        setColour(cr, 0xB0B0B0);
        cairo_set_line_width(cr, 1.0);
        cairo_stroke(cr);
        for (std::size_t k = 0; k < chart.series.size(); ++k) {
            const ChartSeries& s = chart.series[k];
            const double yy = ly + 4 + row * (static_cast<double>(k) + 0.5);
            setColour(cr, chartColour(s.colour));
            cairo_set_line_width(cr, 1.5);
            cairo_new_path(cr);   // show_text leaves a current point
            if (s.markersOnly) {
                cairo_arc(cr, lx + 18, yy, 5.0, 0, 2 * M_PI);
                cairo_stroke(cr);
            } else {
                const double dash[] = {9.0, 5.0};
                cairo_set_dash(cr, dash, s.dashed ? 2 : 0, 0.0);
                cairo_set_line_width(cr, s.dashed ? 2.0 : 2.2);
                cairo_move_to(cr, lx + 6, yy);
                cairo_line_to(cr, lx + 30, yy);
                cairo_stroke(cr);
                cairo_set_dash(cr, nullptr, 0, 0.0);
            }
            setColour(cr, 0x202020);
            text(cr, s.name, lx + 38, yy, 0.0, 0.5);
        }
    }

    cairo_surface_flush(surface.get());
    RgbImage img;
    img.resize(chart.width, chart.height);
    const unsigned char* data = cairo_image_surface_get_data(surface.get());
    const int stride = cairo_image_surface_get_stride(surface.get());
    for (int y = 0; y < chart.height; ++y)
        for (int x = 0; x < chart.width; ++x) {
            std::uint32_t px = 0;   // CAIRO_FORMAT_RGB24: native-endian 0x00RRGGBB
            std::memcpy(&px, data + static_cast<std::ptrdiff_t>(y) * stride + 4 * x, 4);
            img.set(x, y, static_cast<std::uint8_t>(px >> 16), static_cast<std::uint8_t>(px >> 8), static_cast<std::uint8_t>(px));
        }
    return img;
}

void writeChartPng(const ChartSpec& chart, const std::string& path) { savePng(renderChart(chart), path); }

}  // namespace fdlab
