// fdlab: the desktop application. Thin: it builds the main window and opens the default
// experiment (bundled MNIST), or the file given on the command line.

#include "ui/main_window.h"

#include <QApplication>
#include <QCommandLineParser>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName("FDLab");
    QApplication::setOrganizationName("FDLab");
    QApplication::setApplicationVersion(FDLAB_VERSION);

    QCommandLineParser parser;
    parser.setApplicationDescription("FDLab - the Feature Deletion Lab");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("file", "A data file to open (IDX, CSV, LIBSVM, ARFF).", "[file]");
    QCommandLineOption screenshot("screenshot", "Save a PNG of the window once the data is shown, then quit.", "png");
    parser.addOption(screenshot);
    parser.process(app);

    fdlab::ui::MainWindow window;
    window.show();
    const QStringList files = parser.positionalArguments();
    const QString source = files.isEmpty() ? QStringLiteral("bundled:mnist") : files.first();
    if (parser.isSet(screenshot)) {
        const QString png = parser.value(screenshot);
        QObject::connect(&window, &fdlab::ui::MainWindow::datasetShown, &window, [&window, png] {
            window.grab().save(png);
            QApplication::quit();
        });
        QObject::connect(&window, &fdlab::ui::MainWindow::datasetFailed, &app, [] { QApplication::exit(3); });
        window.setProperty("quietErrors", true);
    }
    window.openSource(source);
    return app.exec();
}
