// `eight info --svg FILE`: a goal's distance histogram as an SVG picture
// for documentation, drawn as the playground draws it from /stats: one bar
// per distance from 0 to the maximum, in order, each as tall as its count
// relative to the largest (linear, so the shape of the curve is the
// table's), distances along the bottom.
//
// Thread safety: a pure function.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "eight/board.h"

namespace eight::cli {

// The picture as a standalone SVG document. Each bar is a
// <rect class="bar" data-distance="d" data-count="n">, so a reader (or a
// test) finds the numbers it was drawn from. REQUIRES: !counts.empty().
std::string histogram_svg(std::span<const std::uint32_t> counts, const GridBoard& goal);

}  // namespace eight::cli
