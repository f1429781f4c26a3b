// SIGINT and SIGTERM during a run that can save its work (a table with
// --checkpoint): the first signal asks the computation to stop
// (StopReason::Signal, compiler/support/Interrupt.h), so that the caller saves a last
// checkpoint and exits with 128 + the signal (130, 143); a second signal
// exits at once with that status, whatever is running. Without work to save,
// the signals keep their default action. gdsl census uses them too, without
// restarting calls, so that its wait for a game returns at the signal.
#pragma once

namespace gdsl {

class StopSignals {
 public:
  // Installs the handlers when `enabled`; the destructor restores the old ones.
  // With `restartCalls`, a system call the signal interrupts goes on (a save
  // stays whole); without, it fails with EINTR.
  explicit StopSignals(bool enabled, bool restartCalls = true);
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // The signal received (SIGINT or SIGTERM), or 0.
  static int received();
  // "SIGINT", "SIGTERM".
  static const char* name(int signal);

 private:
  bool enabled_;
};

}  // namespace gdsl
