// The SVG plots of driver/Plot.cpp, read back by their structure: a standalone <svg>
// root, one mark per heap for small tables, a bounded number of marks for 10^5 and
// 10^6 heaps, one cell per position of a small grid with exactly Wythoff's
// P-positions (from the brute force's complementary sequences) in the P colour.
#include "driver/Plot.h"

#include <catch2/catch.hpp>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "brute_force.h"

namespace {

using gdsl::TableResult;

gdsl::NimTable toRow(const brute::Table& values) {
  gdsl::NimTable row;
  for (brute::Value v : values) row.push(static_cast<uint32_t>(v));
  return row;
}

TableResult oneHeap(const std::string& game, const brute::Table& values) {
  TableResult t;
  t.game = game;
  int64_t hi = static_cast<int64_t>(values.size()) - 1;
  t.title = game + "(0.." + std::to_string(hi) + ")";
  t.ranges = {{0, hi}};
  t.params = {{0, hi}};
  t.names = {"n"};
  t.rows.push_back(toRow(values));
  return t;
}

TableResult twoParams(const std::string& game, const brute::Grid& grid) {
  TableResult t;
  t.game = game;
  int64_t hiA = static_cast<int64_t>(grid.size()) - 1;
  int64_t hiB = static_cast<int64_t>(grid[0].size()) - 1;
  t.title = game + "(0.." + std::to_string(hiA) + ", 0.." + std::to_string(hiB) + ")";
  t.ranges = {{0, hiA}, {0, hiB}};
  t.params = t.ranges;
  t.names = {"a", "b"};
  for (const brute::Table& row : grid) t.rows.push_back(toRow(row));
  return t;
}

// The text of the group <g id="ID" ...> ... </g>, groups inside it included.
std::string group(const std::string& svg, const std::string& id) {
  size_t begin = svg.find("<g id=\"" + id + "\"");
  REQUIRE(begin != std::string::npos);
  size_t at = begin + 1;
  for (int depth = 1; depth > 0; ++at) {
    size_t open = svg.find("<g ", at), close = svg.find("</g>", at);
    REQUIRE(close != std::string::npos);
    at = std::min(open, close);
    depth += at == open ? 1 : -1;
  }
  return svg.substr(begin, at - begin);
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

double attribute(const std::string& element, const std::string& name) {
  std::smatch m;
  REQUIRE(std::regex_search(element, m, std::regex(" " + name + "=\"([-0-9.]+)\"")));
  return std::stod(m[1]);
}

// Every element <TAG ...> ... in `text`, as its text up to the end of its line.
std::vector<std::string> elements(const std::string& text, const std::string& tag) {
  std::vector<std::string> out;
  for (size_t at = text.find("<" + tag + " "); at != std::string::npos;
       at = text.find("<" + tag + " ", at + 1))
    out.push_back(text.substr(at, text.find('\n', at) - at));
  return out;
}

void checkRoot(const std::string& svg) {
  CHECK(svg.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 0) == 0);
  CHECK(svg.find("xmlns=\"http://www.w3.org/2000/svg\"") != std::string::npos);
  CHECK(std::regex_search(svg, std::regex("<svg [^>]*viewBox=\"0 0 [0-9.]+ [0-9.]+\"")));
  CHECK(std::regex_search(svg, std::regex("<svg [^>]*width=\"[0-9.]+\" height=\"[0-9.]+\"")));
  CHECK(svg.size() >= 7);
  CHECK(svg.substr(svg.size() - 7) == "</svg>\n");
  CHECK(count(svg, "<svg ") == 1);
}

}  // namespace

TEST_CASE("a one-heap plot of a few heaps has one mark per heap", "[plot]") {
  brute::Table values = brute::subtraction(60, {1, 3, 4});
  std::string svg = gdsl::renderPlot(oneHeap("Sub", values));
  checkRoot(svg);
  CHECK(svg.find(">Sub(0..60)</text>") != std::string::npos);
  CHECK(svg.find(">heap</text>") != std::string::npos);
  CHECK(svg.find(">nim-value</text>") != std::string::npos);
  std::vector<std::string> marks = elements(group(svg, "marks"), "circle");
  REQUIRE(marks.size() == values.size());
  // Each mark names its heap and value; higher values are drawn higher (smaller y),
  // later heaps further right.
  std::map<brute::Value, double> yOfValue;
  double lastX = -1;
  for (size_t n = 0; n < marks.size(); ++n) {
    std::string v = values[n] == 0 ? "0" : "*" + std::to_string(values[n]);
    CHECK(marks[n].find("<title>Sub(" + std::to_string(n) + "): " + v + "</title>") !=
          std::string::npos);
    double x = attribute(marks[n], "cx"), y = attribute(marks[n], "cy");
    CHECK(x > lastX);
    lastX = x;
    auto [it, fresh] = yOfValue.emplace(values[n], y);
    CHECK(it->second == y);
  }
  REQUIRE(yOfValue.size() == 4);  // values 0..3
  CHECK(yOfValue[0] > yOfValue[1]);
  CHECK(yOfValue[1] > yOfValue[2]);
  CHECK(yOfValue[2] > yOfValue[3]);
}

TEST_CASE("a plot of 10^5 heaps is binned into few marks", "[plot]") {
  // Kayles: values 0..8 up to heap 70, then 1, 2, 4, 7 and 8 with period 12.
  brute::Table kayles = brute::octal("0.77", 1000);
  brute::Table values(100001);
  for (size_t n = 0; n < values.size(); ++n)
    values[n] = n <= 1000 ? kayles[n] : kayles[1000 - 12 + (n - 1000) % 12];
  std::string svg = gdsl::renderPlot(oneHeap("Kayles", values));
  checkRoot(svg);
  std::vector<std::string> marks = elements(group(svg, "marks"), "rect");
  CHECK(svg.size() < 100'000);
  CHECK(marks.size() < 1000);
  CHECK(count(svg, "<circle") == 0);
  // One band per value that occurs.
  std::set<double> bands;
  double left = 1e9, right = 0;
  for (const std::string& m : marks) {
    bands.insert(attribute(m, "y"));
    left = std::min(left, attribute(m, "x"));
    right = std::max(right, attribute(m, "x") + attribute(m, "width"));
  }
  std::set<brute::Value> occurring(values.begin(), values.end());
  CHECK(occurring.size() == 9);
  CHECK(bands.size() == occurring.size());
  CHECK(right - left == Approx(gdsl::kPlotWidth));
}

TEST_CASE("noisy values of 10^5 and 10^6 heaps stay within the mark budget", "[plot]") {
  for (int64_t n : {100'000, 1'000'000}) {
    brute::Table values(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) values[i] = (static_cast<uint64_t>(i) * 2654435761u >> 7) % 400;
    std::string svg = gdsl::renderPlot(oneHeap("Noise", values));
    checkRoot(svg);
    size_t marks = elements(group(svg, "marks"), "rect").size();
    CHECK(marks > 100);
    CHECK(marks <= static_cast<size_t>(gdsl::kMaxDensityMarks));
    CHECK(svg.size() < 2'000'000);
  }
}

TEST_CASE("a grid has one cell per position, Wythoff's P-positions in black", "[plot]") {
  // Not square, so that exchanging the axes would show.
  const int maxA = 14, maxB = 25;
  std::string svg = gdsl::renderPlot(twoParams("Wythoff", brute::wythoff(maxA, maxB)));
  checkRoot(svg);
  CHECK(svg.find(">Wythoff(0..14, 0..25)</text>") != std::string::npos);
  std::set<std::pair<int, int>> expectedP;
  for (auto [a, b] : brute::wythoffPPositions(30)) {
    if (a <= maxA && b <= maxB) expectedP.insert({a, b});
    if (b <= maxA && a <= maxB) expectedP.insert({b, a});
  }
  REQUIRE(expectedP.size() == 15);  // (0, 0), (1, 2), (2, 1), ..., (14, 23)

  std::vector<std::string> cells = elements(group(svg, "cells"), "rect");
  REQUIRE(cells.size() == (maxA + 1) * (maxB + 1));
  std::set<std::pair<int, int>> seen, drawnP;
  std::regex named("<title>Wythoff\\((\\d+), (\\d+)\\): ([*0-9]+), ([PN])</title>");
  for (const std::string& c : cells) {
    std::smatch m;
    REQUIRE(std::regex_search(c, m, named));
    int a = std::stoi(m[1]), b = std::stoi(m[2]);
    seen.insert({a, b});
    bool black = c.find(std::string("fill=\"") + gdsl::kPColour + "\"") != std::string::npos;
    if (black) drawnP.insert({a, b});
    CHECK(black == (m[3] == "0"));
    CHECK(black == (m[4] == "P"));
    // The first parameter runs down, the second across.
    double size = attribute(c, "width");
    CHECK(attribute(c, "height") == size);
    CHECK(attribute(c, "x") == Approx(attribute(cells[0], "x") + b * size));
    CHECK(attribute(c, "y") == Approx(attribute(cells[0], "y") + a * size));
  }
  CHECK(seen.size() == cells.size());
  CHECK(drawnP == expectedP);
  // A white dot marks each P cell; the legend shows the P colour.
  CHECK(elements(group(svg, "p-marks"), "circle").size() == expectedP.size());
  CHECK(group(svg, "legend").find(gdsl::kPColour) != std::string::npos);
}

TEST_CASE("a large grid is binned into blocks showing their smallest value", "[plot]") {
  brute::Grid grid(1001, brute::Table(1001));
  for (int a = 0; a <= 1000; ++a)
    for (int b = 0; b <= 1000; ++b) grid[a][b] = (a * 7 + b * 13) % 50 + 1;
  grid[500][500] = 0;  // one P-position
  std::string svg = gdsl::renderPlot(twoParams("Big", grid));
  checkRoot(svg);
  std::vector<std::string> cells = elements(group(svg, "cells"), "rect");
  CHECK(cells.size() <= static_cast<size_t>(gdsl::kGridMaxSide * gdsl::kGridMaxSide));
  CHECK(cells.size() > 10000);
  CHECK(svg.size() < 2'000'000);
  CHECK(count(group(svg, "cells"), std::string("fill=\"") + gdsl::kPColour + "\"") == 1);
}

TEST_CASE("a fixed parameter appears in the positions; text is escaped", "[plot]") {
  TableResult t = oneHeap("B<&>", brute::bash(5, 2));
  t.params = {{0, 5}, {2, 2}};
  t.names = {"n", "k"};
  t.title = "B<&>(0..5, 2)";
  std::string svg = gdsl::renderPlot(t);
  CHECK(svg.find(">B&lt;&amp;&gt;(0..5, 2)</text>") != std::string::npos);
  CHECK(svg.find("<title>B&lt;&amp;&gt;(4, 2): *1</title>") != std::string::npos);
  CHECK(svg.find("B<&>") == std::string::npos);
}

TEST_CASE("a table without ranges is not plotted", "[plot]") {
  TableResult t;
  CHECK_THROWS_AS(gdsl::renderPlot(t), std::invalid_argument);
}

TEST_CASE("a table over dependent ranges is drawn over its box, only its positions filled",
          "[plot]") {
  // Wythoff below the diagonal: W(a in 0..14, b in 0..a), as Runner::listedTable lists it.
  brute::Grid w = brute::wythoff(14, 14);
  TableResult t;
  t.game = "Wythoff";
  t.title = "Wythoff(a in 0..14, b in 0..a)";
  t.listed = true;
  t.names = {"a", "b"};
  t.params = t.ranges = {{0, 14}, {0, 14}};
  t.lastRange = 1;
  for (int a = 0; a <= 14; ++a)
    for (int b = 0; b <= a; ++b) {
      t.positions.push_back({a, b});
      t.values.push_back(w[a][b]);
    }
  std::string svg = gdsl::renderPlot(t);
  checkRoot(svg);
  std::vector<std::string> cells = elements(group(svg, "cells"), "rect");
  CHECK(cells.size() == t.positions.size());  // 120 of the 225 cells of the box
  std::regex named("<title>Wythoff\\((\\d+), (\\d+)\\): ([*0-9]+), ([PN])</title>");
  for (const std::string& c : cells) {
    std::smatch m;
    REQUIRE(std::regex_search(c, m, named));
    int a = std::stoi(m[1]), b = std::stoi(m[2]);
    CHECK(b <= a);
    CHECK((m[3] == "0") == (w[a][b] == 0));
  }
  // Three ranges cannot be drawn.
  t.ranges.push_back({0, 0});
  CHECK_THROWS_AS(gdsl::renderPlot(t), std::invalid_argument);
}

namespace {

// A loopy game's table: `values` with the cells in `infinite` made infinite.
TableResult withInfinite(TableResult t,
                         const std::map<std::pair<size_t, int64_t>, gdsl::LoopyValue>& infinite) {
  t.infinite.resize(t.rows.size());
  for (const auto& [at, v] : infinite) t.infinite[at.first][at.second] = v;
  return t;
}

gdsl::LoopyValue inf(std::vector<uint32_t> k) {
  return gdsl::LoopyValue{true, 0, std::move(k)};
}

}  // namespace

TEST_CASE(
    "a loopy game's infinite values are drawn apart from the numbers, draws in their own colour",
    "[plot]") {
  // 40 heaps: every fifth from 3 a draw, heaps 6 and 20 infinite wins.
  brute::Table values = brute::subtraction(39, {1, 2});
  std::map<std::pair<size_t, int64_t>, gdsl::LoopyValue> infinite;
  for (int64_t i = 3; i < 40; i += 5) infinite[{0, i}] = inf({});
  infinite[{0, 6}] = inf({0, 2});
  infinite[{0, 20}] = inf({0});
  std::string svg = gdsl::renderPlot(withInfinite(oneHeap("L", values), infinite));
  checkRoot(svg);
  std::vector<std::string> numbers = elements(group(svg, "marks"), "circle");
  std::vector<std::string> draws = elements(group(svg, "draws"), "circle");
  std::vector<std::string> wins = elements(group(svg, "infinite-wins"), "circle");
  CHECK(numbers.size() == values.size() - infinite.size());
  REQUIRE(draws.size() == 8);
  REQUIRE(wins.size() == 2);
  CHECK(draws[0].find("<title>L(3): ∞(∅), D</title>") != std::string::npos);
  CHECK(wins[0].find("<title>L(6): ∞(0,2), N</title>") != std::string::npos);
  CHECK(wins[1].find("<title>L(20): ∞(0), N</title>") != std::string::npos);
  CHECK(group(svg, "draws").find(gdsl::kDrawColour) != std::string::npos);
  CHECK(group(svg, "infinite-wins").find(gdsl::kInfiniteWinColour) != std::string::npos);
  // No number is drawn at an infinite heap, and the strips lie above every number.
  double lowestStrip = 0;
  for (const std::string& d : draws) lowestStrip = std::max(lowestStrip, attribute(d, "cy"));
  for (const std::string& n : numbers) {
    CHECK(n.find("L(3)") == std::string::npos);
    CHECK(attribute(n, "cy") > lowestStrip);
  }

  // 10^5 heaps, the second half draws: one band from the middle of the plot to its end.
  brute::Table many(100000, 1);
  std::map<std::pair<size_t, int64_t>, gdsl::LoopyValue> half;
  for (int64_t i = 50000; i < 100000; ++i) half[{0, i}] = inf({});
  std::string dense = gdsl::renderPlot(withInfinite(oneHeap("L", many), half));
  std::vector<std::string> bands = elements(group(dense, "draws"), "rect");
  REQUIRE(bands.size() == 1);
  CHECK(attribute(bands[0], "width") == Approx(gdsl::kPlotWidth / 2.0));
  CHECK(elements(group(dense, "infinite-wins"), "rect").empty());

  // A grid: the draws and the infinite wins in their colours, named in the legend.
  brute::Grid grid(6, brute::Table(6, 1));
  std::map<std::pair<size_t, int64_t>, gdsl::LoopyValue> cells{{{2, 3}, inf({})},
                                                               {{4, 0}, inf({0, 1})}};
  std::string g = gdsl::renderPlot(withInfinite(twoParams("T", grid), cells));
  std::vector<std::string> rects = elements(group(g, "cells"), "rect");
  REQUIRE(rects.size() == 36);
  int drawn = 0, won = 0;
  for (const std::string& c : rects) {
    if (c.find(gdsl::kDrawColour) != std::string::npos) {
      ++drawn;
      CHECK(c.find("<title>T(2, 3): ∞(∅), D</title>") != std::string::npos);
    }
    if (c.find(gdsl::kInfiniteWinColour) != std::string::npos) {
      ++won;
      CHECK(c.find("<title>T(4, 0): ∞(0,1), N</title>") != std::string::npos);
    }
  }
  CHECK(drawn == 1);
  CHECK(won == 1);
  CHECK(group(g, "legend").find(gdsl::kDrawColour) != std::string::npos);
  CHECK(group(g, "legend").find(gdsl::kInfiniteWinColour) != std::string::npos);
}
