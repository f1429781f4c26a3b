// The progress bar and its estimate of the time left (see Progress.h).
#include "driver/Progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>

namespace gdsl {
namespace {

// Reports kept: when there are more, every other one is dropped (the newest
// kept), so that they stay spread over the whole run.
constexpr size_t kMaxSamples = 256;
// The recent window: this part of the time so far, and at least this long.
constexpr double kRecentPart = 0.25;
constexpr double kRecentSeconds = 1.0;
// A fitted exponent is taken between these bounds.
constexpr double kMaxExponent = 2.0;

}  // namespace

void TimeLeft::add(double seconds, int64_t done) {
  if (!samples_.empty() && done < samples_.back().done) samples_.clear();  // a new run
  samples_.push_back(Sample{seconds, done});
  if (samples_.size() > kMaxSamples) {
    size_t kept = 0;
    for (size_t i = 0; i < samples_.size(); ++i)
      if (i % 2 == 0 || i + 1 == samples_.size()) samples_[kept++] = samples_[i];
    samples_.resize(kept);
  }
}

bool TimeLeft::cost(const Sample& a, const Sample& b, double& perUnit, double& middle) const {
  if (b.done <= a.done || b.seconds <= a.seconds) return false;
  perUnit = (b.seconds - a.seconds) / static_cast<double>(b.done - a.done);
  middle = (static_cast<double>(a.done) + static_cast<double>(b.done)) / 2;
  return true;
}

const TimeLeft::Sample& TimeLeft::recentStart() const {
  const Sample& last = samples_.back();
  double window = std::max(kRecentSeconds, kRecentPart * (last.seconds - samples_.front().seconds));
  // The last sample at or before the window's start (the first when none is).
  size_t i = samples_.size() - 1;
  while (i > 0 && last.seconds - samples_[i].seconds < window) --i;
  return samples_[i];
}

double TimeLeft::rate() const {
  double perUnit = 0, middle = 0;
  if (samples_.size() < 2 || !cost(recentStart(), samples_.back(), perUnit, middle)) return 0;
  return 1 / perUnit;
}

double TimeLeft::fittedExponent() const {
  if (samples_.size() < 4) return 0;
  // The cost over the first half of the run against the recent cost.
  const Sample& first = samples_.front();
  const Sample& last = samples_.back();
  double halfway = (first.seconds + last.seconds) / 2;
  size_t h = 0;
  while (h + 1 < samples_.size() && samples_[h + 1].seconds <= halfway) ++h;
  double early = 0, earlyMiddle = 0, recent = 0, recentMiddle = 0;
  if (!cost(first, samples_[h], early, earlyMiddle) ||
      !cost(recentStart(), last, recent, recentMiddle) || recentMiddle < 1.1 * earlyMiddle)
    return 0;
  return std::clamp(std::log(recent / early) / std::log(recentMiddle / earlyMiddle), 0.0,
                    kMaxExponent);
}

double TimeLeft::estimate(int64_t target, double exponent) const {
  double perUnit = 0, middle = 0;
  if (samples_.size() < 2 || !cost(recentStart(), samples_.back(), perUnit, middle)) return -1;
  double a = exponent < 0 ? fittedExponent() : exponent;
  double from = static_cast<double>(samples_.back().done), to = static_cast<double>(target);
  if (to <= from) return 0;
  // The integral of perUnit * (x / middle)^a over [from, to].
  double m = std::max(middle, 1.0);
  return perUnit * m * (std::pow(to / m, a + 1) - std::pow(from / m, a + 1)) / (a + 1);
}

std::string progressLine(const std::string& what, const char* unit, int64_t done, int64_t target,
                         double rate, double secondsLeft) {
  if (target < 0)  // work of unknown size: no bar, no time left
    return fmt::format("{}: {} {}, {:.0f} {}/s", what, done, unit, rate, unit);
  constexpr int kWidth = 24;
  double fraction = target > 0 ? static_cast<double>(done) / static_cast<double>(target) : 1;
  if (fraction > 1) fraction = 1;
  int filled = static_cast<int>(fraction * kWidth);
  std::string left = "?";
  if (secondsLeft >= 0) {
    auto seconds = static_cast<int64_t>(secondsLeft + 0.5);
    left = seconds >= 7200  ? fmt::format("{:.1f} h", static_cast<double>(seconds) / 3600)
           : seconds >= 120 ? fmt::format("{} min", (seconds + 30) / 60)
                            : fmt::format("{} s", seconds);
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
    std::chrono::steady_clock::time_point start;  // of this stage
    std::chrono::steady_clock::time_point began;  // of the work's first stage
    TimeLeft timeLeft;
    bool shown = false;
    std::chrono::steady_clock::time_point drawn;  // at most ten redraws a second
  };
  auto state = std::make_shared<State>();
  return [state, fd](const std::string& what, const char* unit, int64_t done, int64_t target,
                     bool finished, double exponent) {
    State& s = *state;
    auto now = std::chrono::steady_clock::now();
    if (what != s.what || target != s.target) {
      // A new stage of the work (a loopy game's listing, then its labelling):
      // the old line stays until the new one is drawn or the work ends, and
      // the bar shows a second after the first stage began.
      const bool first = s.what.empty();
      s = State{what, target, now, first ? now : s.began, {}, s.shown, {}};
    }
    std::string text;
    if (finished) {
      if (s.shown) text = "\r\x1b[K";
      s = State{};
    } else {
      double seconds = std::chrono::duration<double>(now - s.start).count();
      s.timeLeft.add(seconds, done);
      // The first report comes after 0.1 s of work: show from 1 s on.
      if (now - s.began < std::chrono::milliseconds(900) ||
          now - s.drawn < std::chrono::milliseconds(100))
        return;
      s.drawn = now;
      text = "\r\x1b[K" + progressLine(what, unit, done, target, s.timeLeft.rate(),
                                       s.timeLeft.estimate(target, exponent));
      s.shown = true;
    }
    if (!text.empty() && ::write(fd, text.data(), text.size()) < 0) return;
  };
}

}  // namespace gdsl
