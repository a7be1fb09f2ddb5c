// eight probe: HTTP health check without external tools (see probe.cpp).
#pragma once

namespace eight::cli {

// Runs `eight probe` with the arguments after "probe"; returns the exit status.
int run_probe(int argc, char** argv);

}  // namespace eight::cli
