#include "json/answer_json.h"

#include <cassert>
#include <optional>

namespace eight {

namespace {

// [8,6,7,...]: the cells of `b`, as cells_json writes them.
void append_cells(const GridBoard& b, std::string& out) {
  out += '[';
  bool first = true;
  for (const std::uint8_t c : b.used()) {
    if (!first) out += ',';
    first = false;
    out += std::to_string(c);
  }
  out += ']';
}

// ,"optimal":true,"lower_bound":31,"method":"table": how good the answer of
// `distance` (-1: none, the board cannot reach the goal) is.
void append_quality(const Quality& q, int distance, std::string& out) {
  out += q.optimal ? R"(,"optimal":true,"lower_bound":)" : R"(,"optimal":false,"lower_bound":)";
  out += distance < 0 ? "null" : std::to_string(q.optimal ? distance : q.lower_bound);
  out += R"(,"method":")";
  out += method_name(q.method);
  out += '"';
}

}  // namespace

nlohmann::ordered_json cells_json(const GridBoard& b) {
  auto cells = nlohmann::ordered_json::array();
  for (const std::uint8_t c : b.used()) cells.push_back(c);
  return cells;
}

void add_board_fields(nlohmann::ordered_json& j, const GridBoard* board, const GridBoard& goal) {
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
  append_quality(s.quality, s.solvable ? s.distance : -1, out);
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
    GridBoard b = s.board;
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

std::string hints_json(const GridBoard& board, const GridBoard& goal, const MoveOptions& options) {
  const auto distance = [](int d) {
    return d >= 0 ? nlohmann::ordered_json(d) : nlohmann::ordered_json(nullptr);
  };
  nlohmann::ordered_json j;
  add_board_fields(j, &board, goal);
  j["solvable"] = options.distance >= 0;
  j["distance"] = distance(options.distance);
  j["optimal"] = options.quality.optimal;
  j["lower_bound"] =
      distance(options.quality.optimal || options.distance < 0 ? options.distance
                                                               : options.quality.lower_bound);
  j["method"] = method_name(options.quality.method);
  auto hints = nlohmann::ordered_json::array();
  auto moves = nlohmann::ordered_json::array();
  for (const MoveOption& o : options.all()) {
    nlohmann::ordered_json m = {{"move", move_name(o.move)},
                                {"letter", std::string(1, move_letter(o.move))},
                                {"tile", o.tile},
                                {"board", to_string(o.next)},
                                {"board_cells", cells_json(o.next)},
                                {"distance", distance(o.distance)}};
    if (o.optimal || o.hint) hints.push_back(m);
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
Result<GridBoard> board_field(const nlohmann::json& j, std::string_view field) {
  const auto it = j.find(field);
  if (it == j.end() || !it->is_string()) return bad_field(field, "missing, or not a string");
  auto b = parse_grid_board(it->get_ref<const std::string&>());
  if (!b.ok()) return bad_field(field, b.error().message);
  return b;
}

// A distance field: a whole number from 0 to the longest distance of the
// shape (kMaxDistance up to 4x4, kMaxPathLength past it), or null (-1)
// where `nullable`.
Result<int> distance_field(const nlohmann::json& j, std::string_view field, bool nullable,
                           Shape shape) {
  const auto it = j.find(field);
  if (it != j.end() && it->is_null() && nullable) return -1;
  const std::int64_t most = shape.cells() <= 16 ? format::kMaxDistance : kMaxPathLength;
  if (it == j.end() || !it->is_number_integer() || it->get<std::int64_t>() < 0 ||
      it->get<std::int64_t>() > most) {
    return bad_field(field, "not a distance");
  }
  return static_cast<int>(it->get<std::int64_t>());
}

// The optimal, lower_bound and method fields of an answer of `distance`
// (-1: none); an answer without them (a server before they were added) is
// a table's, optimal.
Result<Quality> quality_fields(const nlohmann::json& j, int distance) {
  Quality q;
  const auto optimal = j.find("optimal");
  if (optimal == j.end()) return q;
  if (!optimal->is_boolean()) return bad_field("optimal", "not a boolean");
  q.optimal = optimal->get<bool>();
  const auto method = j.find("method");
  const auto named = method != j.end() && method->is_string()
                         ? method_from_name(method->get_ref<const std::string&>())
                         : std::nullopt;
  if (!named) return bad_field("method", "missing, or not a method");
  q.method = *named;
  const auto bound = j.find("lower_bound");
  if (distance < 0) {
    if (bound == j.end() || !bound->is_null()) return bad_field("lower_bound", "not null");
    return q;
  }
  if (bound == j.end() || !bound->is_number_integer() || bound->get<std::int64_t>() < 0 ||
      bound->get<std::int64_t>() > distance ||
      (q.optimal && bound->get<std::int64_t>() != distance)) {
    return bad_field("lower_bound", "not a bound on the distance");
  }
  q.lower_bound = static_cast<int>(bound->get<std::int64_t>());
  return q;
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
  auto distance = distance_field(j, "distance", !s.solvable, s.board.shape);
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
  GridBoard at = s.board;
  const bool long_path = length > static_cast<std::size_t>(format::kMaxDistance);
  if (long_path) {
    s.long_moves.resize(length);
    s.long_tiles.resize(length);
  }
  for (std::size_t i = 0; i < length; ++i) {
    const auto m = move_of_letter(letters[i]);
    if (!m) return bad_field("path", "a letter other than u, d, l and r");
    std::uint8_t slid = 0;
    const auto next = apply_move(at, *m, &slid);
    if (!next) return bad_field("path", "a move off the board");
    if ((*moves)[i] != move_name(*m)) return bad_field("moves", "not the moves of the path");
    if ((*tiles)[i] != slid) return bad_field("tiles", "not the tiles the path slides");
    (long_path ? s.long_moves[i] : s.moves[i]) = *m;
    (long_path ? s.long_tiles[i] : s.tiles[i]) = slid;
    at = *next;
  }
  s.length = static_cast<int>(length);
  if (s.solvable && at != s.goal) return bad_field("path", "it does not end on the goal");
  auto quality = quality_fields(j, s.solvable ? s.distance : -1);
  if (!quality.ok()) return quality.error();
  s.quality = *quality;
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
  auto distance = distance_field(j, "distance", true, h.board.shape);
  if (!distance.ok()) return distance.error();
  h.options.distance = *distance;
  auto quality = quality_fields(j, h.options.distance);
  if (!quality.ok()) return quality.error();
  h.options.quality = *quality;
  // The hints of an answer not proven optimal: the first move of its path.
  std::optional<Move> hint;
  if (!h.options.quality.optimal) {
    const auto hints = j.find("hints");
    if (hints != j.end() && hints->is_array() && hints->size() == 1 && (*hints)[0].is_object()) {
      const std::string letter = (*hints)[0].value("letter", "");
      if (letter.size() == 1) hint = move_of_letter(letter[0]);
    }
  }
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
    auto d = distance_field(m, "distance", true, h.board.shape);
    if (!d.ok()) return d.error();
    o.distance = *d;
    const auto optimal = m.find("optimal");
    if (optimal == m.end() || !optimal->is_boolean())
      return bad_field("moves", "no 'optimal' flag");
    o.optimal = optimal->get<bool>();
    o.hint = hint == o.move;
    h.options.moves[static_cast<std::size_t>(h.options.count++)] = o;
  }
  return h;
}

std::string input_error_json(const nlohmann::json& input, std::string_view error) {
  return nlohmann::ordered_json{{"input", input}, {"error", error}}.dump(
      -1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace eight
