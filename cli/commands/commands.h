// The commands of `eight`, one file each, as main() dispatches them. solve,
// hint and random are written once over a Backend (backend.h): the local
// tables, or a server with --server URL.
#pragma once

#include "../backend.h"
#include "../command_line.h"

namespace eight::cli {

int solve_command(const Options& opt, Backend& backend);              // solve.cpp
int hint_command(const Options& opt, Backend& backend);               // hint.cpp
int random_command(const Options& opt, Backend& backend);             // random.cpp
int verify_command(const TableSource& source);                        // verify.cpp
int info_command(const TableSource& source);                          // info.cpp
int info_svg_command(const TableSource& source, const Options& opt);  // info.cpp
int fetch_command(const Options& opt);                                // fetch.cpp

}  // namespace eight::cli
