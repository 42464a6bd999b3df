#include "ui/panels/class_picker.h"

#include <QAbstractItemView>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QStandardItemModel>
#include <QStyleOptionComboBox>
#include <QStyledItemDelegate>
#include <QStylePainter>

#include <algorithm>

namespace fdlab::ui {

namespace {
bool contains(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}
}  // namespace

ClassPicker::ClassPicker(QWidget* parent) : QComboBox(parent) {
    setModel(new QStandardItemModel(this));
    // Styles whose combo popup is a menu (Fusion) draw "current item" marks and ignore check
    // states; the plain delegate draws the check boxes.
    setItemDelegate(new QStyledItemDelegate(this));
    // Clicks and Space toggle a class and keep the popup open (the combo box would close it and
    // make the row "current", which means nothing here).
    view()->viewport()->installEventFilter(this);
    view()->installEventFilter(this);
}

void ClassPicker::setClassNames(const std::vector<std::string>& names) {
    auto* m = static_cast<QStandardItemModel*>(model());
    m->clear();
    for (const std::string& n : names) {
        auto* item = new QStandardItem(QString::fromStdString(n));
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
        item->setData(Qt::Unchecked, Qt::CheckStateRole);
        m->appendRow(item);
    }
    std::erase_if(m_checked, [&](const std::string& s) { return !contains(names, s); });
    syncItems();
}

std::vector<std::string> ClassPicker::classNames() const {
    std::vector<std::string> out;
    for (int r = 0; r < count(); ++r) out.push_back(itemText(r).toStdString());
    return out;
}

void ClassPicker::setCheckedNames(const std::vector<std::string>& names) {
    std::vector<std::string> offered = classNames();
    bool added = false;
    for (const std::string& n : names)
        if (!contains(offered, n)) {
            offered.push_back(n);
            added = true;
        }
    if (added) setClassNames(offered);
    m_checked.clear();
    for (const std::string& n : names)
        if (!contains(m_checked, n) && !(m_single && !m_checked.empty())) m_checked.push_back(n);
    syncItems();
}

void ClassPicker::setNameChecked(const std::string& name, bool checked) {
    if (contains(m_checked, name) == checked) return;
    if (!checked) {
        std::erase(m_checked, name);
    } else {
        if (m_single) {
            const std::vector<std::string> before = m_checked;
            m_checked.clear();
            for (const std::string& s : before) emit toggled(QString::fromStdString(s), false);
        }
        m_checked.push_back(name);
    }
    syncItems();
    emit toggled(QString::fromStdString(name), checked);
}

void ClassPicker::setSingle(bool single) {
    m_single = single;
    if (m_single && m_checked.size() > 1) {
        m_checked.resize(1);
        syncItems();
    }
}

QString ClassPicker::displayText() const {
    if (m_checked.empty()) return tr("(none)");
    QStringList l;
    for (const std::string& s : m_checked) l << QString::fromStdString(s);
    return l.join(", ");
}

void ClassPicker::toggleRow(int row) {
    if (row < 0 || row >= count()) return;
    const std::string name = itemText(row).toStdString();
    setNameChecked(name, !contains(m_checked, name));
}

void ClassPicker::syncItems() {
    auto* m = static_cast<QStandardItemModel*>(model());
    for (int r = 0; r < m->rowCount(); ++r)
        m->item(r)->setData(contains(m_checked, m->item(r)->text().toStdString()) ? Qt::Checked : Qt::Unchecked,
                            Qt::CheckStateRole);
    setToolTip(tr("Classes on this side: %1 (tick several to join them)").arg(displayText()));
    update();
}

bool ClassPicker::eventFilter(QObject* watched, QEvent* e) {
    if (watched == view()->viewport()) {
        if (e->type() == QEvent::MouseButtonRelease) {
            const QModelIndex index = view()->indexAt(static_cast<QMouseEvent*>(e)->position().toPoint());
            if (index.isValid()) toggleRow(index.row());
            return true;
        }
        if (e->type() == QEvent::MouseButtonDblClick) return true;   // its release toggles
    } else if (watched == view() && e->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(e)->key();
        if (key == Qt::Key_Space || key == Qt::Key_Select) {
            toggleRow(view()->currentIndex().row());
            return true;
        }
        if (key == Qt::Key_Return || key == Qt::Key_Enter) {
            hidePopup();
            return true;
        }
    }
    return QComboBox::eventFilter(watched, e);
}

void ClassPicker::paintEvent(QPaintEvent*) {
    QStylePainter p(this);
    QStyleOptionComboBox opt;
    initStyleOption(&opt);
    const QRect field = style()->subControlRect(QStyle::CC_ComboBox, &opt, QStyle::SC_ComboBoxEditField, this);
    opt.currentText = fontMetrics().elidedText(displayText(), Qt::ElideRight, field.width());
    opt.currentIcon = QIcon();
    p.drawComplexControl(QStyle::CC_ComboBox, opt);
    p.drawControl(QStyle::CE_ComboBoxLabel, opt);
}

}  // namespace fdlab::ui
