// The reproduction report (core/eval/reproduction_report.h) and its charts (core/io/curve_chart.h):
// every claim kind evaluated by hand on a made-up run, malformed claims rejected with the claim's
// index, every shipped preset's claims valid, the committed report (resources/report) made from
// the presets as they are now, and charts that draw each series in its colour.

#include "core/eval/presets.h"
#include "core/eval/reproduction_report.h"
#include "core/eval/sharding.h"
#include "core/io/curve_chart.h"
#include "core/io/json_file.h"

#include <QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

using namespace fdlab;
using json = nlohmann::json;

namespace {

// Two learners A, B at levels 0, 1, 2 with the given mean errors (se 0.01), and claims.
ExperimentResult madeUp(const std::vector<double>& a, const std::vector<double>& b, const json& claims) {
    ExperimentResult r;
    r.spec.name = "made up";
    r.spec.levels = {0, 1, 2};
    for (const char* id : {"A", "B"}) {
        LearnerSpec l;
        l.id = id;
        l.learner = "svm";
        r.spec.learners.push_back(l);
    }
    r.spec.paper = {{"source", "Somebody 2000"}, {"curves", {{"A", {{1, 0.20}, {2, 0.30}}}}}, {"claims", claims}};
    for (int li = 0; li < 2; ++li)
        for (int k = 0; k < 3; ++k) {
            CurveSummary s;
            s.learner = li == 0 ? "A" : "B";
            s.learnerIndex = li;
            s.levelIndex = k;
            s.level = k;
            s.error.mean = (li == 0 ? a : b)[static_cast<std::size_t>(k)];
            s.error.se = 0.01;
            s.error.n = 5;
            r.summary.push_back(s);
        }
    return r;
}

json claim(const json& check) { return {{"text", "t"}, {"check", check}}; }

std::size_t pixelsOf(const RgbImage& img, unsigned rgb) {
    std::size_t n = 0;
    for (std::size_t i = 0; i + 2 < img.rgb.size(); i += 3)
        n += img.rgb[i] == ((rgb >> 16) & 0xff) && img.rgb[i + 1] == ((rgb >> 8) & 0xff) && img.rgb[i + 2] == (rgb & 0xff);
    return n;
}

}  // namespace

class TestReport : public QObject {
    Q_OBJECT
private slots:
    void claimKindsAgainstHandComputedVerdicts() {
        // A: 0.10 0.12 0.31, B: 0.10 0.30 0.50.
        const json claims = json::array({
            claim({{"kind", "below"}, {"learner", "A"}, {"other", "B"}}),                                  // 0.12 < 0.30, 0.31 < 0.50
            claim({{"kind", "below"}, {"learner", "A"}, {"other", "B"}, {"levels", {2}}, {"margin", 0.2}}), // 0.51 < 0.50 fails
            claim({{"kind", "close"}, {"learner", "A"}, {"other", "B"}, {"levels", {0}}, {"tolerance", 0.001}}),
            claim({{"kind", "flat"}, {"learner", "A"}, {"tolerance", 0.2}}),          // spread 0.21 fails
            claim({{"kind", "flat"}, {"learner", "A"}, {"tolerance", 0.22}}),
            claim({{"kind", "rises"}, {"learner", "B"}, {"by", 0.4}}),                // 0.40 >= 0.4
            claim({{"kind", "rises"}, {"learner", "A"}, {"by", 0.25}}),               // 0.21 fails
            claim({{"kind", "reduction"}, {"learner", "A"}, {"other", "B"}, {"levels", {1}}, {"at_least", 0.6}}),   // 60%
            claim({{"kind", "reduction"}, {"learner", "A"}, {"other", "B"}, {"levels", {1, 2}}, {"at_least", 0.5}}), // 38% at 2
            claim({{"kind", "near_paper"}, {"learner", "A"}, {"tolerance", 0.09}}),   // 0.08 at 1, 0.01 at 2
            claim({{"kind", "near_paper"}, {"learner", "A"}, {"tolerance", 0.05}}),
        });
        const ExperimentResult r = madeUp({0.10, 0.12, 0.31}, {0.10, 0.30, 0.50}, claims);
        const std::vector<ClaimResult> c = evaluateClaims(r);
        const std::vector<bool> expected = {true, false, true, false, true, true, false, true, false, true, false};
        QCOMPARE(c.size(), expected.size());
        for (std::size_t i = 0; i < c.size(); ++i) QVERIFY2(c[i].holds == expected[i], qPrintable(QString::number(i) + ": " + QString::fromStdString(c[i].evidence)));
        QCOMPARE(QString::fromStdString(c[0].evidence), QString("1: 0.120 vs 0.300; 2: 0.310 vs 0.500"));
        QCOMPARE(QString::fromStdString(c[7].evidence), QString("1: 0.300 -> 0.120 = 60% fewer errors"));
        QCOMPARE(QString::fromStdString(c[10].evidence), QString("1: 0.120 vs paper 0.200 (fails); 2: 0.310 vs paper 0.300"));
        QCOMPARE(verdictOf(c), std::string("partly reproduced"));
        QCOMPARE(verdictOf({c[0], c[2]}), std::string("reproduced"));
        QCOMPARE(verdictOf({c[1], c[3]}), std::string("not reproduced"));
        QCOMPARE(verdictOf({}), std::string("no checkable claim"));

        const PresetReport p = reportPreset("made-up", r, "made-up.png");
        QCOMPARE(p.source, std::string("Somebody 2000"));
        QCOMPARE(p.paperNumbers.size(), std::size_t(2));
        QCOMPARE(p.paperNumbers[0].measured, 0.12);
        QCOMPARE(p.paperNumbers[1].paper, 0.30);
        const json j = reportToJson({p}, "now");
        QCOMPARE(j["presets"][0]["verdict"].get<std::string>(), std::string("partly reproduced"));
        QCOMPARE(j["presets"][0]["claims"].size(), std::size_t(11));
        const std::string md = reportMarkdown({p}, "now");
        QVERIFY(md.find("| made up") == std::string::npos);   // the title links to its section
        QVERIFY(md.find("**partly reproduced**") != std::string::npos);
        QVERIFY(md.find("![made up](made-up.png)") != std::string::npos);
        QVERIFY(md.find("| A | 1 | 0.200 | 0.120 +- 0.010 |") != std::string::npos);
    }

    void evidenceOfOtherRunsIsQuotedAsSuch() {
        // "paper"."evidence": what else was varied, quoted in its own table and in report.json,
        // never mixed into the claims (the verdict rests on the claims alone).
        ExperimentResult r = madeUp({0.10, 0.12, 0.31}, {0.10, 0.30, 0.50},
                                    json::array({claim({{"kind", "below"}, {"learner", "A"}, {"other", "B"}})}));
        r.spec.paper["evidence"] = json::array({{{"varied", "training size 5,600 -> 57,000"}, {"gave", "A 0.31 -> 0.20 at 2"}},
                                                {{"varied", "bias | scaled"}, {"gave", "no change"}}});
        const PresetReport p = reportPreset("made-up", r, "made-up.png");
        QCOMPARE(p.evidence.size(), std::size_t(2));
        QCOMPARE(p.verdict, std::string("reproduced"));
        const std::string md = reportMarkdown({p}, "now");
        QVERIFY(md.find("*What else was varied* (separate runs described in the preset, not recomputed by this report):\n\n"
                        "| varied | what it gave |\n|---|---|\n| training size 5,600 -> 57,000 | A 0.31 -> 0.20 at 2 |\n") != std::string::npos);
        const json j = reportToJson({p}, "now");
        QCOMPARE(j["presets"][0]["evidence"][1]["varied"].get<std::string>(), std::string("bias | scaled"));
        // Without evidence nothing is added.
        QVERIFY(reportMarkdown({reportPreset("made-up", madeUp({0, 0, 0}, {0, 0, 0}, json::array()), "c.png")}, "now")
                    .find("*What else was varied* (separate runs") == std::string::npos);
        // A malformed entry is refused when the experiment file is read, naming the field.
        json spec = toJson(loadPresetOrFile("dekel-shamir-label-copy"));
        for (const auto& [bad, field] : std::vector<std::pair<json, std::string>>{
                 {json::array({{{"varied", "x"}}}), "paper.evidence[0].gave"},
                 {json::array({{{"varied", "x"}, {"gave", ""}}}), "paper.evidence[0].gave"},
                 {json::array({{{"varied", "x"}, {"gave", "y"}, {"gaev", "z"}}}), "paper.evidence[0].gaev"},
                 {json::array({"x"}), "paper.evidence[0]"},
                 {json("x"), "paper.evidence"}}) {
            spec["paper"]["evidence"] = bad;
            try {
                experimentFromJson(spec);
                QFAIL(qPrintable(QString::fromStdString("accepted " + bad.dump())));
            } catch (const std::invalid_argument& e) {
                QVERIFY2(QString(e.what()).contains(QString::fromStdString("'" + field + "'")), e.what());
            }
        }
    }

    void malformedClaimsNameTheirIndex_data() {
        QTest::addColumn<QString>("check");
        QTest::addColumn<QString>("message");
        QTest::newRow("kind") << R"({"kind": "better", "learner": "A"})" << "paper.claims[1]: unknown check kind 'better'";
        QTest::newRow("learner") << R"({"kind": "flat", "learner": "C", "tolerance": 1})" << "paper.claims[1]: \"learner\" must name";
        QTest::newRow("other") << R"({"kind": "below", "learner": "A"})" << "paper.claims[1]: \"other\" must name";
        QTest::newRow("level") << R"({"kind": "below", "learner": "A", "other": "B", "levels": [3]})" << "level 3 is not one";
        QTest::newRow("number") << R"({"kind": "rises", "learner": "A"})" << "check needs a number \"by\"";
        QTest::newRow("paper") << R"({"kind": "near_paper", "learner": "B", "tolerance": 1})" << "needs the paper's curve for B";
        QTest::newRow("metric") << R"({"kind": "flat", "learner": "A", "tolerance": 1, "metric": "error_attacked"})"
                                << "needs a one-sided threat";
    }
    void malformedClaimsNameTheirIndex() {
        QFETCH(QString, check);
        QFETCH(QString, message);
        const json claims = json::array({claim({{"kind", "flat"}, {"learner", "A"}, {"tolerance", 1}}),
                                         claim(json::parse(check.toStdString()))});
        const ExperimentResult r = madeUp({0, 0, 0}, {0, 0, 0}, claims);
        try {
            validateClaims(r.spec);
            QFAIL("accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString(e.what()).contains(message), e.what());
        }
    }

    void shippedPresetsStateValidClaims() {
        int withClaims = 0;
        for (const PresetInfo& info : listPresets()) {
            const ExperimentSpec spec = loadPresetOrFile(info.path);
            try {
                validateClaims(spec);
            } catch (const std::invalid_argument& e) {
                QFAIL(qPrintable(QString::fromStdString(info.name + ": " + e.what())));
            }
            withClaims += spec.paper.contains("claims") && !spec.paper["claims"].empty();
        }
        QVERIFY(withClaims >= 10);
    }

    void committedReportIsCurrent() {
        // resources/report is `fdlab-cli report --output resources/report`: regenerate it when a
        // preset with claims changes (its fingerprint covers the whole spec, claims included).
        const std::filesystem::path dir = std::filesystem::path(presetsDir()).parent_path() / "report";
        const json report = readJsonFile((dir / "report.json").string(), "reproduction report");
        std::set<std::string> reported;
        for (const json& p : report["presets"]) {
            const std::string name = p["preset"];
            reported.insert(name);
            const ExperimentSpec spec = loadPresetOrFile(name);
            QVERIFY2(p["fingerprint"].get<std::string>() == specFingerprint(spec),
                     qPrintable(QString::fromStdString(name + " changed since resources/report was generated")));
            QVERIFY2(std::filesystem::exists(dir / p["chart"].get<std::string>()), qPrintable(QString::fromStdString(name)));
        }
        const std::vector<std::string> presets = claimPresets();
        QCOMPARE(reported, std::set<std::string>(presets.begin(), presets.end()));
        QVERIFY(std::filesystem::exists(dir / "report.md"));
    }

    void chartDrawsEverySeriesInItsColour() {
        ChartSpec c;
        c.title = "t";
        c.series.push_back({"A", {0, 1, 2}, {0.1, 0.2, 0.4}, {0.01, 0.02, 0.01}, false, false, 0});
        c.series.push_back({"B", {0, 1, 2}, {0.3, 0.3, 0.3}, {}, false, true, 1});
        c.series.push_back({"B (paper)", {1, 2}, {0.25, 0.35}, {}, true, false, 2});
        const RgbImage img = renderChart(c);
        QCOMPARE(img.width, 900);
        QCOMPARE(img.height, 560);
        QVERIFY(pixelsOf(img, chartColour(0)) > 300);
        QVERIFY(pixelsOf(img, chartColour(1)) > 300);
        QVERIFY(pixelsOf(img, chartColour(2)) > 20);
        QVERIFY(pixelsOf(img, chartColour(3)) == 0);
        QVERIFY(pixelsOf(img, 0xFFFFFF) > img.rgb.size() / 3 / 2);   // mostly background
        const std::string path = (std::filesystem::temp_directory_path() / "fdlab-test-chart.png").string();
        writeChartPng(c, path);
        std::ifstream in(path, std::ios::binary);
        std::string head(24, '\0');
        in.read(head.data(), 24);
        QCOMPARE(head.substr(1, 3), std::string("PNG"));
        QCOMPARE((unsigned char)head[18] * 256 + (unsigned char)head[19], 900);   // IHDR width
        std::filesystem::remove(path);
    }

    // A preset's long name as the title: it was drawn on one line centred past both edges of the
    // chart (the report's globerson-mnist-pairs.png lost "MNIST, the chap" and "...n over pairs)").
    // Now it wraps: no ink in the outer 4 pixels of the title band, and a second line is drawn.
    void longTitleWrapsInsideTheChart() {
        ChartSpec c;
        c.title = "MNIST, the chapter's 12 digit pairs: random deletion of pixels, FDROP against the SVM "
                  "(Globerson & Roweis protocol) (mean over 12 pairs)";
        c.series.push_back({"A", {0, 1, 2}, {0.1, 0.2, 0.4}, {}, false, false, 0});
        const RgbImage img = renderChart(c);
        const auto inkInRows = [&](int y0, int y1, int x0, int x1) {
            int ink = 0;
            for (int y = y0; y < y1; ++y)
                for (int x = x0; x < x1; ++x) {
                    const std::size_t at = 3 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width) +
                                                static_cast<std::size_t>(x));
                    ink += img.rgb[at] < 128;
                }
            return ink;
        };
        QCOMPARE(inkInRows(0, 60, 0, 4), 0);
        QCOMPARE(inkInRows(0, 60, img.width - 4, img.width), 0);
        QVERIFY(inkInRows(8, 30, 0, img.width) > 100);    // first line
        QVERIFY(inkInRows(34, 46, 100, img.width - 30) > 100);   // second line, above where a one-line title's plot starts
        // Two equal words that fit one per line: both are drawn (the second was taken for the
        // first, too wide, word and dropped).
        c.title = std::string(40, 'W') + " " + std::string(40, 'W');
        const RgbImage two = renderChart(c);
        // Rows 34-46 right of the y tick labels: the second title line, or (one line) the plot's
        // empty top margin above its frame at row 48.
        int second = 0;
        for (int y = 34; y < 46; ++y)
            for (int x = 100; x < two.width - 30; ++x)
                second += two.rgb[3 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(two.width) + static_cast<std::size_t>(x))] < 128;
        QVERIFY2(second > 100, qPrintable(QString::number(second)));
        // One word longer than the chart is cut with "...", not drawn past the edges.
        c.title = std::string(300, 'W');
        const RgbImage one = renderChart(c);
        int edge = 0;
        for (int y = 0; y < 40; ++y) edge += one.rgb[3 * static_cast<std::size_t>(y * one.width)] < 128;
        QCOMPARE(edge, 0);
    }

    void chartRejectsBadInput() {
        ChartSpec c;
        c.series.push_back({"A", {0, 1}, {0.1}, {}, false, false, 0});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, renderChart(c));
        c.series[0].y = {0.1, std::nan("")};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, renderChart(c));
        c.series[0].y = {0.1, 0.2};
        c.width = 50;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, renderChart(c));
    }
};

QTEST_GUILESS_MAIN(TestReport)
#include "test_report.moc"
