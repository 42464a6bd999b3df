#include "ui/dialogs/algorithm_help.h"

#include "core/learners/registry.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace fdlab::ui {

QString algorithmHelpHtml(const std::string& name) {
    const LearnerInfo& info = learnerInfo(name);
    auto esc = [](const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); };
    QString html = QStringLiteral("<h2>%1</h2><p><b>Registry name:</b> <code>%2</code>%3</p>"
                                  "<h3>Problem</h3><p><code>%4</code></p><h3>Source</h3><p><i>%5</i></p>")
                       .arg(esc(info.title), esc(info.name),
                            QString(info.linear ? " &middot; linear model" : " &middot; non-linear model") +
                                (multiClassHandling(info) == "one-vs-rest" ? " &middot; binary (one-vs-rest on multi-class data)"
                                 : multiClassHandling(info) == "refused"   ? " &middot; binary data only (refuses more than two classes)"
                                                                           : ""),
                            esc(info.formula), esc(info.paper));
    html += "<h3>Parameters</h3><table border=1 cellspacing=0 cellpadding=4>"
            "<tr><th>name</th><th>default</th><th>range / choices</th><th>meaning</th></tr>";
    for (const ParamInfo& p : info.params) {
        QString range;
        if (p.type == ParamInfo::Type::Real || p.type == ParamInfo::Type::Integer)
            range = QStringLiteral("[%1, %2]%3").arg(p.min).arg(p.max).arg(p.logScale ? " (log)" : "");
        else if (p.type == ParamInfo::Type::Choice) {
            QStringList c;
            for (const auto& s : p.choices) c << QString::fromStdString(s);
            range = c.join(", ");
        } else
            range = "true / false";
        html += QStringLiteral("<tr><td><code>%1</code></td><td>%2</td><td>%3</td><td>%4</td></tr>")
                    .arg(esc(p.name), esc(p.defaultValue.dump()), range.toHtmlEscaped(), esc(p.doc));
    }
    html += "</table>";
    return html;
}

void showAlgorithmHelp(const std::string& name, QWidget* parent) {
    auto* dlg = new QDialog(parent);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    dlg->setWindowTitle(QObject::tr("Help: %1").arg(QString::fromStdString(learnerInfo(name).title)));
    auto* layout = new QVBoxLayout(dlg);
    auto* text = new QTextBrowser(dlg);
    text->setHtml(algorithmHelpHtml(name));
    layout->addWidget(text);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dlg);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dlg, &QDialog::close);
    layout->addWidget(buttons);
    dlg->resize(640, 480);
    dlg->show();
}

}  // namespace fdlab::ui
