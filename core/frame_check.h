// For the core's asserts: whether a goal frame belongs to a table. Private
// to the core (solver.cpp, answer.cpp, random.cpp).
//
// Thread safety: a pure function.
#pragma once

#include "eight/goal.h"
#include "eight/table.h"

namespace eight {

// True when `frame` names one of `table`'s sections and that section is the
// one for the frame's goal (its blank cell). A frame of another table may
// name a section this one lacks, or one for another blank, whose answers
// would be wrong.
[[maybe_unused]] inline bool is_frame_of(const TableView& table, const GoalFrame& frame) {
  return frame.section() < table.section_count() &&
         frame.to_section(frame.goal()) == table.section(frame.section()).goal;
}

}  // namespace eight
