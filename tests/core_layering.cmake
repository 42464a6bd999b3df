# Include layering of core (issue 29, item 4): file reading and byte-level checks live in
# core/util, the text parsing (MIME, charsets, HTML, tokens, text corpora) in core/text on top of
# it, and Datasets with the tabular loaders, text vectorisation and the loader dispatch in
# core/data on top of both:  util <- text <- data  (solvers use util alone).
# Fails, naming file and line, when a file includes an area its own area may not use; so the
# former text <-> data include cycle cannot come back unnoticed.
#
#   cmake -DCORE=<dir holding the core/ tree's areas> -P core_layering.cmake
#
# Areas not in the table (learners, attacks, io, eval) are not checked here; note that
# learners and io still include each other (core/learners/nonlinear/model_io.cpp ->
# core/io/json_file.h, core/io/model_file.h -> core/learners).

cmake_minimum_required(VERSION 3.20)

if(NOT CORE OR NOT IS_DIRECTORY "${CORE}")
  message(FATAL_ERROR "usage: cmake -DCORE=<core directory> -P core_layering.cmake")
endif()

set(allowed_util util)
set(allowed_text util text)
set(allowed_data util text data)
set(allowed_solvers util solvers)

set(violations "")
set(checked 0)
foreach(area util text data solvers)
  file(GLOB_RECURSE files "${CORE}/${area}/*.h" "${CORE}/${area}/*.cpp")
  foreach(f IN LISTS files)
    math(EXPR checked "${checked} + 1")
    file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]core/")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[\"<]core/([A-Za-z0-9_]+)/.*$" "\\1" to "${line}")
      if(NOT to IN_LIST allowed_${area})
        file(RELATIVE_PATH rel "${CORE}" "${f}")
        string(STRIP "${line}" line)
        list(APPEND violations "core/${rel}: ${line} (core/${area} may include only: ${allowed_${area}})")
      endif()
    endforeach()
  endforeach()
endforeach()

if(checked EQUAL 0)
  message(FATAL_ERROR "no source files found under ${CORE}/{util,text,data,solvers}")
endif()
if(violations)
  list(JOIN violations "\n  " text)
  message(FATAL_ERROR "core include layering broken (util <- text <- data):\n  ${text}")
endif()
message(STATUS "core layering ok: ${checked} files of util, text, data, solvers")
