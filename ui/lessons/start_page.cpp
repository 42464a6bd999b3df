#include "ui/lessons/start_page.h"

#include <QCheckBox>
#include <QCommandLinkButton>
#include <QGridLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSettings>
#include <QVBoxLayout>

#include <cstdlib>

namespace fdlab::ui {

StartPage::StartPage(const std::vector<Lesson>& lessons, QWidget* parent) : QDialog(parent) {
    setObjectName("startPage");
    setWindowTitle(tr("Welcome to FDLab"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("<h2>Welcome to FDLab, the Feature Deletion Lab</h2>"
                                "<p>What happens to a classifier when an adversary deletes some of its features: "
                                "pixels of a digit, words of a spam message? Start with a lesson (a few minutes each, "
                                "every number computed live from the bundled data), or explore the default experiment.</p>"),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto* grid = new QGridLayout;
    for (std::size_t i = 0; i < lessons.size(); ++i) {
        const Lesson& l = lessons[i];
        auto* b = new QCommandLinkButton(QString("%1. %2").arg(QChar('a' + static_cast<int>(i))).arg(QString::fromStdString(l.title)),
                                         // '&' would be taken as a mnemonic ("Globerson _Roweis").
                                         QString::fromStdString(l.summary).replace('&', "&&") + " " +
                                             tr("(%n steps)", "", static_cast<int>(l.steps.size())),
                                         this);
        b->setObjectName(QString("startLesson_%1").arg(QString::fromStdString(l.id)));
        connect(b, &QCommandLinkButton::clicked, this, [this, i] {
            emit lessonChosen(static_cast<int>(i));
            accept();
        });
        grid->addWidget(b, static_cast<int>(i) / 2, static_cast<int>(i) % 2);
    }
    auto* holder = new QWidget(this);
    holder->setLayout(grid);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(holder);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    layout->addWidget(scroll, 1);

    auto* explore = new QCommandLinkButton(tr("Explore the default experiment"),
                                           tr("MNIST 3 vs 5 under random deletion of pixels: SVM, FDROP, MCF and the "
                                              "Dekel-Shamir LP. Lessons stay under Help > Lessons (F1)."),
                                           this);
    explore->setObjectName("startDefault");
    connect(explore, &QCommandLinkButton::clicked, this, [this] {
        emit defaultChosen();
        accept();
    });
    layout->addWidget(explore);
    m_dontShow = new QCheckBox(tr("Don't show this page again"), this);
    m_dontShow->setObjectName("startDontShow");
    m_dontShow->setChecked(!QSettings().value("startPage/show", true).toBool());
    layout->addWidget(m_dontShow);
}

bool StartPage::wanted() {
    if (const char* env = std::getenv("FDLAB_NO_START_PAGE"); env && *env && std::string(env) != "0") return false;
    return QSettings().value("startPage/show", true).toBool();
}

void StartPage::done(int r) {
    QSettings().setValue("startPage/show", !m_dontShow->isChecked());
    QDialog::done(r);
}

}  // namespace fdlab::ui
