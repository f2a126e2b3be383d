set(STRUT_TEST_SOURCES
  tests/task_system_test.cpp
  tests/body_test.cpp
  tests/integration_test.cpp
)
