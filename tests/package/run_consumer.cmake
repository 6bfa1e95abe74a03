# Installs the built nx_vulkan into a scratch prefix, then configures, builds and runs tests/package/consumer against
# it: the check that `find_package(nx_vulkan CONFIG REQUIRED)` works for a project outside this tree.
# Script mode; tests/package/CMakeLists.txt passes every variable below with -D.
foreach(var BUILD_DIR WORK_DIR CONSUMER_DIR GENERATOR CXX_COMPILER BUILD_TYPE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_consumer.cmake: -D${var}=... is required")
  endif()
endforeach()

set(prefix ${WORK_DIR}/prefix)
set(consumer_build ${WORK_DIR}/consumer-build)
# A fresh prefix and build each time: a stale package from an earlier run must not make the test pass.
file(REMOVE_RECURSE ${prefix} ${consumer_build})

function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    list(JOIN ARGN " " command)
    message(FATAL_ERROR "package_consumer: ${what} failed (${rc}): ${command}")
  endif()
endfunction()

step("installing the build" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} --config ${BUILD_TYPE})
step("configuring the consumer" ${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${consumer_build} -G ${GENERATOR}
     -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_BUILD_TYPE=${BUILD_TYPE})
step("building the consumer" ${CMAKE_COMMAND} --build ${consumer_build} --config ${BUILD_TYPE})
step("running the consumer" ${consumer_build}/consumer)
