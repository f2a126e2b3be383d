# Shape kinds: one file per kind, the per-kind dispatch and shared checks.
list(APPEND STRUT_SOLVER_SOURCES
  solver/shapes/shape_checks.cpp
  solver/shapes/circle.cpp
  solver/shapes/capsule.cpp
  solver/shapes/polygon.cpp
  solver/shapes/convex_hull.cpp
  solver/shapes/concave_polygon.cpp
  solver/shapes/chain.cpp
  solver/shapes/rounded_queries.cpp
  solver/shapes/shape_table.cpp
)
