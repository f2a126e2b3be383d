# Scene files and the built-in scenes (the strut::scene library), and the strut command-line program.
# nlohmann_json is included by tools/scene/scene_parse*.cpp only (slow to compile).
set(STRUT_SCENE_SOURCES
  tools/scene/json_text.cpp
  tools/scene/scene_error.cpp
  tools/scene/scene_parse.cpp
  tools/scene/scene_parse_shapes.cpp
  tools/scene/scene_parse_tiles.cpp
  tools/scene/scene_write.cpp
  tools/scene/scene_concave.cpp
  tools/scene/scene_build.cpp
  tools/scene/scene_snapshot.cpp
  tools/scene/builtin_scenes.cpp
  tools/scene/builtin_stacks.cpp
  tools/scene/builtin_machines.cpp
  tools/scene/builtin_compounds.cpp
  tools/scene/builtin_jointed.cpp
  tools/scene/builtin_rain.cpp
  tools/scene/builtin_particles.cpp
)
# The learning environment of the Python package and the benchmarks (not installed API).
set(STRUT_WORLDS_SOURCES tools/worlds/lander_env.cpp)
set(STRUT_SCENE_TESTS
  tests/scene_parse_test.cpp
  tests/scene_roundtrip_test.cpp
  tests/scene_concave_test.cpp
  tests/builtin_scenes_test.cpp
  tests/cli_test.cpp
  tests/events_out_test.cpp
  tests/recording_test.cpp
  tests/viewer_browser_test.cpp
  tests/render_test.cpp
  tests/robustness_test.cpp
)
# Recordings, the viewer page and PNG rendering (library strut_tools: the program and the tests).
set(STRUT_RECORD_SOURCES
  tools/record/compression.cpp
  tools/record/recording_writer.cpp
  tools/record/recording_reader.cpp
  tools/view/palette.cpp
  tools/view/viewer_page.cpp
  tools/view/png_render.cpp
)
set(STRUT_TOOL_SOURCES
  tools/strut_main.cpp
  tools/cli_args.cpp
  tools/cmd_run.cpp
  tools/cmd_scale.cpp
  tools/svg_plot.cpp
  tools/record/run_recording.cpp
  tools/cmd_view.cpp
  tools/cmd_render.cpp
  tools/cmd_robustness.cpp
)
# The robustness suite (tools/robustness/): its cases and figures, read by `strut robustness`,
# the tests and (through robustness.hpp's Engine) by probes of other engines.
set(STRUT_ROBUSTNESS_SOURCES
  tools/robustness/robustness_cases.cpp
  tools/robustness/statics_cases.cpp
  tools/robustness/rope_and_spring_cases.cpp
  tools/robustness/strut_engine.cpp
)
