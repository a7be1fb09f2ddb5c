// solve_board TABLE BOARD...: the fewest moves from each BOARD to its shape's
// standard goal, through the eight library, one line per board:
//
//   867254301 31 ruulddruuldldrrullurrdlldruurdd
//
// (the board, the distance and the blank's moves; "unsolvable" for a board
// that cannot reach the goal). Exit 1 when a board or the table is bad.
#include <cstdio>
#include <string>

#include "eight/board.h"
#include "eight/solver.h"
#include "eight/table_set.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: solve_board TABLE BOARD...\n");
    return 2;
  }
  auto tables = eight::TableSet::open({argv[1], false}, eight::Check::kChecksum);
  if (!tables.ok()) {
    std::fprintf(stderr, "solve_board: %s\n", tables.error().message.c_str());
    return 1;
  }
  int status = 0;
  for (int i = 2; i < argc; ++i) {
    auto board = eight::parse_board(argv[i]);
    if (!board.ok()) {
      std::fprintf(stderr, "solve_board: %s: %s\n", argv[i], board.error().message.c_str());
      status = 1;
      continue;
    }
    auto frame = tables->frame(eight::standard_goal(board->shape));
    if (!frame.ok()) {
      std::fprintf(stderr, "solve_board: %s: %s\n", argv[i], frame.error().message.c_str());
      status = 1;
      continue;
    }
    auto solution = frame->table->solver().solve(*board, frame->frame);
    if (!solution.ok()) {
      std::fprintf(stderr, "solve_board: %s: %s\n", argv[i], solution.error().message.c_str());
      status = 1;
      continue;
    }
    if (!solution->solvable) {
      std::printf("%s unsolvable\n", argv[i]);
      continue;
    }
    std::string moves;
    for (const eight::Move m : solution->path()) moves += eight::move_letter(m);
    std::printf("%s %d %s\n", argv[i], solution->distance, moves.c_str());
  }
  return status;
}
