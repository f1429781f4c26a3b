// Resource limits (runtime/Limits.h): sizes as users write them, and the
// watchdog stopping a computation through the interrupt flag, with the
// engine's memo left usable. The command-line messages are golden tests
// (tests/golden/limits).
#include "runtime/Limits.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <ctime>
#include <thread>

using gdsl::Limits;
using gdsl::StopReason;

TEST_CASE("sizes are read as users write them") {
  uint64_t bytes = 0;
  CHECK((gdsl::parseSize("4G", bytes) && bytes == (uint64_t{4} << 30)));
  CHECK((gdsl::parseSize("512M", bytes) && bytes == (uint64_t{512} << 20)));
  CHECK((gdsl::parseSize("1.5GiB", bytes) && bytes == (uint64_t{3} << 29)));
  CHECK((gdsl::parseSize("64k", bytes) && bytes == 65536));
  CHECK((gdsl::parseSize("1000", bytes) && bytes == 1000));
  CHECK((gdsl::parseSize("0", bytes) && bytes == 0));
  CHECK_FALSE(gdsl::parseSize("", bytes));
  CHECK_FALSE(gdsl::parseSize("3X", bytes));
  CHECK_FALSE(gdsl::parseSize("-1G", bytes));
  CHECK_FALSE(gdsl::parseSize("G", bytes));
  CHECK_FALSE(gdsl::parseSize("99999999T", bytes));
  CHECK(gdsl::formatSize(uint64_t{8} << 30) == "8 GiB");
  CHECK(gdsl::formatSize(uint64_t{3} << 29) == "1.5 GiB");
  CHECK(gdsl::formatSize(100) == "100 bytes");
  CHECK(gdsl::defaultMaxMemory() > 0);
  CHECK(gdsl::defaultMaxMemory() <= (uint64_t{8} << 30));
  CHECK(gdsl::residentMemory() > 0);
}

TEST_CASE("the watchdog asks the computation to stop at the time limit") {
  gdsl::clearInterrupt();
  Limits limits;
  limits.timeout = 0.2;
  gdsl::Watchdog watchdog(limits);
  auto start = std::chrono::steady_clock::now();
  bool stopped = false;
  try {
    while (std::chrono::steady_clock::now() - start < std::chrono::seconds(5))
      gdsl::checkInterrupt();
  } catch (const gdsl::Interrupted& e) {
    stopped = true;
    CHECK(e.reason == StopReason::Timeout);
  }
  watchdog.pause();
  CHECK(stopped);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(seconds >= 0.2);
  CHECK(seconds < 1.0);  // long before its hard stop
  CHECK(gdsl::limitMessage(StopReason::Timeout, limits).find("--timeout") != std::string::npos);
  gdsl::clearInterrupt();

  // Paused, it does not count: nothing is requested while the REPL waits.
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  CHECK(gdsl::interruptReason() == StopReason::None);
}

TEST_CASE("the watchdog stops a computation past the memory limit") {
  gdsl::clearInterrupt();
  Limits limits;
  limits.maxMemory = gdsl::residentMemory() + (uint64_t{64} << 20);
  gdsl::Watchdog watchdog(limits);
  std::vector<std::vector<char>> blocks;
  bool stopped = false;
  try {
    for (int i = 0; i < 64; ++i) {  // up to 512 MiB, touched
      blocks.emplace_back(size_t{8} << 20, char(1));
      std::this_thread::sleep_for(std::chrono::milliseconds(15));
      gdsl::checkInterrupt();
    }
  } catch (const gdsl::Interrupted& e) {
    stopped = true;
    CHECK(e.reason == StopReason::Memory);
  }
  blocks.clear();
  watchdog.pause();
  gdsl::clearInterrupt();
  CHECK(stopped);
  CHECK(gdsl::limitMessage(StopReason::Memory, limits).find("--max-memory") != std::string::npos);
}

TEST_CASE("the watchdog's timer ticks do not break a blocking read, nor stop a long timeout") {
  gdsl::clearInterrupt();
  Limits limits;
  limits.timeout = 1e300;  // centuries: no overflow, no stop
  limits.maxMemory = uint64_t{1} << 50;
  gdsl::Watchdog watchdog(limits);
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  // The writer blocks SIGALRM, so the ticks reach this thread, blocked in read.
  std::thread writer([&] {
    sigset_t alarm;
    sigemptyset(&alarm);
    sigaddset(&alarm, SIGALRM);
    pthread_sigmask(SIG_BLOCK, &alarm, nullptr);
    std::this_thread::sleep_for(std::chrono::milliseconds(80));
    char byte = 'x';
    CHECK(::write(fds[1], &byte, 1) == 1);
  });
  char byte = 0;
  ssize_t n = ::read(fds[0], &byte, 1);  // about 8 ticks meanwhile
  writer.join();
  ::close(fds[0]);
  ::close(fds[1]);
  CHECK(n == 1);
  CHECK(byte == 'x');
  CHECK(gdsl::interruptReason() == StopReason::None);
}

TEST_CASE("a second watchdog, made while one lives, enforces nothing") {
  gdsl::clearInterrupt();
  Limits loose;
  loose.timeout = 60;
  gdsl::Watchdog first(loose);
  Limits tight;
  tight.timeout = 0.02;
  {
    gdsl::Watchdog second(tight);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  CHECK(gdsl::interruptReason() == StopReason::None);
}

namespace {

// Runs `scenario` in a child process under a 50 ms time limit and returns its
// exit status: 0 when the scenario ran to its end, 1 when the watchdog's hard
// stop ended it first. Its message goes to /dev/null.
template <typename Scenario>
int exitStatusUnderLimit(Scenario&& scenario) {
  pid_t child = ::fork();
  if (child == 0) {
    int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 2);
    gdsl::clearInterrupt();
    Limits limits;
    limits.timeout = 0.05;
    gdsl::Watchdog watchdog(limits);
    while (gdsl::interruptReason() == StopReason::None) std::this_thread::yield();
    scenario();
    std::_Exit(0);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Spins on the processor without polling for `seconds` of this process's CPU time.
void spinCpu(double seconds) {
  auto cpu = [] {
    timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
  };
  double start = cpu();
  volatile uint64_t sink = 0;
  while (cpu() - start < seconds) sink = sink + 1;
}

}  // namespace

// The hard stop ends code that runs on without polling, and nothing else: a
// process that does not get the processor (a busy machine, simulated by
// sleeping) or that has taken the stop up and is unwinding survives however
// long it takes; only the REPL loses nothing then (issue: a REPL died on a
// loaded machine a second after its memory limit).
TEST_CASE("the watchdog's hard stop ends only code that runs on without polling") {
  // Asked to stop, and not running: two seconds of wall time, no CPU.
  CHECK(exitStatusUnderLimit([] { std::this_thread::sleep_for(std::chrono::seconds(2)); }) == 0);
  // The stop taken up (Interrupted made), then a long unwinding on the processor.
  CHECK(exitStatusUnderLimit([] {
          try {
            gdsl::checkInterrupt();
          } catch (const gdsl::Interrupted&) {
            spinCpu(1.5);
          }
        }) == 0);
  // Running on without polling: stopped once a second has passed and half of
  // one on the processor (the spin would end after 20 s of CPU).
  CHECK(exitStatusUnderLimit([] { spinCpu(20); }) == 1);
}
