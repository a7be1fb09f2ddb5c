#include "downloads.h"

#include <boost/url/encode.hpp>
#include <boost/url/rfc/unreserved_chars.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <memory>

#include "answers.h"
#include "common/text.h"
#include "conditional.h"
#include "problem.h"
#include "question.h"

namespace eight::server {

namespace {

// The name a table file is served under, in /tables and Content-Disposition:
// one file is eight.tbl, as it always was, whatever its path; of several
// (one folder, so the names differ), each keeps its own file name.
std::string served_name(const TableSet& tables, std::size_t i) {
  return tables.size() == 1 ? std::string("eight.tbl")
                            : std::filesystem::path(tables.table(i)->path()).filename().string();
}

}  // namespace

void serve_table(const TableSlot& slot, const Request& req, Response& res) {
  const auto tables = slot.get();
  if (!tables) return set_problem(res, no_tables(slot));
  // shape=RxC: the file answering that shape. Without it: the only file, or
  // of several, the one answering 3x3 (else the first).
  std::size_t which = 0;
  const std::string* name = req.param("name");
  if (name != nullptr && req.param("shape") != nullptr) {
    return set_problem(res,
                       {400, "bad-request", "Bad request",
                        "give shape= or name=, not both: name= names one file already", "name"});
  }
  if (name != nullptr) {
    std::string names;
    for (which = 0; which < tables->size(); ++which) {
      if (served_name(*tables, which) == *name) break;
      names += (which == 0 ? "" : ", ") + served_name(*tables, which);
    }
    if (which == tables->size()) {
      return set_problem(
          res, {404, "table-not-found", "No such table file",
                "no table file is named " + quote(*name) + "; GET /tables lists them: " + names,
                "name"});
    }
  } else if (const std::string* text = req.param("shape")) {
    const auto shape = parse_shape(*text);
    if (!shape.ok()) return set_problem(res, problem_from_error(shape.error(), "shape"));
    const auto found = tables->table_for(*shape);
    if (!found.ok()) return set_problem(res, problem_from_error(found.error(), "shape"));
    which = *found;
  } else if (const auto found = tables->table_for(kShape3x3); found.ok()) {
    which = *found;
  }
  std::shared_ptr<const Table> loaded = tables->table(which);
  const auto bytes = loaded->view().bytes();
  const std::uint64_t size = bytes.size();
  // Validators and caching go on every outcome, 304 and 416 included.
  const std::string etag = etag_of(*loaded);
  res.set_header("ETag", etag);
  res.set_header("Cache-Control", kTableCacheControl);
  res.set_header("Accept-Ranges", "bytes");
  if (const auto inm = req.header("If-None-Match"); !inm.empty() && if_none_match(inm, etag)) {
    // No Content-Length: RFC 9110 8.6 allows only the 200's length, which
    // some clients then wait for as a body; the transport sends none on a 304.
    res.set_status(304);
    return;
  }
  const RangeDecision range = decide_range(req.header("Range"), req.header("If-Range"), etag, size);
  if (range.kind == RangeDecision::Kind::kUnsatisfiable) {
    set_problem(res,
                {416,
                 "range-not-satisfiable",
                 "Range not satisfiable",
                 "the Range header selects no byte of the " + std::to_string(size) + "-byte table",
                 {}});
    res.set_header("Content-Range", "bytes */" + std::to_string(size));
    return;
  }
  std::uint64_t first = 0;
  std::uint64_t length = size;
  res.set_status(200);
  if (range.kind == RangeDecision::Kind::kPartial) {
    first = range.first;
    length = range.last - range.first + 1;
    res.set_status(206);
    res.set_header("Content-Range", "bytes " + std::to_string(range.first) + "-" +
                                        std::to_string(range.last) + "/" + std::to_string(size));
  }
  res.set_header("Content-Disposition",
                 "attachment; filename=\"" + served_name(*tables, which) + "\"");
  res.set_header("Content-Type", "application/octet-stream");
  // Served straight from the mapping: no copy of the table per request. The
  // response holds the snapshot so the mapping outlives the download.
  res.external = {reinterpret_cast<const char*>(bytes.data()) + first,
                  static_cast<std::size_t>(length)};
  res.owner = std::move(loaded);
}

void list_tables(const TableSlot& slot, Response& res) {
  const auto tables = slot.get();
  if (!tables) return set_problem(res, no_tables(slot));
  const auto main = tables->table_for(kShape3x3);
  const std::size_t default_file = main.ok() ? *main : 0;
  auto files = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < tables->size(); ++i) {
    const Table& t = *tables->table(i);
    const std::string name = served_name(*tables, i);
    auto shapes = nlohmann::ordered_json::array();
    for (const Shape s : t.answered_shapes()) shapes.push_back(to_string(s));
    files.push_back(
        {{"name", name},
         {"url", "/table?name=" + boost::urls::encode(name, boost::urls::unreserved_chars)},
         {"etag", etag_of(t)},
         {"checksum", t.checksum_hex()},
         {"bytes", t.view().bytes().size()},
         {"sections", t.view().section_count()},
         {"shapes", std::move(shapes)},
         {"default", i == default_file}});
  }
  nlohmann::ordered_json j;
  j["tables"] = std::move(files);
  set_json(res, j);
  // A reload (SIGHUP) may change the list at any time.
  res.set_header("Cache-Control", kNoStore);
}

}  // namespace eight::server
