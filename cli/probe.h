// eight probe: HTTP health check without external tools (see probe.cpp).
#pragma once

#include <span>
#include <string>

namespace eight::cli {

// Runs `eight probe` with the arguments after "probe"; returns the exit status.
int run_probe(std::span<const std::string> args);

}  // namespace eight::cli
