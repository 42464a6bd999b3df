// Compiled only by the core_has_no_qt test, with fdlab_core's include paths: it must fail
// with "QString: No such file or directory", proving core cannot include Qt by accident.
#include <QString>
int fdlabQtProbe() { return QString("x").size(); }
