#pragma once
// LIBSVM / SVMlight text format (Chang & Lin, LIBSVM FAQ; Joachims, SVMlight):
//
//   <label> <index>:<value> <index>:<value> ... [# comment]
//
// Indices are 1-based, at most 2^24, and strictly increasing within a line; absent indices are 0. "qid:N"
// tokens (SVMlight ranking groups) are ignored. The number of features is the largest index
// seen, so a trailing all-zero feature of the original data is not recoverable (saveLibsvm
// writes only non-zeros, like every LIBSVM writer). Labels are kept as strings (class names)
// and ordered numerically when all are numbers, so "-1" -> class 0 and "+1" -> class 1.
//
// Loaded and saved through loadLibsvm / saveLibsvm in core/data/loaders.h; this header only
// documents the format (no internal helpers are needed outside libsvm_format.cpp).
