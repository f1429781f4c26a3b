// Work a busy thread offers to idle ones (see WorkOffers.h).
#include "runtime/WorkOffers.h"

namespace gdsl {

bool WorkOffers::open(Offer& offer) {
  std::lock_guard<std::mutex> hold(lock_);
  if (open_ || idle_.load(std::memory_order_relaxed) == 0) return false;
  open_ = &offer;
  changed_.notify_all();
  return true;
}

void WorkOffers::closeToJoiners(Offer& offer) {
  std::lock_guard<std::mutex> hold(lock_);
  if (open_ == &offer) open_ = nullptr;
}

void WorkOffers::waitForJoiners(Offer& offer) {
  std::unique_lock<std::mutex> hold(lock_);
  if (open_ == &offer) open_ = nullptr;
  changed_.wait(hold, [&] { return offer.joiners == 0; });
}

void WorkOffers::wake() {
  std::lock_guard<std::mutex> hold(lock_);
  changed_.notify_all();
}

void WorkOffers::leave(Offer& offer) {
  std::lock_guard<std::mutex> hold(lock_);
  --offer.joiners;
  changed_.notify_all();
}

}  // namespace gdsl
