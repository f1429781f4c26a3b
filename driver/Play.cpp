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
    };
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
          options.push_back(
              Option{fmt::format("{} -> {}", positions_.show(sum[i]), text(m.components)),
                     {},
                     std::move(after)});
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
      out.push_back(Choice{fmt::format("{}   ({})", o.move, labels), std::move(o.after)});
    }
    return out;
  }

  // True when the player to move from `sum` wins.
  bool wins(const Sum& sum) {
    return options_.misere ? misere_.firstPlayerWins(sum) : engine_.value(sum) != 0;
  }

  // A sum as text output prints it, by the games' show forms.
  std::string text(const Sum& sum) {
    std::string shown = positions_.showSum(sum);
    return shown.empty() ? formatSum(engine_.program(), sum) : shown;
  }

  std::string show(const Sum& sum) { return sum.empty() ? "nothing left" : text(sum); }

  void hint(const Sum& sum, const std::vector<Choice>& moves) {
    if (options_.misere)
      out_ << fmt::format("Misère play: {}.\n",
                          wins(sum) ? "N, the player to move wins" : "P, the player to move loses");
    else
      out_ << fmt::format("Value {}: {}.\n", formatNimber(engine_.value(sum)),
                          wins(sum) ? "N, the player to move wins" : "P, the player to move loses");
    std::string winning;
    for (size_t k = 0; k < moves.size(); ++k)
      if (!wins(moves[k].after)) winning += (winning.empty() ? "" : ", ") + std::to_string(k + 1);
    out_ << (winning.empty() ? "No winning move: every move leads to an N-position.\n"
                             : "Winning moves: " + winning + "\n");
  }

  void listMoves(const std::vector<Choice>& moves) {
    for (size_t k = 0; k < moves.size(); ++k)
      out_ << fmt::format("  {:>2}. {}\n", k + 1, moves[k].text);
  }

  // The computer's move: to a P-position when there is one, else at random.
  const Choice& pick(const std::vector<Choice>& moves) {
    for (const Choice& c : moves)
      if (!wins(c.after)) return c;
    std::uniform_int_distribution<size_t> any(0, moves.size() - 1);
    return moves[any(random_)];
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
  out << fmt::format("Playing {} ({} play). Type a move's number, hint, undo, moves or quit.\n",
                     game.show(sum), options.misere ? "misère" : "normal");
  while (true) {
    std::vector<Choice> moves = game.choices(sum);
    if (moves.empty()) {
      game.end(humanToMove);
      return;
    }
    if (!humanToMove) {
      const Choice& c = game.pick(moves);
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
