# cmake -P script, run on the parser that antlr4 has just generated into DIR:
# the generated lexer and parser deserialize their ATN in a static
# initializer (`Gdsl{Lexer,Parser}::Initializer Gdsl{Lexer,Parser}::_init;`),
# so at every start of gdsl, even for `gdsl --version`. This moves it into a
# function-local static of the constructor: it runs, once and thread-safely,
# when the first lexer or parser is made; and it builds the ATN without
# verifying it (the tests verify it): the parser's with grammar/AtnLoader.cpp,
# the lexer's (which only the tests use) with antlr4's deserializer. The
# parser's ATN waits further, for GdslParser::loadAtn (below). Fails
# when the generated code does not have the expected shape (another antlr4
# version), rather than leaving the initializer where it was.
foreach(class GdslLexer GdslParser)
  set(file ${DIR}/${class}.cpp)
  file(READ ${file} text)
  if(class STREQUAL GdslLexer)
    set(stream CharStream)
    set(base Lexer)
  else()
    set(stream TokenStream)
    set(base Parser)
  endif()
  set(definition "${class}::Initializer ${class}::_init;")
  set(constructor "${class}::${class}(${stream} *input) : ${base}(input) {")
  string(FIND "${text}" "${definition}" at_definition)
  string(FIND "${text}" "${constructor}" at_constructor)
  # verifyATN checks the deserialized ATN's structure, which depends only on
  # the grammar and the antlr4 tool: tests/unit/grammar_test.cpp runs it once,
  # instead of every start of gdsl (about 90 us for the two ATNs).
  set(deserializer "atn::ATNDeserializer deserializer;")
  string(FIND "${text}" "${deserializer}" at_deserializer)
  if(at_definition EQUAL -1 OR at_constructor EQUAL -1 OR at_deserializer EQUAL -1)
    message(FATAL_ERROR "${file}: not the shape grammar/LazyInit.cmake expects")
  endif()
  if(class STREQUAL GdslParser)
    # The parser's ATN is built by grammar/AtnLoader.cpp, which makes the same
    # ATN in less time (tests/unit/grammar_test.cpp compares them field by field).
    set(deserialize "${deserializer}\n  _atn = deserializer.deserialize(_serializedATN);")
    string(FIND "${text}" "${deserialize}" at_deserialize)
    if(at_deserialize EQUAL -1)
      message(FATAL_ERROR "${file}: not the shape grammar/LazyInit.cmake expects")
    endif()
    string(REPLACE "${deserialize}"
           "_atn = gdsl::loadParserAtn(_serializedATN);  // grammar/LazyInit.cmake, AtnLoader.h"
           text "${text}")
    string(PREPEND text "#include \"AtnLoader.h\"  // grammar/LazyInit.cmake\n")
    # The ATN and the DFAs of its decisions are made the first time something
    # needs them (GdslParser::loadAtn), not with the first parser: gdsl's
    # predictions come from tables (compiler/parse/Predictor.h) unless the
    # tokens do not decide, and most programs parse without the ATN.
    set(atn_start "  _serializedATN = {")
    set(atn_end "_decisionToDFA.emplace_back(_atn.getDecisionState(i), i);\n  }\n}")
    string(FIND "${text}" "${atn_start}" at_atn_start)
    string(FIND "${text}" "${atn_end}" at_atn_end)
    if(at_atn_start EQUAL -1 OR at_atn_end EQUAL -1 OR at_atn_end LESS at_atn_start)
      message(FATAL_ERROR "${file}: not the shape grammar/LazyInit.cmake expects")
    endif()
    string(REPLACE "${atn_start}" "}

// grammar/LazyInit.cmake: the ATN and its decisions' DFAs, made once.
void GdslParser::loadAtn() {
  static const AtnLoaded loaded;
  (void)loaded;
}

GdslParser::AtnLoaded::AtnLoaded() {
${atn_start}" text "${text}")
    # The serialized form, which the parser keeps private, for that comparison.
    string(APPEND text "
// grammar/LazyInit.cmake: the serialized ATN, for tests/unit/grammar_test.cpp.
const std::vector<uint16_t>& GdslParser::serializedAtn() {
  loadAtn();  // fills _serializedATN
  return _serializedATN;
}
")
    set(header ${DIR}/${class}.h)
    file(READ ${header} header_text)
    string(FIND "${header_text}" "\npublic:\n" at_public)
    if(at_public EQUAL -1)
      message(FATAL_ERROR "${header}: not the shape grammar/LazyInit.cmake expects")
    endif()
    string(REPLACE "\npublic:\n" "\npublic:
  // grammar/LazyInit.cmake: the serialized ATN, for tests/unit/grammar_test.cpp.
  static const std::vector<uint16_t>& serializedAtn();
  // grammar/LazyInit.cmake: makes the ATN (getATN()) and its decisions' DFAs,
  // once, thread-safely. Whatever reads them calls it first: antlr4's
  // prediction (compiler/parse/Predictor.cpp), error reporting (parseModule's
  // second stage), tests and tools.
  static void loadAtn();
  struct AtnLoaded {
    AtnLoaded();
  };
" header_text "${header_text}")
    file(WRITE ${header} "${header_text}")
  else()
    string(REPLACE "${deserializer}" "atn::ATNDeserializationOptions options;  // grammar/LazyInit.cmake
  options.setVerifyATN(false);
  atn::ATNDeserializer deserializer(options);"
           text "${text}")
  endif()
  string(REPLACE "${definition}" "// ${class}::_init: made by the constructor (grammar/LazyInit.cmake)"
         text "${text}")
  string(REPLACE "${constructor}" "${constructor}\n  static const Initializer init;  // grammar/LazyInit.cmake\n  (void)init;"
         text "${text}")
  file(WRITE ${file} "${text}")
endforeach()
