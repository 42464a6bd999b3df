#include "core/data/importance.h"

#include "core/data/csv_format.h"

#include "core/util/atomic_file.h"
#include "core/util/errors.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

namespace fdlab {

namespace {

/// Feature names of d (the defaults "f1".."fn" when it has none).
std::vector<std::string> featureNamesOf(const Dataset& d, const char* where) {
    const auto n = static_cast<std::size_t>(d.features());
    if (!d.featureNames.empty() && d.featureNames.size() != n)
        throw std::invalid_argument(std::string(where) + ": dataset has " + std::to_string(d.featureNames.size()) +
                                    " feature names for " + std::to_string(n) + " features");
    return d.featureNameList();
}

// Trimming and quoting for messages are the loaders' (csv_format.h).
using detail::trim;
using detail::inQuotes;

/// A name must be quoted in the file when it would otherwise not read back as itself.
bool needsQuotes(const std::string& s) {
    if (s.empty()) return true;
    if (s.find_first_of(",\"\n\r") != std::string::npos) return true;
    if (s.front() == '#' || trim(s).size() != s.size()) return true;
    return false;
}

std::string csvField(const std::string& s) {
    if (!needsQuotes(s)) return s;
    std::string r = "\"";
    for (char c : s) {
        if (c == '"') r += '"';
        r += c;
    }
    return r + "\"";
}

std::string formatDouble(double v) {
    char buf[64];
    // Shortest representation that reads back to the same double; locale-independent.
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

}  // namespace

std::vector<double> uniformImportance(const Dataset& d) {
    return std::vector<double>(static_cast<std::size_t>(d.features()), 1.0);
}

std::vector<double> importanceFromCsv(const Dataset& d, const std::string& path) {
    const auto names = featureNamesOf(d, "importance file");
    std::unordered_map<std::string, std::size_t> index;
    for (std::size_t j = 0; j < names.size(); ++j)
        if (!index.emplace(names[j], j).second)
            throw std::invalid_argument("importance file: the dataset has two features named '" + names[j] +
                                        "', so an importance file cannot tell them apart");

    std::ifstream in(path, std::ios::binary);
    if (!in) throw DataError(path, 0, "cannot open importance file");

    std::vector<double> v(names.size(), 0.0);
    std::vector<long> seenOn(names.size(), 0);
    std::string raw;
    long lineNo = 0;
    bool firstData = true;
    while (std::getline(in, raw)) {
        ++lineNo;
        const std::string_view line = trim(raw);
        if (line.empty() || line.front() == '#') continue;
        auto fail = [&](const std::string& msg) { throw DataError(path, lineNo, msg); };

        // Name: a quoted field ("" is a quote), or everything up to the last comma.
        std::string name;
        std::string_view rest;
        if (line.front() == '"') {
            std::size_t k = 1;
            bool closed = false;
            for (; k < line.size(); ++k) {
                if (line[k] != '"') {
                    name += line[k];
                } else if (k + 1 < line.size() && line[k + 1] == '"') {
                    name += '"';
                    ++k;
                } else {
                    closed = true;
                    ++k;
                    break;
                }
            }
            if (!closed) fail("unterminated quoted feature name");
            rest = trim(line.substr(k));
            if (rest.empty() || rest.front() != ',') fail("expected 'name,value' (no comma after the quoted name)");
            rest.remove_prefix(1);
        } else {
            const std::size_t comma = line.rfind(',');
            if (comma == std::string_view::npos) fail("expected 'name,value', got " + inQuotes(line));
            name = std::string(trim(line.substr(0, comma)));
            rest = line.substr(comma + 1);
        }
        const std::string_view valueText = trim(rest);

        if (firstData) {
            firstData = false;
            auto lower = [](std::string_view s) {
                std::string r(s);
                for (char& c : r)
                    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
                return r;
            };
            if (lower(name) == "name" && lower(valueText) == "value" && index.find(name) == index.end()) continue;
        }

        const auto it = index.find(name);
        if (it == index.end()) fail("unknown feature " + inQuotes(name));
        const std::size_t j = it->second;
        if (seenOn[j] != 0)
            fail("feature " + inQuotes(name) + " listed twice (first on line " + std::to_string(seenOn[j]) + ")");

        std::string_view num = valueText;
        if (num.size() > 1 && num.front() == '+') num.remove_prefix(1);
        double x = 0.0;
        const auto res = std::from_chars(num.data(), num.data() + num.size(), x);
        if (num.empty() || res.ec == std::errc::invalid_argument || res.ptr != num.data() + num.size())
            fail("value " + inQuotes(valueText) + " of feature " + inQuotes(name) + " is not a number");
        if (res.ec == std::errc::result_out_of_range || !std::isfinite(x))
            fail("value " + inQuotes(valueText) + " of feature " + inQuotes(name) + " is not finite");
        if (!(x > 0.0))
            fail("value " + inQuotes(valueText) + " of feature " + inQuotes(name) + " must be > 0");
        v[j] = x;
        seenOn[j] = lineNo;
    }
    if (in.bad()) throw DataError(path, 0, "read error");

    std::size_t missing = 0, first = 0;
    for (std::size_t j = seenOn.size(); j-- > 0;)
        if (seenOn[j] == 0) {
            ++missing;
            first = j;
        }
    if (missing > 0)
        throw DataError(path, 0, "feature " + inQuotes(names[first]) + " is missing" +
                                     (missing > 1 ? " (and " + std::to_string(missing - 1) + " more)" : std::string()) +
                                     "; every feature needs a value");
    return v;
}

void saveImportanceCsv(const Dataset& d, const std::vector<double>& v, const std::string& path) {
    const auto names = featureNamesOf(d, "writing the importance file");
    if (v.size() != names.size())
        throw std::invalid_argument("writing importance values: " + std::to_string(v.size()) + " values for " +
                                    std::to_string(names.size()) + " features");
    for (std::size_t j = 0; j < v.size(); ++j)
        if (!(v[j] > 0.0) || !std::isfinite(v[j]))
            throw std::invalid_argument("writing importance values: value of feature '" + names[j] + "' is " +
                                        formatDouble(v[j]) + " (must be finite and > 0)");
    std::string text = "name,value\n";
    for (std::size_t j = 0; j < v.size(); ++j) text += csvField(names[j]) + "," + formatDouble(v[j]) + "\n";
    writeFileAtomically(path, text);
}

void MutualInfoParams::validate() const {
    if (bins < 2 || bins > 256)
        throw std::invalid_argument("MutualInfoParams.bins = " + std::to_string(bins) + " outside [2, 256]");
    if (!(floor > 0.0 && floor <= 1.0))
        throw std::invalid_argument("MutualInfoParams.floor = " + std::to_string(floor) + " outside (0, 1]");
    if (!std::isfinite(total))
        throw std::invalid_argument("MutualInfoParams.total is not finite");
}

std::vector<double> mutualInformationBits(const Dataset& d, int bins) {
    if (bins < 2 || bins > 256)
        throw std::invalid_argument("mutual information: bins = " + std::to_string(bins) + " outside [2, 256]");
    const int m = d.rows();
    const int n = d.features();
    const int C = d.numClasses();
    if (static_cast<int>(d.labels.size()) != m)
        throw std::invalid_argument("mutual information: " + std::to_string(d.labels.size()) + " labels for " +
                                    std::to_string(m) + " rows");
    for (int l : d.labels)
        if (l < 0 || l >= C)
            throw std::invalid_argument("mutual information: label index " + std::to_string(l) + " outside [0, " +
                                        std::to_string(C) + ")");
    std::vector<double> I(static_cast<std::size_t>(n), 0.0);
    if (m == 0) return I;

    std::vector<long long> classCount(static_cast<std::size_t>(C), 0);
    for (int l : d.labels) ++classCount[static_cast<std::size_t>(l)];

    std::vector<float> lo, hi;
    d.columnRange(lo, hi);
    // The non-zeros by column (one pass over the rows, dense or sparse); a column's zeros are
    // counted per class as the class size minus its non-zeros.
    std::vector<std::int64_t> colStart(static_cast<std::size_t>(n) + 1, 0);
    for (int i = 0; i < m; ++i) d.forEachNonZero(i, [&](int j, float) { ++colStart[static_cast<std::size_t>(j) + 1]; });
    for (std::size_t j = 0; j < static_cast<std::size_t>(n); ++j) colStart[j + 1] += colStart[j];
    std::vector<std::pair<float, int>> entries(static_cast<std::size_t>(colStart.back()));
    {
        std::vector<std::int64_t> next(colStart.begin(), colStart.end() - 1);
        for (int i = 0; i < m; ++i)
            d.forEachNonZero(i, [&](int j, float x) {
                entries[static_cast<std::size_t>(next[static_cast<std::size_t>(j)]++)] = {x, d.labels[static_cast<std::size_t>(i)]};
            });
    }
    std::vector<long long> joint(static_cast<std::size_t>(bins) * static_cast<std::size_t>(C));
    std::vector<long long> binCount(static_cast<std::size_t>(bins));
    std::vector<long long> zeros(static_cast<std::size_t>(C));
    const auto M = static_cast<long long>(m);
    for (int j = 0; j < n; ++j) {
        const double a = lo[static_cast<std::size_t>(j)], b = hi[static_cast<std::size_t>(j)];
        if (!std::isfinite(a) || !std::isfinite(b))
            throw std::invalid_argument("mutual information: feature " + std::to_string(j + 1) +
                                        " has a non-finite value");
        if (!(b > a)) continue;  // constant feature: a single bin, I = 0
        std::fill(joint.begin(), joint.end(), 0);
        std::fill(binCount.begin(), binCount.end(), 0);
        zeros.assign(classCount.begin(), classCount.end());
        // Bins [a + k w, a + (k+1) w), w = (b - a)/bins; the last one closed so b falls in it.
        auto binOf = [&](double x) { return std::min(static_cast<int>((x - a) / (b - a) * bins), bins - 1); };
        auto count = [&](int k, int c, long long times) {
            joint[static_cast<std::size_t>(k) * static_cast<std::size_t>(C) + static_cast<std::size_t>(c)] += times;
            binCount[static_cast<std::size_t>(k)] += times;
        };
        for (auto e = colStart[static_cast<std::size_t>(j)]; e < colStart[static_cast<std::size_t>(j) + 1]; ++e) {
            const auto& [x, c] = entries[static_cast<std::size_t>(e)];
            count(binOf(static_cast<double>(x)), c, 1);
            --zeros[static_cast<std::size_t>(c)];
        }
        for (int c = 0; c < C; ++c)
            if (zeros[static_cast<std::size_t>(c)] > 0) count(binOf(0.0), c, zeros[static_cast<std::size_t>(c)]);
        double sum = 0.0;
        for (int k = 0; k < bins; ++k)
            for (int c = 0; c < C; ++c) {
                const long long nbc = joint[static_cast<std::size_t>(k) * static_cast<std::size_t>(C) +
                                            static_cast<std::size_t>(c)];
                if (nbc == 0) continue;  // 0 log 0 = 0
                // p(b,c) / (p(b) p(c)) = n_bc m / (n_b n_c): exact integer products, so an exactly
                // independent cell gives log2(1) = 0 with no rounding noise.
                const double ratio = static_cast<double>(nbc * M) /
                                     static_cast<double>(binCount[static_cast<std::size_t>(k)] *
                                                         classCount[static_cast<std::size_t>(c)]);
                sum += static_cast<double>(nbc) / static_cast<double>(M) * std::log2(ratio);
            }
        I[static_cast<std::size_t>(j)] = std::max(sum, 0.0);  // MI >= 0; drop a rounding -1e-17
    }
    return I;
}

std::vector<double> mutualInformationImportance(const Dataset& d, const MutualInfoParams& p) {
    p.validate();
    const auto I = mutualInformationBits(d, p.bins);
    const std::size_t n = I.size();
    if (n == 0) return {};
    const double maxI = *std::max_element(I.begin(), I.end());
    std::vector<double> r(n, 1.0);
    if (maxI > 0.0)
        for (std::size_t j = 0; j < n; ++j) r[j] = p.floor + (1.0 - p.floor) * I[j] / maxI;
    double sumR = 0.0;
    for (double x : r) sumR += x;
    const double T = p.total > 0.0 ? p.total : static_cast<double>(n);
    for (double& x : r) x = x * T / sumR;
    return r;
}

}  // namespace fdlab
