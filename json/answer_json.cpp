#include "json/answer_json.h"

#include <cassert>

namespace eight {

void append_solution_json(const Solution& s, SolveFields fields, std::string& out) {
  assert(fields.path || !fields.boards);
  out += R"({"board":")";
  out += to_string(s.board);
  out += R"(","goal":")";
  out += to_string(s.goal);
  out += s.solvable ? R"(","solvable":true,"distance":)" : R"(","solvable":false,"distance":)";
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
    out += ']';
  }
  out += '}';
}

std::string solution_json(const Solution& s, SolveFields fields) {
  std::string out;
  out.reserve(fields.path ? 96 + 10 * static_cast<std::size_t>(s.length) : 96);
  append_solution_json(s, fields, out);
  return out;
}

std::string hints_json(const Board& board, const Board& goal, const MoveOptions& options) {
  const auto distance = [](int d) {
    return d >= 0 ? nlohmann::ordered_json(d) : nlohmann::ordered_json(nullptr);
  };
  nlohmann::ordered_json j;
  j["board"] = to_string(board);
  j["goal"] = to_string(goal);
  j["solvable"] = options.distance >= 0;
  j["distance"] = distance(options.distance);
  auto hints = nlohmann::ordered_json::array();
  auto moves = nlohmann::ordered_json::array();
  for (const MoveOption& o : options.all()) {
    nlohmann::ordered_json m = {{"move", move_name(o.move)},
                                {"letter", std::string(1, move_letter(o.move))},
                                {"tile", o.tile},
                                {"board", to_string(o.next)},
                                {"distance", distance(o.distance)}};
    if (o.optimal) hints.push_back(m);
    m["optimal"] = o.optimal;
    moves.push_back(std::move(m));
  }
  j["hints"] = std::move(hints);
  j["moves"] = std::move(moves);
  return j.dump();
}

std::string input_error_json(const nlohmann::json& input, std::string_view error) {
  return nlohmann::ordered_json{{"input", input}, {"error", error}}.dump(
      -1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace eight
