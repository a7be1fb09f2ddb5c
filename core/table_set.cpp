#include "eight/table_set.h"

#include <algorithm>
#include <cassert>
#include <filesystem>
#include <system_error>

namespace eight {

std::string TableSource::describe() const {
  return (folder ? "tables in " : "table ") + path;
}

std::string tablegen_command(Shape shape) {
  if (shape == kShape4x4) return "eight-tablegen (its 6-6-3 pattern databases) or --pdb 7-8";
  if (shape.cells() > 10) return "eight-tablegen --shape " + to_string(shape);
  return "eight-tablegen";
}

TableSet::TableSet(std::vector<std::shared_ptr<const Table>> tables) : tables_(std::move(tables)) {
  assert(!tables_.empty());
  for (const Shape s : kBoardShapes) {
    for (const auto& t : tables_) {
      assert(t != nullptr);
      if (t->answers(s)) {
        shapes_.push_back(s);
        break;
      }
    }
  }
}

Result<TableSet> TableSet::open(const TableSource& source, Check check) {
  std::vector<std::string> paths;
  if (!source.folder) {
    paths.push_back(source.path);
  } else {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::directory_iterator it(source.path, ec);
    const auto cannot_read = [&] {
      return make_error(ErrorCode::kIo,
                        source.path + ": cannot read the table folder: " + ec.message());
    };
    if (ec) return cannot_read();
    std::vector<std::pair<std::string, std::string>> found;  // file name, path
    for (; it != fs::directory_iterator(); it.increment(ec)) {
      if (ec) return cannot_read();
      const fs::path& p = it->path();
      // is_regular_file follows symbolic links: a link to a table is a table.
      if (p.extension() != ".tbl" || !it->is_regular_file(ec)) continue;
      found.emplace_back(p.filename().string(), p.string());
    }
    if (ec) return cannot_read();
    if (found.empty()) {
      return make_error(ErrorCode::kIo, source.path +
                                            ": the folder holds no table file (*.tbl); "
                                            "eight-tablegen writes one");
    }
    std::sort(found.begin(), found.end());
    for (auto& [name, path] : found) paths.push_back(std::move(path));
  }
  std::vector<std::shared_ptr<const Table>> tables;
  tables.reserve(paths.size());
  for (const std::string& path : paths) {
    auto table = Table::open(path, check);
    if (!table.ok()) return table.error();
    tables.push_back(std::move(table).value());
  }
  return TableSet(std::move(tables));
}

Error TableSet::no_shape(Shape shape, const std::optional<GridBoard>& goal) const {
  std::string message = (tables_.size() == 1 ? "the table answers " : "the tables answer ") +
                        shape_list(shapes_) + " boards, not " + to_string(shape) + " ones";
  if (goal) message += " such as goal " + to_string(*goal);
  if (is_grid_shape(shape)) {
    message += "; no table holds " + to_string(shape) +
               " boards: eight answers them by search and reduction, without a table";
  } else {
    message += "; `" + tablegen_command(shape) + "` generates them";
  }
  return make_error(ErrorCode::kNoShape, std::move(message));
}

namespace {

// The bytes of a goal's pattern databases: more bytes are larger groups, a
// stronger heuristic and fewer nodes (7-8 over 6-6-3).
std::uint64_t pattern_bytes(const fifteen::PatternSetView& set) {
  std::uint64_t bytes = 0;
  for (int g = 0; g < set.set.group_count; ++g) {
    bytes += set.dbs[static_cast<std::size_t>(g)].bytes().size();
  }
  return bytes;
}

// The same for a 4x4 frame's search.
std::uint64_t pattern_bytes(const Table& t, const GoalFrame& f) {
  const SectionInfo& first = t.view().section(f.section());
  const fifteen::PatternSetView* set = t.pattern_set(first.shape, first.blank);
  assert(set != nullptr);
  return pattern_bytes(*set);
}

}  // namespace

Result<TableSet::Frame> TableSet::frame(const GridBoard& goal) const {
  assert(is_valid(goal));
  std::optional<Error> first;
  std::optional<Frame> best;  // for 4x4: the strongest pattern databases
  for (std::size_t i = 0; i < tables_.size(); ++i) {
    const Table& t = *tables_[i];
    if (!t.answers(goal.shape)) continue;
    auto f = t.frame(goal);
    if (f.ok() && goal.shape != kShape4x4) return Frame{i, &t, *f};
    if (f.ok()) {
      if (!best || pattern_bytes(t, *f) > pattern_bytes(*best->table, best->frame)) {
        best = Frame{i, &t, *f};
      }
      continue;
    }
    if (!first) first = f.error();
  }
  if (best) return *best;
  if (first) return *first;
  return no_shape(goal.shape, goal);
}

std::span<const fifteen::PatternSetView> TableSet::pattern_sets(Shape shape, int goal_blank) const {
  std::span<const fifteen::PatternSetView> best;
  std::uint64_t best_bytes = 0;
  for (const auto& t : tables_) {
    const auto sets = t->pattern_sets(shape, goal_blank);
    if (sets.empty()) continue;
    std::uint64_t bytes = 0;
    for (const fifteen::PatternSetView& set : sets) bytes += pattern_bytes(set);
    if (best.empty() || bytes > best_bytes) {
      best = sets;
      best_bytes = bytes;
    }
  }
  return best;
}

const grid::Pdb5x5View* TableSet::pdb5x5_set(int goal_blank) const {
  for (const auto& t : tables_) {
    if (const grid::Pdb5x5View* set = t->pdb5x5_set(goal_blank)) return set;
  }
  return nullptr;
}

Result<std::size_t> TableSet::table_for(Shape shape) const {
  for (std::size_t i = 0; i < tables_.size(); ++i) {
    if (tables_[i]->answers(shape)) return i;
  }
  return no_shape(shape, std::nullopt);
}

}  // namespace eight
