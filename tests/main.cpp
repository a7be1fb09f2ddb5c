// The test programs' main: doctest's, after one thing every test of a
// network client needs. A server closing a connection while a test still
// writes to it (a refused request body) must fail that write with EPIPE,
// which the test can check, not kill the whole test program with SIGPIPE.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <csignal>

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);
  return doctest::Context(argc, argv).run();
}
