# Installs strut into a scratch prefix and builds a tiny outside project against it with
# find_package(strut): proves the exported package works for users.
add_test(NAME install_and_consume
  COMMAND ${CMAKE_COMMAND}
    -DSTRUT_BINARY_DIR=${CMAKE_BINARY_DIR}
    -DCONSUMER_SOURCE_DIR=${CMAKE_CURRENT_SOURCE_DIR}/tests/consumer
    -DWORK_DIR=${CMAKE_BINARY_DIR}/consumer_check
    -P ${CMAKE_CURRENT_SOURCE_DIR}/tests/consumer/run_consumer.cmake)
