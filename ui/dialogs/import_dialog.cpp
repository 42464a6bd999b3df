#include "ui/dialogs/import_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QRegularExpression>
#include <QTextStream>

namespace fdlab::ui {

namespace {
bool formatOf(const QString& path, FileFormat& f) {
    try {
        f = guessFormat(path.toStdString());
        return true;
    } catch (const std::exception&) {
        return false;
    }
}
}  // namespace

QStringList headerNames(const QString& path, FileFormat format) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) return {};
    QTextStream in(&file);
    QStringList names;
    if (format == FileFormat::Csv) {
        // Fields split at commas outside double quotes ("" inside quotes is a quote).
        const QString header = in.readLine().remove(QChar(0xFEFF));
        QString field;
        bool quoted = false;
        for (qsizetype i = 0; i < header.size(); ++i) {
            const QChar c = header[i];
            if (c == '"') {
                if (quoted && i + 1 < header.size() && header[i + 1] == '"') field += '"', ++i;
                else quoted = !quoted;
            } else if (c == ',' && !quoted) {
                names << field.trimmed();
                field.clear();
            } else {
                field += c;
            }
        }
        names << field.trimmed();
    } else if (format == FileFormat::Arff) {
        static const QRegularExpression attr(R"re(^\s*@attribute\s+('([^']*)'|"([^"]*)"|(\S+)))re",
                                             QRegularExpression::CaseInsensitiveOption);
        for (int line = 0; line < 100000 && !in.atEnd(); ++line) {
            const QString l = in.readLine();
            if (l.trimmed().startsWith("@data", Qt::CaseInsensitive)) break;
            const auto m = attr.match(l);
            if (m.hasMatch()) names << (m.captured(2) + m.captured(3) + m.captured(4));
        }
    }
    return names;
}

bool ImportDialog::needed(const QString& path) {
    FileFormat f;
    return formatOf(path, f) && (f == FileFormat::Csv || f == FileFormat::Arff) && !path.endsWith(".gz");
}

ImportDialog::ImportDialog(const QString& path, QWidget* parent) : QDialog(parent) {
    formatOf(path, m_format);
    setWindowTitle(tr("Import %1").arg(QFileInfo(path).fileName()));
    auto* form = new QFormLayout(this);
    form->addRow(new QLabel(tr("How should FDLab read this %1 file?").arg(toString(m_format))));
    m_label = new QComboBox(this);
    const QStringList names = headerNames(path, m_format);
    m_label->addItems(names);
    if (!names.isEmpty()) m_label->setCurrentIndex(static_cast<int>(names.size()) - 1);   // the loaders' default
    form->addRow(m_format == FileFormat::Arff ? tr("Class attribute") : tr("Label column"), m_label);
    m_missing = new QComboBox(this);
    m_missing->addItem(tr("impute (mean / most frequent value)"), static_cast<int>(MissingPolicy::Impute));
    m_missing->addItem(tr("drop the instance"), static_cast<int>(MissingPolicy::DropRow));
    m_missing->addItem(tr("refuse the file"), static_cast<int>(MissingPolicy::Error));
    form->addRow(tr("Missing values ('?')"), m_missing);
    m_missing->setEnabled(m_format == FileFormat::Arff);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

LoadOptions ImportDialog::options() const {
    LoadOptions o;
    const std::string chosen = m_label->currentText().toStdString();
    if (m_format == FileFormat::Arff) o.classAttribute = chosen;
    else o.labelColumn = chosen;
    o.missing = static_cast<MissingPolicy>(m_missing->currentData().toInt());
    return o;
}

}  // namespace fdlab::ui
