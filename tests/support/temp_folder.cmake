# The tests' temporary folder, TMPDIR of every test (tests/CMakeLists.txt). STEP=setup makes it
# empty before the tests; STEP=check, after them, fails naming every entry a test or a program it
# ran left behind. A folder of the build's own, so the check holds however many tests run at once
# and whatever else the system's temporary folder holds.
if(STEP STREQUAL "setup")
  file(REMOVE_RECURSE "${DIR}")
  file(MAKE_DIRECTORY "${DIR}")
  return()
endif()
file(GLOB left LIST_DIRECTORIES true RELATIVE "${DIR}" "${DIR}/*" "${DIR}/.*")
list(REMOVE_ITEM left "." "..")
list(REMOVE_DUPLICATES left)
if(left)
  list(JOIN left ", " names)
  message(FATAL_ERROR "the tests left behind in their temporary folder ${DIR}: ${names}")
endif()
message(STATUS "the tests' temporary folder ${DIR} is empty")
