// Resource limits and the watchdog timer (see Limits.h).
#include "runtime/Limits.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <malloc.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <ctime>

#include "runtime/Asan.h"

namespace gdsl {

uint64_t defaultMaxMemory() {
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  uint64_t physical = pages > 0 && size > 0 ? static_cast<uint64_t>(pages) * size : 0;
  uint64_t cap = uint64_t{8} << 30;
  return physical == 0 ? cap : std::min(physical / 2, cap);
}

bool parseSize(const std::string& text, uint64_t& bytes) {
  if (text.empty()) return false;
  char* end = nullptr;
  double number = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || !std::isfinite(number) || number < 0) return false;
  std::string unit(end);
  if (!unit.empty() && (unit.back() == 'B' || unit.back() == 'b')) unit.pop_back();
  if (unit.size() == 2 && (unit[1] == 'i' || unit[1] == 'I')) unit.pop_back();  // GiB
  double scale = 1;
  if (unit.empty())
    scale = 1;
  else if (unit == "K" || unit == "k")
    scale = 1024.0;
  else if (unit == "M" || unit == "m")
    scale = 1024.0 * 1024;
  else if (unit == "G" || unit == "g")
    scale = 1024.0 * 1024 * 1024;
  else if (unit == "T" || unit == "t")
    scale = 1024.0 * 1024 * 1024 * 1024;
  else
    return false;
  double value = number * scale;
  if (value >= 1.8e19) return false;
  bytes = static_cast<uint64_t>(value);
  return true;
}

std::string formatSize(uint64_t bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) v /= 1024, ++u;
  if (u == 0) return fmt::format("{} bytes", bytes);
  return v == std::floor(v) ? fmt::format("{:.0f} {}", v, units[u])
                            : fmt::format("{:.1f} {}", v, units[u]);
}

namespace {

// Parses the first three numbers of /proc/self/statm into `fields`;
// async-signal-safe (open, read, close; no allocation).
bool readStatm(unsigned long long fields[3]) {
  int fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char text[128];
  ssize_t size = ::read(fd, text, sizeof text - 1);
  ::close(fd);
  if (size <= 0) return false;
  int field = 0;
  for (ssize_t i = 0; i < size && field < 3;) {
    if (text[i] < '0' || text[i] > '9') {
      ++i;
      continue;
    }
    unsigned long long value = 0;
    for (; i < size && text[i] >= '0' && text[i] <= '9'; ++i) value = value * 10 + (text[i] - '0');
    fields[field++] = value;
  }
  return field == 3;
}

// Resident pages not backed by a file: residentMemory() in pages.
uint64_t residentAnonymousPages() {
  unsigned long long fields[3];  // total, resident, shared
  if (!readStatm(fields) || fields[2] > fields[1]) return 0;
  return fields[1] - fields[2];
}

}  // namespace

uint64_t residentMemory() {
  // Pages backed by files (a table file's, the program's code) are the
  // kernel's to write back and drop: only the others count.
  return residentAnonymousPages() * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

#ifdef GDSL_ASAN
#include <sanitizer/allocator_interface.h>
#endif

void releaseFreedMemory() {
#ifdef GDSL_ASAN
  // ASan keeps freed blocks in a quarantine and its own pools, not malloc's.
  __sanitizer_purge_allocator();
#endif
  malloc_trim(0);
}

std::string maxStatesMessage(uint64_t maxStates) {
  return fmt::format(
      "gave up after memoizing {} positions, the limit (--max-states); the game "
      "may be infinite or too large; raise it with --max-states N",
      maxStates);
}

std::string limitMessage(StopReason reason, const Limits& limits) {
  switch (reason) {
    case StopReason::Timeout:
      return fmt::format(
          "stopped after {} s, the time limit (--timeout); raise it with --timeout SECONDS "
          "(0: no limit)",
          limits.timeout);
    case StopReason::Memory:
      return fmt::format(
          "stopped: gdsl used more than {} of memory, the limit (--max-memory); raise it with "
          "--max-memory SIZE (e.g. --max-memory 16G)",
          formatSize(limits.maxMemory));
    case StopReason::User:
      return "interrupted";
    case StopReason::Signal:
      return "stopped by a signal";
    case StopReason::None:
      break;
  }
  return "stopped";
}

namespace {

// What the SIGALRM handler reads: set before the timer starts, or atomics.
struct WatchState {
  uint64_t maxMemoryPages = 0;                // 0: no memory limit
  int64_t timeoutNanos = 0;                   // 0: no time limit
  std::string memoryMessage, timeoutMessage;  // "gdsl: ...\n", made beforehand
  std::atomic<bool> running{false};
  std::atomic<int64_t> startedAt{0};     // monotonic nanoseconds
  std::atomic<int64_t> stopAskedAt{-1};  // -1: no stop asked since start()
  std::atomic<int64_t> stopAskedCpu{0};  // the process's CPU nanoseconds then
};
WatchState watch;
std::atomic<bool> watchdogActive{false};

constexpr long kTickMicros = 10'000;
// The hard stop's grace: both must pass after a stop is asked, unless it is
// taken up first.
constexpr int64_t kGraceWallNanos = 1'000'000'000;
constexpr int64_t kGraceCpuNanos = 500'000'000;

int64_t clockNanos(clockid_t clock) {
  timespec now;
  clock_gettime(clock, &now);
  return int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}
int64_t monotonicNanos() {
  return clockNanos(CLOCK_MONOTONIC);
}

void writeAll(const std::string& text) {
  for (size_t at = 0; at < text.size();) {
    ssize_t n = ::write(2, text.data() + at, text.size() - at);
    if (n <= 0) return;
    at += static_cast<size_t>(n);
  }
}

// The timer's tick: async-signal-safe (atomics, clock_gettime, open/read/
// close, write, _exit); errno is kept for the code it interrupted.
void onTick(int) {
  if (!watch.running.load(std::memory_order_relaxed)) return;
  int savedErrno = errno;
  int64_t now = monotonicNanos();
  StopReason reason = StopReason::None;
  if (watch.maxMemoryPages > 0 && residentAnonymousPages() > watch.maxMemoryPages)
    reason = StopReason::Memory;
  else if (watch.timeoutNanos > 0 &&
           now - watch.startedAt.load(std::memory_order_relaxed) > watch.timeoutNanos)
    reason = StopReason::Timeout;
  if (reason != StopReason::None) {
    int64_t askedAt = watch.stopAskedAt.load(std::memory_order_relaxed);
    if (askedAt < 0) {
      requestInterrupt(reason);
      watch.stopAskedCpu.store(clockNanos(CLOCK_PROCESS_CPUTIME_ID), std::memory_order_relaxed);
      watch.stopAskedAt.store(now, std::memory_order_relaxed);
    } else if (!interruptTaken().load(std::memory_order_relaxed) &&
               now - askedAt > kGraceWallNanos &&
               clockNanos(CLOCK_PROCESS_CPUTIME_ID) -
                       watch.stopAskedCpu.load(std::memory_order_relaxed) >
                   kGraceCpuNanos) {
      // The computation ran on without stopping (in code that does not poll).
      writeAll(reason == StopReason::Memory ? watch.memoryMessage : watch.timeoutMessage);
      std::_Exit(1);
    }
  }
  errno = savedErrno;
}

void setTimer(bool on) {
  itimerval timer{};
  if (on) timer.it_interval.tv_usec = timer.it_value.tv_usec = kTickMicros;
  setitimer(ITIMER_REAL, &timer, nullptr);
}

}  // namespace

Watchdog::Watchdog(const Limits& limits) {
  if (limits.maxMemory == 0 && limits.timeout <= 0) return;
  if (watchdogActive.exchange(true)) return;
  owner_ = true;
  long pageSize = sysconf(_SC_PAGESIZE);
  // Rounded down: a limit below a page stops at once, as the bytes did.
  watch.maxMemoryPages =
      limits.maxMemory == 0
          ? 0
          : std::max<uint64_t>(limits.maxMemory / (pageSize > 0 ? pageSize : 4096), 1);
  // At most 9*10^9 s (285 years), which fits in int64 nanoseconds.
  double timeout = std::min(limits.timeout, 9e9);
  watch.timeoutNanos = timeout > 0 ? std::max<int64_t>(static_cast<int64_t>(timeout * 1e9), 1) : 0;
  watch.memoryMessage = "gdsl: " + limitMessage(StopReason::Memory, limits) + "\n";
  watch.timeoutMessage = "gdsl: " + limitMessage(StopReason::Timeout, limits) + "\n";
  struct sigaction action {};
  action.sa_handler = onTick;
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigaction(SIGALRM, &action, &previous_);
  start();
}

Watchdog::~Watchdog() {
  if (!owner_) return;
  pause();
  sigaction(SIGALRM, &previous_, nullptr);
  watchdogActive.store(false);
}

void Watchdog::start() {
  if (!owner_) return;
  interruptTaken().store(false, std::memory_order_relaxed);
  watch.stopAskedAt.store(-1, std::memory_order_relaxed);
  watch.startedAt.store(monotonicNanos(), std::memory_order_relaxed);
  watch.running.store(true, std::memory_order_relaxed);
  setTimer(true);
}

void Watchdog::pause() {
  if (!owner_) return;
  setTimer(false);
  watch.running.store(false, std::memory_order_relaxed);
  watch.stopAskedAt.store(-1, std::memory_order_relaxed);
}

}  // namespace gdsl
