# cmake -P script, run on the parser that antlr4 has just generated into DIR:
# the generated lexer and parser deserialize their ATN in a static
# initializer (`Gdsl{Lexer,Parser}::Initializer Gdsl{Lexer,Parser}::_init;`),
# so at every start of gdsl, even for `gdsl --version`. This moves it into a
# function-local static of the constructor: it runs, once and thread-safely,
# when the first lexer or parser is made; and it deserializes without
# verifying the ATN (the tests verify it). Fails when the generated code does
# not have the expected shape (another antlr4 version), rather than leaving
# the initializer where it was.
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
  string(REPLACE "${deserializer}" "atn::ATNDeserializationOptions options;  // grammar/LazyInit.cmake
  options.setVerifyATN(false);
  atn::ATNDeserializer deserializer(options);"
         text "${text}")
  string(REPLACE "${definition}" "// ${class}::_init: made by the constructor (grammar/LazyInit.cmake)"
         text "${text}")
  string(REPLACE "${constructor}" "${constructor}\n  static const Initializer init;  // grammar/LazyInit.cmake\n  (void)init;"
         text "${text}")
  file(WRITE ${file} "${text}")
endforeach()
