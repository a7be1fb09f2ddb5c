// A set of tables answering as one: every table file of a folder (or one
// file), each an eight::Table, and which of them answers a goal
// (TableSet::frame(), which asks each table's Table::frame(), the one way
// from a goal to a section). Used by the CLI and the server alike.
//
// Ownership and lifetimes: a TableSet shares its tables (shared_ptr), so a
// table lives while any set, or any snapshot taken from one, holds it.
// Thread safety: immutable once built; every member may be called from any
// number of threads at once.
#pragma once

#include <cassert>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "eight/board.h"
#include "eight/goal.h"
#include "eight/result.h"
#include "eight/shape.h"
#include "eight/table.h"

namespace eight {

// Where tables come from: one file (--table PATH) or every table file of a
// folder (--tables DIR).
struct TableSource {
  std::string path;
  bool folder = false;

  // "table data/eight.tbl", "tables in data/": for messages.
  std::string describe() const;
};

class TableSet {
 public:
  // A goal's answer: the table that holds its section (index into tables())
  // and the goal's frame in that table.
  struct Frame {
    std::size_t index;
    const Table* table;  // owned by the set
    GoalFrame frame;
  };

  // REQUIRES: !tables.empty() and none of them null. Their order is kept:
  // it decides which table answers a shape two of them hold.
  explicit TableSet(std::vector<std::shared_ptr<const Table>> tables);

  // Opens `source` at `check`, each file once. A folder gives every regular
  // file directly in it whose name ends in ".tbl" (not recursive; so
  // eight-tablegen's ".tbl.tmp" files are not read), sorted by file name.
  // Fails on the first file that fails (its error names its path), when the
  // folder cannot be read (kIo) and when it holds no table file (kIo).
  static Result<TableSet> open(const TableSource& source, Check check);

  std::size_t size() const { return tables_.size(); }
  // REQUIRES: i < size().
  const std::shared_ptr<const Table>& table(std::size_t i) const {
    assert(i < tables_.size());
    return tables_[i];
  }
  const std::vector<std::shared_ptr<const Table>>& tables() const { return tables_; }

  // The shapes any table of the set answers, in kTableShapes order.
  const std::vector<Shape>& shapes() const { return shapes_; }

  // The first table, in the set's order, whose Table::frame() answers
  // `goal`, and that frame; for a 4x4 goal, of the tables that answer it,
  // the one with the most pattern-database bytes for it (7-8 before 6-6-3),
  // the first of equals. Fails with kNoShape when no table answers the
  // goal's shape (the message names every shape the set answers and how to
  // generate the missing one), and with kNoSection when tables answer the
  // shape but none has a section for the goal's blank (the first such
  // table's error). REQUIRES: is_valid(goal).
  Result<Frame> frame(const GridBoard& goal) const;

  // The pattern databases any table of the set holds for a goal
  // (Table::pattern_sets(); the grid search asks for its keys'): of several tables', the sets with
  // the most bytes in all (the strongest), the first of equals; empty when none holds one. Valid
  // while the set's tables live.
  std::span<const fifteen::PatternSetView> pattern_sets(Shape shape, int goal_blank) const;
  // The 5x5 pattern databases of a goal blank's class that a table of the
  // set holds (Table::pdb5x5_set(); `goal_blank` a class's kept cell): the
  // first table's; nullptr when none holds them. Valid while the set's
  // tables live.
  const grid::Pdb5x5View* pdb5x5_set(int goal_blank) const;

  // The first table that answers `shape` (its index into tables()); kNoShape
  // as for frame() when none does.
  Result<std::size_t> table_for(Shape shape) const;

 private:
  Error no_shape(Shape shape, const std::optional<GridBoard>& goal) const;

  std::vector<std::shared_ptr<const Table>> tables_;
  std::vector<Shape> shapes_;
};

// The generator command that writes the tables of `shape`:
// "eight-tablegen --shape 3x4" for 12-cell shapes, "eight-tablegen" for the
// default table's (every shape up to 10 cells).
std::string tablegen_command(Shape shape);

}  // namespace eight
