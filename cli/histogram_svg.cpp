#include "histogram_svg.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <numeric>

namespace eight::cli {
namespace {

// Sizes in SVG user units (pixels at 100%).
constexpr double kBar = 18;     // a bar's width
constexpr double kGap = 4;      // between bars
constexpr double kPlot = 220;   // the tallest bar
constexpr double kLeft = 56;    // room for the count axis
constexpr double kTop = 44;     // room for the title
constexpr double kBottom = 40;  // room for the distances

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

}  // namespace

std::string histogram_svg(std::span<const std::uint32_t> counts, const GridBoard& goal) {
  assert(!counts.empty());
  const std::uint32_t tallest = *std::max_element(counts.begin(), counts.end());
  const std::uint64_t total = std::accumulate(counts.begin(), counts.end(), std::uint64_t{0});
  const double width = kLeft + static_cast<double>(counts.size()) * (kBar + kGap) + kGap + 16;
  const double height = kTop + kPlot + kBottom;
  const double base = kTop + kPlot;  // the bars' foot
  // The goal's canonical text is digits, commas and slashes: nothing in it
  // needs escaping in XML.
  const std::string title = "Distances to goal " + to_string(goal) + ": " + std::to_string(total) +
                            " positions, 0 to " + std::to_string(counts.size() - 1) + " moves";
  std::string out;
  out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(width) + "\" height=\"" +
         num(height) + "\" viewBox=\"0 0 " + num(width) + " " + num(height) +
         "\" font-family=\"sans-serif\" font-size=\"12\" role=\"img\">\n";
  out += "<title>" + title + "</title>\n";
  out += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  out += "<text x=\"" + num(kLeft) + "\" y=\"24\" font-size=\"15\" fill=\"#1d1d1f\">" + title +
         "</text>\n";
  // The count axis: the tallest count at the top, 0 at the foot.
  out += "<line x1=\"" + num(kLeft - 4) + "\" y1=\"" + num(kTop) + "\" x2=\"" + num(kLeft - 4) +
         "\" y2=\"" + num(base) + "\" stroke=\"#5c5c66\"/>\n";
  out += "<text x=\"" + num(kLeft - 8) + "\" y=\"" + num(kTop + 4) +
         "\" text-anchor=\"end\" fill=\"#5c5c66\">" + std::to_string(tallest) + "</text>\n";
  out += "<text x=\"" + num(kLeft - 8) + "\" y=\"" + num(base) +
         "\" text-anchor=\"end\" fill=\"#5c5c66\">0</text>\n";
  out += "<g class=\"bars\" fill=\"#2f5d8a\">\n";
  for (std::size_t d = 0; d < counts.size(); ++d) {
    const double x = kLeft + kGap + static_cast<double>(d) * (kBar + kGap);
    const double h = tallest == 0 ? 0 : kPlot * counts[d] / tallest;
    out += "<rect class=\"bar\" data-distance=\"" + std::to_string(d) + "\" data-count=\"" +
           std::to_string(counts[d]) + "\" x=\"" + num(x) + "\" y=\"" + num(base - h) +
           "\" width=\"" + num(kBar) + "\" height=\"" + num(h) + "\"><title>" + std::to_string(d) +
           " moves: " + std::to_string(counts[d]) + " positions</title></rect>\n";
  }
  out += "</g>\n";
  // Every fifth distance, and the last, along the bottom.
  for (std::size_t d = 0; d < counts.size(); ++d) {
    if (d % 5 != 0 && d + 1 != counts.size()) continue;
    const double x = kLeft + kGap + static_cast<double>(d) * (kBar + kGap) + kBar / 2;
    out += "<text x=\"" + num(x) + "\" y=\"" + num(base + 16) +
           "\" text-anchor=\"middle\" fill=\"#5c5c66\">" + std::to_string(d) + "</text>\n";
  }
  out += "<text x=\"" + num(kLeft + (width - kLeft) / 2) + "\" y=\"" + num(base + 34) +
         "\" text-anchor=\"middle\" fill=\"#5c5c66\">moves to the goal</text>\n";
  out += "</svg>\n";
  return out;
}

}  // namespace eight::cli
