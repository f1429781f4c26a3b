// The handlers of SIGINT and SIGTERM (see StopSignals.h). Only
// async-signal-safe calls: an atomic store and _exit.
#include "runtime/StopSignals.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>

#include "compiler/support/Interrupt.h"

namespace gdsl {
namespace {

std::atomic<int> firstSignal{0};
struct sigaction oldInt, oldTerm;

void onSignal(int signal) {
  int none = 0;
  if (!firstSignal.compare_exchange_strong(none, signal)) _exit(128 + signal);  // the second
  requestInterrupt(StopReason::Signal);
}

}  // namespace

StopSignals::StopSignals(bool enabled, bool restartCalls) : enabled_(enabled) {
  if (!enabled_) return;
  firstSignal.store(0);
  struct sigaction action = {};
  action.sa_handler = onSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = restartCalls ? SA_RESTART : 0;
  sigaction(SIGINT, &action, &oldInt);
  sigaction(SIGTERM, &action, &oldTerm);
}

StopSignals::~StopSignals() {
  if (!enabled_) return;
  sigaction(SIGINT, &oldInt, nullptr);
  sigaction(SIGTERM, &oldTerm, nullptr);
}

int StopSignals::received() {
  return firstSignal.load();
}

const char* StopSignals::name(int signal) {
  return signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "a signal";
}

}  // namespace gdsl
