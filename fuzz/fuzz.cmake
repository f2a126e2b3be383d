# Fuzz targets: fuzz_scene (scene file bytes -> parse, build, step) and fuzz_api (bytes -> a
# sequence of World calls). Each defines LLVMFuzzerTestOneInput.
set(STRUT_FUZZ_TARGETS scene api)
if(STRUT_SANITIZE STREQUAL "fuzz")
  foreach(target ${STRUT_FUZZ_TARGETS})
    add_executable(fuzz_${target} fuzz/fuzz_${target}.cpp)
    target_link_libraries(fuzz_${target} PRIVATE strut_internal)
    target_link_options(fuzz_${target} PRIVATE -fsanitize=fuzzer)
  endforeach()
elseif(STRUT_BUILD_TESTS)
  # Replays every file of fuzz/corpus/<target>/ through the target (a regression suite of the
  # seeds and of every input that once failed); no fuzzer needed.
  foreach(target ${STRUT_FUZZ_TARGETS})
    add_executable(fuzz_replay_${target} fuzz/fuzz_${target}.cpp fuzz/replay_main.cpp)
    target_link_libraries(fuzz_replay_${target} PRIVATE strut_internal)
    add_test(NAME fuzz_replay_${target}
             COMMAND fuzz_replay_${target} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/${target})
  endforeach()
  # A short fuzzing run (20 s a target) when tools/fuzz.sh has built the fuzzers in build-fuzz;
  # skipped (not failed) otherwise.
  add_test(NAME fuzz_short_run
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tools/fuzz.sh --run-only 20)
  set_tests_properties(fuzz_short_run PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
endif()
