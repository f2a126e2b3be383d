set(STRUT_TEST_SOURCES
  tests/task_system_test.cpp
  tests/body_test.cpp
  tests/integration_test.cpp
  tests/joint_test.cpp
  tests/soft_body_test.cpp
  tests/driver_test.cpp
)
