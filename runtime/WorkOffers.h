// Work a busy thread offers to idle ones, for the threads of one search
// (runtime/CellSearch.h): a thread with nothing left to do waits here; a
// thread at a part with several options still to ask, seeing one waiting,
// opens an offer of those options; the idle thread joins it and takes
// options from it until none is left. A thread waiting for its own offer's
// joiners to finish joins other offers meanwhile, so no thread sits idle
// while another has options left at a part large enough to offer
// ("helpful master", as in parallel alpha-beta: R. Feldmann et al.,
// "Distributed game-tree search", ICCA Journal 12, 1989).
// One offer is open at a time. An offer's items are numbered 0..count-1;
// what an item is, and what its answer does, is the poster's business.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <mutex>

namespace gdsl {

class WorkOffers {
 public:
  struct Offer {
    size_t count = 0;               // its items
    std::atomic<size_t> next{0};    // the next item not taken
    std::atomic<bool> stop{false};  // its question is answered: drop its items
    int joiners = 0;                // threads in it besides its poster (under lock_)
  };

  // Whether a thread waits for work (read without the lock: a hint).
  bool someoneIdle() const { return idle_.load(std::memory_order_relaxed) > 0; }

  // Opens `offer` to idle threads; false when another is open or none waits.
  bool open(Offer& offer);
  // No thread joins `offer` from now on (its joiners stay until they leave).
  void closeToJoiners(Offer& offer);
  // Waits until `offer` has no joiners (plain waiting: while unwinding).
  void waitForJoiners(Offer& offer);

  // Waits until done() (read under the lock, again at every wake()), joining
  // each offer opened meanwhile with items left: join(offer) runs with the
  // lock released, then the thread leaves the offer. An exception from join
  // leaves the offer and passes on.
  template <typename Done, typename Join>
  void idleUntil(Done&& done, Join&& join) {
    for (;;) {
      Offer* offer = nullptr;
      {
        std::unique_lock<std::mutex> hold(lock_);
        for (;;) {
          if (done()) return;
          if (open_ && open_->next.load(std::memory_order_relaxed) >= open_->count)
            open_ = nullptr;  // (every item taken)
          if (open_ && !open_->stop.load(std::memory_order_relaxed)) {
            offer = open_;
            ++offer->joiners;
            break;
          }
          idle_.fetch_add(1, std::memory_order_relaxed);
          changed_.wait(hold);
          idle_.fetch_sub(1, std::memory_order_relaxed);
        }
      }
      struct Leave {  // (however join ends)
        WorkOffers& board;
        Offer& offer;
        ~Leave() { board.leave(offer); }
      } leave{*this, *offer};
      join(*offer);
    }
  }
  // Makes the waiting threads read done() again.
  void wake();

 private:
  void leave(Offer& offer);
  std::mutex lock_;
  std::condition_variable changed_;
  Offer* open_ = nullptr;
  std::atomic<int> idle_{0};
};

}  // namespace gdsl
