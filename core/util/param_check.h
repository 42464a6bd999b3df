#pragma once
// Helpers for Params::validate(): messages that name the struct and the field.

#include <string>

namespace fdlab {

/// x with 10 significant digits, for messages ("= 0.1 must be > 0").
std::string formatParam(double x);

/// Throws std::invalid_argument("OWNER.FIELD WHAT").
[[noreturn]] void invalidParam(const std::string& owner, const std::string& field, const std::string& what);

}  // namespace fdlab
