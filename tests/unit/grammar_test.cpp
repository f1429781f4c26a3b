// The generated lexer and parser (grammar/Gdsl.g4): gdsl deserializes their
// ATNs without ANTLR's structural check, to start faster (grammar/LazyInit.cmake),
// so the check runs here once, on the ATNs that gdsl uses.
#include <antlr4-runtime.h>

#include <catch2/catch.hpp>

#include "GdslLexer.h"
#include "GdslParser.h"

TEST_CASE("the ATNs gdsl deserializes without checking pass ANTLR's check", "[grammar]") {
  antlr4::ANTLRInputStream input("game K = octal \"0.77\"\n");
  GdslLexer lexer(&input);
  antlr4::CommonTokenStream tokens(&lexer);
  GdslParser parser(&tokens);
  antlr4::atn::ATNDeserializer checking;  // default options: verifyATN on
  CHECK_NOTHROW(checking.verifyATN(lexer.getATN()));
  CHECK_NOTHROW(checking.verifyATN(parser.getATN()));
  CHECK(lexer.getATN().states.size() > 100);
  CHECK(parser.getATN().states.size() > 100);
  // The ATN the lexer deserialized equals a checked deserialization of the
  // same serialized form (state by state: type and transitions).
  antlr4::atn::ATN checked = checking.deserialize(lexer.getSerializedATN());
  REQUIRE(checked.states.size() == lexer.getATN().states.size());
  for (size_t i = 0; i < checked.states.size(); ++i) {
    CHECK(checked.states[i]->getStateType() == lexer.getATN().states[i]->getStateType());
    CHECK(checked.states[i]->transitions.size() == lexer.getATN().states[i]->transitions.size());
  }
}
