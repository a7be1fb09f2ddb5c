#include "json/answer_json.h"

#include <cassert>
#include <optional>

namespace eight {

namespace {

// [8,6,7,...]: the cells of `b`, as cells_json writes them.
void append_cells(const Board& b, std::string& out) {
  out += '[';
  bool first = true;
  for (const std::uint8_t c : b.used()) {
    if (!first) out += ',';
    first = false;
    out += std::to_string(c);
  }
  out += ']';
}

}  // namespace

nlohmann::ordered_json cells_json(const Board& b) {
  auto cells = nlohmann::ordered_json::array();
  for (const std::uint8_t c : b.used()) cells.push_back(c);
  return cells;
}

void add_board_fields(nlohmann::ordered_json& j, const Board* board, const Board& goal) {
  assert(board == nullptr || board->shape == goal.shape);
  if (board != nullptr) j["board"] = to_string(*board);
  j["goal"] = to_string(goal);
  j["shape"] = to_string(goal.shape);
  if (board != nullptr) j["board_cells"] = cells_json(*board);
  j["goal_cells"] = cells_json(goal);
}

void append_solution_json(const Solution& s, SolveFields fields, std::string& out) {
  assert(fields.path || !fields.boards);
  out += R"({"board":")";
  out += to_string(s.board);
  out += R"(","goal":")";
  out += to_string(s.goal);
  out += R"(","shape":")";
  out += to_string(s.board.shape);
  out += R"(","board_cells":)";
  append_cells(s.board, out);
  out += R"(,"goal_cells":)";
  append_cells(s.goal, out);
  out += s.solvable ? R"(,"solvable":true,"distance":)" : R"(,"solvable":false,"distance":)";
  out += s.solvable ? std::to_string(s.distance) : "null";
  if (fields.path) {
    out += R"(,"moves":[)";
    for (std::size_t i = 0; i < s.path().size(); ++i) {
      if (i > 0) out += ',';
      out += '"';
      out += move_name(s.path()[i]);
      out += '"';
    }
    out += R"(],"path":")";
    out += path_letters(s.path());
    out += R"(","tiles":[)";
    for (std::size_t i = 0; i < s.slid_tiles().size(); ++i) {
      if (i > 0) out += ',';
      out += std::to_string(s.slid_tiles()[i]);
    }
    out += ']';
  }
  if (fields.boards) {
    out += R"(,"boards":[)";
    Board b = s.board;
    for (std::size_t i = 0; i < s.path().size(); ++i) {
      const auto next = apply_move(b, s.path()[i]);
      assert(next.has_value());  // a solution's moves are legal
      b = *next;
      out += i > 0 ? ",\"" : "\"";
      out += to_string(b);
      out += '"';
    }
    out += R"(],"boards_cells":[)";
    b = s.board;
    for (std::size_t i = 0; i < s.path().size(); ++i) {
      b = *apply_move(b, s.path()[i]);
      if (i > 0) out += ',';
      append_cells(b, out);
    }
    out += ']';
  }
  out += '}';
}

std::string solution_json(const Solution& s, SolveFields fields) {
  std::string out;
  // The head with both cell lists is about 170 bytes for 3x3, 240 for 4x4.
  out.reserve(fields.path ? 256 + 10 * static_cast<std::size_t>(s.length) : 256);
  append_solution_json(s, fields, out);
  return out;
}

std::string hints_json(const Board& board, const Board& goal, const MoveOptions& options) {
  const auto distance = [](int d) {
    return d >= 0 ? nlohmann::ordered_json(d) : nlohmann::ordered_json(nullptr);
  };
  nlohmann::ordered_json j;
  add_board_fields(j, &board, goal);
  j["solvable"] = options.distance >= 0;
  j["distance"] = distance(options.distance);
  auto hints = nlohmann::ordered_json::array();
  auto moves = nlohmann::ordered_json::array();
  for (const MoveOption& o : options.all()) {
    nlohmann::ordered_json m = {{"move", move_name(o.move)},
                                {"letter", std::string(1, move_letter(o.move))},
                                {"tile", o.tile},
                                {"board", to_string(o.next)},
                                {"board_cells", cells_json(o.next)},
                                {"distance", distance(o.distance)}};
    if (o.optimal) hints.push_back(m);
    m["optimal"] = o.optimal;
    moves.push_back(std::move(m));
  }
  j["hints"] = std::move(hints);
  j["moves"] = std::move(moves);
  return j.dump();
}

namespace {

Error bad_field(std::string_view field, std::string_view why) {
  return make_error(ErrorCode::kBadArgument,
                    "answer field '" + std::string(field) + "': " + std::string(why));
}

// A field's board, through the one parser.
Result<Board> board_field(const nlohmann::json& j, std::string_view field) {
  const auto it = j.find(field);
  if (it == j.end() || !it->is_string()) return bad_field(field, "missing, or not a string");
  auto b = parse_board(it->get_ref<const std::string&>());
  if (!b.ok()) return bad_field(field, b.error().message);
  return b;
}

// A distance field: a whole number from 0 to kMaxDistance, or null (-1)
// where `nullable`.
Result<int> distance_field(const nlohmann::json& j, std::string_view field, bool nullable) {
  const auto it = j.find(field);
  if (it != j.end() && it->is_null() && nullable) return -1;
  if (it == j.end() || !it->is_number_integer() || it->get<std::int64_t>() < 0 ||
      it->get<std::int64_t>() > format::kMaxDistance) {
    return bad_field(field, "not a distance");
  }
  return static_cast<int>(it->get<std::int64_t>());
}

std::optional<Move> move_of_letter(char c) {
  for (const Move m : kAllMoves) {
    if (move_letter(m) == c) return m;
  }
  return std::nullopt;
}

}  // namespace

Result<Solution> parse_solution_json(const nlohmann::json& j) {
  if (!j.is_object()) return bad_field("", "the answer is not an object");
  Solution s;
  auto board = board_field(j, "board");
  if (!board.ok()) return board.error();
  auto goal = board_field(j, "goal");
  if (!goal.ok()) return goal.error();
  s.board = *board;
  s.goal = *goal;
  if (const auto mismatch = shape_mismatch(s.board, s.goal))
    return bad_field("goal", mismatch->message);
  const auto solvable = j.find("solvable");
  if (solvable == j.end() || !solvable->is_boolean()) return bad_field("solvable", "not a boolean");
  s.solvable = solvable->get<bool>();
  auto distance = distance_field(j, "distance", !s.solvable);
  if (!distance.ok()) return distance.error();
  s.distance = *distance;
  const auto path = j.find("path");
  const auto tiles = j.find("tiles");
  const auto moves = j.find("moves");
  if (path == j.end() || !path->is_string()) return bad_field("path", "missing, or not a string");
  if (tiles == j.end() || !tiles->is_array()) return bad_field("tiles", "missing, or not an array");
  if (moves == j.end() || !moves->is_array()) return bad_field("moves", "missing, or not an array");
  const std::string& letters = path->get_ref<const std::string&>();
  const std::size_t length = s.solvable ? static_cast<std::size_t>(s.distance) : 0;
  if (letters.size() != length || tiles->size() != length || moves->size() != length) {
    return bad_field("path", "its length is not the distance");
  }
  // Replayed from the board: every move legal, each tile the one it slides.
  Board at = s.board;
  for (std::size_t i = 0; i < length; ++i) {
    const auto m = move_of_letter(letters[i]);
    if (!m) return bad_field("path", "a letter other than u, d, l and r");
    std::uint8_t slid = 0;
    const auto next = apply_move(at, *m, &slid);
    if (!next) return bad_field("path", "a move off the board");
    if ((*moves)[i] != move_name(*m)) return bad_field("moves", "not the moves of the path");
    if ((*tiles)[i] != slid) return bad_field("tiles", "not the tiles the path slides");
    s.moves[i] = *m;
    s.tiles[i] = slid;
    at = *next;
  }
  s.length = static_cast<int>(length);
  if (s.solvable && at != s.goal) return bad_field("path", "it does not end on the goal");
  return s;
}

Result<HintsAnswer> parse_hints_json(const nlohmann::json& j) {
  if (!j.is_object()) return bad_field("", "the answer is not an object");
  HintsAnswer h;
  auto board = board_field(j, "board");
  if (!board.ok()) return board.error();
  auto goal = board_field(j, "goal");
  if (!goal.ok()) return goal.error();
  h.board = *board;
  h.goal = *goal;
  if (const auto mismatch = shape_mismatch(h.board, h.goal))
    return bad_field("goal", mismatch->message);
  auto distance = distance_field(j, "distance", true);
  if (!distance.ok()) return distance.error();
  h.options.distance = *distance;
  const auto moves = j.find("moves");
  if (moves == j.end() || !moves->is_array() || moves->size() > 4) {
    return bad_field("moves", "missing, or not an array of at most 4 moves");
  }
  for (const auto& m : *moves) {
    MoveOption o;
    const auto letter = m.find("letter");
    if (!m.is_object() || letter == m.end() || !letter->is_string() ||
        letter->get_ref<const std::string&>().size() != 1) {
      return bad_field("moves", "a move without its letter");
    }
    const auto move = move_of_letter(letter->get_ref<const std::string&>()[0]);
    if (!move) return bad_field("moves", "a letter other than u, d, l and r");
    o.move = *move;
    const auto next = apply_move(h.board, o.move, &o.tile);
    if (!next) return bad_field("moves", "a move off the board");
    o.next = *next;
    auto next_board = board_field(m, "board");
    if (!next_board.ok()) return next_board.error();
    if (*next_board != o.next || m.value("move", "") != move_name(o.move) ||
        m.value("tile", -1) != o.tile) {
      return bad_field("moves", "a move whose name, tile or board is not the move's");
    }
    auto d = distance_field(m, "distance", true);
    if (!d.ok()) return d.error();
    o.distance = *d;
    const auto optimal = m.find("optimal");
    if (optimal == m.end() || !optimal->is_boolean())
      return bad_field("moves", "no 'optimal' flag");
    o.optimal = optimal->get<bool>();
    h.options.moves[static_cast<std::size_t>(h.options.count++)] = o;
  }
  return h;
}

std::string input_error_json(const nlohmann::json& input, std::string_view error) {
  return nlohmann::ordered_json{{"input", input}, {"error", error}}.dump(
      -1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace eight
