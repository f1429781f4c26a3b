// A time budget for one computation: asks it to stop, as Ctrl-C does
// (compiler/support/Interrupt.h), once `seconds` have passed, unless the
// budget is dropped first. The REPL's `describe` (a notebook's Shift-Tab)
// and the language server's hover compute a game's first values under one;
// the computation throws Interrupted when the time is up, and what it
// finished stays in the memo.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "compiler/support/Interrupt.h"

namespace gdsl {

class InterruptAfter {
 public:
  // Clears the interrupt flag, then starts the clock.
  explicit InterruptAfter(double seconds) {
    clearInterrupt();
    timer_ = std::thread([this, seconds] {
      std::unique_lock<std::mutex> lock(mutex_);
      if (!wake_.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return done_; }))
        requestInterrupt();
    });
  }
  // Stops the clock and clears the flag (a stop asked or taken up).
  ~InterruptAfter() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    wake_.notify_one();
    timer_.join();
    clearInterrupt();
  }
  InterruptAfter(const InterruptAfter&) = delete;
  InterruptAfter& operator=(const InterruptAfter&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread timer_;
};

}  // namespace gdsl
