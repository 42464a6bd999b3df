// Paper-ready exports (core/io/latex_export.h, saveCurvesTex/saveCurvesTable) and the
// provenance record (core/eval/provenance.h): escaping of hostile names, the figure's and the
// table's structure and numbers against the chart they come from, pdflatex compiling both when
// TeX Live with pgfplots, standalone and booktabs is installed, and old results files (without a
// record) still loading.

#include "core/eval/provenance.h"
#include "core/eval/results_io.h"
#include "core/io/latex_export.h"
#include "core/util/install_paths.h"
#include "file_helpers.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <fstream>
#include <string>

using namespace fdlab;
using namespace fdlab::test;

namespace {

ChartSpec hostileChart() {
    ChartSpec c;
    c.title = "spam_vs_ham 100% & #1 {x} $5 ~ ^ \\";
    c.xLabel = "deleted features";
    c.yLabel = "test error";
    c.series = {{"FDROP_K=5 (50%)", {0, 1, 2}, {0.1, 0.25, 0.5}, {0.01, 0.02, 0.034}},
                {"SVM & #2", {0, 2}, {0.12, 0.61}, {}},
                {"paper", {1}, {0.3}, {}, true}};
    return c;
}

/// pdflatex with the packages the exports need, or "" when they are not all installed.
QString pdflatex() {
    const QString exe = QStandardPaths::findExecutable("pdflatex");
    if (exe.isEmpty()) return {};
    for (const char* sty : {"pgfplots.sty", "standalone.cls", "booktabs.sty"}) {
        QProcess k;
        k.start("kpsewhich", {sty});
        if (!k.waitForFinished(30000) || k.readAllStandardOutput().trimmed().isEmpty()) return {};
    }
    return exe;
}

bool compiles(const QString& exe, const QString& dir, const QString& file, QString* log) {
    QProcess p;
    p.setWorkingDirectory(dir);
    p.start(exe, {"-interaction=nonstopmode", "-halt-on-error", file});
    const bool ok = p.waitForFinished(120000) && p.exitCode() == 0;
    *log = QString::fromUtf8(p.readAllStandardOutput()).right(1500);
    return ok;
}

}  // namespace

class TestLatexExport : public QObject {
    Q_OBJECT

private slots:
    void escapesEverySpecialCharacter() {
        QCOMPARE(latexEscape("a_b%c&d#e$f{g}h~i^j\\k"),
                 std::string("a\\_b\\%c\\&d\\#e\\$f\\{g\\}h\\textasciitilde{}i\\textasciicircum{}j\\textbackslash{}k"));
        QCOMPARE(latexEscape("two\nlines"), std::string("two lines"));
        QCOMPARE(latexEscape("caf\xC3\xA9"), std::string("caf\xC3\xA9"));
    }

    void controlCharactersNeverReachTheFile() {
        // A vertical tab or escape is an "invalid character" to TeX, a form feed a \\par.
        QCOMPARE(latexEscape("a\vb\x1b" "c\fd\x7f" "e\tf"), std::string("a b c d e f"));
        ChartSpec c = hostileChart();
        c.series[1].name = "SV\nM\v";
        const std::string t = booktabsTable(c, {"id: SV\vM"});
        QVERIFY(std::all_of(t.begin(), t.end(), [](char ch) { return ch == '\n' || (static_cast<unsigned char>(ch) >= 0x20 && ch != 0x7f); }));
        QVERIFY2(t.find(" & SV M  \\\\\n\\midrule") != std::string::npos, t.c_str());
        const std::string f = pgfplotsFigure(c, {"id: SV\vM"});
        QVERIFY(std::all_of(f.begin(), f.end(), [](char ch) { return ch == '\n' || (static_cast<unsigned char>(ch) >= 0x20 && ch != 0x7f); }));
        // Experiment files refuse such ids outright (they also name CSV columns and legends).
        const nlohmann::json spec = {{"dataset", {{"bundled", "heart_scale"}}},
                                     {"learners", {{{"id", "SV\nM"}, {"learner", "svm"}}}},
                                     {"attack", {{"threat", "none"}}},
                                     {"levels", {0}}};
        try {
            experimentFromJson(spec).validate();
            QFAIL("a learner id with a newline was accepted");
        } catch (const std::invalid_argument& e) {
            QCOMPARE(std::string(e.what()), std::string("experiment field 'learners[0].id': must not contain control characters "
                                                        "(newlines, tabs, ...), got \"SV\\nM\""));
        }
    }

    void figureHoldsTheChartsNumbers() {
        const std::string tex = pgfplotsFigure(hostileChart(), {"fdlab: 0.1.0", "spec: {\"a\": 1}\nsecond"});
        QVERIFY(tex.starts_with("% fdlab: 0.1.0\n% spec: {\"a\": 1} second\n\\documentclass{standalone}"));
        QVERIFY(tex.find("title={spam\\_vs\\_ham 100\\% \\& \\#1 \\{x\\} \\$5 \\textasciitilde{} \\textasciicircum{} \\textbackslash{}}") != std::string::npos);
        QVERIFY(tex.find("\\addlegendentry{FDROP\\_K=5 (50\\%)}") != std::string::npos);
        QVERIFY(tex.find("\\addlegendentry{SVM \\& \\#2}") != std::string::npos);
        // Error bars only where the series has se; the paper's numbers as marks only.
        QVERIFY(tex.find("y error=se] {\nlevel mean se\n0 0.1 0.01\n1 0.25 0.02\n2 0.5 0.034\n};") != std::string::npos);
        QVERIFY(tex.find("y=mean] {\nlevel mean\n0 0.12\n2 0.61\n};") != std::string::npos);
        QVERIFY(tex.find("only marks") != std::string::npos);
        QVERIFY(tex.ends_with("\\end{axis}\n\\end{tikzpicture}\n\\end{document}\n"));
    }

    void tableHoldsMeanAndSePerLevel() {
        const std::string t = booktabsTable(hostileChart(), {"fdlab: x"}, 3);
        QVERIFY(t.starts_with("% fdlab: x\n"));
        QVERIFY(t.find("\\begin{tabular}{rcc}\n\\toprule\ndeleted features & FDROP\\_K=5 (50\\%) & SVM \\& \\#2 \\\\\n\\midrule\n") !=
                std::string::npos);
        QVERIFY(t.find("0 & $0.100 \\pm 0.010$ & $0.120$ \\\\\n") != std::string::npos);
        QVERIFY(t.find("1 & $0.250 \\pm 0.020$ & -- \\\\\n") != std::string::npos);
        QVERIFY(t.find("2 & $0.500 \\pm 0.034$ & $0.610$ \\\\\n\\bottomrule\n\\end{tabular}\n") != std::string::npos);
        QVERIFY(t.find("paper") == std::string::npos);   // reference marks are not a column
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, booktabsTable(hostileChart(), {}, 11));
        ChartSpec empty;
        empty.series = {{"none", {}, {}, {}}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pgfplotsFigure(empty));
        ChartSpec nan = hostileChart();
        nan.series[0].y[1] = std::nan("");
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, booktabsTable(nan));
    }

    void compilesWithPdflatex() {
        const QString exe = pdflatex();
        if (exe.isEmpty())
            QSKIP("pdflatex with pgfplots, standalone and booktabs is not installed (Debian texlive-latex-base, "
                  "texlive-pictures, texlive-latex-recommended, texlive-latex-extra); the structure tests above ran");
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString();
        writeAll(d + "/fig.tex", pgfplotsFigure(hostileChart(), {"provenance"}));
        writeAll(d + "/table.tex", booktabsTable(hostileChart(), {"provenance"}));
        writeAll(d + "/doc.tex", "\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n\\input{table.tex}\n\\end{document}\n");
        QString log;
        QVERIFY2(compiles(exe, dir.path(), "fig.tex", &log), qPrintable(log));
        QVERIFY2(compiles(exe, dir.path(), "doc.tex", &log), qPrintable(log));
        QVERIFY(readAll(d + "/fig.pdf").starts_with("%PDF"));
    }

    void provenanceRecord() {
        ExperimentSpec spec;
        spec.name = "p";
        spec.seed = 42;
        const nlohmann::json p = makeProvenance(spec, 3, "0123456789abcdef");
        QCOMPARE(p.at("fdlab").get<std::string>(), versionString());
        QCOMPARE(p.at("seed").get<std::uint64_t>(), std::uint64_t{42});
        QCOMPARE(p.at("threads").get<int>(), 3);
        QCOMPARE(p.at("data_fingerprint").get<std::string>(), std::string("0123456789abcdef"));
        QCOMPARE(p.at("host").get<std::string>(), hostName());
        QVERIFY(!p.at("cpu").get<std::string>().empty());
        QVERIFY(p.at("spec") == toJson(spec));
        const auto lines = provenanceLines(p);
        QCOMPARE(lines.front(), "fdlab: " + versionString());
        QVERIFY(lines.back().starts_with("spec: {"));
        for (const auto& l : lines) QVERIFY(l.find('\n') == std::string::npos);
    }

    void resultsFilesCarryTheRecordAndOldOnesLoad() {
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString();
        ExperimentResult r;
        r.spec.name = "tiny_100%";
        r.spec.dataset.bundled = "heart_scale";
        LearnerSpec l;
        l.id = "svm_a";
        l.learner = "svm";
        r.spec.learners = {l};
        r.spec.levels = {0, 1};
        CurvePoint a;
        a.learner = "svm_a";
        a.error = 0.2;
        CurvePoint b = a;
        b.levelIndex = 1;
        b.level = 1.0;
        b.error = 0.4;
        r.points = {a, b};
        r.summary = summarizePoints(r.points);
        r.provenance = makeProvenance(r.spec, 2, "00000000000000aa");
        saveResultsJson(r, d + "/r.json");
        const ExperimentResult back = loadResultsJson(d + "/r.json");
        QCOMPARE(back.provenance.at("data_fingerprint").get<std::string>(), std::string("00000000000000aa"));
        QVERIFY(!back.provenance.contains("spec"));   // stored once, at the top level
        saveCurvesCsv(back, d + "/c.csv");
        const std::string csv = readAll(d + "/c.csv");
        QVERIFY(csv.starts_with("# fdlab: " + versionString() + "\n# seed: 1\n# data_fingerprint: 00000000000000aa\n# threads: 2\n"));
        QVERIFY(csv.find("\n# spec: {") != std::string::npos);
        QVERIFY(csv.find("\nlearner,level,repetitions,mean_error") != std::string::npos);
        saveResultsOrCurves(back, d + "/f.TEX");
        saveResultsOrCurves(back, d + "/t.tex", true);
        QVERIFY(readAll(d + "/f.TEX").find("\\addlegendentry{svm\\_a}") != std::string::npos);
        QVERIFY(readAll(d + "/f.TEX").find("title={tiny\\_100\\%}") != std::string::npos);
        QVERIFY(readAll(d + "/t.tex").find("0 & $0.200 \\pm 0.000$ \\\\") != std::string::npos);
        QVERIFY(readAll(d + "/t.tex").starts_with("% fdlab: "));

        // A results file from before the record: loads, and its exports get the writer's record.
        nlohmann::json old = resultsToJson(r);
        old.erase("provenance");
        writeAll(d + "/old.json", old.dump(2));
        const ExperimentResult o = loadResultsJson(d + "/old.json");
        QVERIFY(o.provenance.is_null());
        QCOMPARE(o.points.size(), std::size_t{2});
        saveCurvesTex(o, d + "/o.tex");
        QVERIFY(readAll(d + "/o.tex").starts_with("% fdlab: " + versionString() + "\n% seed: 1\n% threads: 1\n% host: "));
    }
};

QTEST_GUILESS_MAIN(TestLatexExport)
#include "test_latex_export.moc"
