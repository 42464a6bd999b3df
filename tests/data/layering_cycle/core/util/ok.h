#pragma once
// Fixture for core_layering_detects_cycle: a file that obeys the layering.
