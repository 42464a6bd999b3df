#pragma once
// The threat models, declared once: name, title, source, what a level means, the verb the views
// use, and flags. The CLI's threat lists and help, the GUI's Attack panel, curve axes and
// heatmap wording, experiment files (names) and the report's charts read it; adding a threat is
// an enumerator in attack.h, its per-instance code in attack.cpp and one entry here.
// (Issue 19, first part: the per-threat parameters still live in AttackSpec's fields.)

#include "core/attacks/attack.h"

#include <string>
#include <vector>

namespace fdlab {

/// What a curve's level is for a threat.
enum class LevelKind {
    None,          ///< no budget (the clean test set)
    Count,         ///< K features (a whole number)
    Value,         ///< a value budget N < V = sum of the importance values
    Probability,   ///< a probability in [0, 1]
    Fraction       ///< a fraction in [0, 1] (of features, groups or training labels)
};

/// What the attack does to what it touches (the views' wording).
enum class ThreatVerb { None, Deleted, Corrupted, Flipped };

struct ThreatInfo {
    ThreatModel threat;
    const char* name;         ///< in experiment files and on the command line: "worst-case-count"
    const char* title;        ///< for menus: "Worst-case deletion of K features (exact)"
    const char* source;       ///< where it comes from: "Globerson & Roweis 2006"
    LevelKind level;
    const char* levelLabel;   ///< axis label of a curve's level: "deleted features K"
    ThreatVerb verb;
    bool trainingTime;        ///< acts on the training labels, not on test instances
    bool needsLinearModel;    ///< worst-case and uniform threats
    bool exact;               ///< the adversary's exact optimum (false: heuristic or random)
    bool randomised;          ///< draws random numbers (the attack seed matters)
    const char* doc;          ///< one line for help texts
};

/// Every threat, in the order menus show them (the enumerators' order of attack.h).
const std::vector<ThreatInfo>& threatRegistry();
/// The entry of t (every enumerator has one; the registry test checks it).
const ThreatInfo& threatInfo(ThreatModel t);
/// The entry named `name`; std::invalid_argument listing every name otherwise.
const ThreatInfo& threatInfo(const std::string& name);
/// "  name  doc" lines of the test-time threats (or all, with training-time ones), for help texts.
std::string threatHelp(bool includeTrainingTime);

}  // namespace fdlab
