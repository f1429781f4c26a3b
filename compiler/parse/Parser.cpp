// Runs the hand-written lexer (Lexer.h) and the ANTLR-generated parser and converts the parse tree
// into the AST. Each convert function is headed by the grammar rule it handles.
#include "compiler/parse/Parser.h"

#include <antlr4-runtime.h>
#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <regex>
#include <set>
#include <string_view>

#include "GdslParser.h"
#include "compiler/parse/Lexer.h"
#include "compiler/parse/Predictor.h"

namespace gdsl {
namespace {

using P = GdslParser;

// Rewrites ANTLR's messages in the words of the language.
std::string friendlyTokenNames(std::string msg) {
  static const std::pair<std::regex, const char*> names[] = {
      {std::regex("\\bID\\b"), "a name"},       {std::regex("\\bINT\\b"), "an integer"},
      {std::regex("\\bSTRING\\b"), "a string"}, {std::regex("\\bSHOW\\b"), "'show'"},
      {std::regex("\\bPLOT\\b"), "'plot'"},     {std::regex("\\bHEX\\b"), "'hex'"},
      {std::regex("\\bLOOPY\\b"), "'loopy'"},   {std::regex("\\bERROR_CHAR\\b"), "a character"},
      {std::regex("'<EOF>'"), "end of file"},   {std::regex("<EOF>"), "end of file"},
  };
  for (const auto& [re, text] : names) msg = std::regex_replace(msg, re, text);
  return msg;
}

std::string rewriteMessage(const std::string& msg) {
  std::smatch m;
  static const std::regex mismatched("^(mismatched|extraneous) input (.*) expecting (.*)$");
  static const std::regex missing("^missing (.*) at (.*)$");
  static const std::regex noViable("^no viable alternative at input (.*)$");
  if (std::regex_match(msg, m, mismatched))
    return friendlyTokenNames("unexpected " + m[2].str() + "; expected " + m[3].str());
  if (std::regex_match(msg, m, missing))
    return friendlyTokenNames("missing " + m[1].str() + " before " + m[2].str());
  if (std::regex_match(msg, m, noViable)) return "this does not parse here";
  return friendlyTokenNames(msg);
}

// What could have come instead of the token ANTLR found no way to parse: the
// tokens that follow the states where every alternative died. "" when unknown.
std::string expectedAfterNoViableAlt(antlr4::Recognizer* recognizer, std::exception_ptr error) {
  if (!recognizer || !error) return "";
  try {
    std::rethrow_exception(error);
  } catch (const antlr4::NoViableAltException& e) {
    if (!e.getDeadEndConfigs()) return "";
    antlr4::misc::IntervalSet tokens;
    for (antlr4::atn::ATNState* state : e.getDeadEndConfigs()->getStates())
      tokens.addAll(recognizer->getATN().nextTokens(state));
    tokens.remove(antlr4::Token::EPSILON);
    return tokens.isEmpty() ? "" : friendlyTokenNames(tokens.toString(recognizer->getVocabulary()));
  } catch (...) {
  }
  return "";
}

bool isWord(const std::string& text) {
  if (text.empty()) return false;
  for (char c : text)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return std::isalpha(static_cast<unsigned char>(text[0])) || text[0] == '_';
}

// The opening brackets a file never closes, the likeliest first: matched
// with a stack, a closer that does not match the innermost opener closes the
// nearest one it matches (the openers above it are never closed), and those
// left at the end are never closed. A closer that starts its line, below an
// opener of an earlier line, is read by its indentation: when it is indented
// like the line of an outer opener but not like its own opener's line, that
// own opener is the one never closed (`take {1, 2` on a line of its own, with
// the game's `}` after it). Empty when every bracket is closed: then nothing
// is blamed on brackets, whatever the indentation.
std::vector<antlr4::Token*> unclosedBrackets(antlr4::CommonTokenStream& tokens) {
  auto opener = [](const std::string& close) {
    return close == ")" ? "(" : close == "]" ? "[" : "{";
  };
  // The column of the first token of each line.
  std::vector<size_t> indent;
  for (antlr4::Token* t : tokens.getTokens()) {
    if (t->getType() == antlr4::Token::EOF) continue;
    if (indent.size() <= t->getLine()) indent.resize(t->getLine() + 1, SIZE_MAX);
    indent[t->getLine()] = std::min(indent[t->getLine()], t->getCharPositionInLine());
  }
  auto indentOf = [&](antlr4::Token* t) {
    return t->getLine() < indent.size() ? indent[t->getLine()] : SIZE_MAX;
  };
  std::vector<antlr4::Token*> stack, naive, byIndent;
  std::vector<antlr4::Token*> shadow;  // the same stack, closers read by indentation
  for (antlr4::Token* t : tokens.getTokens()) {
    std::string text = t->getText();
    if (t->getType() == antlr4::Token::EOF) break;
    if (text == "(" || text == "[" || text == "{") {
      stack.push_back(t);
      shadow.push_back(t);
      continue;
    }
    if (text != ")" && text != "]" && text != "}") continue;
    auto close = [&](std::vector<antlr4::Token*>& s, std::vector<antlr4::Token*>& unclosed,
                     bool indentation) {
      auto match = std::find_if(s.rbegin(), s.rend(),
                                [&](antlr4::Token* o) { return o->getText() == opener(text); });
      if (match == s.rend()) return;  // a closer with no opener: not this check's concern
      if (indentation && match == s.rbegin() && (*match)->getLine() < t->getLine() &&
          indentOf(t) == t->getCharPositionInLine() && indentOf(*match) != indentOf(t)) {
        auto outer = std::find_if(s.rbegin() + 1, s.rend(), [&](antlr4::Token* o) {
          return o->getText() == opener(text) && indentOf(o) == indentOf(t);
        });
        if (outer != s.rend()) match = outer;
      }
      for (auto it = s.rbegin(); it != match; ++it) unclosed.push_back(*it);
      s.erase(std::prev(match.base()), s.end());
    };
    close(stack, naive, false);
    close(shadow, byIndent, true);
  }
  naive.insert(naive.end(), stack.begin(), stack.end());
  if (naive.empty()) return {};
  byIndent.insert(byIndent.end(), shadow.begin(), shadow.end());
  auto first = [](antlr4::Token* a, antlr4::Token* b) {
    return a->getTokenIndex() < b->getTokenIndex();
  };
  std::sort(byIndent.begin(), byIndent.end(), first);
  std::sort(naive.begin(), naive.end(), first);
  byIndent.insert(byIndent.end(), naive.begin(), naive.end());
  return byIndent;
}

class ErrorCollector : public antlr4::BaseErrorListener {
 public:
  ErrorCollector(const SourceManager& sources, uint32_t file, DiagnosticSink& diags)
      : sources_(sources), file_(file), diags_(diags) {}

  void syntaxError(antlr4::Recognizer* recognizer, antlr4::Token* offending, size_t line,
                   size_t col, const std::string& msg, std::exception_ptr error) override {
    uint32_t length = 1;
    std::string message = rewriteMessage(msg);
    std::string expected =
        message == "this does not parse here" ? expectedAfterNoViableAlt(recognizer, error) : "";
    std::string expecting = expected.empty() ? " here" : "; expected " + expected;
    if (offending && offending->getType() == antlr4::Token::EOF &&
        message == "this does not parse here") {
      message = "unexpected end of file" + (expected.empty() ? "" : "; expected " + expected);
    }
    if (offending && offending->getType() != antlr4::Token::EOF) {
      length = static_cast<uint32_t>(offending->getStopIndex() - offending->getStartIndex() + 1);
      std::string text = offending->getText();
      size_t type = offending->getType();
      if (type == GdslParser::UNTERMINATED_STRING) {
        message = "unterminated string: a string ends with \" on the same line";
        length = 1;
      } else if (type == GdslParser::UNTERMINATED_COMMENT) {
        message = "unterminated comment: /* needs a closing */";
        length = 2;
      } else if (type == GdslParser::ERROR_CHAR) {
        auto byte = static_cast<unsigned char>(text.empty() ? 0 : text[0]);
        message = byte < 0x20 || byte == 0x7f
                      ? fmt::format("unexpected control character U+{:04X}", byte)
                      : "unexpected character '" + text + "'";
      } else if (type != GdslParser::ID && isWord(text) && msg.find("ID") != std::string::npos) {
        message = "'" + text + "' is a keyword and cannot be used as a name";
      } else if (message == "this does not parse here") {
        message = "unexpected '" + text + "'" + expecting;
      }
    }
    auto column = static_cast<uint32_t>(col) + 1;
    if (offending && offending->getType() != antlr4::Token::EOF)
      if (std::string hint = operatorHint(offending, column, length); !hint.empty()) message = hint;
    SourceRange r = sources_.rangeAt(file_, static_cast<uint32_t>(line), column, length);
    // One message per mistake: while ANTLR recovers it often reports the same
    // token again, or a follow-on error on the same line; keep the first.
    if (blamedBracket_ || (count_ > 0 && (r.begin == lastBegin_ || r.line == lastLine_))) return;
    lastBegin_ = r.begin;
    lastLine_ = r.line;
    // The first error after a bracket that is never closed is blamed on it:
    // the parser only notices where the text stops making sense, often at the
    // next statement. What follows is noise from the same bracket.
    if (count_ == 0 && offending && recognizer == parser_)
      for (antlr4::Token* open : unclosed_) {
        if (open->getTokenIndex() >= offending->getTokenIndex()) continue;
        std::string bracket = open->getText();
        Diagnostic& d = diags_.error(
            sources_.rangeAt(file_, static_cast<uint32_t>(open->getLine()),
                             static_cast<uint32_t>(open->getCharPositionInLine()) + 1, 1),
            fmt::format("'{}' is never closed; close it with '{}'", bracket,
                        bracket == "("   ? ")"
                        : bracket == "[" ? "]"
                                         : "}"));
        addNote(d, r, "the parser noticed it here: " + message);
        blamedBracket_ = true;
        ++count_;
        return;
      }
    ++count_;
    diags_.error(r, message);
  }

  // Set once the tokens are known, before parsing: the parser's errors may be
  // blamed on these brackets (see unclosedBrackets).
  void setUnclosed(antlr4::Recognizer* parser, std::vector<antlr4::Token*> unclosed) {
    parser_ = parser;
    unclosed_ = std::move(unclosed);
  }

 private:
  // The message for an operator of another language at `offending` (whose
  // range, `column` and `length`, it may widen to the whole operator), saying
  // the fix: `=` for `==`, `&&`, `||` and `!` for `and`, `or` and `not`. ""
  // for anything else.
  std::string operatorHint(antlr4::Token* offending, uint32_t& column, uint32_t& length) const {
    std::string text = offending->getText();
    size_t start = offending->getStartIndex();
    std::string_view source = sources_.file(file_).text;
    char before = start > 0 && start <= source.size() ? source[start - 1] : 0;
    if (text == "=") return "unexpected '='; to compare, write '==' ('=' binds a name: let x = e)";
    if ((text == "&" && before == '&') || (text == "|" && before == '|')) {
      --column;  // the caret spans both characters
      length = 2;
      return text == "&" ? "'&&' is not an operator: logical and is written 'and' ('&' is bitwise)"
                         : "'||' is not an operator: logical or is written 'or' ('|' is bitwise)";
    }
    if (text == "!") return "unexpected character '!': logical not is written 'not'";
    return "";
  }

  const SourceManager& sources_;
  uint32_t file_;
  DiagnosticSink& diags_;
  uint32_t lastBegin_ = 0;
  uint32_t lastLine_ = 0;
  int count_ = 0;
  antlr4::Recognizer* parser_ = nullptr;
  std::vector<antlr4::Token*> unclosed_;
  bool blamedBracket_ = false;
};

class Converter {
 public:
  Converter(const SourceManager& sources, uint32_t file, DiagnosticSink& diags)
      : sources_(sources), file_(file), diags_(diags) {}

  SourceRange range(antlr4::Token* token) {
    auto length = static_cast<uint32_t>(token->getStopIndex() - token->getStartIndex() + 1);
    return sources_.rangeAt(file_, static_cast<uint32_t>(token->getLine()),
                            static_cast<uint32_t>(token->getCharPositionInLine()) + 1, length);
  }
  SourceRange range(antlr4::tree::TerminalNode* node) { return range(node->getSymbol()); }
  SourceRange range(antlr4::ParserRuleContext* ctx) {
    SourceRange first = range(ctx->getStart());
    antlr4::Token* stop = ctx->getStop();
    if (!stop || stop->getTokenIndex() < ctx->getStart()->getTokenIndex()) return first;
    return SourceManager::join(first, range(stop));
  }

  // program : statement* EOF
  ast::Module program(P::ProgramContext* ctx) {
    ast::Module module;
    module.file = file_;
    for (auto* s : ctx->statement()) module.statements.push_back(statement(s));
    return module;
  }

 private:
  ast::Statement statement(P::StatementContext* ctx) {
    ast::Statement s;
    s.range = range(ctx);
    using K = ast::Statement::Kind;
    if (auto* c = dynamic_cast<P::GameStmtContext*>(ctx)) {
      s.kind = K::Game;
      s.game = gameDecl(c->gameDecl());
    } else if (auto* c = dynamic_cast<P::ConstStmtContext*>(ctx)) {
      // 'const' ID '=' expr
      s.kind = K::Const;
      s.name = c->ID()->getText();
      s.nameRange = range(c->ID());
      s.expr = expr(c->expr());
    } else if (auto* c = dynamic_cast<P::ImportStmtContext*>(ctx)) {
      // 'import' (STRING | dottedName)
      s.kind = K::Import;
      if (c->STRING()) {
        s.name = unquote(c->STRING()->getText());
        s.nameRange = range(c->STRING());
      } else {
        s.importStd = true;
        s.name = c->dottedName()->getText();
        s.nameRange = range(c->dottedName());
      }
    } else if (auto* c = dynamic_cast<P::EvalStmtContext*>(ctx)) {
      // 'eval' 'misere'? position
      s.kind = K::Eval;
      s.misere = c->MISERE != nullptr;
      s.position = successor(c->position()->successor());
    } else if (auto* c = dynamic_cast<P::MovesStmtContext*>(ctx)) {
      s.kind = K::Moves;
      s.position = successor(c->position()->successor());
    } else if (auto* c = dynamic_cast<P::TableStmtContext*>(ctx)) {
      // 'table' ID '(' args ')'
      s.kind = K::Table;
      s.name = c->ID()->getText();
      s.nameRange = range(c->ID());
      s.hasArgs = true;
      s.args = args(c->args());
    } else if (auto* c = dynamic_cast<P::PlotStmtContext*>(ctx)) {
      // PLOT ID '(' args ')': a table, drawn where the output can draw
      s.kind = K::Table;
      s.plot = true;
      s.name = c->ID()->getText();
      s.nameRange = range(c->ID());
      s.hasArgs = true;
      s.args = args(c->args());
    } else if (auto* c = dynamic_cast<P::TableOfStmtContext*>(ctx)) {
      // 'table' '[' position compFor compClause* ']'
      s.kind = K::TableOf;
      s.position = successor(c->position()->successor());
      s.clauses = compClauses(c->compFor(), c->compClause());
    } else if (auto* c = dynamic_cast<P::PeriodStmtContext*>(ctx)) {
      // 'period' ID ('(' args ')')?
      s.kind = K::Period;
      s.name = c->ID()->getText();
      s.nameRange = range(c->ID());
      s.hasArgs = c->args() != nullptr;
      if (c->args()) s.args = args(c->args());
    } else if (auto* c = dynamic_cast<P::AssertStmtContext*>(ctx)) {
      // 'assert' position '==' (nimber | position)
      s.kind = K::Assert;
      s.position = successor(c->position(0)->successor());
      if (c->nimber()) {
        s.expected = integer(c->nimber()->INT());
      } else if (c->INF) {
        if (c->INF->getText() != "inf")
          diags_.error(range(c->INF),
                       "expected a value (a number, *n, inf or inf(k, ...)) or a "
                       "position after '==', not '" +
                           c->INF->getText() + "'");
        s.expectsInfinite = true;
      } else {
        s.comparesPositions = true;
        s.other = successor(c->position(1)->successor());
      }
    }
    return s;
  }

  static std::string unquote(const std::string& text) {
    std::string out;
    for (size_t i = 1; i + 1 < text.size(); ++i) {
      if (text[i] == '\\' && i + 2 < text.size()) ++i;
      out += text[i];
    }
    return out;
  }

  // The value of an integer literal (decimal, 0x hexadecimal or 0b binary,
  // `_` between digits), negated when `negative`; an error when a separator
  // is misplaced or the value does not fit in 64 bits.
  int64_t integer(antlr4::tree::TerminalNode* node, bool negative = false) {
    std::string text = node->getText();
    int base = 10;
    size_t start = 0;
    if (text.size() > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) base = 16;
    if (text.size() > 1 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B')) base = 2;
    if (base != 10) start = 2;
    std::string digits;
    for (size_t i = start; i < text.size(); ++i) {
      if (text[i] != '_') {
        digits += text[i];
        continue;
      }
      if (i == start || i + 1 == text.size() || text[i + 1] == '_') {
        diags_.error(range(node), "in " + text +
                                      ", a digit separator '_' must sit between two digits "
                                      "(as in 1_000_000 or 0xFF_FF)");
        return 0;
      }
    }
    uint64_t magnitude = 0;
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, base);
    uint64_t limit = negative ? uint64_t{1} << 63 : INT64_MAX;
    if (ec != std::errc() || ptr != digits.data() + digits.size() || magnitude > limit) {
      diags_.error(range(node), negative ? "integer literal -" + text +
                                               " does not fit in 64 bits (the smallest is "
                                               "-9223372036854775808)"
                                         : "integer literal " + text +
                                               " does not fit in 64 bits (the largest is "
                                               "9223372036854775807)");
      return 0;
    }
    return negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
  }

  // gameDecl : 'game' ID '(' params? ')' '{' gameItem* '}' | 'game' ID '=' ('octal' | HEX) STRING
  std::unique_ptr<ast::Game> gameDecl(P::GameDeclContext* ctx) {
    auto g = std::make_unique<ast::Game>();
    g->range = range(ctx);
    if (auto* c = dynamic_cast<P::OctalGameContext*>(ctx)) {
      g->name = c->ID()->getText();
      g->nameRange = range(c->ID());
      g->isOctal = true;
      g->isHex = c->HEX() != nullptr;  // `hex "0.B1"`: a hexadecimal code
      g->octalCode = unquote(c->STRING()->getText());
      g->octalRange = range(c->STRING());
      return g;
    }
    auto* c = dynamic_cast<P::RuleGameContext*>(ctx);
    g->loopy = c->LOOPY() != nullptr;
    g->name = c->ID()->getText();
    g->nameRange = range(c->ID());
    if (c->params()) {
      for (auto* p : c->params()->param()) {
        // param : ID (':' ID)?
        ast::Param param;
        param.name = p->ID(0)->getText();
        param.range = range(p);
        if (p->ID().size() > 1) {
          std::string type = p->ID(1)->getText();
          if (type == "list") {
            param.isList = true;
          } else if (type != "int") {
            diags_.error(range(p->ID(1)), "unknown parameter type '" + type +
                                              "'; expected 'list' (or 'int', the default)");
          }
        }
        g->params.push_back(std::move(param));
      }
    }
    for (auto* item : c->gameItem()) gameItem(item, *g);
    return g;
  }

  void gameItem(P::GameItemContext* ctx, ast::Game& g) {
    if (auto* c = dynamic_cast<P::NormalizeItemContext*>(ctx)) {
      // 'normalize' '->' successor
      ast::Successor succ = successor(c->successor());
      if (g.normalize) {
        auto& d =
            diags_.error(range(ctx), "game '" + g.name + "' has more than one normalize rule");
        addNote(d, g.normalizeRange, "the first one is here");
      } else if (succ.size() != 1 || succ[0].kind != ast::Term::Kind::Game) {
        diags_.error(range(c->successor()),
                     "normalize must give a single position of '" + g.name + "'");
      } else {
        g.normalize = std::move(succ[0]);
        g.normalizeRange = range(ctx);
      }
      return;
    }
    if (auto* c = dynamic_cast<P::ShowItemContext*>(ctx)) {
      // SHOW showPart (',' showPart)*
      if (!g.show.empty()) {
        auto& d = diags_.error(range(ctx), "game '" + g.name + "' has more than one show form");
        addNote(d, g.showRange, "the first one is here");
        return;
      }
      g.showRange = range(ctx);
      for (auto* part : c->showPart()) g.show.push_back(showPart(part));
      return;
    }
    ast::Move m;
    m.range = range(ctx);
    if (auto* c = dynamic_cast<P::MoveItemContext*>(ctx)) {
      // 'move' moveLabel? ('(' clauses ')')? ('when' expr)? '->' successor
      if (c->moveLabel()) m.label = c->moveLabel()->getText();
      for (auto* cl : c->clause()) clause(cl, m.clauses);
      if (c->expr()) {
        ast::Clause w;
        w.kind = ast::Clause::Kind::When;
        w.range = range(c->expr());
        w.expr = expr(c->expr());
        m.clauses.push_back(std::move(w));
      }
      m.successor = successor(c->successor());
    } else if (auto* c = dynamic_cast<P::TakeItemContext*>(ctx)) {
      m.sugar = ast::Sugar::Take;
      m.amount = expr(c->expr());
    } else if (auto* c = dynamic_cast<P::SplitItemContext*>(ctx)) {
      m.sugar = c->UNEQUAL ? ast::Sugar::SplitUnequal : ast::Sugar::Split;
    } else if (auto* c = dynamic_cast<P::RemoveItemContext*>(ctx)) {
      m.sugar = c->NEIGHBOURS ? ast::Sugar::RemoveNeighbours : ast::Sugar::Remove;
      m.amount = expr(c->expr());
    }
    g.moves.push_back(std::move(m));
  }

  // clause : ID 'in' expr ('when' expr)? | 'let' ID '=' expr ('when' expr)? | 'when' expr
  void clause(P::ClauseContext* ctx, std::vector<ast::Clause>& out) {
    ast::Clause c;
    c.range = range(ctx);
    P::ExprContext* guard = nullptr;
    if (auto* b = dynamic_cast<P::BinderClauseContext*>(ctx)) {
      c.kind = ast::Clause::Kind::Bind;
      c.name = b->ID()->getText();
      c.nameRange = range(b->ID());
      c.expr = expr(b->expr(0));
      if (b->expr().size() > 1) guard = b->expr(1);
    } else if (auto* l = dynamic_cast<P::LetClauseContext*>(ctx)) {
      c.kind = ast::Clause::Kind::Let;
      c.name = l->ID()->getText();
      c.nameRange = range(l->ID());
      c.expr = expr(l->expr(0));
      if (l->expr().size() > 1) guard = l->expr(1);
    } else if (auto* w = dynamic_cast<P::WhenClauseContext*>(ctx)) {
      c.kind = ast::Clause::Kind::When;
      c.expr = expr(w->expr());
    }
    out.push_back(std::move(c));
    if (guard) {
      ast::Clause w;
      w.kind = ast::Clause::Kind::When;
      w.range = range(guard);
      w.expr = expr(guard);
      out.push_back(std::move(w));
    }
  }

  // showPart : ID '(' showArg (',' showArg)* ')' | expr   with   showArg : expr | STRING
  // A call is a drawing when it is named board or row or has a string of
  // symbols (sema checks the name); any other call is a value, like min(a, b).
  ast::ShowPart showPart(P::ShowPartContext* ctx) {
    ast::ShowPart part;
    part.range = range(ctx);
    if (auto* v = dynamic_cast<P::ValuePartContext*>(ctx)) {
      part.value = expr(v->expr());
      return part;
    }
    auto* c = dynamic_cast<P::DrawPartContext*>(ctx);
    std::string name = c->ID()->getText();
    auto showArgs = c->showArg();
    bool anyString = false;
    for (auto* a : showArgs) anyString = anyString || a->STRING();
    if (name != "board" && name != "row" && !anyString) {
      std::vector<ast::ExprPtr> args;
      for (auto* a : showArgs) args.push_back(expr(a->expr()));
      part.value = ast::makeCall(name, std::move(args), range(ctx));
      return part;
    }
    part.kind = ast::ShowPart::Kind::Draw;
    part.name = name;
    for (size_t i = 0; i < showArgs.size(); ++i) {
      if (!showArgs[i]->STRING()) {
        part.args.push_back(expr(showArgs[i]->expr()));
        continue;
      }
      if (i + 1 != showArgs.size()) {
        diags_.error(range(showArgs[i]),
                     "the string of symbols must be the last argument of " + name + "(...)");
        continue;
      }
      part.hasSymbols = true;
      part.symbols = unquote(showArgs[i]->STRING()->getText());
      part.symbolsRange = range(showArgs[i]);
    }
    return part;
  }

  // successor : sumTerm | term ('+' term)* ('+' sumTerm)?   (terms that are `0` are dropped)
  ast::Successor successor(P::SuccessorContext* ctx) {
    ast::Successor out;
    for (auto* t : ctx->term()) {
      if (auto* p = dynamic_cast<P::ParenTermContext*>(t)) {
        for (ast::Term& inner : successor(p->successor())) out.push_back(std::move(inner));
        continue;
      }
      ast::Term term = this->term(t);
      if (term.kind != ast::Term::Kind::Zero) out.push_back(std::move(term));
    }
    if (ctx->sumTerm()) out.push_back(sumTerm(ctx->sumTerm()));
    return out;
  }

  ast::Term term(P::TermContext* ctx) {
    ast::Term t;
    t.range = range(ctx);
    if (auto* c = dynamic_cast<P::GameTermContext*>(ctx)) {
      // ID '(' args? ')'
      t.kind = ast::Term::Kind::Game;
      t.game = c->ID()->getText();
      t.gameRange = range(c->ID());
      if (c->args()) t.args = args(c->args());
    } else if (auto* c = dynamic_cast<P::ZeroTermContext*>(ctx)) {
      // INT: only 0, the empty game
      t.kind = ast::Term::Kind::Zero;
      if (integer(c->INT()) != 0)
        diags_.error(range(ctx), "a term of a position must be a game position like G(3) or 0; '" +
                                     c->INT()->getText() + "' is neither");
    }
    return t;
  }

  // sumTerm : 'sum' sumBody 'for' ID 'in' expr
  ast::Term sumTerm(P::SumTermContext* c) {
    ast::Term t;
    t.range = range(c);
    t.kind = ast::Term::Kind::Sum;
    t.var = c->ID()->getText();
    t.varRange = range(c->ID());
    t.domain = expr(c->expr());
    if (auto* g = dynamic_cast<P::SumGameContext*>(c->sumBody())) {
      ast::Term inner;
      inner.kind = ast::Term::Kind::Game;
      inner.range = range(g);
      inner.game = g->ID()->getText();
      inner.gameRange = range(g->ID());
      if (g->args()) inner.args = args(g->args());
      t.body.push_back(std::move(inner));
    } else if (auto* p = dynamic_cast<P::SumParenContext*>(c->sumBody())) {
      t.body = successor(p->successor());
    }
    return t;
  }

  std::vector<ast::ExprPtr> args(P::ArgsContext* ctx) {
    std::vector<ast::ExprPtr> out;
    if (!ctx) return out;
    for (auto* e : ctx->expr()) out.push_back(expr(e));
    return out;
  }

  std::vector<ast::ExprPtr> elements(P::ItemsContext* ctx) {
    std::vector<ast::ExprPtr> out;
    if (!ctx) return out;
    for (auto* e : ctx->expr()) out.push_back(expr(e));
    return out;
  }

  // expr : andExpr ('or' andExpr)*
  ast::ExprPtr expr(P::ExprContext* ctx) {
    // Each accessor call builds a vector: fetch children once (long chains stay linear).
    auto items = ctx->andExpr();
    ast::ExprPtr e = andExpr(items[0]);
    for (size_t i = 1; i < items.size(); ++i)
      e = binary(ast::BinOp::Or, std::move(e), andExpr(items[i]));
    return e;
  }

  // The binary operator an operator rule's text spells (compiler/ir/Ops.def).
  static ast::BinOp binOp(antlr4::ParserRuleContext* op) {
    return ast::binOpSpelled(op->getText()).value_or(ast::BinOp::Eq);
  }

  ast::ExprPtr binary(ast::BinOp op, ast::ExprPtr lhs, ast::ExprPtr rhs) {
    SourceRange r = SourceManager::join(lhs->range, rhs->range);
    return ast::makeBinary(op, std::move(lhs), std::move(rhs), r);
  }

  // andExpr : notExpr ('and' notExpr)*
  ast::ExprPtr andExpr(P::AndExprContext* ctx) {
    auto items = ctx->notExpr();
    ast::ExprPtr e = notExpr(items[0]);
    for (size_t i = 1; i < items.size(); ++i)
      e = binary(ast::BinOp::And, std::move(e), notExpr(items[i]));
    return e;
  }

  // notExpr : 'not' notExpr | comparison
  ast::ExprPtr notExpr(P::NotExprContext* ctx) {
    if (ctx->NOT) {
      auto e = std::make_unique<ast::Expr>(ast::ExprKind::Not, range(ctx));
      e->kids.push_back(notExpr(ctx->notExpr()));
      return e;
    }
    return comparison(ctx->comparison());
  }

  // comparison : rangeExpr (cmpOp rangeExpr)?
  ast::ExprPtr comparison(P::ComparisonContext* ctx) {
    ast::ExprPtr e = rangeExpr(ctx->rangeExpr(0));
    if (!ctx->cmpOp()) return e;
    return binary(binOp(ctx->cmpOp()), std::move(e), rangeExpr(ctx->rangeExpr(1)));
  }

  // rangeExpr : bitOr ('..' bitOr)?
  ast::ExprPtr rangeExpr(P::RangeExprContext* ctx) {
    ast::ExprPtr lo = bitOr(ctx->bitOr(0));
    if (ctx->bitOr().size() < 2) return lo;
    auto e = std::make_unique<ast::Expr>(ast::ExprKind::Range, range(ctx));
    e->kids.push_back(std::move(lo));
    e->kids.push_back(bitOr(ctx->bitOr(1)));
    return e;
  }

  ast::ExprPtr bitOr(P::BitOrContext* ctx) {
    auto items = ctx->bitXor();
    ast::ExprPtr e = bitXor(items[0]);
    for (size_t i = 1; i < items.size(); ++i)
      e = binary(ast::BinOp::BitOr, std::move(e), bitXor(items[i]));
    return e;
  }

  ast::ExprPtr bitXor(P::BitXorContext* ctx) {
    auto items = ctx->bitAnd();
    ast::ExprPtr e = bitAnd(items[0]);
    for (size_t i = 1; i < items.size(); ++i) {
      ast::ExprPtr right = bitAnd(items[i]);
      // `10 ^ 12` is xor (6), and almost always meant as a power.
      if (e->kind == ast::ExprKind::Int && right->kind == ast::ExprKind::Int)
        diags_.warning(
            SourceManager::join(e->range, right->range),
            fmt::format("{} ^ {} is bitwise xor ({}); a power is written {} ** {}", e->value,
                        right->value, e->value ^ right->value, e->value, right->value));
      e = binary(ast::BinOp::BitXor, std::move(e), std::move(right));
    }
    return e;
  }

  ast::ExprPtr bitAnd(P::BitAndContext* ctx) {
    auto items = ctx->shift();
    ast::ExprPtr e = shift(items[0]);
    for (size_t i = 1; i < items.size(); ++i)
      e = binary(ast::BinOp::BitAnd, std::move(e), shift(items[i]));
    return e;
  }

  ast::ExprPtr shift(P::ShiftContext* ctx) {
    auto items = ctx->additive();
    auto ops = ctx->shiftOp();
    ast::ExprPtr e = additive(items[0]);
    for (size_t i = 1; i < items.size(); ++i) {
      e = binary(binOp(ops[i - 1]), std::move(e), additive(items[i]));
    }
    return e;
  }

  ast::ExprPtr additive(P::AdditiveContext* ctx) {
    auto items = ctx->multiplicative();
    auto ops = ctx->addOp();
    ast::ExprPtr e = multiplicative(items[0]);
    for (size_t i = 1; i < items.size(); ++i) {
      e = binary(binOp(ops[i - 1]), std::move(e), multiplicative(items[i]));
    }
    return e;
  }

  ast::ExprPtr multiplicative(P::MultiplicativeContext* ctx) {
    auto items = ctx->unary();
    auto ops = ctx->mulOp();
    ast::ExprPtr e = unary(items[0]);
    for (size_t i = 1; i < items.size(); ++i) {
      e = binary(binOp(ops[i - 1]), std::move(e), unary(items[i]));
    }
    return e;
  }

  // unary : '-' unary | postfix ('**' unary)?
  ast::ExprPtr unary(P::UnaryContext* ctx) {
    if (auto* c = dynamic_cast<P::NegExprContext*>(ctx)) {
      // Fold `-literal` so that -9223372036854775808 can be written.
      if (auto* pf = dynamic_cast<P::PostfixExprContext*>(c->unary()); pf && !pf->unary()) {
        auto* post = pf->postfix();
        if (post->expr().empty()) {
          if (auto* lit = dynamic_cast<P::IntLitContext*>(post->primary()))
            return ast::makeInt(integer(lit->INT(), true), range(ctx));
        }
      }
      auto e = std::make_unique<ast::Expr>(ast::ExprKind::Neg, range(ctx));
      e->kids.push_back(unary(c->unary()));
      return e;
    }
    if (auto* n = dynamic_cast<P::BitNotExprContext*>(ctx)) {
      auto e = std::make_unique<ast::Expr>(ast::ExprKind::BitNot, range(ctx));
      e->kids.push_back(unary(n->unary()));
      return e;
    }
    auto* c = dynamic_cast<P::PostfixExprContext*>(ctx);
    ast::ExprPtr base = postfix(c->postfix());
    if (!c->unary()) return base;
    return binary(ast::BinOp::Pow, std::move(base), unary(c->unary()));
  }

  // postfix : primary ('[' expr ']')*
  ast::ExprPtr postfix(P::PostfixContext* ctx) {
    ast::ExprPtr e = primary(ctx->primary());
    for (auto* index : ctx->expr()) {
      auto ix = std::make_unique<ast::Expr>(ast::ExprKind::Index, SourceRange{});
      ix->kids.push_back(std::move(e));
      ix->kids.push_back(expr(index));
      ix->range = SourceManager::join(ix->kids[0]->range, range(index->getStop()));
      ix->range.end += 1;  // the closing bracket
      e = std::move(ix);
    }
    return e;
  }

  ast::ExprPtr primary(P::PrimaryContext* ctx) {
    if (auto* c = dynamic_cast<P::IntLitContext*>(ctx))
      return ast::makeInt(integer(c->INT()), range(ctx));
    if (auto* c = dynamic_cast<P::CallExprContext*>(ctx)) {
      std::string name = c->SUM ? "sum" : c->ID()->getText();
      P::ItemsContext* items = c->items();
      if (items && items->compFor())
        return comprehension(name, items->expr(0), items->compFor(), items->compClause(),
                             range(ctx));
      return ast::makeCall(name, elements(items), range(ctx));
    }
    if (auto* c = dynamic_cast<P::NameExprContext*>(ctx))
      return ast::makeName(c->ID()->getText(), range(ctx));
    if (auto* c = dynamic_cast<P::ListExprContext*>(ctx)) {
      P::ItemsContext* items = c->items();
      if (items && items->compFor())
        return comprehension("list", items->expr(0), items->compFor(), items->compClause(),
                             range(ctx));
      auto e = std::make_unique<ast::Expr>(ast::ExprKind::List, range(ctx));
      e->kids = elements(items);
      return e;
    }
    if (auto* c = dynamic_cast<P::SetLitContext*>(ctx)) {
      auto e = std::make_unique<ast::Expr>(ast::ExprKind::Set, range(ctx));
      e->kids = args(c->args());
      return e;
    }
    auto* c = dynamic_cast<P::ParenExprContext*>(ctx);
    return expr(c->expr());
  }

  // [element for x in D ...] or f(element for x in D ...): the first `for`,
  // then more `for`s and filters (`if` or `when`), in order.
  ast::ExprPtr comprehension(std::string what, P::ExprContext* element, P::CompForContext* first,
                             const std::vector<P::CompClauseContext*>& rest, SourceRange where) {
    auto e = std::make_unique<ast::Expr>(ast::ExprKind::Comprehension, where);
    e->name = std::move(what);
    e->kids.push_back(expr(element));
    e->clauses = compClauses(first, rest);
    return e;
  }

  // The loops and filters of a comprehension (or of `table [P for ...]`).
  std::vector<ast::Clause> compClauses(P::CompForContext* first,
                                       const std::vector<P::CompClauseContext*>& rest) {
    std::vector<ast::Clause> clauses;
    clauses.push_back(forClause(first));
    for (P::CompClauseContext* c : rest) {
      if (c->compFor()) {
        clauses.push_back(forClause(c->compFor()));
        continue;
      }
      if (c->IF && c->IF->getText() != "if")
        diags_.error(range(c->IF), "expected 'for', 'if' or the end of the comprehension, not '" +
                                       c->IF->getText() + "'");
      ast::Clause filter;
      filter.kind = ast::Clause::Kind::When;
      filter.range = range(c);
      filter.expr = expr(c->expr());
      clauses.push_back(std::move(filter));
    }
    return clauses;
  }

  ast::Clause forClause(P::CompForContext* ctx) {
    ast::Clause c;
    c.kind = ast::Clause::Kind::Bind;
    c.range = range(ctx);
    c.name = ctx->ID()->getText();
    c.nameRange = range(ctx->ID());
    c.expr = expr(ctx->expr());
    return c;
  }

  const SourceManager& sources_;
  uint32_t file_;
  DiagnosticSink& diags_;
};

// Deep nesting would overflow the recursive-descent parser's stack: refuse it
// with a diagnostic before parsing.
constexpr int kMaxNesting = 256;
constexpr int kMaxOperators = 10000;

bool checkNesting(antlr4::CommonTokenStream& tokens, const SourceManager& sources, uint32_t file,
                  DiagnosticSink& diags) {
  int depth = 0;
  int prefixRun = 0;  // consecutive `-` / `~` / `not`, which also nest
  int operators = 0;  // binary operators in one expression (its tree gets as deep)
  static const std::set<std::string> binaryOps = {"+", "-", "*",  "/",  "%",   "|",
                                                  "^", "&", "<<", ">>", "and", "or"};
  for (antlr4::Token* t : tokens.getTokens()) {
    std::string text = t->getText();
    if (binaryOps.count(text)) {
      if (++operators > kMaxOperators) {
        diags.error(sources.rangeAt(file, static_cast<uint32_t>(t->getLine()),
                                    static_cast<uint32_t>(t->getCharPositionInLine()) + 1, 1),
                    "an expression with more than " + std::to_string(kMaxOperators) +
                        " operators; split it with constants");
        return false;
      }
    } else if (t->getType() != GdslParser::INT && t->getType() != GdslParser::ID && text != "(" &&
               text != ")" && text != "[" && text != "]") {
      operators = 0;
    }
    if (text == "(" || text == "[" || text == "{") ++depth;
    if (text == ")" || text == "]" || text == "}") --depth;
    prefixRun = (text == "-" || text == "~" || text == "not") ? prefixRun + 1 : 0;
    if (depth > kMaxNesting || prefixRun > kMaxNesting) {
      diags.error(sources.rangeAt(file, static_cast<uint32_t>(t->getLine()),
                                  static_cast<uint32_t>(t->getCharPositionInLine()) + 1, 1),
                  depth > kMaxNesting
                      ? "brackets nested more than " + std::to_string(kMaxNesting) + " deep"
                      : "more than " + std::to_string(kMaxNesting) + " '-', '~' or 'not' in a row");
      return false;
    }
  }
  return true;
}

// Contextual keywords, retyped from ID before parsing.
//
// `show` is a keyword only where it begins an item of a game body: there the
// token before it is the body's `{` or ends the previous item (a name, a
// number, a string, a closing bracket, `unequal`, `neighbours`). A name
// `show` used in an expression or a successor always follows an operator, a
// keyword, `(`, `[` or `,`, so programs that use `show` as a name are
// unchanged. Those tokens are retyped from ID to SHOW before parsing.
//
// `plot` is a keyword only where it begins a statement and a name and `(`
// follow (`plot Sub(0..100)`), after a token that may end a statement, as
// for `loopy`: a name `plot` in an expression is not followed by a name.
//
// `hex` is a keyword only between `=` and a string at the top level, as in
// `game H = hex "0.B1"`: a name `hex` is never followed by a string.
//
// `loopy` is a keyword only where it begins a statement and `game` follows:
// outside braces, first in the file or after a token that may end a
// statement (a name, a number, a string, a closing bracket). A name `loopy`
// in an expression follows an operator, a keyword, `(`, `[` or `,`, or is
// followed by something other than `game`.
void markContextualKeywords(antlr4::CommonTokenStream& tokens) {
  bool inHeader = false;  // after `game`, before its body's `{` (or `=`)
  int depth = 0;          // of braces
  int body = -1;          // the brace depth inside the current game body
  antlr4::Token* previous = nullptr;
  antlr4::Token* bodyStart = nullptr;  // the current game body's `{`
  const std::vector<antlr4::Token*>& all = tokens.getTokens();
  for (size_t i = 0; i < all.size(); ++i) {
    antlr4::Token* t = all[i];
    std::string text = t->getText();
    // Whether the token before `t` may end a statement (or there is none).
    auto afterStatement = [&] {
      const size_t type = previous ? previous->getType() : size_t{GdslParser::ID};
      const std::string p = previous ? previous->getText() : "";
      return type == GdslParser::ID || type == GdslParser::INT || type == GdslParser::STRING ||
             p == ")" || p == "]" || p == "}";
    };
    auto retype = [&](size_t type) {
      if (auto* writable = dynamic_cast<antlr4::WritableToken*>(t)) writable->setType(type);
    };
    if (t->getType() == GdslParser::ID && text == "loopy" && depth == 0 && i + 1 < all.size() &&
        all[i + 1]->getType() != GdslParser::ID && all[i + 1]->getText() == "game" &&
        afterStatement())
      retype(GdslParser::LOOPY);
    if (t->getType() == GdslParser::ID && text == "plot" && depth == 0 && i + 2 < all.size() &&
        all[i + 1]->getType() == GdslParser::ID && all[i + 2]->getText() == "(" && afterStatement())
      retype(GdslParser::PLOT);
    // `hex` between `=` and a string: `game H = hex "0.B1"`.
    if (t->getType() == GdslParser::ID && text == "hex" && depth == 0 && previous &&
        previous->getText() == "=" && i + 1 < all.size() &&
        all[i + 1]->getType() == GdslParser::STRING)
      retype(GdslParser::HEX);
    if (t->getType() == GdslParser::ID && text == "show" && body >= 0 && depth == body &&
        previous) {
      std::string p = previous->getText();
      size_t type = previous->getType();
      // (`if`, the filter word of a comprehension, is a name that ends no item.)
      bool endsItem = (type == GdslParser::ID && p != "if") || type == GdslParser::INT ||
                      type == GdslParser::STRING || p == ")" || p == "]" || p == "}" ||
                      p == "unequal" || p == "neighbours";
      bool opensBody = previous == bodyStart;
      if (endsItem || opensBody) retype(GdslParser::SHOW);
    }
    if (t->getType() != GdslParser::ID && text == "game") inHeader = true;
    if (text == "=" && inHeader) inHeader = false;
    if (text == "{") {
      ++depth;
      if (inHeader) {
        body = depth;
        inHeader = false;
        bodyStart = t;
      }
    }
    if (text == "}") {
      if (depth == body) body = -1;
      --depth;
    }
    previous = t;
  }
}

// Reports the byte at `offset` as not UTF-8, at its line and column.
void reportInvalidUtf8(const SourceManager& sources, uint32_t file, size_t offset,
                       DiagnosticSink& diags) {
  const std::string& text = sources.file(file).text;
  uint32_t line = 1, col = 1;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      ++col;
    }
  }
  auto at = static_cast<uint32_t>(offset);
  diags.error(SourceRange{file, at, at + 1, line, col},
              fmt::format("byte 0x{:02x} is not UTF-8 text; gdsl files are UTF-8",
                          static_cast<unsigned char>(text[offset])));
}

}  // namespace

std::optional<ast::Module> parseModule(const SourceManager& sources, uint32_t fileId,
                                       DiagnosticSink& diagnostics) {
  size_t before = diagnostics.all().size();
  // ANTLR's input stream throws std::range_error on text that is not UTF-8.
  if (size_t bad = invalidUtf8(sources.file(fileId).text); bad != std::string_view::npos) {
    reportInvalidUtf8(sources, fileId, bad, diagnostics);
    return std::nullopt;
  }
  antlr4::ANTLRInputStream input(sources.file(fileId).text);
  antlr4::CommonTokenStream tokens(nullptr);
  GdslParser parser(&tokens);  // reads no token until it parses
  usePredictor(parser);
  // The hand-written lexer (Lexer.h) makes the generated lexer's tokens; it
  // reports nothing itself: what it cannot match becomes an ERROR_CHAR or
  // UNTERMINATED_* token, which the parser reports.
  Lexer lexer(input, parser.getVocabulary());
  tokens.setTokenSource(&lexer);
  tokens.fill();
  if (!checkNesting(tokens, sources, fileId, diagnostics)) return std::nullopt;
  markContextualKeywords(tokens);
  ErrorCollector collector(sources, fileId, diagnostics);
  parser.removeErrorListeners();
  // Two stages, as ANTLR recommends: the fast SLL prediction, which gives up
  // at the first error; only then the full LL prediction with error
  // reporting, from the start (so messages are those of LL alone).
  parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
      antlr4::atn::PredictionMode::SLL);
  parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
  P::ProgramContext* tree = nullptr;
  try {
    tree = parser.program();
  } catch (const antlr4::ParseCancellationException&) {
    GdslParser::loadAtn();  // error recovery and reports read the ATN
    tokens.seek(0);
    parser.reset();
    parser.setErrorHandler(std::make_shared<antlr4::DefaultErrorStrategy>());
    parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
        antlr4::atn::PredictionMode::LL);
    collector.setUnclosed(&parser, unclosedBrackets(tokens));
    parser.addErrorListener(&collector);
    tree = parser.program();
  }
  if (diagnostics.all().size() != before) return std::nullopt;
  Converter converter(sources, fileId, diagnostics);
  ast::Module module = converter.program(tree);
  if (diagnostics.all().size() != before) return std::nullopt;
  return module;
}

std::vector<std::string> keywords() {
  std::vector<std::string> out;
  GdslParser parser(nullptr);
  const antlr4::dfa::Vocabulary& vocabulary = parser.getVocabulary();
  for (size_t t = 0; t <= vocabulary.getMaxTokenType(); ++t) {
    std::string literal = vocabulary.getLiteralName(t);  // 'game', with the quotes
    if (literal.size() > 2 && isWord(literal.substr(1, literal.size() - 2)))
      out.push_back(literal.substr(1, literal.size() - 2));
  }
  return out;
}

}  // namespace gdsl
