// Errors are values: every fallible core function returns Result<T>.
//
// The core never throws for bad input and never decides how an error is
// shown; the programs (server, CLI) map ErrorCode to an HTTP status or an
// exit status. `message` is written for a person and says exactly what was
// wrong ("tile 3 appears twice"), so callers can pass it on verbatim.
//
// Thread safety: plain values, as safe as the T they hold.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace eight {

enum class ErrorCode {
  // Board text.
  kEmptyBoard,
  kBoardTooLong,
  kBadCharacter,
  kWrongCellCount,
  kAmbiguousShape,  // the cell count fits several shapes and none was named
  kWrongShape,      // rows or a named shape that do not fit the cells
  kTileOutOfRange,
  kDuplicateTile,
  kNoBlank,
  kTwoBlanks,
  // Table files.
  kIo,
  kTruncated,
  kBadMagic,
  kBadVersion,
  kBadChecksum,
  kBadHeader,
  kBadEntry,
  // Queries against a table.
  kNoShape,    // no table answers the goal's shape
  kNoSection,  // tables answer the shape, but none the goal's blank cell
  kBadArgument,
  kCancelled,         // the caller's cancel flag stopped the work
  kDeadlineExceeded,  // the caller's deadline passed before the work was done
};

struct Error {
  ErrorCode code;
  std::string message;
};

// Either a T or an Error. Cheap to move. Asking for the alternative it does
// not hold is a programming error: asserted in debug builds; in release
// builds std::get throws std::bad_variant_access.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design
  // The value made in place from `args`, with no copy of it (a GridBoard is 102
  // bytes: the parser makes its result this way).
  template <typename... Args>
  explicit Result(std::in_place_t, Args&&... args)
      : v_(std::in_place_index<0>, std::forward<Args>(args)...) {}
  Result(Error error) : v_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  // REQUIRES: ok().
  T& value() & {
    assert(ok());
    return std::get<0>(v_);
  }
  const T& value() const& {
    assert(ok());
    return std::get<0>(v_);
  }
  T&& value() && {
    assert(ok());
    return std::get<0>(std::move(v_));
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  // REQUIRES: !ok().
  const Error& error() const {
    assert(!ok());
    return std::get<1>(v_);
  }

 private:
  std::variant<T, Error> v_;
};

// What a fallible function that makes nothing returns: success or an Error.
// The one Status of the library (tablegen.h's file writes, pattern_db.h's
// checks).
using Status = Result<std::monostate>;

inline Error make_error(ErrorCode code, std::string message) {
  return Error{code, std::move(message)};
}

}  // namespace eight
