// eight hint BOARD: every move of the board, and which are optimal.
#include <cstdio>
#include <string>

#include "commands.h"
#include "common/text.h"
#include "eight/question.h"
#include "json/answer_json.h"

namespace eight::cli {
namespace {

// Whose path a hint on an answer not proven optimal is the first move of:
// the answer's, which `eight solve` prints for the same board.
const char* path_of(Method m) {
  switch (m) {
    case Method::kBeamSearch:
      return "the beam search's path";
    case Method::kReduction:
      return "the reduction's path";
    default:
      return "the search's path";
  }
}

void print_hints(Format format, const GridBoard& board, const GridBoard& goal,
                 const MoveOptions& options) {
  if (format == Format::kJson) {
    std::printf("%s\n", hints_json(board, goal, options).c_str());
  } else if (options.distance < 0) {
    std::printf("unsolvable\n");
  } else if (options.distance == 0) {
    std::printf("solved\n");
  } else {
    // One optimal move per line: the blank's move, the tile it slides, the
    // board it leads to and that board's distance. On a board whose answer
    // is not proven optimal, the first move of the path that answer gives.
    const std::string by =
        std::string(", by ") + path_of(options.quality.method) + ": not proven optimal";
    for (const MoveOption& o : options.all()) {
      if (!o.optimal && !o.hint) continue;
      std::printf("%s %c tile %u -> %s (%d moves left%s)\n", std::string(move_name(o.move)).c_str(),
                  move_letter(o.move), o.tile, to_string(o.next).c_str(), o.distance,
                  o.hint ? by.c_str() : "");
    }
  }
}

}  // namespace

int hint_command(const Options& opt, Backend& backend) {
  const Format format = opt.format.value_or(Format::kText);
  if (format != Format::kText && format != Format::kJson) {
    return usage_error("hint formats are text and json");
  }
  if (opt.args.size() != 1) return usage_error("hint takes exactly one board");
  // The board and its goal by the core's one reader (eight/question.h).
  QuestionText text;
  text.shape = opt.shape;
  text.board = opt.args[0];
  if (opt.goal) text.goal = *opt.goal;
  if (opt.path) text.path = *opt.path;  // --path: checked against the board
  auto read = read_question(text);
  std::optional<Error> mismatch;
  if (const auto* bad = std::get_if<QuestionError>(&read)) {
    // A known path that is no path from the board is the board's question's
    // fault, as a bad board is.
    if (bad->part == QuestionPart::kBoard || bad->part == QuestionPart::kPath) {
      std::fprintf(stderr, "eight: %s\n", bad->error.message.c_str());
      return kExitBadInput;
    }
    if (bad->part == QuestionPart::kGoal) return usage_error("bad goal: " + bad->error.message);
    // Boards of two shapes: the goal is framed first (a goal no table
    // answers says so), then the shapes are refused.
    mismatch = bad->error;
    text.board.reset();
    text.path.reset();
    read = read_question(text);
  }
  const ReadQuestion& asked = std::get<ReadQuestion>(read);
  const GridBoard& g = asked.goal;
  if (auto f = backend.open()) return report(*f);
  const auto framed = backend.frame(g, false);
  if (const auto* f = std::get_if<Failure>(&framed)) return report(*f);
  if (mismatch) {
    std::fprintf(stderr, "eight: %s\n", mismatch->message.c_str());
    return kExitBadInput;
  }
  const GridBoard board = *asked.board;
  const auto options = backend.hint(board, g, asked.path);
  if (const auto* f = std::get_if<Failure>(&options)) return report(*f);
  print_hints(format, board, g, std::get<MoveOptions>(options));
  return kExitOk;
}

}  // namespace eight::cli
