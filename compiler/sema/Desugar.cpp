// Desugaring of one-heap sugar and octal codes into `move` rules (docs/reference.md
// section 4). The result is printed by `gdsl check --dump=desugared`.
#include <fmt/format.h>

#include "compiler/sema/Sema.h"

namespace gdsl {
namespace {

using ast::BinOp;
using ast::Clause;
using ast::Expr;
using ast::ExprPtr;
using ast::Move;
using ast::Term;

// Builds AST fragments that all point at the sugar line they come from.
struct Builder {
  SourceRange at;
  std::string game;
  std::string heap;  // the game's parameter name

  ExprPtr num(int64_t v) const { return ast::makeInt(v, at); }
  ExprPtr name(const std::string& n) const { return ast::makeName(n, at); }
  ExprPtr n() const { return name(heap); }
  ExprPtr bin(BinOp op, ExprPtr a, ExprPtr b) const {
    return ast::makeBinary(op, std::move(a), std::move(b), at);
  }
  ExprPtr range(ExprPtr lo, ExprPtr hi) const {
    auto e = std::make_unique<Expr>(ast::ExprKind::Range, at);
    e->kids.push_back(std::move(lo));
    e->kids.push_back(std::move(hi));
    return e;
  }
  ExprPtr call(const char* f, ExprPtr a, ExprPtr b) const {
    std::vector<ExprPtr> args;
    args.push_back(std::move(a));
    args.push_back(std::move(b));
    return ast::makeCall(f, std::move(args), at);
  }
  ExprPtr set(const std::vector<int64_t>& values) const {
    auto e = std::make_unique<Expr>(ast::ExprKind::Set, at);
    for (int64_t v : values) e->kids.push_back(num(v));
    return e;
  }
  Term pos(ExprPtr arg) const {
    Term t;
    t.kind = Term::Kind::Game;
    t.range = at;
    t.gameRange = at;
    t.game = game;
    t.args.push_back(std::move(arg));
    return t;
  }
  Clause bind(const std::string& var, ExprPtr domain) const {
    Clause c;
    c.kind = Clause::Kind::Bind;
    c.range = at;
    c.nameRange = at;
    c.name = var;
    c.expr = std::move(domain);
    return c;
  }
  Clause when(ExprPtr cond) const {
    Clause c;
    c.kind = Clause::Kind::When;
    c.range = at;
    c.expr = std::move(cond);
    return c;
  }
};

bool mentions(const Expr& e, const std::string& name) {
  if (e.kind == ast::ExprKind::Name && e.name == name) return true;
  for (const ExprPtr& kid : e.kids)
    if (kid && mentions(*kid, name)) return true;
  return false;
}

// A binder name that is neither the heap parameter's name nor a name the
// amount uses (`remove i` with a constant `i` must not see the binder i).
std::string fresh(const std::string& wanted, const std::string& heap,
                  const Expr* amount = nullptr) {
  std::string name = wanted;
  while (name == heap || (amount && mentions(*amount, name))) name += "_";
  return name;
}

// Adds the clause(s) that bind `k` to each amount of K with k <= n. A
// non-range K may be a list or a single integer (sema decides, by its type).
void bindAmount(const Builder& b, const Expr& amount, const std::string& k, Move& m) {
  if (amount.kind == ast::ExprKind::Range) {
    // k in a..min(b, n): never walks amounts larger than the heap.
    m.clauses.push_back(b.bind(k, b.range(ast::clone(*amount.kids[0]),
                                          b.call("min", ast::clone(*amount.kids[1]), b.n()))));
    return;
  }
  Clause c = b.bind(k, ast::clone(amount));
  c.amountDomain = true;
  m.clauses.push_back(std::move(c));
  m.clauses.push_back(b.when(b.bin(BinOp::Le, b.name(k), b.n())));
}

void desugarTake(const Builder& b, Move& m) {
  std::string k = fresh("k", b.heap, m.amount.get());
  m.label = "take";
  bindAmount(b, *m.amount, k, m);
  m.successor.push_back(b.pos(b.bin(BinOp::Sub, b.n(), b.name(k))));
}

void desugarSplit(const Builder& b, Move& m, bool unequal) {
  std::string a = fresh("a", b.heap);
  m.label = "split";
  // a <= n - a, or a < n - a for unequal parts.
  ExprPtr hi = unequal ? b.bin(BinOp::Div, b.bin(BinOp::Sub, b.n(), b.num(1)), b.num(2))
                       : b.bin(BinOp::Div, b.n(), b.num(2));
  m.clauses.push_back(b.bind(a, b.range(b.num(1), std::move(hi))));
  m.successor.push_back(b.pos(b.name(a)));
  m.successor.push_back(b.pos(b.bin(BinOp::Sub, b.n(), b.name(a))));
}

// The block of k tokens starts after i tokens. By symmetry only 2i + k <= n
// is needed. The start i is the outer loop, so that the moves that leave a
// small heap come first: a winning move of a huge heap is found among them.
void desugarRemove(const Builder& b, Move& m, bool neighbours) {
  std::string k = fresh("k", b.heap, m.amount.get());
  std::string i = fresh("i", b.heap, m.amount.get());
  m.label = "remove";
  m.clauses.push_back(b.bind(i, b.range(b.num(0), b.bin(BinOp::Div, b.n(), b.num(2)))));
  // room = n - 2i: the largest block that fits after i tokens on each side.
  ExprPtr room = b.bin(BinOp::Sub, b.n(), b.bin(BinOp::Mul, b.num(2), b.name(i)));
  const Expr& amount = *m.amount;
  if (amount.kind == ast::ExprKind::Range) {
    m.clauses.push_back(
        b.bind(k, b.range(ast::clone(*amount.kids[0]),
                          b.call("min", ast::clone(*amount.kids[1]), std::move(room)))));
  } else {
    Clause c = b.bind(k, ast::clone(amount));
    c.amountDomain = true;
    m.clauses.push_back(std::move(c));
    m.clauses.push_back(b.when(b.bin(BinOp::Le, b.name(k), std::move(room))));
  }
  ExprPtr left = b.name(i);
  ExprPtr right = b.bin(BinOp::Sub, b.bin(BinOp::Sub, b.n(), b.name(k)), b.name(i));
  if (neighbours) {
    left = b.call("max", b.bin(BinOp::Sub, std::move(left), b.num(1)), b.num(0));
    right = b.call("max", b.bin(BinOp::Sub, std::move(right), b.num(1)), b.num(0));
  }
  m.successor.push_back(b.pos(std::move(left)));
  m.successor.push_back(b.pos(std::move(right)));
}

// The value of hexadecimal digit `c`, or -1.
int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Parses "d0.d1d2..." into digits (index 0 is d0), octal or, with `hex`,
// hexadecimal. Empty on error.
std::vector<int> codeDigits(const std::string& code, bool hex, std::string& error) {
  const char* kind = hex ? "a hexadecimal" : "an octal";
  size_t dot = code.find('.');
  if (dot == std::string::npos) {
    error = hex ? "a hexadecimal code has the form \"0.d1d2...\" (or \"4.d1...\", \"8.d1...\")"
                : "an octal code has the form \"0.d1d2...\" (or \"4.d1...\")";
    return {};
  }
  std::string head = code.substr(0, dot), tail = code.substr(dot + 1);
  if (head.empty()) head = "0";
  const int lead = head.size() == 1 ? hexValue(head[0]) : -1;
  if (!hex && head != "0" && head != "4") {
    error = fmt::format(
        "the digit before the point must be 0 or 4 (4: a heap may be split "
        "without taking), got \"{}\"",
        head);
    return {};
  }
  if (hex && (lead < 0 || (lead & 3) != 0)) {
    error = fmt::format(
        "the digit before the point must be 0, 4, 8 or C (4: a heap may be split into two "
        "without taking, 8: into three), got \"{}\"",
        head);
    return {};
  }
  if (tail.empty()) {
    error = fmt::format("{} code needs at least one digit after the point", kind);
    return {};
  }
  std::vector<int> digits{lead};
  for (char c : tail) {
    int d = hexValue(c);
    if (hex && d < 0) {
      error = fmt::format("'{}' is not a hexadecimal digit (0-9, A-F)", c);
      return {};
    }
    if (!hex && (d < 0 || d > 7)) {
      error = fmt::format("'{}' is not an octal digit (0-7)", c);
      if (d > 7) error += fmt::format("; a hexadecimal code is written hex \"{}\"", code);
      return {};
    }
    digits.push_back(d);
  }
  return digits;
}

void desugarOctal(ast::Game& g, DiagnosticSink& diags) {
  // The game has its heap even when its code is bad: no second error about
  // the uses of G(n).
  ast::Param p;
  p.name = "n";
  p.range = g.nameRange;
  g.params.push_back(p);
  std::string error;
  std::vector<int> digits = codeDigits(g.octalCode, g.isHex, error);
  if (digits.empty()) {
    diags.error(g.octalRange, fmt::format("bad {} code \"{}\": {}",
                                          g.isHex ? "hexadecimal" : "octal", g.octalCode, error));
    return;
  }
  Builder b{g.octalRange, g.name, "n"};
  std::vector<int64_t> empties, takes, splits, splits3;
  for (size_t k = 0; k < digits.size(); ++k) {
    if (k > 0 && (digits[k] & 1)) empties.push_back(static_cast<int64_t>(k));
    if (k > 0 && (digits[k] & 2)) takes.push_back(static_cast<int64_t>(k));
    if (digits[k] & 4) splits.push_back(static_cast<int64_t>(k));
    if (digits[k] & 8) splits3.push_back(static_cast<int64_t>(k));
  }
  int maxDigit = static_cast<int>(digits.size()) - 1;
  auto start = [&](const char* label, int bit, const std::vector<int64_t>& amounts) {
    Move m;
    m.label = label;
    m.octalBits = bit;
    m.octalAmounts = amounts;
    m.range = g.octalRange;
    m.sugar = ast::Sugar::Octal;
    m.octalDigit = maxDigit;
    return m;
  };
  if (!empties.empty()) {  // bit 1: take k when that empties the heap
    Move m = start("take_all", 1, empties);
    m.clauses.push_back(b.bind("k", b.set(empties)));
    m.clauses.push_back(b.when(b.bin(BinOp::Eq, b.name("k"), b.n())));
    g.moves.push_back(std::move(m));
  }
  if (!takes.empty()) {  // bit 2: take k and leave one non-empty heap
    Move m = start("take", 2, takes);
    m.clauses.push_back(b.bind("k", b.set(takes)));
    m.clauses.push_back(b.when(b.bin(BinOp::Lt, b.name("k"), b.n())));
    m.successor.push_back(b.pos(b.bin(BinOp::Sub, b.n(), b.name("k"))));
    g.moves.push_back(std::move(m));
  }
  if (!splits.empty()) {
    // bit 4: take k and leave two non-empty heaps a <= n - k - a. The smaller
    // heap a is the outer loop (see desugarRemove).
    Move m = start("split", 4, splits);
    ExprPtr rest = b.bin(BinOp::Sub, b.n(), b.num(splits.front()));
    m.clauses.push_back(
        b.bind("a", b.range(b.num(1), b.bin(BinOp::Div, std::move(rest), b.num(2)))));
    m.clauses.push_back(b.bind("k", b.set(splits)));
    m.clauses.push_back(b.when(b.bin(BinOp::Le, b.bin(BinOp::Mul, b.num(2), b.name("a")),
                                     b.bin(BinOp::Sub, b.n(), b.name("k")))));
    m.successor.push_back(b.pos(b.name("a")));
    m.successor.push_back(
        b.pos(b.bin(BinOp::Sub, b.bin(BinOp::Sub, b.n(), b.name("k")), b.name("a"))));
    g.moves.push_back(std::move(m));
  }
  if (!splits3.empty()) {
    // bit 8 (hexadecimal): take k and leave three non-empty heaps
    // a <= b <= n - k - a - b, the smallest heap the outer loop.
    Move m = start("split3", 8, splits3);
    ExprPtr rest = b.bin(BinOp::Sub, b.n(), b.num(splits3.front()));
    m.clauses.push_back(
        b.bind("a", b.range(b.num(1), b.bin(BinOp::Div, std::move(rest), b.num(3)))));
    m.clauses.push_back(b.bind("k", b.set(splits3)));
    m.clauses.push_back(b.when(b.bin(BinOp::Le, b.bin(BinOp::Mul, b.num(3), b.name("a")),
                                     b.bin(BinOp::Sub, b.n(), b.name("k")))));
    // b runs from a to (n - k - a) / 2.
    ExprPtr left = b.bin(BinOp::Sub, b.bin(BinOp::Sub, b.n(), b.name("k")), b.name("a"));
    m.clauses.push_back(
        b.bind("b", b.range(b.name("a"), b.bin(BinOp::Div, std::move(left), b.num(2)))));
    m.successor.push_back(b.pos(b.name("a")));
    m.successor.push_back(b.pos(b.name("b")));
    m.successor.push_back(b.pos(
        b.bin(BinOp::Sub, b.bin(BinOp::Sub, b.bin(BinOp::Sub, b.n(), b.name("k")), b.name("a")),
              b.name("b"))));
    g.moves.push_back(std::move(m));
  }
}

}  // namespace

void desugar(ast::Game& g, DiagnosticSink& diags) {
  if (g.isOctal) {
    desugarOctal(g, diags);
    return;
  }
  bool oneHeap = g.params.size() == 1 && !g.params[0].isList;
  for (Move& m : g.moves) {
    if (m.sugar == ast::Sugar::None) continue;
    if (!oneHeap) {
      auto& d =
          diags.error(m.range, fmt::format("'{}' needs a game with exactly one integer "
                                           "parameter (a heap), but '{}' has {}",
                                           ast::sugarName(m.sugar), g.name,
                                           g.params.size() == 1
                                               ? "a list parameter"
                                               : fmt::format("{} parameters", g.params.size())));
      addNote(d, g.nameRange,
              "game '" + g.name + "' is declared here; write its rules with `move`");
      continue;
    }
    Builder b{m.range, g.name, g.params[0].name};
    switch (m.sugar) {
      case ast::Sugar::Take:
        desugarTake(b, m);
        break;
      case ast::Sugar::Split:
        desugarSplit(b, m, false);
        break;
      case ast::Sugar::SplitUnequal:
        desugarSplit(b, m, true);
        break;
      case ast::Sugar::Remove:
        desugarRemove(b, m, false);
        break;
      case ast::Sugar::RemoveNeighbours:
        desugarRemove(b, m, true);
        break;
      default:
        break;
    }
  }
}

}  // namespace gdsl
