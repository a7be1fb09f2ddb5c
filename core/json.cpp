#include "eight/json.h"

namespace eight {

std::string path_letters(std::span<const Move> moves) {
  std::string out;
  out.reserve(moves.size());
  for (Move m : moves) out += move_letter(m);
  return out;
}

void append_solution_json(const Solution& s, bool with_path, std::string& out) {
  out += R"({"board":")";
  out += to_string(s.board);
  out += R"(","goal":")";
  out += to_string(s.goal);
  out += s.solvable ? R"(","solvable":true,"distance":)" : R"(","solvable":false,"distance":)";
  out += s.solvable ? std::to_string(s.distance) : "null";
  if (with_path) {
    out += R"(,"moves":[)";
    for (std::size_t i = 0; i < s.path().size(); ++i) {
      if (i > 0) out += ',';
      out += '"';
      out += move_name(s.path()[i]);
      out += '"';
    }
    out += R"(],"path":")";
    for (Move m : s.path()) out += move_letter(m);
    out += R"(","tiles":[)";
    for (std::size_t i = 0; i < s.slid_tiles().size(); ++i) {
      if (i > 0) out += ',';
      out += std::to_string(s.slid_tiles()[i]);
    }
    out += ']';
  }
  out += '}';
}

std::string solution_json(const Solution& s, bool with_path) {
  std::string out;
  out.reserve(with_path ? 96 + 10 * static_cast<std::size_t>(s.length) : 96);
  append_solution_json(s, with_path, out);
  return out;
}

nlohmann::ordered_json hints_json(const Board& board, const Board& goal, int distance,
                                  std::span<const Hint> hints) {
  nlohmann::ordered_json j;
  j["board"] = to_string(board);
  j["goal"] = to_string(goal);
  j["solvable"] = distance >= 0;
  j["distance"] =
      distance >= 0 ? nlohmann::ordered_json(distance) : nlohmann::ordered_json(nullptr);
  auto list = nlohmann::ordered_json::array();
  for (const Hint& h : hints) {
    list.push_back({{"move", move_name(h.move)},
                    {"letter", std::string(1, move_letter(h.move))},
                    {"tile", h.tile},
                    {"board", to_string(h.next)},
                    {"distance", h.distance}});
  }
  j["hints"] = std::move(list);
  return j;
}

}  // namespace eight
