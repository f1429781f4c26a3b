// The canonical serialization of game rules behind fingerprints (see
// Fingerprint.h): every field that values depend on, written with its tag
// and with counts before sequences, so that two different rules never write
// the same bytes.
#include "compiler/ir/Fingerprint.h"

#include <map>
#include <set>
#include <string>

#include "compiler/support/Hash.h"

namespace gdsl::ir {
namespace {

// A new field in one of these structs must be judged: does it change values?
// Then serialize it below; either way, update the size here. (Sizes of
// x86-64 with libstdc++, where gdsl is built and tested.)
#if defined(__x86_64__) && defined(__GLIBCXX__)
static_assert(sizeof(Expr) == 88, "ir::Expr changed: update Fingerprint.cpp");
static_assert(sizeof(Domain) == 272, "ir::Domain changed: update Fingerprint.cpp");
static_assert(sizeof(Step) == 424, "ir::Step changed: update Fingerprint.cpp");
static_assert(sizeof(Term) == 504, "ir::Term changed: update Fingerprint.cpp");
static_assert(sizeof(Move) == 240, "ir::Move changed: update Fingerprint.cpp");
static_assert(sizeof(Param) == 40, "ir::Param changed: update Fingerprint.cpp");
// Game::show is not serialized: it only says how positions print. Game::cells
// is derived from the moves (a tag in codeText says whether the code splits).
// Game::boardParam is derived from the moves too, and no compiled code reads
// it (the engine finds cell moves for it at run time).
// Game::notTakeBreak and notCells only explain, for --verbose, what the moves
// rule out. Game::takeBreakParts is derived from the moves, as takeBreak is
// (whose twoWhere, oneFrom and wholeFrom only runtime/ShapeProbe.cpp fills).
// Game::byLength, listOf and listLength link a list game and the integer
// games compiler/ir/SpecializeLists.cpp derives from its rules (whose own
// rules are serialized as any game's).
static_assert(sizeof(Game) == 912, "ir::Game changed: update Fingerprint.cpp");
#endif

class Serializer {
 public:
  // `code`: also what only the compiled code depends on (codeText below).
  explicit Serializer(const Program& program, bool code = false) : program_(program), code_(code) {}

  // codeText: every game in index order, with all of its fields, and the pools.
  std::string program() {
    std::string all;
    std::set<int> refs;
    for (const Game& g : program_.games) {
      std::string own = game(g, refs);
      out_.clear();
      text(g.name);
      range(g.loc);
      range(g.normalizeLoc);
      for (const Param& p : g.params) text(p.name);
      tag(g.bitSet ? 1 : 0);
      tag(g.cells ? 1 : 0);
      tag(g.takeBreak ? 1 : 0);
      i64(g.shapeProbeHeaps.value_or(-1));
      for (const Move& m : g.moves) {
        text(m.label);
        range(m.loc);
        tag(static_cast<uint8_t>(m.sugar));
      }
      all += own + out_;
    }
    out_.clear();
    u64(program_.lists.size());
    for (size_t i = 0; i < program_.lists.size(); ++i) list(static_cast<int>(i));
    u64(program_.nested.size());
    for (const std::vector<int>& rows : program_.nested) {
      u64(rows.size());
      for (int row : rows) i64(row);
    }
    return all + out_;
  }

  // The rules of one game, with the games it names (by name) in `refs`.
  std::string game(const Game& g, std::set<int>& refs) {
    out_.clear();
    refs_ = &refs;
    u64(g.params.size());
    for (const Param& p : g.params) {
      tag(static_cast<uint8_t>(p.type));
      i64(p.slot);
    }
    tag(g.normalize ? 1 : 0);
    if (g.normalize) exprs(*g.normalize);
    u64(g.moves.size());
    for (const Move& m : g.moves) {
      u64(m.steps.size());
      for (const Step& s : m.steps) step(s);
      terms(m.successor);
    }
    i64(g.intSlots);
    i64(g.listSlots);
    // Last, and only when set: games that are not loopy keep the
    // fingerprints (checkpoints, table files, code caches) they had before.
    if (g.loopy) text("loopy");
    return out_;
  }

 private:
  void tag(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void u64(uint64_t v) { out_.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void i64(int64_t v) { u64(static_cast<uint64_t>(v)); }
  void text(const std::string& s) {
    u64(s.size());
    out_ += s;
  }
  void range(const SourceRange& r) {
    const uint32_t fields[5] = {r.file, r.begin, r.end, r.line, r.col};
    out_.append(reinterpret_cast<const char*>(fields), sizeof fields);
  }
  void list(int index) {
    const std::vector<int64_t>& l = program_.lists[static_cast<size_t>(index)];
    u64(l.size());
    for (int64_t v : l) i64(v);
  }

  void expr(const Expr& e) {
    tag(static_cast<uint8_t>(e.op));
    tag(static_cast<uint8_t>(e.type));
    if (code_) {  // pool indices as well as contents, and where it is
      i64(e.imm);
      range(e.loc);
    }
    switch (e.op) {
      case Op::ListConst:  // pool indices differ between programs: the contents
        list(static_cast<int>(e.imm));
        break;
      case Op::NestedConst: {
        const std::vector<int>& rows = program_.nested[static_cast<size_t>(e.imm)];
        u64(rows.size());
        for (int row : rows) list(row);
        break;
      }
      case Op::ConstRef:  // folded away before any backend runs; its value if not
        expr(program_.constants[static_cast<size_t>(e.imm)].init);
        break;
      default:
        i64(e.imm);
    }
    exprs(e.kids);
    if (isComprehension(e.op)) {  // (other ops have no steps: their hashes stay as they were)
      u64(e.steps.size());
      for (const Step& s : e.steps) step(s);
    }
  }
  void exprs(const std::vector<Expr>& es) {
    u64(es.size());
    for (const Expr& e : es) expr(e);
  }
  void step(const Step& s) {
    tag(static_cast<uint8_t>(s.kind));
    tag(static_cast<uint8_t>(s.type));
    i64(s.slot);
    if (code_) {
      text(s.name);
      range(s.loc);
    }
    if (s.kind == Step::Kind::Bind) {
      tag(s.domain.isRange ? 1 : 0);
      if (s.domain.isRange) {
        expr(s.domain.lo);
        expr(s.domain.hi);
      } else {
        expr(s.domain.list);
      }
    } else {
      expr(s.value);
    }
  }
  void terms(const std::vector<Term>& ts) {
    u64(ts.size());
    for (const Term& t : ts) {
      tag(static_cast<uint8_t>(t.kind));
      if (code_) {
        i64(t.game);
        range(t.loc);
      }
      if (t.kind == Term::Kind::Position) {
        text(program_.games[static_cast<size_t>(t.game)].name);
        refs_->insert(t.game);
        exprs(t.args);
      } else {
        step(t.binder);
        terms(t.body);
      }
    }
  }

  const Program& program_;
  bool code_ = false;
  std::string out_;
  std::set<int>* refs_ = nullptr;
};

// The serialized rules of every game, and the games each one names.
struct Rules {
  std::vector<std::string> own;
  std::vector<std::set<int>> refs;
};

Rules serialize(const Program& program) {
  Rules r;
  Serializer s(program);
  r.own.resize(program.games.size());
  r.refs.resize(program.games.size());
  for (size_t g = 0; g < program.games.size(); ++g) r.own[g] = s.game(program.games[g], r.refs[g]);
  return r;
}

// Hashes the version and `root` (the name of the game the fingerprint is
// for; empty for a whole program), then each game of `games` in name order:
// its name and its rules.
uint64_t hashGames(const Program& program, const Rules& rules, const std::set<int>& games,
                   const std::string& root) {
  std::map<std::string, const std::string*> byName;
  for (int g : games)
    byName[program.games[static_cast<size_t>(g)].name] = &rules.own[static_cast<size_t>(g)];
  uint64_t h = fnv1a(&kFingerprintVersion, sizeof kFingerprintVersion);
  uint64_t rootSize = root.size();
  h = fnv1a(&rootSize, sizeof rootSize, h);
  h = fnv1a(root.data(), root.size(), h);
  for (const auto& [name, own] : byName) {
    uint64_t sizes[2] = {name.size(), own->size()};
    h = fnv1a(sizes, sizeof sizes, h);
    h = fnv1a(name.data(), name.size(), h);
    h = fnv1a(own->data(), own->size(), h);
  }
  return h;
}

}  // namespace

std::string codeText(const Program& program) {
  return Serializer(program, true).program();
}

uint64_t programFingerprint(const Program& program) {
  Rules rules = serialize(program);
  std::set<int> all;
  for (size_t g = 0; g < program.games.size(); ++g) all.insert(static_cast<int>(g));
  return hashGames(program, rules, all, "");
}

std::vector<uint64_t> gameFingerprints(const Program& program) {
  Rules rules = serialize(program);
  std::vector<uint64_t> out(program.games.size());
  for (size_t g = 0; g < program.games.size(); ++g) {
    // Every game reachable from g: their names and rules decide g's values.
    std::set<int> seen{static_cast<int>(g)};
    std::vector<int> work{static_cast<int>(g)};
    while (!work.empty()) {
      int h = work.back();
      work.pop_back();
      for (int next : rules.refs[static_cast<size_t>(h)])
        if (seen.insert(next).second) work.push_back(next);
    }
    out[g] = hashGames(program, rules, seen, program.games[g].name);
  }
  return out;
}

}  // namespace gdsl::ir
