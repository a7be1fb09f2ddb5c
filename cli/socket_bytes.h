// How many bytes a TCP socket has received, as the kernel counts them
// (TCP_INFO's tcpi_bytes_received, Linux 4.1 and later): the watchdog of
// server_client.cpp counts every byte of an answer with it, headers
// included, which httplib reads without a bound of its own.
#pragma once

#include <cstdint>
#include <optional>

namespace eight::cli {

// The bytes `fd` has received, or nothing when it is not a TCP socket (or
// the kernel does not say). Thread-safe.
std::optional<std::uint64_t> tcp_bytes_received(int fd);

}  // namespace eight::cli
