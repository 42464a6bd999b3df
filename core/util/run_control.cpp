#include "core/util/run_control.h"

namespace fdlab {

const char* toString(Status s) {
    switch (s) {
    case Status::Converged: return "converged";
    case Status::MaxIterations: return "max-iterations";
    case Status::Cancelled: return "cancelled";
    case Status::Failed: return "failed";
    }
    return "unknown";
}

}  // namespace fdlab
