// Where the programs look for the table when not told, in one place.
//
// Thread safety: default_table_path() reads the environment (getenv), so it
// is safe from any thread as long as nothing changes the environment meanwhile.
#pragma once

#include <string>

namespace eight {

inline constexpr const char* kTableEnvironment = "EIGHT_TABLE";
inline constexpr const char* kDefaultTablePath = "data/eight.tbl";

// $EIGHT_TABLE when set and not empty; else local_or_installed_table_path().
std::string default_table_path();

// The table a program uses when neither told nor given $EIGHT_TABLE (which
// eight-server reads with its other variables): data/eight.tbl when it
// exists; else, for an installed program (PREFIX/bin/eight,
// PREFIX/bin/eight-server), the installed table PREFIX/share/eight/eight.tbl
// when it exists; else data/eight.tbl (whose absence the caller then
// reports). The one home of that rule, for every program.
std::string local_or_installed_table_path();

}  // namespace eight
