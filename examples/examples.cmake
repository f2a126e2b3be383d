# Example programs (examples/*.cpp): built with the library's public API only (those that record,
# with the recording writer of strut_tools too), and run by ctest so they never go stale. Each
# checks its own physics and returns non-zero if it is wrong.
#
# strut_example(NAME [RECORDS]) builds examples/NAME.cpp as example_NAME and runs it as a test.
# RECORDS: the example takes `--record FILE` (examples/example_recording.hpp, through the
# strut_tools library); a second test runs it so into the build directory, and a third turns the
# recording into a page with `strut view`, each checked by its exit status.
function(strut_example name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "RECORDS" "" "")
  add_executable(example_${name} examples/${name}.cpp)
  target_link_libraries(example_${name} PRIVATE strut)
  add_test(NAME example_${name} COMMAND example_${name})
  if(arg_RECORDS)
    target_link_libraries(example_${name} PRIVATE strut_tools)
    set(recording ${CMAKE_CURRENT_BINARY_DIR}/example_${name}.rec)
    add_test(NAME example_${name}_record COMMAND example_${name} --record ${recording})
    set_tests_properties(example_${name}_record PROPERTIES FIXTURES_SETUP example_${name}_rec)
    if(STRUT_BUILD_TOOLS)
      add_test(NAME example_${name}_view
               COMMAND strut_cli view ${recording} -o ${CMAKE_CURRENT_BINARY_DIR}/example_${name}.html)
      set_tests_properties(example_${name}_view PROPERTIES FIXTURES_REQUIRED example_${name}_rec)
    endif()
  endif()
endfunction()

foreach(example hello_world game_loop car ragdoll)
  strut_example(${example})
endforeach()
foreach(example breakable_bridge conveyor explosion platformer)
  strut_example(${example} RECORDS)
endforeach()
