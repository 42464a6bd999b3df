// fdlab: the desktop application. Thin: it builds the main window and opens the default
// experiment (MNIST 3 vs 5, running by itself), or the data / experiment file given on the
// command line.

#include "core/attacks/threat_registry.h"
#include "core/util/install_paths.h"
#include "ui/lessons/lesson_dock.h"
#include "ui/lessons/add_lessons.h"
#include "ui/lessons/start_page.h"
#include "ui/main_window.h"
#include "ui/plots/curve_plot.h"
#include "ui/plots/message_view.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QDockWidget>
#include <QTabWidget>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <memory>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName("FDLab");
    QApplication::setOrganizationName("FDLab");
    QApplication::setApplicationVersion(QString::fromStdString(fdlab::versionString()));

    QCommandLineParser parser;
    parser.setApplicationDescription("FDLab - the Feature Deletion Lab");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("file", "A data file (IDX, CSV, LIBSVM, ARFF) or an experiment / results JSON to open.",
                                 "[file]");
    QCommandLineOption screenshot("screenshot", "Save a PNG of the window once the data is shown, then quit.", "png");
    QCommandLineOption screenshotTabs(
        "screenshot-tabs", "Run, then save curves.png, heatmaps.png, data.png, label-noise.png and importance.png of the window into DIR and quit.", "dir");
    QCommandLineOption screenshotDelay("screenshot-delay",
                                       "With --screenshot-tabs: shoot after MS milliseconds instead of after the run.", "ms");
    QCommandLineOption windowSize("window-size", "Resize the window to WxH pixels (e.g. 1200x800).", "WxH");
    QCommandLineOption screenshotFind("screenshot-find",
                                      "With --screenshot-tabs: also save heatmaps-find.png with WORD looked up in the message view.", "word");
    QCommandLineOption noStartPage("no-start-page", "Do not show the start page (also: FDLAB_NO_START_PAGE=1).");
    QCommandLineOption lesson("lesson", "Open the lesson ID (a file stem of the lessons directory) in the Lessons dock.", "id");
    QCommandLineOption lessonStep("lesson-step", "With --lesson: start at step N (1 = the first).", "n");
    QCommandLineOption screenshotStart("screenshot-start-page", "Save a PNG of the start page, then quit.", "png");
    parser.addOption(noStartPage);
    parser.addOption(lesson);
    parser.addOption(lessonStep);
    parser.addOption(screenshotStart);
    QCommandLineOption presentation("presentation", "Start in presentation mode (View > Presentation) at the window's size.");
    parser.addOption(windowSize);
    parser.addOption(presentation);
    parser.addOption(screenshotFind);
    parser.addOption(screenshot);
    parser.addOption(screenshotTabs);
    parser.addOption(screenshotDelay);
    parser.process(app);

    fdlab::ui::MainWindow window;
    if (parser.isSet(windowSize)) {
        const QStringList wh = parser.value(windowSize).split('x');
        if (wh.size() == 2) window.resize(wh[0].toInt(), wh[1].toInt());
    }
    window.show();
    fdlab::ui::LessonDock* lessons = fdlab::ui::addLessons(window);
    if (parser.isSet(presentation)) window.setPresentation(true, false);
    const QStringList files = parser.positionalArguments();
    const bool lessonShot = parser.isSet(lesson) && parser.isSet(screenshot);
    if (lessonShot) {
        // Mid-lesson: once the step's observation is shown.
        const QString png = parser.value(screenshot);
        window.setProperty("quietErrors", true);
        auto shoot = [&window, png] {
            QTimer::singleShot(1500, &window, [&window, png] {
                window.grab().save(png);
                QApplication::quit();
            });
        };
        QObject::connect(lessons, &fdlab::ui::LessonDock::observationShown, &window, shoot);
        QObject::connect(lessons, &fdlab::ui::LessonDock::observationFailed, &window, shoot);
    } else if (parser.isSet(screenshot)) {
        const QString png = parser.value(screenshot);
        QObject::connect(&window, &fdlab::ui::MainWindow::datasetShown, &window, [&window, png] {
            window.grab().save(png);
            QApplication::quit();
        });
        QObject::connect(&window, &fdlab::ui::MainWindow::datasetFailed, &app, [] { QApplication::exit(3); });
        window.setProperty("quietErrors", true);
    }
    if (parser.isSet(screenshotTabs)) {
        // After the run and the heatmaps' first view: one PNG per tab.
        const QString dir = parser.value(screenshotTabs);
        QDir().mkpath(dir);
        window.setProperty("quietErrors", true);
        const QString findWord = parser.value(screenshotFind);
        auto shot = std::make_shared<bool>(false);   // once: heatmaps and a run may both call it
        auto shoot = [&window, dir, findWord, shot] {
            if (*shot) return;
            *shot = true;
            const char* names[] = {"curves", "heatmaps", "data", "label-noise"};
            for (int i = 0; i < window.tabs()->count() && i < 4; ++i) {
                window.tabs()->setCurrentIndex(i);
                QApplication::processEvents();
                window.curvePlot()->update();
                QApplication::processEvents();
                window.grab().save(dir + "/" + names[i] + ".png");
            }
            auto* messages = window.findChild<fdlab::ui::MessageViewWidget*>("heatmapMessages");
            window.tabs()->setCurrentIndex(1);   // the Heatmaps tab: the message view is visible on text data
            QApplication::processEvents();
            if (!findWord.isEmpty() && messages && messages->isVisibleTo(&window)) {
                messages->findWord(findWord);
                QApplication::processEvents();
                window.grab().save(dir + "/heatmaps-find.png");
                messages->saveImage(dir + "/message.pdf");
                messages->saveImage(dir + "/message.svg");
                messages->saveTopWords(0, dir + "/top-words-a.png");
            }
            // The Importance panel shares its dock area with the Dataset panel: raise it once.
            if (auto* dock = window.findChild<QDockWidget*>("importanceDock")) {
                dock->raise();
                QApplication::processEvents();
                window.grab().save(dir + "/importance.png");
                if (auto* data = window.findChild<QDockWidget*>("datasetDock")) data->raise();
            }
            window.tabs()->setCurrentIndex(0);
            QApplication::processEvents();
            QApplication::quit();
        };
        if (parser.isSet(screenshotDelay))
            QTimer::singleShot(parser.value(screenshotDelay).toInt(), &window, shoot);
        else {
            QObject::connect(&window, &fdlab::ui::MainWindow::heatmapsReady, &window,
                             [shoot] { QTimer::singleShot(8000, shoot); });
            // A training-time threat (label flips: lesson g) has no heatmaps to wait for; the
            // shot waited for them until killed.
            QObject::connect(&window, &fdlab::ui::MainWindow::runFinished, &window, [shoot](const fdlab::ExperimentResult& r) {
                if (fdlab::threatInfo(r.spec.attack.threat).trainingTime) QTimer::singleShot(8000, shoot);
            });
        }
        QObject::connect(&window, &fdlab::ui::MainWindow::runFailed, &app, [] { QApplication::exit(3); });
    }
    if (parser.isSet(lesson)) {
        fdlab::ui::lessonsDockWidget(window)->show();
        if (!lessons->startLesson(parser.value(lesson), parser.value(lessonStep).toInt() - 1)) {
            std::fprintf(stderr, "fdlab: no lesson '%s' (see Help > Lessons)\n", qPrintable(parser.value(lesson)));
            return 2;
        }
        return app.exec();
    }
    const bool startPage = parser.isSet(screenshotStart) ||
                           (files.isEmpty() && !parser.isSet(noStartPage) && !parser.isSet(screenshot) &&
                            !parser.isSet(screenshotTabs) && fdlab::ui::StartPage::wanted());
    if (startPage) {
        auto* page = new fdlab::ui::StartPage(lessons->lessons(), &window);
        page->setAttribute(Qt::WA_DeleteOnClose);
        page->resize(std::min(900, window.width() - 40), std::min(640, window.height() - 40));
        QObject::connect(page, &fdlab::ui::StartPage::lessonChosen, &window, [&window, lessons](int i) {
            fdlab::ui::lessonsDockWidget(window)->show();
            lessons->startLesson(i, 0);
        });
        if (parser.isSet(screenshotStart)) {
            const QString png = parser.value(screenshotStart);
            QTimer::singleShot(500, page, [page, png] {
                page->grab().save(png);
                QApplication::quit();
            });
        }
        page->show();
        if (parser.isSet(screenshotStart)) return app.exec();
    }
    if (files.isEmpty()) {
        window.loadSpec(fdlab::ui::MainWindow::defaultExperiment(), !parser.isSet(screenshot));
    } else if (files.first().endsWith(".json", Qt::CaseInsensitive)) {
        window.openExperiment(files.first());
    } else {
        window.openSource(files.first());
    }
    return app.exec();
}
