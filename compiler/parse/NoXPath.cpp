// Keeps antlr4's XPath lexer out of gdsl. The antlr4 4.9 runtime builds that
// lexer's ATN in a static initializer, so at every start of any program that
// links it, about 40 us of `gdsl --version` (bench/README.md, "Start-up"). It
// comes in only through the runtime's own XPath.cpp.o (reached from Parser.o by
// way of parse-tree patterns), whose only references to it are the lexer's
// constructor and destructor. gdsl uses neither XPath nor parse-tree patterns:
// these two definitions satisfy those references, so the linker leaves the
// lexer's object, and its initializer, out. They are never called; if they
// were, gdsl would stop with a message rather than run without a lexer.
// tests/cli/startup.py checks that the initializer is not in the executable.
#include <cstdio>
#include <cstdlib>

namespace gdsl {

[[noreturn]] void constructXPathLexer() asm("_ZN10XPathLexerC1EPN6antlr410CharStreamE");
[[noreturn]] void destroyXPathLexer() asm("_ZN10XPathLexerD1Ev");

namespace {
[[noreturn]] void xpathUnused() {
  std::fputs("gdsl: internal error: antlr4's XPath is not linked into gdsl\n", stderr);
  std::abort();
}
}  // namespace

void constructXPathLexer() {
  xpathUnused();
}
void destroyXPathLexer() {
  xpathUnused();
}

}  // namespace gdsl
