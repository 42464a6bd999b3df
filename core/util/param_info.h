#pragma once
// Parameters declared once, for learners (core/learners/registry.h) and threats
// (core/attacks/threat_registry.h): name, type, default, range, choices and a one-line doc.
// Forms (the GUI's Algorithms and Attack panels), the CLI's help and experiment-file
// validation are generated from these declarations.

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace fdlab {

struct ParamInfo {
    enum class Type {
        Real,
        Integer,
        Bool,
        Choice,
        IntegerList,   ///< a list of whole numbers in [min, max] (e.g. feature indices)
        Json           ///< structured JSON (e.g. feature groups), checked by its owner
    };
    std::string name;
    Type type = Type::Real;
    nlohmann::json defaultValue;
    double min = 0.0;                   ///< Real/Integer/IntegerList: inclusive lower bound
    double max = 0.0;                   ///< Real/Integer/IntegerList: inclusive upper bound
    std::vector<std::string> choices;   ///< Choice
    std::string doc;                    ///< one line, with the formula symbol
    bool logScale = false;              ///< grids and sliders step multiplicatively
};

ParamInfo realParam(std::string name, double def, double lo, double hi, std::string doc, bool log = false);
ParamInfo integerParam(std::string name, int def, int lo, int hi, std::string doc);
ParamInfo boolParam(std::string name, bool def, std::string doc);
ParamInfo choiceParam(std::string name, std::string def, std::vector<std::string> choices, std::string doc);
ParamInfo integerListParam(std::string name, std::vector<int> def, int lo, int hi, std::string doc);
ParamInfo jsonParam(std::string name, nlohmann::json def, std::string doc);

/// Fills defaults for missing parameters and checks the given ones against `params`: unknown
/// names, wrong types, values outside [min, max], unknown choices -> std::invalid_argument
/// "<owner> parameter <name>: ..." (owner e.g. "learner svm", "attack random-feature-drop").
/// Integers come out as whole JSON numbers, reals as doubles.
nlohmann::json completeParamValues(const std::vector<ParamInfo>& params, const nlohmann::json& given,
                                   const std::string& owner);

/// A parameter's value from text (a command-line option, a form's line edit): a number, true or
/// false, a choice, a list "3,7,12" (also "7x7") or JSON text. std::invalid_argument naming
/// `owner` and the parameter when the text is not of the parameter's type (ranges and choices
/// are checked by completeParamValues).
nlohmann::json paramFromText(const ParamInfo& p, const std::string& text, const std::string& owner);
/// The inverse for forms: "3, 7, 12" for lists, JSON text for structured values, else dump().
std::string paramToText(const ParamInfo& p, const nlohmann::json& value);

/// "[min, max]" of a numeric parameter, "one of a, b" of a choice, "" otherwise (help texts).
std::string paramRangeText(const ParamInfo& p);

}  // namespace fdlab
