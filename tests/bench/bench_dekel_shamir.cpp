// Hand-run benchmark: the Dekel-Shamir LP (4) on MNIST 3 vs 5 (v_j = 1, N = 20, gamma = 1, C = 1,
// b free) for 100, 200, 500 and 1000 training digits without bagging, by
//   - LP (4) with alpha_ij eliminated where x_ij = 0, GLPK primal simplex ("simplex"),
//   - the same with GLPK's interior point ("interior", only with --ip; it cannot be interrupted),
//   - constraint generation on LP (3) with the sorting oracle, dual simplex warm starts ("cg",
//     only up to --cg-max digits, default 100: it converges slowly),
// LP (4) by FDLab's structured interior point (the default, "structured IPM") and by the
// active-set method (hinge terms generated as needed, "active set", only up to --active-max
// digits, default 1000), and the Dekel-Shamir Perceptron (10 epochs) for comparison. Prints one
// table: time, LP value, clean test error on the held-out 3s and 5s. The LP methods must agree
// on the value (the test errors may differ: where LP (4) has several optimal (w, b), the simplex
// returns a vertex and the interior point a point inside the optimal face).
//
// Usage: bench_dekel_shamir [--sizes 100,200,500,1000] [--simplex-max M] [--cg-max M]
//                           [--active-max M] [--limit SECONDS] [--ip] [--verbose]
//   --simplex-max: largest training size given to the full simplex (default 200; it grows
//   steeply), --limit: time limit per full-LP solve (default 300 s).
//
// Text mode (issue 30): bench_dekel_shamir --spam [--budgets 10,20,40] [--sub 300] [--peer-only]
//                                            [--limit S]
//   The bundled SpamAssassin training part (4,232 messages x 24,598 words, sparse) with
//   mutual-information word values, gamma 0.1, C 1, b free (the spam preset's settings), one
//   LP (4) per budget N by the structured interior point, whose (w, b) Newton systems are solved
//   by conjugate gradients above 3000 words: wall time, peak resident memory of the fit (VmHWM,
//   reset before each fit through /proc/self/clear_refs) and the LP value. Peer, same run: the
//   GLPK active-set simplex against the interior point on `sub` messages (every 14th, all
//   words), where the active set finishes; the values must agree to 1e-6 (relative).
//   --data NAME: another bundled set (e.g. spamassassin-common, 2,200 words); --dense-max K:
//   the interior point's ipmDenseMaxFeatures for the full-part fits; --block F: its
//   ipmCgBlockFeatures (0: Jacobi alone); --every K: the "full part"
//   is every K-th message only (quicker experiments on the same vocabulary); --dump FILE: write
//   that part (first line m n, second line the n word values, then one line per message: label
//   and word:value pairs) for an outside LP solver (tests/bench/ds_lp_highs.py) and stop.
//   FDLAB_IPM_TRACE=1 with --verbose: per-block complementarity and step lengths per iteration.

#include "core/data/bundled.h"
#include "core/data/importance.h"
#include "core/data/split.h"
#include "core/data/task.h"
#include "core/learners/dekel_shamir_lp.h"
#include "core/learners/dekel_shamir_perceptron.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace fdlab;

namespace {

std::vector<int> parseSizes(const std::string& s) {
    std::vector<int> out;
    std::stringstream ss(s);
    std::string tok;
    while (std::getline(ss, tok, ',')) out.push_back(std::stoi(tok));
    return out;
}

void row(int m, const char* method, const FitResult& r, const Dataset& test, const std::string& extra = {}) {
    std::printf("%5d  %-22s %9.2f  %12.7f  %7.4f  %-10s %s\n", m, method, r.elapsed, r.objective,
                r.model.errorRate(test), toString(r.status), extra.c_str());
    std::fflush(stdout);
}

/// Peak resident set size of this process in MB (VmHWM), -1 if unknown.
double peakRssMb() {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::atof(line.c_str() + 6) / 1024.0;
    return -1.0;
}

/// Resets VmHWM to the current resident size (Linux >= 4.0), so the next reading is the peak of
/// what follows.
void resetPeakRss() {
    std::ofstream out("/proc/self/clear_refs");
    out << "5";
}

int spamMode(const std::string& data, const std::vector<int>& budgets, int sub, bool full, int denseMax, int block, double limit,
             bool verbose, int every, const std::string& dump) {
    Dataset train = loadBundled(data);
    train.importance = mutualInformationImportance(train);
    if (every > 1) {
        std::vector<int> kept;
        for (int i = 0; i < train.rows(); i += every) kept.push_back(i);
        train = train.subset(kept);
    }
    if (!dump.empty()) {
        std::ofstream out(dump);
        out.precision(17);
        out << train.rows() << ' ' << train.features() << '\n';
        for (double v : train.importance) out << v << ' ';
        out << '\n';
        for (int i = 0; i < train.rows(); ++i) {
            out << train.y(i);
            train.forEachNonZero(i, [&](int j, float x) { out << ' ' << j << ':' << x; });
            out << '\n';
        }
        std::printf("wrote %d messages x %d words to %s\n", train.rows(), train.features(), dump.c_str());
        return out ? 0 : 1;
    }
    long nnz = 0;
    for (int i = 0; i < train.rows(); ++i) train.forEachNonZero(i, [&](int, float) { ++nnz; });
    const auto [vmin, vmax] = std::minmax_element(train.importance.begin(), train.importance.end());
    std::printf("SpamAssassin training part: %d messages, %d words, %ld non-zeros; mutual-information values "
                "%.2f..%.2f; gamma 0.1, C 1, b free; after loading: peak RSS %.0f MB\n",
                train.rows(), train.features(), nnz, *vmin, *vmax, peakRssMb());
    std::printf("%6s %6s  %-28s %9s %9s  %14s  %-10s %s\n", "m", "N", "method", "seconds", "peak MB", "LP value",
                "status", "notes");
    RunControl rc;
    Stopwatch clock;
    if (verbose)
        rc.onProgress = [&](const Progress& pr) {
            std::fprintf(stderr, "  [%7.2f s] %s\n", clock.seconds(), pr.message.c_str());
        };
    auto fit = [&](const Dataset& d, double N, DekelShamirLpMethod method, int denseMax, const char* name,
                   const std::string& note = {}) {
        DekelShamirLpParams p;
        p.gamma = 0.1;
        p.C = 1;
        p.N = N;
        p.useImportance = true;
        p.method = method;
        p.ipmDenseMaxFeatures = denseMax;
        if (block >= 0) p.ipmCgBlockFeatures = block;
        p.timeLimit = limit;
        resetPeakRss();
        clock = Stopwatch();
        const FitResult r = fitDekelShamirLp(d, p, rc);
        std::printf("%6d %6g  %-28s %9.2f %9.0f  %14.9f  %-10s %s%s\n", d.rows(), N, name, r.elapsed, peakRssMb(),
                    r.objective, toString(r.status), note.c_str(), r.message.c_str());
        std::fflush(stdout);
        return r;
    };
    // Peer first (small), then the full training part.
    std::vector<int> rows;
    for (int i = 0; i < train.rows() && static_cast<int>(rows.size()) < sub; i += 14) rows.push_back(i);
    const Dataset part = train.subset(rows);  // keeps the full vocabulary and the values
    for (int N : budgets) {
        if (sub <= 0) break;
        const FitResult as = fit(part, N, DekelShamirLpMethod::ActiveSet, 3000, "LP (4) active set (GLPK)");
        const FitResult cg = fit(part, N, DekelShamirLpMethod::StructuredInteriorPoint, 3000, "structured IPM (CG)");
        std::printf("%6s %6s  relative |IPM - active set| %.2e; time active set / IPM %.1fx\n", "", "",
                    std::abs(cg.objective - as.objective) / std::max(1.0, std::abs(as.objective)),
                    as.elapsed / cg.elapsed);
    }
    if (full)
        for (int N : budgets)
            fit(train, N, DekelShamirLpMethod::StructuredInteriorPoint, denseMax,
                train.features() > denseMax ? "structured IPM, CG" : "structured IPM, dense");
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<int> sizes{100, 200, 500, 1000};
    int simplexMax = 200;
    double limit = 300;
    bool ip = false, verbose = false;
    int cgMax = 100;
    int activeMax = 1000;
    bool spam = false;
    std::vector<int> budgets{10, 20, 40};
    int sub = 300;
    bool full = true;
    std::string data = "spamassassin";
    int denseMax = 3000;
    int block = -1;   // --block F: the interior point's ipmCgBlockFeatures (default: the library's)
    int every = 1;
    std::string dump;
    for (int a = 1; a < argc; ++a) {
        const std::string s = argv[a];
        if (s == "--sizes" && a + 1 < argc) sizes = parseSizes(argv[++a]);
        else if (s == "--simplex-max" && a + 1 < argc) simplexMax = std::atoi(argv[++a]);
        else if (s == "--limit" && a + 1 < argc) limit = std::atof(argv[++a]);
        else if (s == "--ip") ip = true;
        else if (s == "--verbose") verbose = true;
        else if (s == "--cg-max" && a + 1 < argc) cgMax = std::atoi(argv[++a]);
        else if (s == "--block" && a + 1 < argc) block = std::atoi(argv[++a]);
        else if (s == "--active-max" && a + 1 < argc) activeMax = std::atoi(argv[++a]);
        else if (s == "--spam") spam = true;
        else if (s == "--budgets" && a + 1 < argc) budgets = parseSizes(argv[++a]);
        else if (s == "--sub" && a + 1 < argc) sub = std::atoi(argv[++a]);
        else if (s == "--peer-only") full = false;
        else if (s == "--data" && a + 1 < argc) data = argv[++a];
        else if (s == "--dense-max" && a + 1 < argc) denseMax = std::atoi(argv[++a]);
        else if (s == "--every" && a + 1 < argc) every = std::atoi(argv[++a]);
        else if (s == "--dump" && a + 1 < argc) dump = argv[++a];
        else {
            std::fprintf(stderr, "unknown argument %s\n", s.c_str());
            return 2;
        }
    }
    try {
        if (spam) return spamMode(data, budgets, sub, full, denseMax, block, limit, verbose, every, dump);
        const Dataset all = binaryView(loadBundled("mnist"), {"3"}, {"5"});
        std::printf("MNIST 3 vs 5: %d digits, %d pixels; v_j = 1, N = 20, gamma = 1, C = 1, b free\n", all.rows(),
                    all.features());
        std::printf("%5s  %-22s %9s  %12s  %7s  %-10s %s\n", "m", "method", "seconds", "objective", "test err",
                    "status", "notes");
        for (int m : sizes) {
            // m/2 training digits of each class; the test part is every other 3 and 5.
            const TrainValTest split = splitByCounts(all, m / 2, 0, -1, 1);
            const Dataset train = all.subset(split.train), test = all.subset(split.test);
            DekelShamirLpParams p;
            p.N = 20;
            p.useImportance = false;
            p.timeLimit = limit;

            RunControl rc;
            Stopwatch clock;
            if (verbose)
                rc.onProgress = [&](const Progress& pr) {
                    std::fprintf(stderr, "  [%7.2f s] %s\n", clock.seconds(), pr.message.c_str());
                };
            p.method = DekelShamirLpMethod::StructuredInteriorPoint;
            const FitResult ipm = fitDekelShamirLp(train, p, rc);
            row(m, "LP (4) structured IPM", ipm, test, ipm.message);
            clock = Stopwatch();
            if (m <= activeMax) {
                p.method = DekelShamirLpMethod::ActiveSet;
                const FitResult as = fitDekelShamirLp(train, p, rc);
                char asNote[240];
                std::snprintf(asNote, sizeof asNote, "|diff to IPM| %.2e; %s", std::abs(as.objective - ipm.objective),
                              as.message.c_str());
                row(m, "LP (4) active set", as, test, asNote);
            }

            if (m <= cgMax) {
                clock = Stopwatch();
                p.method = DekelShamirLpMethod::ConstraintGeneration;
                const FitResult cg = fitDekelShamirLp(train, p, rc);
                char note[200];
                std::snprintf(note, sizeof note, "|diff| %.2e, gap %.2e; %s", std::abs(cg.objective - ipm.objective),
                              cg.gap, cg.message.substr(0, 80).c_str());
                row(m, "LP (3) cutting planes", cg, test, note);
            }

            if (m <= simplexMax) {
                p.method = DekelShamirLpMethod::Simplex;
                const FitResult sx = fitDekelShamirLp(train, p);
                char note[160];
                std::snprintf(note, sizeof note, "|diff to IPM| %.2e; %ld iterations", std::abs(sx.objective - ipm.objective),
                              sx.iterations);
                row(m, "LP (4) reduced simplex", sx, test, note);
            }
            if (ip && m <= 100) {
                p.method = DekelShamirLpMethod::InteriorPoint;
                const FitResult ir = fitDekelShamirLp(train, p);
                char note[160];
                std::snprintf(note, sizeof note, "|diff to IPM| %.2e", std::abs(ir.objective - ipm.objective));
                row(m, "LP (4) reduced interior", ir, test, note);
            }
            DekelShamirPerceptronParams pp;
            pp.N = 20;
            pp.useImportance = false;
            pp.epochs = 10;
            const FitResult pc = fitDekelShamirPerceptron(train, pp);
            row(m, "Perceptron 10 epochs", pc, test, "objective = train loss of the average");
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_dekel_shamir: %s\n", e.what());
        return 1;
    }
    return 0;
}
