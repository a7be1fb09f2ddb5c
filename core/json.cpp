#include "eight/json.h"

namespace eight {

std::string path_letters(std::span<const Move> moves) {
  std::string out;
  out.reserve(moves.size());
  for (Move m : moves) out += move_letter(m);
  return out;
}

nlohmann::ordered_json solution_json(const Solution& s, bool with_path) {
  nlohmann::ordered_json j;
  j["board"] = to_string(s.board);
  j["goal"] = to_string(s.goal);
  j["solvable"] = s.solvable;
  j["distance"] = s.solvable ? nlohmann::ordered_json(s.distance) : nlohmann::ordered_json(nullptr);
  if (with_path) {
    auto moves = nlohmann::ordered_json::array();
    auto tiles = nlohmann::ordered_json::array();
    for (Move m : s.path()) moves.push_back(move_name(m));
    for (std::uint8_t t : s.slid_tiles()) tiles.push_back(t);
    j["moves"] = std::move(moves);
    j["path"] = path_letters(s.path());
    j["tiles"] = std::move(tiles);
  }
  return j;
}

nlohmann::ordered_json hints_json(const Board& board, const Board& goal, int distance,
                                  std::span<const Hint> hints) {
  nlohmann::ordered_json j;
  j["board"] = to_string(board);
  j["goal"] = to_string(goal);
  j["solvable"] = distance >= 0;
  j["distance"] = distance >= 0 ? nlohmann::ordered_json(distance) : nlohmann::ordered_json(nullptr);
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
