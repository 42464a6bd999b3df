#pragma once
// Fixture for core_layering_detects_cycle: text must not include data.
#include "core/util/ok.h"
#include "core/data/dataset.h"
