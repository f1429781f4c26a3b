// A native search over Backend::enumerate (see EnumeratedSearch.h): each
// position being expanded is rebuilt from its words (one Position kept per
// depth, so nothing is allocated once the depths are reached), its moves are
// enumerated, and each successor component of the game itself is handed to
// the memo walk; any other component is asked of the oracle.
#include "runtime/EnumeratedSearch.h"

#include <memory>

#include "runtime/MemoSearch.h"

namespace gdsl {
namespace {

class EnumeratedMoves;
using Search = MemoSearch<EnumeratedMoves>;

class EnumeratedMoves final : public MoveSink {
 public:
  EnumeratedMoves(Backend& backend, uint32_t game, ValueOracle& oracle)
      : backend_(backend), game_(game), oracle_(oracle) {}

  NativeStatus expand(std::span<const int64_t> words, Search& search) {
    if (positions_.size() <= depth_) positions_.push_back(std::make_unique<Position>());
    Position& p = *positions_[depth_];
    p.game = game_;
    p.words.assign(words.begin(), words.end());
    struct Depth {
      size_t& depth;
      explicit Depth(size_t& d) : depth(++d) {}
      ~Depth() { --depth; }
    } deeper(depth_);
    status_ = NativeStatus::Done;
    search_ = &search;
    backend_.enumerate(p, *this);
    return status_;
  }

  bool onMove(const ir::Move&, const ir::Frame&, std::span<const Position> comps) override {
    uint32_t x = 0;
    for (const Position& c : comps) {
      if (c.game != game_) {
        x ^= oracle_.valueOf(c);
        continue;
      }
      if (NativeStatus s = search_->addComponent({c.words.data(), c.words.size()}, x);
          s != NativeStatus::Done) {
        status_ = s;
        return false;
      }
    }
    search_->addMove(x);
    return true;
  }

 private:
  Backend& backend_;
  uint32_t game_;
  ValueOracle& oracle_;
  std::vector<std::unique_ptr<Position>> positions_;  // by depth
  size_t depth_ = 0;
  NativeStatus status_ = NativeStatus::Done;
  Search* search_ = nullptr;  // the search expanding positions, for onMove
};

}  // namespace

NativeStatus searchByEnumeration(Backend& backend, const ir::Program& program, int game,
                                 const int64_t* words, NativeMemo memo, ValueOracle& oracle,
                                 std::vector<int64_t>& miss, uint64_t stackFloor, YieldPoll* yield,
                                 uint64_t& expanded) {
  const ir::Game& g = program.games[static_cast<size_t>(game)];
  size_t count = memo.lists() ? 1 + static_cast<size_t>(words[0]) : g.params.size();
  MemoSearchSetup setup{game, memo, g.cells ? &*g.cells : nullptr, miss, stackFloor, yield};
  EnumeratedMoves moves(backend, static_cast<uint32_t>(game), oracle);
  std::vector<uint32_t> seen;
  std::vector<uint8_t> marks;
  Search search(setup, moves, seen, marks);
  struct Count {
    const Search& search;
    uint64_t& out;
    ~Count() { out += search.expanded(); }
  } counted{search, expanded};
  return search.search({words, count});
}

}  // namespace gdsl
