# SIMD levels (solver/simd/simd_dispatch.hpp). The library is compiled for a baseline, the
# subsystems' kernel tables once per x86-64 level with that level's -march, and the widest level
# the CPU runs is chosen at run time. Baseline: STRUT_MARCH, x86-64-v2 by default (SSE4.2, so any
# x86-64 CPU of the last 15 years), or this machine with STRUT_NATIVE=ON (then the binary may not
# run elsewhere).
set(STRUT_MARCH x86-64-v2 CACHE STRING
  "Baseline -march of the library when STRUT_NATIVE is OFF (x86-64-v3: an AVX2 baseline)")
add_library(strut_arch INTERFACE)
set(strut_levels sse42 avx2 avx512)
set(strut_level_march x86-64-v2 x86-64-v3 x86-64-v4)
if(STRUT_NATIVE)
  target_compile_options(strut_arch INTERFACE -march=native)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  target_compile_options(strut_arch INTERFACE -march=${STRUT_MARCH})
else()
  message(FATAL_ERROR "strut's portable build targets x86-64; on ${CMAKE_SYSTEM_PROCESSOR} "
                      "configure with -DSTRUT_NATIVE=ON")
endif()

# Each subsystem's kernel tables (solver/simd/simd_dispatch.hpp): <table>.cpp holds the scalar
# twins' table, compiled for the baseline with the library, and <table>_<level>.cpp each wide
# level's.
set(strut_kernel_tables
  solver/step/step_kernel_table
  solver/contacts/contact_kernel_table
  solver/joints/point_kernel_table
  solver/soft/strut_kernel_table
  broadphase/sweep_kernel_table)

# One object library per level from every subsystem's <table>_<level>.cpp, linked into strut
# below. They take strut_flags (warnings, -ffp-contract=off, sanitizers) but not strut_arch: their
# own -march decides which instructions they may use.
foreach(level march IN ZIP_LISTS strut_levels strut_level_march)
  list(TRANSFORM strut_kernel_tables APPEND _${level}.cpp OUTPUT_VARIABLE level_sources)
  add_library(strut_simd_${level} OBJECT ${level_sources})
  target_compile_options(strut_simd_${level} PRIVATE -march=${march})
  target_include_directories(strut_simd_${level} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}
                                                         ${CMAKE_CURRENT_SOURCE_DIR}/include)
  target_link_libraries(strut_simd_${level} PRIVATE strut_flags xsimd)
  list(APPEND STRUT_SIMD_OBJECTS $<TARGET_OBJECTS:strut_simd_${level}>)
endforeach()
list(TRANSFORM strut_kernel_tables APPEND .cpp OUTPUT_VARIABLE baseline_tables)
list(APPEND STRUT_SIMD_OBJECTS solver/simd/simd_dispatch.cpp ${baseline_tables})
