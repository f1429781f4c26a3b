// Text and JSON Lines output of statement results.
#include "driver/Output.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>
#include <ostream>

#include "compiler/ir/Arith.h"
#include "driver/Plot.h"
#include "runtime/Position.h"

namespace gdsl {
namespace {

// A loopy game's value in JSON: the number, or {"inf": K}.
nlohmann::json loopyJson(const LoopyValue& v) {
  return v.infinite ? nlohmann::json{{"inf", v.k}} : nlohmann::json(v.finite);
}

// "VALUE, OUTCOME" as eval and moves print it: `*3, N`, or with a loopy
// game's value `∞(0), N`, `∞(∅), D`.
std::string valueAndOutcome(const std::optional<LoopyValue>& loopy, uint64_t grundy) {
  if (loopy) return fmt::format("{}, {}", formatLoopy(*loopy), outcomeOf(*loopy));
  return fmt::format("{}, {}", formatNimber(grundy), grundy ? "N" : "P");
}

// Writes a row's values separated by `sep` (text: a space before each value;
// JSON: commas between values, inside `brackets`).
// `infinite`: a loopy game's infinite cells (by index), written as ∞(K) in
// text and {"inf": K} in JSON.
void writeValues(std::ostream& out, const NimTable& row, char sep, std::string_view brackets,
                 const std::map<int64_t, LoopyValue>* infinite = nullptr) {
  // Written into a fixed buffer, flushed when less than a value's room is
  // left: a table may have 10^7 values, most of them one or two digits.
  constexpr size_t kBytes = size_t{1} << 13, kValueRoom = 16;
  std::array<char, kBytes> buffer;
  char* end = buffer.data();
  auto flush = [&] {
    out.write(buffer.data(), end - buffer.data());
    end = buffer.data();
  };
  if (!brackets.empty()) *end++ = brackets[0];
  const bool loopy = infinite && !infinite->empty();
  for (int64_t i = 0; i < row.size(); ++i) {
    if (end > buffer.data() + kBytes - kValueRoom) flush();
    if (sep == ' ' || i > 0) *end++ = sep;
    if (loopy)
      if (auto it = infinite->find(i); it != infinite->end()) {
        flush();
        out << (sep == ' ' ? formatLoopy(it->second) : loopyJson(it->second).dump());
        continue;
      }
    const uint32_t v = row[i];
    if (v < 10) {
      *end++ = static_cast<char>('0' + v);
    } else if (v < 100) {
      *end++ = static_cast<char>('0' + v / 10);
      *end++ = static_cast<char>('0' + v % 10);
    } else {
      const fmt::format_int digits(v);
      end = std::copy_n(digits.data(), digits.size(), end);
    }
  }
  if (!brackets.empty()) *end++ = brackets[1];
  flush();
}

// The infinite cells of row `i` of a table, or null.
const std::map<int64_t, LoopyValue>* infiniteCells(const TableResult& r, size_t i) {
  return i < r.infinite.size() ? &r.infinite[i] : nullptr;
}

// The width of `text` on a terminal: its code points (∞ is three bytes).
size_t displayWidth(const std::string& text) {
  size_t n = 0;
  for (unsigned char c : text) n += (c & 0xC0) != 0x80;
  return n;
}

// Text output prints positions by their games' show forms, when they have one.
const std::string& shownOr(const std::string& shown, const std::string& raw) {
  return shown.empty() ? raw : shown;
}

std::string moveText(const MoveText& m) {
  return fmt::format("{} -> {} by {}", shownOr(m.fromShown, m.from), shownOr(m.toShown, m.to),
                     m.label);
}

class TextOutput final : public Output {
 public:
  TextOutput(std::ostream& out, std::ostream& err, const SourceManager& sources)
      : out_(out), err_(err), sources_(sources) {}

  void eval(const EvalResult& r) override {
    out_ << fmt::format("{}: {}", shownOr(r.shown, r.position), valueAndOutcome(r.loopy, r.grundy));
    if (r.move) out_ << ", winning move " << moveText(*r.move);
    if (r.moveSearchStopped)
      out_ << fmt::format(
          ", winning move not found among the first {} moves (the search stops there)",
          r.moveSearchStopped);
    if (r.drawingMove) out_ << ", drawing move " << moveText(*r.drawingMove);
    out_ << "\n";
  }

  void misere(const MisereResult& r) override {
    out_ << fmt::format("misere {}: {}", shownOr(r.shown, r.position),
                        r.firstPlayerWins ? "N" : "P");
    if (r.move)
      out_ << ", winning move " << moveText(*r.move);
    else if (r.firstPlayerWins)  // an N-position with no winning move has no move at all
      out_ << ", no move: the player to move has none, and so wins in misere play";
    out_ << "\n";
  }

  void moves(const MovesResult& r) override {
    out_ << fmt::format("moves of {} ({}):\n", shownOr(r.shown, r.position),
                        valueAndOutcome(r.loopy, r.grundy));
    if (r.moves.empty()) out_ << "  (no moves)\n";
    size_t width = 0;
    for (const MoveText& m : r.moves) width = std::max(width, m.label.size());
    bool sum = r.position.find(" + ") != std::string::npos;
    for (const MoveText& m : r.moves) {
      std::string leaves = sum ? ", leaving " + shownOr(m.resultShown, m.result) : "";
      out_ << fmt::format("  {:<{}}  {} -> {}{}  = {}{}\n", m.label, width,
                          shownOr(m.fromShown, m.from), shownOr(m.toShown, m.to), leaves,
                          m.loopy ? formatLoopy(*m.loopy) : formatNimber(m.grundy),
                          m.winning   ? "  winning"
                          : m.drawing ? "  drawing"
                                      : "");
    }
  }

  void table(const TableResult& r) override {
    if (r.ofPositions) {
      positionsTable(r);
      return;
    }
    if (r.listed) {
      listedTable(r);
      return;
    }
    if (r.ranges.size() == 1) {
      out_ << r.title << ":";
      writeValues(out_, r.rows[0], ' ', "", infiniteCells(r, 0));
      out_ << "\n";
      return;
    }
    out_ << r.title << ":\n";
    // Each cell's text: its value, or ∞(K).
    auto cell = [&](size_t i, int64_t j) {
      const LoopyValue* inf = r.infiniteAt(i, j);
      return inf ? formatLoopy(*inf) : std::to_string(r.rows[i][j]);
    };
    size_t width = 1;
    for (size_t i = 0; i < r.rows.size(); ++i)
      for (int64_t j = 0; j < r.rows[i].size(); ++j)
        width = std::max(width, displayWidth(cell(i, j)));
    width = std::max(width, std::to_string(r.ranges[1].second).size());
    size_t label = std::to_string(r.ranges[0].second).size();
    out_ << std::string(label + 1, ' ');
    arith::forEachInRange(r.ranges[1].first, r.ranges[1].second,
                          [&](int64_t c) { out_ << fmt::format(" {:>{}}", c, width); });
    out_ << "\n";
    for (size_t i = 0; i < r.rows.size(); ++i) {
      out_ << fmt::format("{:>{}}:", r.ranges[0].first + static_cast<int64_t>(i), label);
      for (int64_t j = 0; j < r.rows[i].size(); ++j) {
        std::string text = cell(i, j);
        out_ << " " << std::string(width - displayWidth(text), ' ') << text;
      }
      out_ << "\n";
    }
  }

  // One line per position of `table [P for ...]`, in order:
  //   St([1, 0]): 1
  void positionsTable(const TableResult& r) {
    out_ << r.title << ":\n";
    if (r.values.empty()) out_ << "  (no positions)\n";
    for (size_t k = 0; k < r.values.size(); ++k)
      out_ << fmt::format(
          "  {}: {}\n",
          shownOr(r.positionShown.empty() ? "" : r.positionShown[k], r.positionTexts[k]),
          r.values[k]);
  }

  // One line per run of positions that differ only in the last range:
  //   Chomp(2, 1, 0..1): 3 4
  void listedTable(const TableResult& r) {
    out_ << r.title << ":\n";
    size_t k = 0;
    while (k < r.positions.size()) {
      size_t end = k + 1;
      auto sameRun = [&](size_t a, size_t b) {
        for (size_t i = 0; i < r.positions[a].size(); ++i)
          if (i != r.lastRange && r.positions[a][i] != r.positions[b][i]) return false;
        return true;
      };
      while (end < r.positions.size() && sameRun(k, end)) ++end;
      out_ << "  " << r.game << "(";
      for (size_t i = 0; i < r.positions[k].size(); ++i) {
        out_ << (i ? ", " : "");
        if (i == r.lastRange && end - k > 1)
          out_ << r.positions[k][i] << ".." << r.positions[end - 1][i];
        else
          out_ << r.positions[k][i];
      }
      out_ << "):";
      for (; k < end; ++k) out_ << " " << r.values[k];
      out_ << "\n";
    }
  }

  void period(const PeriodResult& r) override {
    if (!r.period) {
      out_ << fmt::format("{}: no period found among heaps 0..{}\n", r.game, r.checkedTo);
      return;
    }
    const PeriodInfo& p = *r.period;
    out_ << fmt::format("{}: preperiod {}, period {}", r.game, p.preperiod, p.period);
    if (p.saltus) out_ << fmt::format(", saltus {}", p.saltus);
    if (p.proved && p.saltus != 0)
      out_ << fmt::format(" (proved at heap {}; values checked up to heap {})\n", p.proofHeap,
                          p.checkedTo);
    else if (p.proved)
      out_ << fmt::format(" (proved; values checked up to heap {})\n", p.checkedTo);
    else
      out_ << fmt::format(" (observed up to heap {}, not proved)\n", p.checkedTo);
  }

  void assertion(bool) override {}

  void error(const Diagnostic& d) override { err_ << render(sources_, d); }

 private:
  std::ostream& out_;
  std::ostream& err_;
  const SourceManager& sources_;
};

class JsonOutput final : public Output {
 public:
  JsonOutput(std::ostream& out, std::ostream& err, const SourceManager& sources)
      : out_(out), err_(err), sources_(sources) {}

  static nlohmann::json moveJson(const std::optional<MoveText>& m) {
    if (!m) return nullptr;
    return m->result;
  }

  // A `*_shown` field beside a raw one, when a game in it has a show form.
  static void shown(nlohmann::json& j, const char* key, const std::string& text) {
    if (!text.empty()) j[key] = text;
  }

  static void moveDetails(nlohmann::json& j, const std::optional<MoveText>& m) {
    if (!m) return;
    j["move_label"] = m->label;
    j["move_from"] = m->from;
    j["move_to"] = m->to;
    shown(j, "move_shown", m->resultShown);
    shown(j, "move_from_shown", m->fromShown);
    shown(j, "move_to_shown", m->toShown);
  }

  void eval(const EvalResult& r) override {
    nlohmann::json j = {{"kind", "eval"},
                        {"position", r.position},
                        {"grundy", r.grundy},
                        {"outcome", r.grundy ? "N" : "P"},
                        {"move", moveJson(r.move)}};
    if (r.loopy) {
      j["grundy"] = loopyJson(*r.loopy);
      j["outcome"] = std::string(1, outcomeOf(*r.loopy));
    }
    shown(j, "shown", r.shown);
    moveDetails(j, r.move);
    if (r.moveSearchStopped) j["move_search_stopped"] = r.moveSearchStopped;
    if (r.drawingMove) {
      j["drawing_move"] = moveJson(r.drawingMove);
      j["drawing_move_label"] = r.drawingMove->label;
    }
    emit(j);
  }

  void misere(const MisereResult& r) override {
    nlohmann::json j = {{"kind", "eval_misere"},
                        {"position", r.position},
                        {"outcome", r.firstPlayerWins ? "N" : "P"},
                        {"move", moveJson(r.move)}};
    shown(j, "shown", r.shown);
    moveDetails(j, r.move);
    emit(j);
  }

  void moves(const MovesResult& r) override {
    nlohmann::json list = nlohmann::json::array();
    for (const MoveText& m : r.moves) {
      nlohmann::json move = {{"label", m.label}, {"from", m.from},     {"component_to", m.to},
                             {"to", m.result},   {"grundy", m.grundy}, {"winning", m.winning}};
      if (m.loopy) {
        move["grundy"] = loopyJson(*m.loopy);
        move["drawing"] = m.drawing;
      }
      shown(move, "from_shown", m.fromShown);
      shown(move, "component_to_shown", m.toShown);
      shown(move, "to_shown", m.resultShown);
      list.push_back(std::move(move));
    }
    nlohmann::json j = {
        {"kind", "moves"}, {"position", r.position}, {"grundy", r.grundy}, {"moves", list}};
    if (r.loopy) {
      j["grundy"] = loopyJson(*r.loopy);
      j["outcome"] = std::string(1, outcomeOf(*r.loopy));
    }
    shown(j, "shown", r.shown);
    emit(j);
  }

  // `table [P for ...]`: the positions as text, in order, and their values.
  void positionsTable(const TableResult& r) {
    nlohmann::json head = {{"kind", "table"}, {"title", r.title}};
    head["game"] = r.game.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.game);
    std::string text = head.dump();
    text.pop_back();
    auto strings = [&](const char* key, const std::vector<std::string>& list) {
      text += fmt::format(",\"{}\":[", key);
      for (size_t k = 0; k < list.size(); ++k)
        text += (k ? "," : "") + nlohmann::json(list[k]).dump();
      text += "]";
    };
    strings("positions", r.positionTexts);
    if (!r.positionShown.empty()) strings("positions_shown", r.positionShown);
    out_ << text << ",\"values\":[";
    for (size_t k = 0; k < r.values.size(); ++k) out_ << (k ? "," : "") << r.values[k];
    out_ << "]}\n";
  }

  void table(const TableResult& r) override {
    if (r.ofPositions) {
      positionsTable(r);
      return;
    }
    nlohmann::json ranges = nlohmann::json::array();
    for (const auto& [lo, hi] : r.params) ranges.push_back({lo, hi});
    // The values are written straight from the rows (a million-value table
    // as a JSON tree would take ten times its memory). Object keys print in
    // sorted order, so "values" comes last: it goes before the closing brace.
    nlohmann::json fields = {{"kind", "table"}, {"game", r.game}, {"ranges", ranges}};
    if (r.period)
      fields["period"] = {{"preperiod", r.period->preperiod},
                          {"period", r.period->period},
                          {"saltus", r.period->saltus},
                          {"proof_heap", r.period->proofHeap}};
    std::string head = fields.dump();
    head.pop_back();
    if (r.listed) {  // the positions in order, then their values
      out_ << head << ",\"positions\":[";
      for (size_t k = 0; k < r.positions.size(); ++k) {
        out_ << (k ? ",[" : "[");
        for (size_t i = 0; i < r.positions[k].size(); ++i)
          out_ << (i ? "," : "") << r.positions[k][i];
        out_ << "]";
      }
      out_ << "],\"values\":[";
      for (size_t k = 0; k < r.values.size(); ++k) out_ << (k ? "," : "") << r.values[k];
      out_ << "]}\n";
      return;
    }
    out_ << head << ",\"values\":";
    if (r.ranges.size() == 1) {
      writeValues(out_, r.rows[0], ',', "[]", infiniteCells(r, 0));
    } else {
      out_ << "[";
      for (size_t i = 0; i < r.rows.size(); ++i) {
        if (i) out_ << ",";
        writeValues(out_, r.rows[i], ',', "[]", infiniteCells(r, i));
      }
      out_ << "]";
    }
    out_ << "}\n";
  }

  // The table's line, then the picture: {"kind":"plot","title":...,"svg":...}.
  void plot(const TableResult& r) override {
    table(r);
    emit({{"kind", "plot"}, {"title", r.title}, {"svg", renderPlot(r)}});
  }

  void period(const PeriodResult& r) override {
    nlohmann::json j = {{"kind", "period"}, {"game", r.game}};
    if (r.period) {
      j["preperiod"] = r.period->preperiod;
      j["period"] = r.period->period;
      j["saltus"] = r.period->saltus;
      j["proved"] = r.period->proved;
      j["checked_to"] = r.period->checkedTo;
      if (r.period->proved) j["proof_heap"] = r.period->proofHeap;
    } else {
      j["preperiod"] = nullptr;
      j["period"] = nullptr;
      j["saltus"] = 0;
      j["proved"] = false;
      j["checked_to"] = r.checkedTo;
    }
    emit(j);
  }

  void assertion(bool ok) override { emit({{"kind", "assert"}, {"ok", ok}}); }

  void error(const Diagnostic& d) override {
    err_ << render(sources_, d);
    nlohmann::json j = {{"kind", "error"}, {"message", d.message}};
    if (d.range.valid()) {
      j["file"] = sources_.file(d.range.file).name;
      j["line"] = d.range.line;
      j["col"] = d.range.col;
    } else {
      j["file"] = nullptr;
      j["line"] = nullptr;
      j["col"] = nullptr;
    }
    emit(j);
  }

 private:
  void emit(const nlohmann::json& j) { out_ << j.dump() << "\n"; }

  std::ostream& out_;
  std::ostream& err_;
  const SourceManager& sources_;
};

}  // namespace

std::unique_ptr<Output> makeTextOutput(std::ostream& out, std::ostream& err,
                                       const SourceManager& sources) {
  return std::make_unique<TextOutput>(out, err, sources);
}

std::unique_ptr<Output> makeJsonOutput(std::ostream& out, std::ostream& err,
                                       const SourceManager& sources) {
  return std::make_unique<JsonOutput>(out, err, sources);
}

}  // namespace gdsl
