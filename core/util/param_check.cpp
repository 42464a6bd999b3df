#include "core/util/param_check.h"

#include <sstream>
#include <stdexcept>

namespace fdlab {

std::string formatParam(double x) {
    std::ostringstream s;
    s.precision(10);
    s << x;
    return s.str();
}

void invalidParam(const std::string& owner, const std::string& field, const std::string& what) {
    throw std::invalid_argument(owner + "." + field + " " + what);
}

}  // namespace fdlab
