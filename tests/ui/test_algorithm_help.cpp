// Help > Algorithms (ui/dialogs/algorithm_help): what a learner's page says about more than two
// classes is what training does (core's multiClassHandling): kernel-svm refuses them, it does not
// run one-vs-rest.

#include "core/learners/registry.h"
#include "ui/dialogs/algorithm_help.h"

#include <QTest>

using namespace fdlab;

class TestAlgorithmHelp : public QObject {
    Q_OBJECT
private slots:
    void multiClassLineSaysWhatTrainingDoes() {
        for (const LearnerInfo& info : learnerCatalogue()) {
            const QString html = ui::algorithmHelpHtml(info.name);
            const std::string how = multiClassHandling(info);
            QVERIFY2(html.contains("one-vs-rest") == (how == "one-vs-rest"), info.name.c_str());
            QVERIFY2(html.contains("refuses more than two classes") == (how == "refused"), info.name.c_str());
        }
        QVERIFY(!ui::algorithmHelpHtml("kernel-svm").contains("one-vs-rest"));
    }
};

QTEST_MAIN(TestAlgorithmHelp)
#include "test_algorithm_help.moc"
