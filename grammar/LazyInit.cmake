# cmake -P script, run on the parser that antlr4 has just generated into DIR:
# the generated lexer and parser deserialize their ATN in a static
# initializer (`Gdsl{Lexer,Parser}::Initializer Gdsl{Lexer,Parser}::_init;`),
# so at every start of gdsl, even for `gdsl --version`. This moves it into a
# function-local static of the constructor: it runs, once and thread-safely,
# when the first lexer or parser is made; and it builds the ATN without
# verifying it (the tests verify it): the parser's with grammar/AtnLoader.cpp,
# the lexer's (which only the tests use) with antlr4's deserializer. Fails
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
    # The serialized form, which the parser keeps private, for that comparison.
    string(APPEND text "
// grammar/LazyInit.cmake: the serialized ATN, for tests/unit/grammar_test.cpp.
const std::vector<uint16_t>& GdslParser::serializedAtn() {
  GdslParser parser(nullptr);  // the first parser fills _serializedATN
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
