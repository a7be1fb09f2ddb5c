// include/eight/c.h's tables: a table file or folder opened, the table
// shapes built in memory, a table's bytes adopted; each checked.
#include <algorithm>
#include <filesystem>
#include <iterator>
#include <string_view>
#include <utility>
#include <vector>

#include "c_internal.h"
#include "eight/tablegen.h"

namespace {

using eight::capi::guarded;
using eight::capi::set_error;

// The tables of a table file's bytes, checked, as an eight_t; or nothing
// with *errptr set to why (eight_build_shapes, eight_open_bytes).
eight_t* adopt_or_fail(std::vector<std::uint8_t> bytes, const std::string& name, char** errptr) {
  auto table = eight::Table::adopt(std::move(bytes), name, eight::Check::kChecksum);
  if (!table.ok()) {
    set_error(errptr, table.error().message);
    return nullptr;
  }
  return new eight_t{eight::TableSet({std::move(table).value()})};
}

}  // namespace

extern "C" {

void eight_free(void* ptr) {
  std::free(ptr);
}

eight_t* eight_open(const char* path, char** errptr) {
  return guarded<eight_t*>(errptr, nullptr, [&]() -> eight_t* {
    if (path == nullptr) {
      set_error(errptr, "no table path given");
      return nullptr;
    }
    std::error_code ec;
    const bool folder = std::filesystem::is_directory(path, ec);
    auto tables = eight::TableSet::open(eight::TableSource{path, folder}, eight::Check::kChecksum);
    if (!tables.ok()) {
      set_error(errptr, tables.error().message);
      return nullptr;
    }
    return new eight_t{std::move(tables).value()};
  });
}

eight_t* eight_build(char** errptr) {
  return eight_build_shapes(nullptr, errptr);
}

eight_t* eight_build_shapes(const char* shapes, char** errptr) {
  return guarded<eight_t*>(errptr, nullptr, [&]() -> eight_t* {
    std::vector<eight::SectionSpec> sections;
    if (shapes == nullptr || *shapes == '\0') {
      sections.assign(std::begin(eight::kDefaultSections), std::end(eight::kDefaultSections));
    } else {
      std::vector<eight::Shape> named;
      for (std::string_view rest = shapes;;) {
        const std::size_t comma = rest.find(',');
        const std::string_view text = rest.substr(0, comma);
        auto shape = eight::parse_shape(text);
        if (!shape.ok()) {
          set_error(errptr, shape.error().message);
          return nullptr;
        }
        // The sections are kept under one of a shape and its transpose.
        const eight::Shape s = *shape;
        const auto built_as = [&](const eight::SectionSpec& spec) {
          return spec.shape == s || spec.shape == s.transposed();
        };
        if (std::none_of(std::begin(eight::kDefaultSections), std::end(eight::kDefaultSections),
                         built_as)) {
          set_error(errptr,
                    "eight builds in memory the shapes up to 10 cells (2x2, 2x3, 3x2, "
                    "2x4, 4x2, 3x3, 2x5, 5x2), not " +
                        eight::to_string(s) + ": open a table file");
          return nullptr;
        }
        if (std::any_of(named.begin(), named.end(),
                        [&](eight::Shape n) { return n == s || n == s.transposed(); })) {
          set_error(errptr, "shape " + eight::to_string(s) +
                                " is named twice (a shape brings "
                                "its transpose)");
          return nullptr;
        }
        named.push_back(s);
        for (const eight::SectionSpec& spec : eight::kDefaultSections) {
          if (built_as(spec)) sections.push_back(spec);
        }
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
      }
    }
    return adopt_or_fail(eight::build_table(sections), "in memory", errptr);
  });
}

eight_t* eight_open_bytes(const uint8_t* bytes, size_t size, const char* name, char** errptr) {
  return guarded<eight_t*>(errptr, nullptr, [&]() -> eight_t* {
    if (bytes == nullptr && size != 0) {
      set_error(errptr, "no table bytes given");
      return nullptr;
    }
    std::vector<std::uint8_t> copy(bytes, bytes + size);
    return adopt_or_fail(std::move(copy), name != nullptr ? name : "in memory", errptr);
  });
}

void eight_close(eight_t* e) {
  delete e;
}

}  // extern "C"
