# Writes ${OUT} (a header defining FDLAB_SOURCE_COMMIT) from `git describe` of ${SRC}, only when
# the text changes, so a new commit rebuilds one file. Run at every build by fdlab_source_commit.
# Only SRC's own repository counts: a source tree without .git inside another checkout would
# otherwise report the enclosing repository's commit.
execute_process(COMMAND git -C "${SRC}" rev-parse --show-toplevel
  OUTPUT_VARIABLE top OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
if(rc EQUAL 0)
  get_filename_component(top "${top}" REALPATH)
  get_filename_component(src_real "${SRC}" REALPATH)
  if(NOT top STREQUAL src_real)
    set(rc 1)
  endif()
endif()
if(rc EQUAL 0)
  execute_process(COMMAND git -C "${SRC}" rev-parse --short=12 HEAD
    OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
endif()
if(NOT rc EQUAL 0)
  set(commit "")
else()
  execute_process(COMMAND git -C "${SRC}" status --porcelain --untracked-files=no
    OUTPUT_VARIABLE dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(dirty)
    set(commit "${commit}, modified")
  endif()
endif()
set(text "#pragma once\n#define FDLAB_SOURCE_COMMIT \"${commit}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
