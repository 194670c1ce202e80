# Installs skipsound into a fresh prefix outside the source tree and runs a tiny gate from another
# folder: the gate must find the installed scenario corpus (share/skipsound/corpus/scenarios)
# relative to the installed binary, and --corpus must still override it.
#   cmake -DBUILD_DIR=<build tree> -DSCRATCH=<empty folder outside the sources> -P install_layout_test.cmake
foreach(var BUILD_DIR SCRATCH)
  if(NOT ${var})
    message(FATAL_ERROR "${var} is required")
  endif()
endforeach()

set(prefix ${SCRATCH}/prefix)
set(elsewhere ${SCRATCH}/elsewhere)
file(REMOVE_RECURSE ${SCRATCH})
file(MAKE_DIRECTORY ${elsewhere})

execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix}
                RESULT_VARIABLE installed OUTPUT_QUIET)
if(NOT installed EQUAL 0)
  message(FATAL_ERROR "cmake --install failed: ${installed}")
endif()

function(run_tiny_gate out_var)
  execute_process(
    COMMAND ${prefix}/bin/skipsound gate --budget 1 --category disjoint --mutant none --exhaustive 0
            --skip-proofs --cross-check none --threads 1 ${ARGN}
    WORKING_DIRECTORY ${elsewhere}
    RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "the installed gate exited ${code}:\n${out}")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

run_tiny_gate(out)
file(REAL_PATH ${prefix}/share/skipsound/corpus/scenarios corpus)
string(FIND "${out}" "scenario corpus: ${corpus}\n" named)
if(named EQUAL -1 OR NOT out MATCHES "corpus [(][^)]*[)]: [1-9][0-9]* files, 0 differing")
  message(FATAL_ERROR "the installed gate did not replay the installed corpus ${corpus}:\n${out}")
endif()

file(MAKE_DIRECTORY ${elsewhere}/empty-corpus)
run_tiny_gate(out --corpus ${elsewhere}/empty-corpus)
if(NOT out MATCHES "scenario corpus: ${elsewhere}/empty-corpus")
  message(FATAL_ERROR "--corpus did not override the installed corpus:\n${out}")
endif()

file(REMOVE_RECURSE ${SCRATCH})
message(STATUS "installed gate found ${corpus}")
