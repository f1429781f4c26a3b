// The progress bar (see Progress.h).
#include "driver/Progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <memory>

namespace gdsl {

std::string progressLine(const std::string& what, const char* unit, int64_t done, int64_t target,
                         double seconds, int64_t doneAtStart) {
  constexpr int kWidth = 24;
  double fraction = target > 0 ? static_cast<double>(done) / static_cast<double>(target) : 1;
  if (fraction > 1) fraction = 1;
  int filled = static_cast<int>(fraction * kWidth);
  double rate = seconds > 0 ? static_cast<double>(done - doneAtStart) / seconds : 0;
  std::string left = "?";
  if (rate > 0) {
    auto secondsLeft = static_cast<int64_t>(static_cast<double>(target - done) / rate + 0.5);
    left = secondsLeft >= 120 ? fmt::format("{} min", (secondsLeft + 30) / 60)
                              : fmt::format("{} s", secondsLeft);
  }
  return fmt::format("{}: [{}{}] {:3d}% {}/{} {}, {:.0f} {}/s, {} left", what,
                     std::string(static_cast<size_t>(filled), '#'),
                     std::string(static_cast<size_t>(kWidth - filled), '.'),
                     static_cast<int>(fraction * 100), done, target, unit, rate, unit, left);
}

ProgressFn makeProgressBar(int fd) {
  if (!::isatty(fd)) return {};
  struct State {
    std::string what;
    int64_t target = -1;
    int64_t doneAtStart = 0;
    std::chrono::steady_clock::time_point start;
    bool shown = false;
    std::chrono::steady_clock::time_point drawn;  // at most ten redraws a second
  };
  auto state = std::make_shared<State>();
  return [state, fd](const std::string& what, const char* unit, int64_t done, int64_t target,
                     bool finished) {
    State& s = *state;
    auto now = std::chrono::steady_clock::now();
    if (what != s.what || target != s.target) {
      s = State{what, target, done, now, false, {}};
    }
    std::string text;
    if (finished) {
      if (s.shown) text = "\r\x1b[K";
      s = State{};
    } else {
      double seconds = std::chrono::duration<double>(now - s.start).count();
      // The first report comes after 0.1 s of work: show from 1 s on.
      if (seconds < 0.9 || now - s.drawn < std::chrono::milliseconds(100)) return;
      s.drawn = now;
      text = "\r\x1b[K" + progressLine(what, unit, done, target, seconds, s.doneAtStart);
      s.shown = true;
    }
    if (!text.empty() && ::write(fd, text.data(), text.size()) < 0) return;
  };
}

}  // namespace gdsl
