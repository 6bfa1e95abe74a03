# Script mode, run at every build: writes OUT, a header defining NXV_GIT_COMMIT as the short commit of SOURCE
# (with "-dirty" when the work tree has changes), rewriting it only when that changes. A commit taken at configure
# time went stale with every later commit, and results were recorded under the wrong one.
execute_process(COMMAND git rev-parse --short HEAD WORKING_DIRECTORY ${SOURCE} OUTPUT_VARIABLE commit
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE failed)
if(failed OR NOT commit)
  set(commit unknown)
else()
  execute_process(COMMAND git status --porcelain --untracked-files=no WORKING_DIRECTORY ${SOURCE}
                  OUTPUT_VARIABLE changes ERROR_QUIET)
  if(changes)
    set(commit "${commit}-dirty")
  endif()
endif()
set(text "#define NXV_GIT_COMMIT \"${commit}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
