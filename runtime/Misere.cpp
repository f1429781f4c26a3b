// Misère search over canonical multisets of components (see Misere.h). A state
// with no components is a win for the player to move: the opponent made the
// last move. Frames walk their successors with a cursor (component, option), so
// the stack holds one state per level, not every successor.
#include "runtime/Misere.h"

#include <fmt/format.h>

#include <algorithm>
#include <span>

#include "compiler/support/Hash.h"
#include "compiler/support/Interrupt.h"

namespace gdsl {

size_t MisereSolver::StateHash::operator()(const State& s) const {
  uint64_t h = 0x84222325CBF29CE4ull ^ s.size();
  PositionHash ph;
  for (const Position& p : s) h = hashCombine(h, ph(p));
  return static_cast<size_t>(hashFinish(h));
}

MisereSolver::State MisereSolver::canonical(const Sum& sum) {
  State s;
  for (const Position& p : sum) {
    int64_t k = shapes_.of(p);
    if (k == 0) continue;  // terminal: no moves, nothing to add
    if (k > 0) {
      Position token;
      token.game = kNimGame;
      token.words.push_back(k);
      s.push_back(std::move(token));
    } else {
      s.push_back(p);
    }
  }
  std::sort(s.begin(), s.end());
  return s;
}

const std::vector<MisereSolver::State>& MisereSolver::optionsOf(const Position& position) {
  if (auto it = options_.find(position); it != options_.end()) return it->second;
  struct Collect : MoveSink {
    std::vector<Sum> sums;
    bool onMove(const ir::Move&, const ir::Frame&, std::span<const Position> comps) override {
      sums.emplace_back(comps.begin(), comps.end());
      return true;
    }
  } collect;
  engine_.backend().enumerate(position, collect);
  std::vector<State> options;
  options.reserve(collect.sums.size());
  for (const Sum& sum : collect.sums) options.push_back(canonical(sum));
  std::sort(options.begin(), options.end());
  options.erase(std::unique(options.begin(), options.end()), options.end());
  optionCount_ += options.size();
  if (optionCount_ > limits_.maxOptions)
    throw RuntimeError(SourceRange{},
                       fmt::format("misère search gave up after keeping {} options of components",
                                   limits_.maxOptions));
  return options_.emplace(position, std::move(options)).first->second;
}

bool MisereSolver::nextSuccessor(Frame& f, State& out) {
  const State& s = f.state;
  while (f.component < s.size()) {
    const Position& token = s[f.component];
    // Equal components have the same moves, which give the same states.
    bool repeat = f.component > 0 && token == s[f.component - 1];
    bool nim = token.game == kNimGame;
    size_t count = repeat ? 0 : nim ? static_cast<size_t>(token.words[0]) : optionsOf(token).size();
    if (f.option >= count) {
      ++f.component;
      f.option = 0;
      continue;
    }
    // The state without this component, merged with what it becomes.
    State replacement;
    if (nim) {
      int64_t k = token.words[0] - 1 - static_cast<int64_t>(f.option);  // *k-1 down to *0
      if (k > 0) {
        Position t;
        t.game = kNimGame;
        t.words.push_back(k);
        replacement.push_back(std::move(t));
      }
    } else {
      replacement = optionsOf(token)[f.option];
    }
    ++f.option;
    out.clear();
    out.reserve(s.size() - 1 + replacement.size());
    auto rest = s.begin() + static_cast<std::ptrdiff_t>(f.component);
    std::merge(s.begin(), rest, replacement.begin(), replacement.end(), std::back_inserter(out));
    size_t head = out.size();
    std::copy(rest + 1, s.end(), std::back_inserter(out));
    std::inplace_merge(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(head), out.end());
    return true;
  }
  return false;
}

std::optional<bool> MisereSolver::byNimRule(const State& state) {
  // Nim tokens sort last, so the state is all nim heaps when its first one is.
  if (!state.empty() && state.front().game != kNimGame) return std::nullopt;
  ++nimRule_;
  uint64_t ones = 0, x = 0;
  bool big = false;
  for (const Position& t : state) {
    auto k = static_cast<uint64_t>(t.words[0]);
    x ^= k;
    if (k == 1) ++ones;
    if (k > 1) big = true;
  }
  // Bouton: with every heap at most 1 the player to move wins iff the number of
  // 1-heaps is even (the empty sum included); otherwise iff the xor is not 0.
  return big ? x != 0 : ones % 2 == 0;
}

std::string MisereSolver::describe(const State& state) const {
  std::string text;
  for (const Position& t : state) {
    if (!text.empty()) text += " + ";
    text += t.game == kNimGame ? formatNimber(static_cast<uint64_t>(t.words[0]))
                               : formatPosition(engine_.program(), t);
  }
  return text.empty() ? "0" : text;
}

bool MisereSolver::solve(const State& root) {
  if (std::optional<bool> rule = byNimRule(root)) return *rule;
  if (auto it = memo_.find(root); it != memo_.end()) return it->second == kWin;

  std::vector<Frame> stack;
  auto push = [&](State s) {
    checkInterrupt();
    if (memo_.size() >= maxStates_)
      throw RuntimeError(SourceRange{},
                         fmt::format("misère search gave up after {} states, the limit "
                                     "(--max-states); raise it with --max-states N",
                                     maxStates_));
    memo_.emplace(s, kActive);
    stack.push_back(Frame{std::move(s)});
  };
  try {
    push(root);
    State next;
    while (!stack.empty()) {
      Frame& f = stack.back();
      bool descended = false;
      // A state that is not all nim heaps has a component with a move, so
      // every frame has a successor.
      while (!f.win && nextSuccessor(f, next)) {
        bool wins = false;
        if (std::optional<bool> rule = byNimRule(next)) {
          wins = *rule;
        } else {
          auto it = memo_.find(next);
          if (it == memo_.end()) {
            push(std::move(next));  // `f` is not used after this
            descended = true;
            break;
          }
          if (it->second == kActive)
            throw RuntimeError(SourceRange{},
                               fmt::format("misère search: {} can reach itself, so the game is "
                                           "not finite",
                                           describe(next)));
          wins = it->second == kWin;
        }
        if (!wins) f.win = true;  // a move to a state the opponent loses
      }
      if (descended) continue;
      bool win = f.win;
      memo_[f.state] = win ? kWin : kLose;
      stack.pop_back();
      if (!win && !stack.empty()) stack.back().win = true;
    }
  } catch (...) {
    for (const Frame& f : stack) memo_.erase(f.state);
    throw;
  }
  return memo_.at(root) == kWin;
}

bool MisereSolver::firstPlayerWins(const Sum& sum) {
  if (useQuotients_)
    if (std::optional<bool> byQuotient = quotients_.firstPlayerWins(sum)) return *byQuotient;
  return solve(canonical(sum));
}

std::optional<std::pair<size_t, MoveRecord>> MisereSolver::winningMove(const Sum& sum) {
  for (size_t i = 0; i < sum.size(); ++i) {
    for (MoveRecord& m : engine_.movesOf(sum[i])) {
      Sum next;
      for (size_t j = 0; j < sum.size(); ++j)
        if (j != i) next.push_back(sum[j]);
      next.insert(next.end(), m.components.begin(), m.components.end());
      if (!firstPlayerWins(next)) return std::make_pair(i, std::move(m));
    }
  }
  return std::nullopt;
}

MisereSolver::Stats MisereSolver::stats() const {
  Stats s;
  s.states = memo_.size();
  s.nimRule = nimRule_;
  s.positions = shapes_.classified();
  s.nimHeaps = shapes_.nimHeaps();
  s.gaveUp = shapes_.gaveUp();
  return s;
}

}  // namespace gdsl
