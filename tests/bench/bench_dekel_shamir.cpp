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

#include "core/data/bundled.h"
#include "core/data/split.h"
#include "core/data/task.h"
#include "core/learners/dekel_shamir_lp.h"
#include "core/learners/dekel_shamir_perceptron.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
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

}  // namespace

int main(int argc, char** argv) {
    std::vector<int> sizes{100, 200, 500, 1000};
    int simplexMax = 200;
    double limit = 300;
    bool ip = false, verbose = false;
    int cgMax = 100;
    int activeMax = 1000;
    for (int a = 1; a < argc; ++a) {
        const std::string s = argv[a];
        if (s == "--sizes" && a + 1 < argc) sizes = parseSizes(argv[++a]);
        else if (s == "--simplex-max" && a + 1 < argc) simplexMax = std::atoi(argv[++a]);
        else if (s == "--limit" && a + 1 < argc) limit = std::atof(argv[++a]);
        else if (s == "--ip") ip = true;
        else if (s == "--verbose") verbose = true;
        else if (s == "--cg-max" && a + 1 < argc) cgMax = std::atoi(argv[++a]);
        else if (s == "--active-max" && a + 1 < argc) activeMax = std::atoi(argv[++a]);
        else {
            std::fprintf(stderr, "unknown argument %s\n", s.c_str());
            return 2;
        }
    }
    try {
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
