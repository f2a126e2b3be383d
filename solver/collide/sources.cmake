# Narrow phase module.
set(STRUT_COLLIDE_SOURCES
  solver/collide/collide_polygons.cpp
  solver/collide/collide_circles.cpp
  solver/collide/collide_dispatch.cpp
  solver/collide/shape_queries.cpp
)
set(STRUT_COLLIDE_TESTS
  tests/collide_test.cpp
  tests/shape_queries_test.cpp
)
