// The token-level mutator of fuzz_tokens: a small lexer that follows
// grammar/Gdsl.g4, and the mutations (see TokenMutator.h).
#include "tests/fuzz/TokenMutator.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <random>

namespace gdsl::fuzz {
namespace {

bool wordStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool wordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// The length of the trivia (whitespace, // and /* */ comments) at `i`.
size_t triviaEnd(std::string_view t, size_t i) {
  while (i < t.size()) {
    if (t[i] == ' ' || t[i] == '\t' || t[i] == '\r' || t[i] == '\n') {
      ++i;
    } else if (t.substr(i, 2) == "//") {
      while (i < t.size() && t[i] != '\n' && t[i] != '\r') ++i;
    } else if (t.substr(i, 2) == "/*") {
      size_t end = t.find("*/", i + 2);
      if (end == std::string_view::npos) return i;  // an unterminated comment is a token
      i = end + 2;
    } else {
      break;
    }
  }
  return i;
}

// The end of the token starting at `i` (i < t.size()).
size_t tokenEnd(std::string_view t, size_t i) {
  char c = t[i];
  if (wordStart(c)) {
    while (i < t.size() && wordChar(t[i])) ++i;
    return i;
  }
  if (std::isdigit(static_cast<unsigned char>(c))) {
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
    return i;
  }
  if (c == '"') {
    for (++i; i < t.size() && t[i] != '"' && t[i] != '\n' && t[i] != '\r'; ++i)
      if (t[i] == '\\' && i + 1 < t.size() && (t[i + 1] == '"' || t[i + 1] == '\\')) ++i;
    return i < t.size() && t[i] == '"' ? i + 1 : i;
  }
  if (t.substr(i, 2) == "/*") return t.size();  // unterminated comment
  static const char* const kPairs[] = {"..", "==", "!=", "<=", ">=", "<<", ">>", "->"};
  for (const char* p : kPairs)
    if (t.substr(i, 2) == p) return i + 2;
  return i + 1;
}

bool isNumber(const std::string& s) {
  return !s.empty() && std::isdigit(static_cast<unsigned char>(s[0]));
}

// A token to insert: from the dictionary, or from the program itself.
std::string pick(const std::vector<Token>& tokens, std::mt19937& rng) {
  const std::vector<std::string>& dict = dictionary();
  if (!tokens.empty() && rng() % 2 == 0) return tokens[rng() % tokens.size()].text;
  return dict[rng() % dict.size()];
}

// A number near an interesting one: limits of the tables and of 64 bits.
std::string interestingNumber(const std::string& old, std::mt19937& rng) {
  static const char* const kNumbers[] = {"0",
                                         "1",
                                         "2",
                                         "3",
                                         "7",
                                         "8",
                                         "31",
                                         "32",
                                         "63",
                                         "64",
                                         "255",
                                         "256",
                                         "511",
                                         "512",
                                         "4095",
                                         "4096",
                                         "16383",
                                         "16384",
                                         "65535",
                                         "65536",
                                         "1048576",
                                         "2147483647",
                                         "2147483648",
                                         "4294967295",
                                         "4294967296",
                                         "1000000000000",
                                         "4611686018427387904",
                                         "9223372036854775807"};
  if (rng() % 3 == 0 && old.size() < 19) {
    unsigned long long v = std::strtoull(old.c_str(), nullptr, 10);
    return std::to_string(rng() % 2 ? v + 1 : (v > 0 ? v - 1 : v));
  }
  return kNumbers[rng() % std::size(kNumbers)];
}

// Tokens that can stand in for each other: a mutation among them often keeps
// the program valid and changes what it computes.
const std::vector<std::vector<std::string>>& classes() {
  static const std::vector<std::vector<std::string>> kClasses = {
      {"+", "-", "*", "/", "%", "|", "^", "&", "<<", ">>"},
      {"==", "!=", "<", "<=", ">", ">=", "in"},
      {"and", "or"},
      {"min", "max"},
      {"take", "remove"},
      {"eval", "moves", "assert"},
      {"table", "period"},
      {"(", "["},
      {")", "]"},
      {"\"0.77\"", "\"0.137\"", "\"4.0\"", "\"0.07\"", "\"0.4012\"", "\"0.6\"", "\"4.37\""}};
  return kClasses;
}

// Replaces a token by another of its class; false when the program has none.
bool replaceInClass(std::vector<Token>& tokens, std::mt19937& rng) {
  std::vector<std::pair<size_t, const std::vector<std::string>*>> candidates;
  for (size_t i = 0; i < tokens.size(); ++i)
    for (const auto& c : classes())
      if (std::find(c.begin(), c.end(), tokens[i].text) != c.end()) candidates.emplace_back(i, &c);
  if (candidates.empty()) return false;
  const auto& [i, c] = candidates[rng() % candidates.size()];
  tokens[i].text = (*c)[rng() % c->size()];
  return true;
}

}  // namespace

std::vector<Token> tokenize(std::string_view text) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (i < text.size()) {
    size_t start = triviaEnd(text, i);
    Token t;
    t.trivia = std::string(text.substr(i, start - i));
    if (start == text.size()) {  // trailing trivia
      tokens.push_back(std::move(t));
      break;
    }
    size_t end = tokenEnd(text, start);
    t.text = std::string(text.substr(start, end - start));
    tokens.push_back(std::move(t));
    i = end;
  }
  return tokens;
}

std::string join(const std::vector<Token>& tokens) {
  std::string out;
  for (const Token& t : tokens) out += t.trivia + t.text;
  return out;
}

const std::vector<std::string>& dictionary() {
  static const std::vector<std::string> kDict = {
      // keywords (grammar/Gdsl.g4)
      "game", "move", "when", "let", "normalize", "take", "split", "unequal", "remove", "with",
      "neighbours", "octal", "import", "const", "eval", "table", "period", "moves", "assert",
      "misere", "in", "and", "or", "not", "sum", "for",
      // builtins and types
      "min", "max", "abs", "len", "sort", "set", "list",
      // operators and punctuation
      "(", ")", "{", "}", "[", "]", ",", ":", "=", "==", "!=", "<", "<=", ">", ">=", "..", "+", "-",
      "*", "/", "%", "|", "^", "&", "<<", ">>", "->", ".",
      // names, numbers, codes, modules
      "n", "k", "x", "G", "H", "Nim", "Kayles", "0", "1", "2", "3", "10", "64", "255", "256",
      "65536", "9223372036854775807", "\"0.77\"", "\"4.0\"", "\"0.137\"", "\"0.\"", "\"\"",
      "std.heaps", "std.octal", "std.lists", "std.boards",
      // fragments
      "game G(n) {", "game H(a, b) {", "game L(l: list) {", "move ->", "-> 0", "-> G(n - 1)",
      "eval G(3)", "eval misere", "table G(0..20)", "period G", "moves G(5)", "assert G(1) == *1",
      "sum G(x) for x in", "normalize -> L(sort(l))", "let y =", "when n > 0",
      "const C = [[1], [2, 3]]", "octal \"0.07\""};
  return kDict;
}

size_t mutateTokens(uint8_t* data, size_t size, size_t maxSize, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<Token> tokens = tokenize(std::string_view(reinterpret_cast<char*>(data), size));
  // The trailing trivia (if any) stays last.
  Token tail;
  if (!tokens.empty() && tokens.back().text.empty()) {
    tail = std::move(tokens.back());
    tokens.pop_back();
  }
  auto at = [&](size_t n) { return n == 0 ? size_t{0} : rng() % n; };
  auto fresh = [](std::string text) { return Token{" ", std::move(text)}; };
  size_t n = tokens.size();
  // Numbers and tokens of a class are changed most often: such programs
  // usually still compile, and compute something else.
  unsigned op = rng() % 12;
  if (op >= 10) op = 5;  // a number
  if (op == 9 && !replaceInClass(tokens, rng)) op = 5;
  switch (op) {
    case 9:  // done above
      break;
    case 0:  // delete a run of 1-4 tokens
      if (n > 0) {
        size_t i = at(n), len = std::min<size_t>(1 + rng() % 4, n - i);
        tokens.erase(tokens.begin() + static_cast<long>(i),
                     tokens.begin() + static_cast<long>(i + len));
      }
      break;
    case 1:  // duplicate a run of 1-8 tokens
      if (n > 0) {
        size_t i = at(n), len = std::min<size_t>(1 + rng() % 8, n - i);
        std::vector<Token> run(tokens.begin() + static_cast<long>(i),
                               tokens.begin() + static_cast<long>(i + len));
        tokens.insert(tokens.begin() + static_cast<long>(i + len), run.begin(), run.end());
      }
      break;
    case 2:  // swap two tokens
      if (n > 1) std::swap(tokens[at(n)].text, tokens[at(n)].text);
      break;
    case 3:  // insert a token
      tokens.insert(tokens.begin() + static_cast<long>(at(n + 1)), fresh(pick(tokens, rng)));
      break;
    case 4:  // replace a token
      if (n > 0) tokens[at(n)].text = pick(tokens, rng);
      break;
    case 5: {  // change a number
      std::vector<size_t> numbers;
      for (size_t i = 0; i < n; ++i)
        if (isNumber(tokens[i].text)) numbers.push_back(i);
      if (numbers.empty()) return 0;
      Token& t = tokens[numbers[at(numbers.size())]];
      t.text = interestingNumber(t.text, rng);
      break;
    }
    case 6:  // copy a run of tokens elsewhere
      if (n > 0) {
        size_t i = at(n), len = std::min<size_t>(1 + rng() % 16, n - i);
        std::vector<Token> run(tokens.begin() + static_cast<long>(i),
                               tokens.begin() + static_cast<long>(i + len));
        tokens.insert(tokens.begin() + static_cast<long>(at(n + 1)), run.begin(), run.end());
      }
      break;
    case 7:
    default:  // rename: one name everywhere it occurs
      if (n > 0) {
        std::string from = tokens[at(n)].text, to = pick(tokens, rng);
        if (from.empty() || !wordStart(from[0])) return 0;
        for (Token& t : tokens)
          if (t.text == from) t.text = to;
      }
      break;
  }
  tokens.push_back(std::move(tail));
  std::string out = join(tokens);
  if (out.size() > maxSize || out.empty()) return 0;
  std::memcpy(data, out.data(), out.size());
  return out.size();
}

size_t crossOverTokens(const uint8_t* data1, size_t size1, const uint8_t* data2, size_t size2,
                       uint8_t* out, size_t maxOutSize, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<Token> a = tokenize(std::string_view(reinterpret_cast<const char*>(data1), size1));
  std::vector<Token> b = tokenize(std::string_view(reinterpret_cast<const char*>(data2), size2));
  if (a.empty() || b.empty()) return 0;
  size_t cut = rng() % (a.size() + 1), resume = cut + rng() % (a.size() - cut + 1);
  size_t from = rng() % b.size(), to = from + rng() % (b.size() - from + 1);
  std::vector<Token> mixed(a.begin(), a.begin() + static_cast<long>(cut));
  mixed.insert(mixed.end(), b.begin() + static_cast<long>(from), b.begin() + static_cast<long>(to));
  mixed.insert(mixed.end(), a.begin() + static_cast<long>(resume), a.end());
  std::string text = join(mixed);
  size_t len = std::min(text.size(), maxOutSize);
  std::memcpy(out, text.data(), len);
  return len;
}

}  // namespace gdsl::fuzz
