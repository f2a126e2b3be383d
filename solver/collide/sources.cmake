# Narrow phase module.
set(STRUT_COLLIDE_SOURCES
  solver/collide/collide_polygons.cpp
  solver/collide/collide_rounded.cpp
  solver/collide/collide_capsules.cpp
  solver/collide/collide_polygon_capsule.cpp
  solver/collide/collide_circles.cpp
  solver/collide/collide_chain.cpp
  solver/collide/collide_table.cpp
  solver/collide/shape_queries.cpp
)
set(STRUT_COLLIDE_TESTS
  tests/collide_test.cpp
  tests/collide_pairs_test.cpp
  tests/shape_queries_test.cpp
  tests/shape_kinds_test.cpp
  tests/polygon_segment_lanes_test.cpp
)
