# Example programs (examples/*.cpp): built with the library's public API only, and run by ctest
# so they never go stale. Each checks its own physics and returns non-zero if it is wrong.
foreach(example hello_world game_loop car ragdoll platformer)
  add_executable(example_${example} examples/${example}.cpp)
  target_link_libraries(example_${example} PRIVATE strut)
  add_test(NAME example_${example} COMMAND example_${example})
endforeach()

# The platformer's recording (--record, through tools/record's writer) plays in `strut view`.
target_link_libraries(example_platformer PRIVATE strut_tools)
if(TARGET strut_cli)
  add_test(NAME example_platformer_view COMMAND sh -c
    "$<TARGET_FILE:example_platformer> --record platformer.rec && $<TARGET_FILE:strut_cli> view platformer.rec -o platformer.html"
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
endif()
