# Example programs (examples/*.cpp): built with the library's public API only, and run by ctest
# so they never go stale. Each checks its own physics and returns non-zero if it is wrong.
foreach(example hello_world game_loop car ragdoll)
  add_executable(example_${example} examples/${example}.cpp)
  target_link_libraries(example_${example} PRIVATE strut)
  add_test(NAME example_${example} COMMAND example_${example})
endforeach()

