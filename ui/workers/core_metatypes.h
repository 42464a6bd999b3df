#pragma once
// Core types that travel through queued signals. Declared in one header that every header with
// such signals includes, so that no moc file instantiates the metatype before the declaration.

#include "core/eval/experiment_runner.h"

#include <QMetaType>

Q_DECLARE_METATYPE(fdlab::CurvePoint)
Q_DECLARE_METATYPE(fdlab::ExperimentResult)
Q_DECLARE_METATYPE(fdlab::ExperimentSpec)
