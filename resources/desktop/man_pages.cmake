# Writes the man pages fdlab.1 and fdlab-cli.1 into OUT with help2man, from the programs' own
# --help and --version (so they cannot drift from the programs). fdlab-cli's page gets one
# section per subcommand with that subcommand's --help. Run by resources/CMakeLists.txt:
#   cmake -DCLI=... -DGUI=... -DOUT=... -DFILES=<include file> -P man_pages.cmake
function(roff_escape in out)
  string(REPLACE "\\" "\\e" t "${in}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" t "${t}")
  set(${out} "${t}" PARENT_SCOPE)
endfunction()

# The subcommands, from the usage text's "commands:" list.
execute_process(COMMAND "${CLI}" --help OUTPUT_VARIABLE usage RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "man_pages: ${CLI} --help failed (${rc})")
endif()
string(REGEX REPLACE ".*\ncommands:\n" "" list "${usage}")
string(REGEX REPLACE "\n\n.*" "" list "${list}")
string(REPLACE "\n" ";" lines "${list}")
file(READ "${FILES}" include_text)
string(APPEND include_text "\n[COMMANDS]\n")
foreach(line IN LISTS lines)
  string(REGEX MATCH "^  ([a-z-]+)" m "${line}")
  if(NOT CMAKE_MATCH_1)
    continue()
  endif()
  set(cmd "${CMAKE_MATCH_1}")
  execute_process(COMMAND "${CLI}" ${cmd} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "man_pages: ${CLI} ${cmd} --help failed (${rc})")
  endif()
  roff_escape("${help}" help)
  string(APPEND include_text ".SS ${cmd}\n.nf\n${help}\n.fi\n")
endforeach()
file(WRITE "${OUT}/fdlab-cli.h2m" "${include_text}")

function(man_page program name include)
  execute_process(COMMAND help2man --no-info --name "${name}" --section 1
    --include "${include}" --output "${OUT}/${program}.1" "${${program}_PATH}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "man_pages: help2man ${program} failed (${rc})")
  endif()
endfunction()

set(fdlab-cli_PATH "${CLI}")
set(fdlab_PATH "${GUI}")
man_page(fdlab-cli "the Feature Deletion Lab, headless" "${OUT}/fdlab-cli.h2m")
set(ENV{QT_QPA_PLATFORM} offscreen)
man_page(fdlab "the Feature Deletion Lab, a desktop application" "${FILES}")
