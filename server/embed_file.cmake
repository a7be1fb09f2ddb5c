# cmake -DIN=file -DOUT=file.cpp -DSYMBOL=name -P embed_file.cmake
#
# Writes a C++ file defining `std::string_view eight::server::SYMBOL()` that
# returns IN's exact bytes. Bytes go out as hex, so any content is safe.
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" hex_length)
math(EXPR size "${hex_length} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
# One line per 32 bytes keeps the generated file readable in a debugger.
string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){32})" "\\1\n" bytes "${bytes}")
file(WRITE "${OUT}.tmp"
  "// Generated from ${IN} by embed_file.cmake. Do not edit.\n"
  "#include <string_view>\n\n"
  "namespace eight::server {\n"
  "namespace {\n"
  "constexpr unsigned char kBytes[] = {\n${bytes}\n0};\n"
  "}  // namespace\n\n"
  "std::string_view ${SYMBOL}() {\n"
  "  return {reinterpret_cast<const char*>(kBytes), ${size}};\n"
  "}\n\n"
  "}  // namespace eight::server\n")
# Only touch OUT when the content changed, so an unchanged YAML rebuilds nothing.
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
