// Resource limits and the watchdog thread (see Limits.h).
#include "runtime/Limits.h"

#include <fmt/format.h>
#include <malloc.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

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

uint64_t residentMemory() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long long total = 0, resident = 0, shared = 0;
  int read = std::fscanf(f, "%llu %llu %llu", &total, &resident, &shared);
  std::fclose(f);
  if (read != 3 || shared > resident) return 0;
  // Pages backed by files (a table file's, the program's code) are the
  // kernel's to write back and drop: only the others count.
  return (resident - shared) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
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

Watchdog::Watchdog(const Limits& limits) : limits_(limits) {
  startedAt_ = std::chrono::steady_clock::now();
  running_ = true;
  if (limits_.maxMemory > 0 || limits_.timeout > 0) thread_ = std::thread([this] { run(); });
}

Watchdog::~Watchdog() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    quit_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Watchdog::start() {
  std::lock_guard<std::mutex> lock(mutex_);
  running_ = true;
  stopAsked_ = false;
  startedAt_ = std::chrono::steady_clock::now();
}

void Watchdog::pause() {
  std::lock_guard<std::mutex> lock(mutex_);
  running_ = false;
  stopAsked_ = false;
}

void Watchdog::run() {
  using Clock = std::chrono::steady_clock;
  std::unique_lock<std::mutex> lock(mutex_);
  while (!quit_) {
    wake_.wait_for(lock, std::chrono::milliseconds(10));
    if (quit_ || !running_) continue;
    Clock::time_point now = Clock::now();
    StopReason reason = StopReason::None;
    if (limits_.maxMemory > 0 && residentMemory() > limits_.maxMemory)
      reason = StopReason::Memory;
    else if (limits_.timeout > 0 &&
             std::chrono::duration<double>(now - startedAt_).count() > limits_.timeout)
      reason = StopReason::Timeout;
    if (reason == StopReason::None) continue;
    if (!stopAsked_) {
      requestInterrupt(reason);
      stopAsked_ = true;
      stopAskedAt_ = now;
    } else if (now - stopAskedAt_ > std::chrono::seconds(1)) {
      // The computation did not stop (it is in code that does not poll).
      std::string message = "gdsl: " + limitMessage(reason, limits_) + "\n";
      if (::write(2, message.data(), message.size()) < 0) {
      }
      std::_Exit(1);
    }
  }
}

}  // namespace gdsl
