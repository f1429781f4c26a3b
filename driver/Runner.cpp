// Statement execution: values and winning moves of sums by the xor rule,
// move lists, tables, periods and assertions.
#include "driver/Runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>

#include "compiler/ir/Arith.h"

namespace gdsl {

namespace {
constexpr int64_t kDefaultPeriodHeaps = 100000;

// The values of a sum's components and of the whole sum, for a sum that
// holds a loopy game's position (runtime/Loopy.h).
struct LoopyParts {
  std::vector<LoopyValue> values;
  LoopyValue total = LoopyValue::number(0);
  // The value of the sum without component i.
  LoopyValue without(size_t i) const {
    LoopyValue rest = LoopyValue::number(0);
    for (size_t j = 0; j < values.size(); ++j)
      if (j != i) rest = combine(rest, values[j]);
    return rest;
  }
};

LoopyParts loopyParts(Engine& engine, const Sum& sum) {
  LoopyParts parts;
  for (const Position& c : sum) {
    parts.values.push_back(engine.loopyValue(c));
    parts.total = combine(parts.total, parts.values.back());
  }
  return parts;
}
}  // namespace

Sum Runner::position(const ir::PositionExpr& position) {
  return positions_.evalPosition(position);
}

MoveText Runner::describe(const Sum& sum, size_t component, const MoveRecord& move,
                          uint64_t grundy) {
  const ir::Program& p = engine_.program();
  Sum after;
  for (size_t j = 0; j < sum.size(); ++j) {
    if (j == component)
      after.insert(after.end(), move.components.begin(), move.components.end());
    else
      after.push_back(sum[j]);
  }
  MoveText t;
  t.label = move.label;
  t.from = formatPosition(p, sum[component]);
  t.to = formatSum(p, move.components);
  t.result = formatSum(p, after);
  t.fromShown = positions_.showSum(Sum{sum[component]});
  t.toShown = positions_.showSum(move.components);
  t.resultShown = positions_.showSum(after);
  t.grundy = grundy;
  t.winning = grundy == 0;
  return t;
}

uint32_t Runner::exactValue(const Sum& sum) {
  uint32_t x = 0;
  engine_.valueIs(sum, 0, &x);
  return x;
}

EvalResult Runner::eval(const Sum& sum) {
  if (engine_.holdsLoopy(sum)) return loopyEval(sum);
  EvalResult r;
  r.position = formatSum(engine_.program(), sum);
  r.shown = positions_.showSum(sum);
  std::vector<uint32_t> values;
  uint32_t total = 0;
  for (const Position& c : sum) {
    values.push_back(engine_.rootValue(c));
    total ^= values.back();
  }
  r.grundy = total;
  if (total == 0) return r;
  // The xor rule: move in a component whose value v has v ^ total < v, to a
  // position of value v ^ total.
  // A heap of billions may have as many moves (Nim's `take 1..n`): the
  // search stops after winningMoveSearch_ of them, and says so.
  uint64_t visited = 0;
  for (size_t i = 0; i < sum.size() && !r.move && !r.moveSearchStopped; ++i) {
    uint32_t target = values[i] ^ total;
    if (target >= values[i]) continue;
    std::optional<MoveRecord> found;
    engine_.forEachMove(sum[i], [&](MoveRecord& m) {
      if (++visited > winningMoveSearch_) {
        r.moveSearchStopped = winningMoveSearch_;
        return false;
      }
      if (!engine_.valueIs(m.components, target)) return true;
      found = std::move(m);
      return false;
    });
    if (found) r.move = describe(sum, i, *found, 0);
  }
  return r;
}

EvalResult Runner::loopyEval(const Sum& sum) {
  EvalResult r;
  r.position = formatSum(engine_.program(), sum);
  r.shown = positions_.showSum(sum);
  const LoopyParts parts = loopyParts(engine_, sum);
  r.loopy = parts.total;
  r.grundy = parts.total.infinite ? 0 : parts.total.finite;
  const char outcome = outcomeOf(parts.total);
  if (outcome == 'P') return r;
  // The first move, component by component in rule order, to a sum the
  // opponent loses (N), or that stays a draw (D).
  for (size_t i = 0; i < sum.size() && !r.move && !r.drawingMove; ++i) {
    const LoopyValue others = parts.without(i);
    engine_.forEachMove(sum[i], [&](MoveRecord& m) {
      LoopyValue after = combine(others, engine_.loopyValue(m.components));
      if (outcome == 'N' && outcomeOf(after) == 'P') {
        r.move = describe(sum, i, m, 0);
      } else if (outcome == 'D' && outcomeOf(after) == 'D') {
        r.drawingMove = describe(sum, i, m, 0);
        r.drawingMove->winning = false;
      } else {
        return true;
      }
      return false;
    });
  }
  return r;
}

MisereResult Runner::misere(const Sum& sum) {
  for (const Position& c : sum)
    if (engine_.isLoopy(c.game))
      throw RuntimeError(
          SourceRange{},
          fmt::format("misere play of loopy games is not supported: {} is a "
                      "position of loopy game '{}'",
                      formatPosition(engine_.program(), c), engine_.program().games[c.game].name));
  MisereResult r;
  r.position = formatSum(engine_.program(), sum);
  r.shown = positions_.showSum(sum);
  r.firstPlayerWins = misere_.firstPlayerWins(sum);
  if (r.firstPlayerWins) {
    if (auto m = misere_.winningMove(sum)) {
      r.move = describe(sum, m->first, m->second, 0);
      r.move->grundy = engine_.value(m->second.components);
    }
  }
  return r;
}

MovesResult Runner::moves(const Sum& sum) {
  if (engine_.holdsLoopy(sum)) return loopyMoves(sum);
  MovesResult r;
  r.position = formatSum(engine_.program(), sum);
  r.shown = positions_.showSum(sum);
  r.grundy = engine_.value(sum);
  std::vector<uint32_t> values;
  for (const Position& c : sum) values.push_back(engine_.value(c));
  for (size_t i = 0; i < sum.size(); ++i) {
    for (const MoveRecord& m : engine_.movesOf(sum[i])) {
      uint64_t after = r.grundy ^ values[i] ^ engine_.value(m.components);
      r.moves.push_back(describe(sum, i, m, after));
    }
  }
  std::stable_partition(r.moves.begin(), r.moves.end(),
                        [](const MoveText& m) { return m.winning; });
  return r;
}

MovesResult Runner::loopyMoves(const Sum& sum) {
  MovesResult r;
  r.position = formatSum(engine_.program(), sum);
  r.shown = positions_.showSum(sum);
  const LoopyParts parts = loopyParts(engine_, sum);
  r.loopy = parts.total;
  r.grundy = parts.total.infinite ? 0 : parts.total.finite;
  const bool draw = outcomeOf(parts.total) == 'D';
  for (size_t i = 0; i < sum.size(); ++i) {
    const LoopyValue others = parts.without(i);
    for (const MoveRecord& m : engine_.movesOf(sum[i])) {
      LoopyValue after = combine(others, engine_.loopyValue(m.components));
      MoveText t = describe(sum, i, m, after.infinite ? 0 : after.finite);
      t.winning = outcomeOf(after) == 'P';
      t.drawing = draw && outcomeOf(after) == 'D';
      t.loopy = std::move(after);
      r.moves.push_back(std::move(t));
    }
  }
  std::stable_partition(r.moves.begin(), r.moves.end(),
                        [](const MoveText& m) { return m.winning || m.drawing; });
  return r;
}

std::vector<uint64_t> Runner::heapValues(int game, int64_t lo, int64_t hi) {
  std::vector<uint64_t> out;
  arith::forEachInRange(lo, hi, [&](int64_t n) {
    Position p;
    p.game = static_cast<uint32_t>(game);
    p.words.push_back(n);
    positions_.normalize(p);
    out.push_back(engine_.value(p));
  });
  return out;
}

namespace {

// The most positions a listed table (Runner::listedTable) holds.
constexpr size_t kMaxListedPositions = 1'000'000;

}  // namespace

TableResult Runner::table(const ir::Statement& s) {
  const ir::Game& g = engine_.program().games[static_cast<size_t>(s.game)];
  // More than two ranges, or bounds that read a range: a list of positions.
  std::set<int> named;  // the slots of the named ranges so far
  size_t rangeCount = 0;
  bool dependent = false;
  for (const ir::TableArg& a : s.table) {
    dependent =
        dependent || ir::readsIntSlot(a.lo, named) || (a.isRange && ir::readsIntSlot(a.hi, named));
    if (a.slot >= 0) named.insert(a.slot);
    rangeCount += a.isRange ? 1 : 0;
  }
  if (dependent || rangeCount > 2) return listedTable(s);
  TableResult r;
  r.game = g.name;
  std::vector<int64_t> fixed;
  std::vector<size_t> ranged;
  std::string title = g.name + "(";
  for (size_t i = 0; i < s.table.size(); ++i) {
    const ir::TableArg& a = s.table[i];
    int64_t lo = positions_.evalConstant(a.lo);
    int64_t hi = a.isRange ? positions_.evalConstant(a.hi) : lo;
    if (lo < 0)
      throw RuntimeError(a.lo.loc,
                         fmt::format("a table starts at a non-negative parameter, not {}", lo));
    if (hi - lo > 10'000'000)
      throw RuntimeError(a.hi.loc, "a table has at most 10000000 entries along each parameter");
    fixed.push_back(lo);
    title += (i ? ", " : "") + (a.isRange ? fmt::format("{}..{}", lo, hi) : std::to_string(lo));
    r.params.emplace_back(lo, hi);
    r.names.push_back(g.params[i].name);
    if (a.isRange) {
      ranged.push_back(i);
      r.ranges.emplace_back(lo, hi);
    }
  }
  r.title = title + ")";
  auto positionAt = [&](const std::vector<int64_t>& args) {
    Position p;
    p.game = static_cast<uint32_t>(s.game);
    p.words.assign(args.begin(), args.end());
    positions_.normalize(p);
    return p;
  };
  auto valueAt = [&](const std::vector<int64_t>& args) { return engine_.value(positionAt(args)); };
  // The value of the next cell of `row` (the last row of r.rows while it is
  // filled): a loopy game's infinite value is kept aside.
  auto push = [&](NimTable& row, const std::vector<int64_t>& args) {
    if (!g.loopy) return row.push(valueAt(args));
    LoopyValue v = engine_.loopyValue(positionAt(args));
    if (r.infinite.size() <= r.rows.size()) r.infinite.resize(r.rows.size() + 1);
    if (v.infinite) r.infinite[r.rows.size()][row.size()] = v;
    row.push(v.infinite ? 0 : v.finite);
  };
  std::vector<int64_t> args = fixed;
  if (ranged.size() == 1) {
    // The last value first: a one-heap table then grows in one go, which
    // shows one progress bar and saves checkpoints along the way.
    // An error there is ignored: the loop below meets the first one in order.
    args[ranged[0]] = r.ranges[0].second;
    try {
      if (!g.loopy) valueAt(args);
    } catch (const RuntimeError&) {
    }
    NimTable row;
    const int64_t lo = r.ranges[0].first, hi = r.ranges[0].second;  // hi - lo <= 10^7
    // A one-heap game's values straight from its table (or proved period),
    // as asking each position would give them.
    int64_t copied = 0;
    if (g.params.size() == 1 && g.params[0].type == ir::Type::Int && !g.normalize && !g.loopy)
      copied = engine_.tabledRun(s.game, lo, hi, row);
    if (copied < hi - lo + 1)
      arith::forEachInRange(lo + copied, hi, [&](int64_t v) {
        args[ranged[0]] = v;
        push(row, args);
      });
    r.rows.push_back(std::move(row));
    if (g.params.size() == 1 && g.params[0].type == ir::Type::Int)
      r.period = engine_.provedPeriod(s.game);
    return r;
  }
  if (r.ranges[0].second - r.ranges[0].first > 10000 ||
      r.ranges[1].second - r.ranges[1].first > 10000)
    throw RuntimeError(s.loc, "a two-parameter table has at most 10000 rows and columns");
  // A game searched over a dense memo gets its box at the size of the last
  // corner at once (the cells are still filled in the table's order).
  {
    Position corner;
    corner.game = static_cast<uint32_t>(s.game);
    corner.words.assign(fixed.begin(), fixed.end());
    corner.words[ranged[0]] = r.ranges[0].second;
    corner.words[ranged[1]] = r.ranges[1].second;
    try {
      positions_.normalize(corner);
      engine_.reserve(corner);
    } catch (const RuntimeError&) {  // the table meets it in order
    }
  }
  const auto& progress = engine_.options().progress;
  int64_t rows = r.ranges[0].second - r.ranges[0].first + 1;
  arith::forEachInRange(r.ranges[0].first, r.ranges[0].second, [&](int64_t a) {
    if (progress) progress(r.title, "rows", a - r.ranges[0].first, rows, false, -1);
    NimTable row;
    args[ranged[0]] = a;
    arith::forEachInRange(r.ranges[1].first, r.ranges[1].second, [&](int64_t b) {
      args[ranged[1]] = b;
      push(row, args);
    });
    r.rows.push_back(std::move(row));
  });
  if (progress) progress(r.title, "rows", rows, rows, true, -1);
  return r;
}

// The positions of the table in order (nested loops over the arguments, each
// range's bounds evaluated with the ranges before it set), then their values.
TableResult Runner::listedTable(const ir::Statement& s) {
  const ir::Game& g = engine_.program().games[static_cast<size_t>(s.game)];
  TableResult r;
  r.game = g.name;
  r.listed = true;
  std::string title = g.name + "(";
  for (size_t i = 0; i < s.table.size(); ++i) {
    title += (i ? ", " : "") + s.table[i].text;
    r.argTexts.push_back(s.table[i].text);
    r.names.push_back(g.params[i].name);
    if (s.table[i].isRange) r.lastRange = i;
  }
  r.title = title + ")";
  std::vector<int64_t> ints(static_cast<size_t>(std::max(1, s.position.intSlots)));
  std::vector<ir::ListVal> lists(static_cast<size_t>(std::max(1, s.position.listSlots)));
  const ir::Frame frame{ints.data(), lists.data()};
  r.params.assign(s.table.size(), {INT64_MAX, INT64_MIN});
  std::vector<int64_t> args(s.table.size());
  std::function<void(size_t)> walk = [&](size_t i) {
    if (i == s.table.size()) {
      if (r.positions.size() == kMaxListedPositions)
        throw RuntimeError(s.loc, fmt::format("a table over several ranges has at most {} "
                                              "positions",
                                              kMaxListedPositions));
      r.positions.push_back(args);
      return;
    }
    const ir::TableArg& a = s.table[i];
    int64_t lo = positions_.evalInFrame(a.lo, frame);
    int64_t hi = a.isRange ? positions_.evalInFrame(a.hi, frame) : lo;
    if (lo < 0 && hi >= lo)
      throw RuntimeError(a.lo.loc,
                         fmt::format("a table starts at a non-negative parameter, not {}", lo));
    arith::forEachInRange(lo, hi, [&](int64_t v) {
      args[i] = v;
      if (a.slot >= 0) ints[static_cast<size_t>(a.slot)] = v;
      r.params[i].first = std::min(r.params[i].first, v);
      r.params[i].second = std::max(r.params[i].second, v);
      walk(i + 1);
    });
  };
  walk(0);
  for (size_t i = 0; i < s.table.size(); ++i) {
    if (r.positions.empty()) r.params[i] = {0, -1};
    if (s.table[i].isRange) r.ranges.push_back(r.params[i]);
  }
  const auto& progress = engine_.options().progress;
  auto total = static_cast<int64_t>(r.positions.size());
  for (int64_t k = 0; k < total; ++k) {
    if (progress && k % 1024 == 0) progress(r.title, "positions", k, total, false, -1);
    Position p;
    p.game = static_cast<uint32_t>(s.game);
    const std::vector<int64_t>& at = r.positions[static_cast<size_t>(k)];
    p.words.assign(at.begin(), at.end());
    positions_.normalize(p);
    r.values.push_back(engine_.value(p));
  }
  if (progress) progress(r.title, "positions", total, total, true, -1);
  return r;
}

// The positions that `table [P for ...]` writes, in order, then their values.
TableResult Runner::tableOf(const ir::Statement& s) {
  const ir::Program& program = engine_.program();
  TableResult r;
  r.ofPositions = true;
  r.title = s.text;
  const std::vector<ir::Term>& terms = s.position.terms;
  if (terms.size() == 1 && terms[0].kind == ir::Term::Kind::Position)
    r.game = program.games[static_cast<size_t>(terms[0].game)].name;
  std::vector<Sum> sums;
  positions_.forEachPosition(s.steps, s.position, [&](Sum sum) {
    if (sums.size() == kMaxListedPositions)
      throw RuntimeError(
          s.loc, fmt::format("a table of positions has at most {} of them", kMaxListedPositions));
    sums.push_back(std::move(sum));
  });
  bool anyShown = false;
  for (const Sum& sum : sums) {
    r.positionTexts.push_back(formatSum(program, sum));
    r.positionShown.push_back(positions_.showSum(sum));
    anyShown = anyShown || !r.positionShown.back().empty();
  }
  if (!anyShown) r.positionShown.clear();
  const auto& progress = engine_.options().progress;
  auto total = static_cast<int64_t>(sums.size());
  for (int64_t k = 0; k < total; ++k) {
    if (progress && k % 1024 == 0) progress(r.title, "positions", k, total, false, -1);
    r.values.push_back(engine_.value(sums[static_cast<size_t>(k)]));
  }
  if (progress) progress(r.title, "positions", total, total, true, -1);
  return r;
}

PeriodResult Runner::period(const ir::Statement& s) {
  PeriodResult r;
  r.game = engine_.program().games[static_cast<size_t>(s.game)].name;
  if (engine_.isLoopy(static_cast<uint32_t>(s.game)))
    throw RuntimeError(s.loc, fmt::format("period does not apply to loopy game '{}': its values "
                                          "may be infinite, and the proofs of periods assume "
                                          "every move leads to a smaller heap; use table",
                                          r.game));
  int64_t maxHeap = kDefaultPeriodHeaps;
  if (!s.table.empty()) {
    int64_t lo = positions_.evalConstant(s.table[0].lo);
    if (lo != 0)
      throw RuntimeError(s.table[0].lo.loc,
                         fmt::format("a period is searched from heap 0: write {}(0..N)", r.game));
    maxHeap = positions_.evalConstant(s.table[0].hi);
    if (maxHeap < 1)
      throw RuntimeError(s.table[0].hi.loc,
                         fmt::format("the period search needs N >= 1, not {}", maxHeap));
  }
  r.checkedTo = maxHeap;
  r.period = engine_.period(s.game, maxHeap);
  return r;
}

void Runner::report(const RuntimeError& e, const ir::Statement& s) {
  Diagnostic d;
  d.message = e.describe();
  d.range = e.range.valid() ? e.range : s.loc;
  d.notes = e.notes;
  if (e.range.valid() && s.loc.valid() &&
      (e.range.file != s.loc.file || e.range.begin != s.loc.begin))
    d.notes.push_back(Diagnostic{Severity::Note, "in the statement here", s.loc, {}});
  output_.error(d);
}

bool Runner::run(const ir::Statement& s) {
  try {
    switch (s.kind) {
      case ir::Statement::Kind::Eval:
        output_.eval(eval(position(s.position)));
        return true;
      case ir::Statement::Kind::EvalMisere:
        output_.misere(misere(position(s.position)));
        return true;
      case ir::Statement::Kind::Moves:
        output_.moves(moves(position(s.position)));
        return true;
      case ir::Statement::Kind::Table:
        if (s.plot)
          output_.plot(table(s));
        else
          output_.table(table(s));
        return true;
      case ir::Statement::Kind::TableOf:
        output_.table(tableOf(s));
        return true;
      case ir::Statement::Kind::Period:
        output_.period(period(s));
        return true;
      case ir::Statement::Kind::Assert: {
        Sum sum = position(s.position);
        auto check = [&](bool ok, const std::string& failure) {
          output_.assertion(ok);
          if (!ok) {
            Diagnostic d;
            d.range = s.loc;
            d.message = "assertion failed: " + failure;
            output_.error(d);
          }
          return ok;
        };
        // With a loopy game's position, or an infinite value expected: the
        // values of runtime/Loopy.h.
        std::optional<Sum> other;
        if (s.other) other = position(*s.other);
        if (s.expectsInfinite || engine_.holdsLoopy(sum) || (other && engine_.holdsLoopy(*other))) {
          LoopyValue actual = engine_.loopyValue(sum);
          LoopyValue expected = LoopyValue::number(static_cast<uint32_t>(s.expected));
          if (other) {
            expected = engine_.loopyValue(*other);
          } else if (s.expectsInfinite) {
            expected = LoopyValue{true, 0, {}};
            for (int64_t k : s.expectedK) expected.k.push_back(static_cast<uint32_t>(k));
            std::sort(expected.k.begin(), expected.k.end());
            expected.k.erase(std::unique(expected.k.begin(), expected.k.end()), expected.k.end());
          }
          std::string said = fmt::format("{} has value {}", formatSum(engine_.program(), sum),
                                         formatLoopy(actual));
          if (other)
            said += fmt::format(", {} has value {}", formatSum(engine_.program(), *other),
                                formatLoopy(expected));
          else
            said += fmt::format(", not {}", formatLoopy(expected));
          return check(actual == expected, said);
        }
        uint64_t actual = exactValue(sum);
        if (other) {  // assert P == Q: the same value
          uint64_t expected = exactValue(*other);
          return check(actual == expected,
                       fmt::format("{} has value {}, {} has value {}",
                                   formatSum(engine_.program(), sum), formatNimber(actual),
                                   formatSum(engine_.program(), *other), formatNimber(expected)));
        }
        bool ok = check(
            actual == static_cast<uint64_t>(s.expected),
            fmt::format("{} has value {}, not {}", formatSum(engine_.program(), sum),
                        formatNimber(actual), formatNimber(static_cast<uint64_t>(s.expected))));
        return ok;
      }
    }
  } catch (const RuntimeError& e) {
    report(e, s);
  }
  return false;
}

}  // namespace gdsl
