#include "fetch.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "common/durable_file.h"
#include "common/exit_codes.h"
#include "common/text.h"
#include "eight/table.h"
#include "eight/table_format.h"

namespace eight::cli {
namespace {

// One entry of GET /tables, checked.
struct Listed {
  std::string name;
  std::string url;
  std::string etag;
  std::uint64_t bytes = 0;
  bool is_default = false;
};

std::string quoted_hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "\"%016llx\"", static_cast<unsigned long long>(v));
  return buf;
}

// The longest name a listing may give a table (eight-server serves its
// table files' own names; 128 bytes is far past any of eight's).
constexpr std::size_t kMaxTableName = 128;

// A served name becomes a file in the folder, so it must look like one of
// eight's own table file names (eight.tbl, small-2x3.tbl): letters, digits,
// '.', '_' and '-', starting with a letter or digit (never a dot file such
// as .bashrc, never a path such as ../x.tbl or a/b.tbl), ending in .tbl.
bool table_file_name(const std::string& name) {
  constexpr std::string_view kSuffix = ".tbl";
  if (name.size() <= kSuffix.size() || name.size() > kMaxTableName ||
      name.compare(name.size() - kSuffix.size(), kSuffix.size(), kSuffix) != 0) {
    return false;
  }
  const auto alnum = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  };
  if (!alnum(name.front())) return false;
  return std::all_of(name.begin(), name.end(),
                     [&](char c) { return alnum(c) || c == '.' || c == '_' || c == '-'; });
}

std::variant<std::vector<Listed>, Failure> list_tables(ServerClient& server) {
  const std::string target = "/tables";
  auto r = server.get(target);
  if (auto* f = std::get_if<Failure>(&r)) return *f;
  auto j = server.answer_json(std::get<httplib::Response>(r), target);
  if (auto* f = std::get_if<Failure>(&j)) return *f;
  const auto& body = std::get<nlohmann::json>(j);
  if (auto f = server.check_field(target, body, "tables", JsonType::kArray)) return *f;
  const auto tables = body.find("tables");
  if (tables->empty()) return server.not_eight(target, "field 'tables' lists no table");
  std::vector<Listed> out;
  std::uint64_t listed_bytes = 0;
  for (std::size_t i = 0; i < tables->size(); ++i) {
    const auto& t = (*tables)[i];
    const std::string entry = "tables[" + std::to_string(i) + "]";
    if (!t.is_object()) return server.not_eight(target, entry + " is not an object");
    // Each field's type checked before it is read.
    for (const auto& [field, type] :
         {std::pair{"name", JsonType::kString}, std::pair{"url", JsonType::kString},
          std::pair{"etag", JsonType::kString}, std::pair{"bytes", JsonType::kUnsigned},
          std::pair{"default", JsonType::kBoolean}}) {
      if (auto why = field_problem(t, field, type))
        return server.not_eight(target, entry + ": " + *why);
    }
    Listed l;
    l.name = t["name"].get<std::string>();
    l.url = t["url"].get<std::string>();
    l.etag = t["etag"].get<std::string>();
    l.bytes = t["bytes"].get<std::uint64_t>();
    l.is_default = t["default"].get<bool>();
    if (!table_file_name(l.name)) {
      return server.not_eight(target, entry + ": the name '" + escape_bytes(l.name, 40) +
                                          "' is not a table file name (letters, digits, '.', "
                                          "'_' and '-', not starting with '.', ending in .tbl, "
                                          "at most " +
                                          std::to_string(kMaxTableName) + " bytes)");
    }
    if (l.url.empty() || l.url.front() != '/' ||
        l.url.find_first_of(" \r\n") != std::string::npos) {
      return server.not_eight(target, "the url of " + l.name + " is not a path on the server");
    }
    if (l.bytes < format::kHeaderSize) {
      return server.not_eight(target, "the size of " + l.name + " is too small for a table");
    }
    // Refused before a byte is asked for: no table is larger, and a folder
    // of downloads is bounded by what the listing says in all.
    if (l.bytes > format::kMaxFileSize) {
      return server.not_eight(target, "it lists " + l.name + " at " + std::to_string(l.bytes) +
                                          " bytes, more than a table may have (" +
                                          std::to_string(format::kMaxFileSize) + ")");
    }
    listed_bytes += l.bytes;
    if (listed_bytes > format::kMaxFileSize) {
      return server.not_eight(target, "it lists more than " + std::to_string(format::kMaxFileSize) +
                                          " bytes of tables in all (the most eight fetch takes "
                                          "from one server)");
    }
    if (std::any_of(out.begin(), out.end(), [&](const Listed& o) { return o.name == l.name; })) {
      return server.not_eight(target, entry + ": the name " + l.name + " is listed twice");
    }
    out.push_back(std::move(l));
  }
  return out;
}

// The ETag of a sound table at `path`, or "" when there is none (no file,
// or one whose checksum does not check: it gets replaced).
std::string local_etag(const std::string& path) {
  auto t = Table::open(path, Check::kChecksum);
  return t.ok() ? quoted_hex((*t)->view().checksum()) : std::string();
}

// The size of `path`, or -1 when it does not exist. A name that is not a
// regular file (a link planted there) has none: it is never resumed.
long long file_size(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return -1;
  return S_ISREG(st.st_mode) ? static_cast<long long>(st.st_size) : -1;
}

// The table's header, from its first bytes, checked against the listing:
// the core's header check against the listed size, and its checksum the
// ETag the listing gives. The reason when it fails.
std::optional<std::string> header_problem(std::span<const std::uint8_t> head, const Listed& table,
                                          const std::string& etag) {
  auto header = TableView::parse_header(head, table.bytes, table.name);
  if (!header.ok()) return header.error().message;
  if (quoted_hex(header->checksum) != etag) {
    return "its header's checksum " + quoted_hex(header->checksum) + " is not the ETag " + etag;
  }
  return std::nullopt;
}

// Whether the part an earlier run left holds the beginning of the version
// listed: a regular file whose header passes header_problem(). (Read with
// O_NOFOLLOW: a link is no part of ours.)
bool part_of(const std::string& part, const Listed& table) {
  std::uint8_t head[format::kHeaderSize];
  const int fd = ::open(part.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return false;
  const ssize_t n = ::pread(fd, head, sizeof head, 0);
  ::close(fd);
  return n == static_cast<ssize_t>(sizeof head) && !header_problem(head, table, table.etag);
}

Failure io_failure(const std::string& path, const std::string& step, int err) {
  return {kExitBadTable, path + ": " + step + ": " + std::strerror(err)};
}

// "bytes FIRST-LAST/TOTAL" -> FIRST and TOTAL.
bool parse_content_range(const std::string& v, std::uint64_t& first, std::uint64_t& total) {
  if (v.rfind("bytes ", 0) != 0) return false;
  const auto dash = v.find('-', 6);
  const auto slash = v.find('/', 6);
  if (dash == std::string::npos || slash == std::string::npos || dash > slash) return false;
  const auto f = parse_decimal(std::string_view(v).substr(6, dash - 6));
  const auto l = parse_decimal(std::string_view(v).substr(dash + 1, slash - dash - 1));
  const auto t = parse_decimal(std::string_view(v).substr(slash + 1));
  if (!f || !l || !t || *f > *l || *l >= *t) return false;
  first = *f;
  total = *t;
  return true;
}

// Fetches one table into `dest`; prints what happened on success.
std::optional<Failure> fetch_one(ServerClient& server, const Listed& table,
                                 const std::string& dest) {
  const std::string part = dest + ".part";
  const std::string have = local_etag(dest);
  // Resume only a part of the version the server lists (its header checked
  // against the listing), and short of its end; a part that is not one is
  // removed now, whatever the server answers: nothing unchecked stays.
  long long part_size = file_size(part);
  std::uint64_t offset = 0;
  if (part_size >= 0) {
    if (part_size < static_cast<long long>(table.bytes) && part_of(part, table)) {
      offset = static_cast<std::uint64_t>(part_size);
    } else {
      ::unlink(part.c_str());
      part_size = -1;
    }
  }
  httplib::Headers headers;
  if (!have.empty()) headers.emplace("If-None-Match", have);
  if (offset > 0) {
    headers.emplace("Range", "bytes=" + std::to_string(offset) + "-");
    headers.emplace("If-Range", table.etag);
  }

  int fd = -1;
  int write_errno = 0;
  std::uint64_t start = 0;  // where the body lands in the part
  std::uint64_t total = 0;  // the whole file's size, as the answer says
  std::uint64_t received = 0;
  std::string etag;
  std::string problem_body;  // the body of a refusal
  std::optional<Failure> refused;
  std::optional<Failure> cannot_open;  // the part could not be made (nothing to remove)
  // A whole file's first bytes, held here until they make a header that
  // passes header_problem(): nothing of a body whose header is wrong
  // reaches the disk. (A resumed part's header was checked before asking.)
  std::vector<std::uint8_t> head;
  bool head_checked = false;
  const auto on_response = [&](const httplib::Response& r) {
    if (r.status != 200 && r.status != 206) return true;  // read below
    etag = r.get_header_value("ETag");
    if (r.get_header_value("Content-Type") != "application/octet-stream" || etag.empty()) {
      refused = server.not_eight(table.url, "status " + std::to_string(r.status) +
                                                " without a table's Content-Type and ETag");
      return false;
    }
    if (r.status == 206) {
      std::uint64_t first = 0;
      if (!parse_content_range(r.get_header_value("Content-Range"), first, total) ||
          first != offset) {
        refused = server.not_eight(table.url, "a 206 whose Content-Range does not start at byte " +
                                                  std::to_string(offset));
        return false;
      }
      start = offset;
    } else {
      const auto length = parse_decimal(r.get_header_value("Content-Length"));
      if (!length) {
        refused = server.not_eight(table.url, "a 200 without Content-Length");
        return false;
      }
      total = *length;
      start = 0;
    }
    // The size /tables listed is the most the file may have: a longer
    // answer is refused before a byte of it reaches the disk.
    if (total != table.bytes) {
      refused = server.not_eight(table.url, "a table of " + std::to_string(total) +
                                                " bytes, but /tables lists " + table.name + " at " +
                                                std::to_string(table.bytes));
      return false;
    }
    // A 200 is the whole file: whatever the part held is dropped, and the
    // part made anew, never through a link planted at its name; a 206
    // continues the part this user's earlier run wrote.
    auto opened = start == 0 ? create_new_file(part) : open_own_file(part);
    if (!opened.ok()) {
      cannot_open = Failure{kExitBadTable, opened.error().message};
      return false;
    }
    fd = *opened;
    head_checked = start > 0;
    if (::ftruncate(fd, static_cast<off_t>(start)) != 0 ||
        ::lseek(fd, static_cast<off_t>(start), SEEK_SET) < 0) {
      write_errno = errno;
      return false;
    }
    return true;
  };
  const auto write_all = [&](const std::uint8_t* data, std::size_t n) {
    for (std::size_t done = 0; done < n;) {
      const ssize_t w = ::write(fd, data + done, n - done);
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) {
        write_errno = errno;
        return false;
      }
      done += static_cast<std::size_t>(w);
    }
    return true;
  };
  const auto on_data = [&](const char* data, std::size_t n) {
    if (fd < 0) {  // a refusal's body, kept short
      if (problem_body.size() < 65536) problem_body.append(data, n);
      return true;
    }
    if (n > total - start - received) {  // past the listed size (chunked, or no length)
      refused =
          server.not_eight(table.url, "a body of more than the " + std::to_string(table.bytes) +
                                          " bytes /tables lists for " + table.name);
      return false;
    }
    received += n;
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(data);
    if (head_checked) return write_all(bytes, n);
    const std::size_t take = std::min(n, format::kHeaderSize - head.size());
    head.insert(head.end(), bytes, bytes + take);
    if (head.size() < format::kHeaderSize) return true;
    if (const auto why = header_problem(head, table, etag)) {
      refused = Failure{kExitBadTable,
                        dest + ": refused the download from " + server.where(table.url) + ": " +
                            *why + " (checked at its first " + std::to_string(format::kHeaderSize) +
                            " bytes; nothing of it was kept)"};
      return false;
    }
    head_checked = true;
    return write_all(head.data(), head.size()) && write_all(bytes + take, n - take);
  };
  // The body may be the whole table (a 200, even to a Range) or a short
  // refusal, never more than the listed size; on_data also holds a 206's
  // bytes to what is left of it.
  auto r = server.download(table.url, headers, table.bytes, "/tables lists for " + table.name,
                           on_response, on_data);
  const auto close_part = [&] {
    if (fd >= 0) ::close(fd);
    fd = -1;
  };
  // A refused answer's part is removed: nothing a refused answer sent stays
  // on the disk. Only a cut or a timeout while a table's bytes were coming
  // (bytes that passed every check so far) keeps it, for the next run to
  // resume.
  const auto drop_part = [&] {
    close_part();
    ::unlink(part.c_str());
  };
  if (cannot_open) return cannot_open;  // nothing was made: whatever is there stays
  if (write_errno != 0) {
    drop_part();
    return io_failure(part, "cannot write", write_errno);
  }
  if (refused) {
    drop_part();
    return refused;
  }
  if (auto* f = std::get_if<Failure>(&r)) {
    const bool started = fd >= 0;  // the answer was a table's, and its bytes were coming
    if (!started) return *f;       // nothing of this answer was written
    if (f->refused) {
      drop_part();
      return *f;
    }
    if (f->status == kExitNotEight) {  // the connection ended before the last byte
      f->status = kExitUnreachable;
      f->message = dest + ": the download from " + server.where(table.url) + " was cut at byte " +
                   std::to_string(start + received) + " of " + std::to_string(total);
    }
    // Kept for a resume only past a header checked against the listing: a
    // part cut inside its header is removed (it proves nothing).
    if (!head_checked) {
      drop_part();
      f->message += "; nothing of it was kept (it was cut inside the header)";
      return *f;
    }
    close_part();
    f->message += "; the " + std::to_string(start + received) + " bytes so far are kept in " +
                  part + " and the next eight fetch resumes from there";
    return *f;
  }
  const auto& res = std::get<httplib::Response>(r);
  if (res.status == 304) {
    close_part();
    // Already current: nothing to write (a stale part is dropped).
    if (part_size >= 0) ::unlink(part.c_str());
    std::printf("%s: unchanged, checksum %s\n", dest.c_str(),
                have.substr(1, have.size() - 2).c_str());
    return std::nullopt;
  }
  if (res.status != 200 && res.status != 206) {
    close_part();
    httplib::Response copy = res;
    copy.body = problem_body;
    auto j = server.answer_json(copy, table.url);
    if (auto* f = std::get_if<Failure>(&j)) return *f;
    return server.not_eight(table.url, "status " + std::to_string(res.status));
  }
  if (::fsync(fd) != 0) {
    const int err = errno;
    drop_part();
    return io_failure(part, "cannot fsync", err);
  }
  close_part();
  if (start + received != total) {
    ::unlink(part.c_str());
    return server.not_eight(table.url, "the download ended at byte " +
                                           std::to_string(start + received) + " of " +
                                           std::to_string(total));
  }
  // The core's own reader, as every command opens a table: a part that
  // fails never takes the table's name, and is dropped so the next run
  // starts afresh.
  const auto refuse_part = [&](const std::string& why) {
    ::unlink(part.c_str());
    return Failure{kExitBadTable,
                   dest + ": refused the download from " + server.where(table.url) + ": " + why +
                       (have.empty() && file_size(dest) < 0 ? "; nothing was written"
                                                            : "; the table already there is kept")};
  };
  {
    auto checked = Table::open(part, Check::kFull);
    if (!checked.ok()) return refuse_part(checked.error().message);
    const std::string got = quoted_hex((*checked)->view().checksum());
    if (got != etag) {
      return refuse_part("its checksum " + got + " is not the ETag " + etag + " it came with");
    }
  }
  if (auto renamed = rename_durably(part, dest); !renamed.ok()) {
    return Failure{kExitBadTable, renamed.error().message};
  }
  const std::string hex = etag.substr(1, etag.size() - 2);
  if (start > 0) {
    std::printf("%s: resumed at byte %llu, %llu more bytes, checksum %s, checked\n", dest.c_str(),
                static_cast<unsigned long long>(start), static_cast<unsigned long long>(received),
                hex.c_str());
  } else {
    std::printf("%s: downloaded %llu bytes, checksum %s, checked\n", dest.c_str(),
                static_cast<unsigned long long>(received), hex.c_str());
  }
  return std::nullopt;
}

}  // namespace

int run_fetch(ServerClient& server, const FetchInto& into) {
  auto listed = list_tables(server);
  if (auto* f = std::get_if<Failure>(&listed)) {
    std::fprintf(stderr, "eight: %s\n", f->message.c_str());
    return f->status;
  }
  const auto& tables = std::get<std::vector<Listed>>(listed);
  std::vector<std::pair<const Listed*, std::string>> work;
  if (into.file) {
    for (const Listed& t : tables) {
      if (t.is_default) work.emplace_back(&t, *into.file);
    }
    if (work.empty()) work.emplace_back(&tables.front(), *into.file);
  } else {
    std::error_code ec;
    std::filesystem::create_directories(into.folder, ec);
    if (ec) {
      std::fprintf(stderr, "eight: %s: cannot create the folder: %s\n", into.folder.c_str(),
                   ec.message().c_str());
      return kExitBadTable;
    }
    for (const Listed& t : tables) work.emplace_back(&t, into.folder + "/" + t.name);
  }
  int status = kExitOk;
  for (const auto& [table, dest] : work) {
    std::fflush(stdout);
    if (const auto failed = fetch_one(server, *table, dest)) {
      std::fprintf(stderr, "eight: %s\n", failed->message.c_str());
      if (status == kExitOk) status = failed->status;
    }
  }
  std::fflush(stdout);
  return status;
}

}  // namespace eight::cli
