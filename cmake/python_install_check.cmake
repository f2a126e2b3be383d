# Installs the build into a scratch prefix and imports the installed package from there with
# Debian's python3 (the python_install test): the directory cmake --install writes is the one
# python3 reads under that prefix. -DBUILD=... -DPREFIX=... -DPYTHON=... -DSITE=lib/python3.X/dist-packages
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${PREFIX}
  RESULT_VARIABLE installed OUTPUT_QUIET)
if(NOT installed EQUAL 0)
  message(FATAL_ERROR "cmake --install failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${PREFIX}/${SITE} ${PYTHON} -c
  "import strut, os; assert strut.__file__.startswith(os.environ['PYTHONPATH']), strut.__file__; w = strut.load_scene('tumbler', 1); w.step(2); print(w.hash())"
  RESULT_VARIABLE imported OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT imported EQUAL 0)
  message(FATAL_ERROR "the installed package did not import: ${err}")
endif()
message(STATUS "installed package ran: hash ${out}")
