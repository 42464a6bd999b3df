#pragma once
// Shared by the Heatmaps GUI tests: waits (spinning the event loop) until the view shows an
// instance at a budget, since the view computes on a worker thread; and for a play page's Reveal,
// which searches on a worker thread too.

#include "ui/plots/adversary_play.h"
#include "ui/plots/heatmap_view.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include <cmath>

namespace fdlab::ui {

/// True once `v` shows `instance` at `budget`, false after `ms` milliseconds.
inline bool waitForView(HeatmapView& v, int instance, double budget, int ms = 30000) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms) {
        const InstanceView& cur = v.currentView();
        if (cur.instance == instance && std::abs(cur.level - budget) < 1e-9) return true;
        QTest::qWait(10);
    }
    return false;
}

/// Presses Reveal on `p` and waits for its result; false after `ms` milliseconds.
inline bool revealAndWait(AdversaryPlay* p, int ms = 30000) {
    QSignalSpy shown(p, &AdversaryPlay::revealed);
    p->reveal();
    return shown.wait(ms);
}

}  // namespace fdlab::ui
