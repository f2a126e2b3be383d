# Writes the text file INPUT into the C++ header OUTPUT as `inline constexpr std::string_view
# NAME`, so a page can be edited as a real .html file and still ship inside the program.
file(READ "${INPUT}" content)
string(FIND "${content}" ")embedded_text\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw-string delimiter )embedded_text\"")
endif()
file(WRITE "${OUTPUT}.tmp" "// Generated from ${INPUT} by cmake/embed_text.cmake; edit that file.\n#pragma once\n#include <string_view>\ninline constexpr std::string_view ${NAME} = R\"embedded_text(${content})embedded_text\";\n")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
