// Playing against the computer (see Play.h). A position is a sum; a move
// replaces one component by its successor's components. Positions are shown
// as `eval` and `moves` show them, every component included; moves that lead
// to the same position (the same components in any order) are one option.
#include "driver/Play.h"

#include <fmt/format.h>

#include <algorithm>
#include <istream>
#include <map>
#include <ostream>
#include <random>
#include <sstream>

namespace gdsl {

namespace {

struct Choice {
  std::string text;  // Kayles(5) -> Kayles(1) + Kayles(2)   (remove(k=2))
  Sum after;
  // With a loopy game: the largest counter (Engine::loopyCounter) of the
  // positions the move leads to; a winner moves where it is least, so that
  // play ends. 0 otherwise.
  uint64_t counter = 0;
};

// A position as a multiset of components: the order of a sum's terms does
// not change the game.
Sum sorted(Sum sum) {
  std::sort(sum.begin(), sum.end());
  return sum;
}

class Game {
 public:
  Game(Stack& stack, const PlayOptions& options, std::ostream& out)
      : engine_(stack.engine()),
        positions_(stack.positions()),
        misere_(stack.misere()),
        options_(options),
        out_(out),
        random_(options.seed) {}

  // The options from `sum`, in the order of its components and their moves.
  // Moves that reach the same position are one option, shown as the first of
  // them with every move's label: `Kayles(1) -> 0   (take_all(k=1))` once
  // for `Kayles(1) + Kayles(1)`.
  std::vector<Choice> choices(const Sum& sum) {
    struct Option {
      std::string move;                 // Kayles(5) -> Kayles(1) + Kayles(2)
      std::vector<std::string> labels;  // remove(k=2), without repeats
      Sum after;
      uint64_t counter = 0;
    };
    const bool loopy = engine_.holdsLoopy(sum);
    std::vector<Option> options;
    std::map<Sum, size_t> index;  // sorted position after the move -> its option
    for (size_t i = 0; i < sum.size(); ++i) {
      for (MoveRecord& m : engine_.movesOf(sum[i])) {
        Sum after;  // the component replaced in place, as `moves` shows it
        for (size_t j = 0; j < sum.size(); ++j) {
          if (j == i)
            after.insert(after.end(), m.components.begin(), m.components.end());
          else
            after.push_back(sum[j]);
        }
        auto [it, fresh] = index.emplace(sorted(after), options.size());
        if (fresh) {
          uint64_t counter = 0;
          if (loopy)
            for (const Position& c : m.components)
              counter = std::max(counter, engine_.loopyCounter(c));
          options.push_back(
              Option{fmt::format("{} -> {}", positions_.show(sum[i]), text(m.components)),
                     {},
                     std::move(after),
                     counter});
        }
        std::vector<std::string>& labels = options[it->second].labels;
        if (std::find(labels.begin(), labels.end(), m.label) == labels.end())
          labels.push_back(m.label);
      }
    }
    std::vector<Choice> out;
    for (Option& o : options) {
      std::string labels;
      for (const std::string& l : o.labels) labels += (labels.empty() ? "" : " or ") + l;
      out.push_back(
          Choice{fmt::format("{}   ({})", o.move, labels), std::move(o.after), o.counter});
    }
    return out;
  }

  // 'N' when the player to move from `sum` wins, 'P' when they lose, 'D'
  // for a draw (a loopy game's).
  char outcome(const Sum& sum) {
    if (options_.misere) return misere_.firstPlayerWins(sum) ? 'N' : 'P';
    if (engine_.holdsLoopy(sum)) return outcomeOf(engine_.loopyValue(sum));
    return engine_.value(sum) != 0 ? 'N' : 'P';
  }

  // True when the player to move from `sum` wins.
  bool wins(const Sum& sum) { return outcome(sum) == 'N'; }

  // A sum as text output prints it, by the games' show forms.
  std::string text(const Sum& sum) {
    std::string shown = positions_.showSum(sum);
    return shown.empty() ? formatSum(engine_.program(), sum) : shown;
  }

  std::string show(const Sum& sum) { return sum.empty() ? "nothing left" : text(sum); }

  void hint(const Sum& sum, const std::vector<Choice>& moves) {
    const char now = outcome(sum);
    const char* said = now == 'N'   ? "N, the player to move wins"
                       : now == 'P' ? "P, the player to move loses"
                                    : "D, a draw: neither player can force an end";
    if (options_.misere)
      out_ << fmt::format("Misère play: {}.\n", said);
    else if (engine_.holdsLoopy(sum))
      out_ << fmt::format("Value {}: {}.\n", formatLoopy(engine_.loopyValue(sum)), said);
    else
      out_ << fmt::format("Value {}: {}.\n", formatNimber(engine_.value(sum)), said);
    // The winning moves, with a loopy game those of least counter first
    // (the computer's choice: following the first one ends the game).
    std::vector<size_t> wins;
    std::string winning, drawing;
    for (size_t k = 0; k < moves.size(); ++k) {
      const char after = outcome(moves[k].after);
      if (after == 'P') wins.push_back(k);
      if (now == 'D' && after == 'D')
        drawing += (drawing.empty() ? "" : ", ") + std::to_string(k + 1);
    }
    std::stable_sort(wins.begin(), wins.end(),
                     [&](size_t a, size_t b) { return moves[a].counter < moves[b].counter; });
    for (size_t k : wins) winning += (winning.empty() ? "" : ", ") + std::to_string(k + 1);
    if (now == 'D')
      out_ << "Drawing moves: " << drawing << "\n";
    else
      out_ << (winning.empty() ? "No winning move: every move leads to an N-position.\n"
                               : "Winning moves: " + winning + "\n");
  }

  void listMoves(const std::vector<Choice>& moves) {
    for (size_t k = 0; k < moves.size(); ++k)
      out_ << fmt::format("  {:>2}. {}\n", k + 1, moves[k].text);
  }

  // The computer's move: to a P-position when there is one (with a loopy
  // game, the one of least counter, so that play ends); from a draw, at
  // random among the moves that keep it; else at random.
  const Choice& pick(const Sum& sum, const std::vector<Choice>& moves) {
    const Choice* best = nullptr;
    for (const Choice& c : moves)
      if (outcome(c.after) == 'P' && (!best || c.counter < best->counter)) best = &c;
    if (best) return *best;
    std::vector<const Choice*> pool;
    if (outcome(sum) == 'D')
      for (const Choice& c : moves)
        if (outcome(c.after) == 'D') pool.push_back(&c);
    if (pool.empty())
      for (const Choice& c : moves) pool.push_back(&c);
    std::uniform_int_distribution<size_t> any(0, pool.size() - 1);
    return *pool[any(random_)];
  }

  // Says who won when the player to move (`playerToMove`: the human) has no move.
  void end(bool humanToMove) {
    bool humanMovedLast = !humanToMove;
    bool humanWins = options_.misere ? !humanMovedLast : humanMovedLast;
    out_ << fmt::format("No moves left. {} made the last move{}: {}.\n",
                        humanMovedLast ? "You" : "The computer",
                        options_.misere ? " and loses (misère play)" : "",
                        humanWins ? "you win" : "the computer wins");
  }

 private:
  Engine& engine_;
  PositionBuilder& positions_;
  MisereSolver& misere_;
  const PlayOptions& options_;
  std::ostream& out_;
  std::mt19937_64 random_;
};

}  // namespace

void play(Stack& stack, const Sum& start, const PlayOptions& options, std::istream& in,
          std::ostream& out) {
  Game game(stack, options, out);
  Sum sum = start;
  // Values every position the game can reach before the first move, so that
  // an error in the rules (a cycle, an overflow) stops it before it starts.
  game.wins(sum);
  bool humanToMove = !options.computerFirst;
  std::vector<Sum> history;  // the position before each of the human's moves
  // A position met a third time with the same player to move ends the game
  // as a draw (only a loopy game's positions can repeat).
  std::map<std::pair<Sum, bool>, int> seen;
  out << fmt::format("Playing {} ({} play). Type a move's number, hint, undo, moves or quit.\n",
                     game.show(sum), options.misere ? "misère" : "normal");
  while (true) {
    if (++seen[{sorted(sum), humanToMove}] == 3) {
      out << fmt::format("{} has come up three times with the same player to move: a draw.\n",
                         game.show(sum));
      return;
    }
    std::vector<Choice> moves = game.choices(sum);
    if (moves.empty()) {
      game.end(humanToMove);
      return;
    }
    if (!humanToMove) {
      const Choice& c = game.pick(sum, moves);
      out << "Computer: " << c.text << "\n";
      sum = c.after;
      humanToMove = true;
      continue;
    }
    out << "\nPosition: " << game.show(sum) << "\n";
    game.listMoves(moves);
    while (true) {
      out << "your move> " << std::flush;
      std::string line;
      if (!std::getline(in, line)) {
        out << "\n";
        return;
      }
      std::istringstream words(line);
      std::string word;
      words >> word;
      if (word.empty()) continue;
      if (word == "quit" || word == "q") return;
      if (word == "hint" || word == "h") {
        game.hint(sum, moves);
        continue;
      }
      if (word == "moves" || word == "m") {
        game.listMoves(moves);
        continue;
      }
      if (word == "undo" || word == "u") {
        if (history.empty()) {
          out << "Nothing to undo.\n";
          continue;
        }
        sum = history.back();
        history.pop_back();
        out << "Took back your last move and the computer's reply.\n";
        break;
      }
      size_t k = 0;
      std::istringstream number(word);
      if (number >> k && number.eof() && k >= 1 && k <= moves.size()) {
        history.push_back(sum);
        out << "You: " << moves[k - 1].text << "\n";
        sum = moves[k - 1].after;
        humanToMove = false;
        break;
      }
      out << fmt::format("Type a number from 1 to {}, or hint, undo, moves, quit.\n", moves.size());
    }
  }
}

}  // namespace gdsl
