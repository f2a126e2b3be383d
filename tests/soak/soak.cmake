# The soak (tests/soak/soak_main.cpp): minutes long, so it skips (exit 77) unless the
# environment has STRUT_SOAK=1. Label `slow`.
add_executable(strut_soak tests/soak/soak_main.cpp)
target_link_libraries(strut_soak PRIVATE strut)
add_test(NAME soak COMMAND strut_soak)
set_tests_properties(soak PROPERTIES LABELS slow SKIP_RETURN_CODE 77)
