# Fuzz targets: fuzz_scene (scene file bytes -> parse, build, step), fuzz_api (bytes -> a
# sequence of World calls) and fuzz_snapshot (changed snapshot bytes -> World::from_snapshot). Each defines LLVMFuzzerTestOneInput.
set(STRUT_FUZZ_TARGETS scene api snapshot)
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
  # The fuzzers themselves need clang, so they get their own build (<build>/fuzz, by
  # tools/fuzz.sh): fuzz_build builds them (the whole engine again, under AddressSanitizer:
  # 115 s on 2 cores), fuzz_ci then runs each for a fixed number of inputs with a fixed seed
  # (89 s), so a commit passes or fails the same way each time. Together they would double the
  # test command's time, so like the other `slow` tests they skip unless STRUT_SLOW is set:
  # STRUT_SLOW=1 ctest -L fuzz. The replay above runs in every test run. Longer runs:
  # tools/fuzz.sh SECONDS.
  set(STRUT_FUZZ_CI_RUNS 10000 CACHE STRING "Inputs a target runs in ctest's fuzz_ci")
  set(fuzz_env STRUT_FUZZ_BUILD=${CMAKE_CURRENT_BINARY_DIR}/fuzz)
  set(only_if_slow [=[[ -n "$STRUT_SLOW" ] || exit 77 && exec env "$@"]=])
  add_test(NAME fuzz_build COMMAND sh -c ${only_if_slow} fuzz_build ${fuzz_env}
                                   ${CMAKE_CURRENT_SOURCE_DIR}/tools/fuzz.sh --build-only)
  add_test(NAME fuzz_ci COMMAND sh -c ${only_if_slow} fuzz_ci ${fuzz_env}
                                ${CMAKE_CURRENT_SOURCE_DIR}/tools/fuzz.sh --ci ${STRUT_FUZZ_CI_RUNS})
  set_tests_properties(fuzz_build PROPERTIES FIXTURES_SETUP fuzzers TIMEOUT 1200
                                             LABELS "fuzz;slow" SKIP_RETURN_CODE 77)
  set_tests_properties(fuzz_ci PROPERTIES FIXTURES_REQUIRED fuzzers TIMEOUT 600
                                          LABELS "fuzz;slow" SKIP_RETURN_CODE 77)
endif()
