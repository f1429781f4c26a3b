// Rendering value tables as SVG: the scatter (or density) plot of a one-heap table
// and the value grid of a two-parameter table, with axes, ticks and a legend
// (docs/plots.md explains the binning and the palette).
#include "driver/Plot.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "runtime/Loopy.h"

namespace gdsl {

namespace {

// A cell of a grid that holds no position of the table (its value otherwise).
constexpr uint32_t kNoPosition = UINT32_MAX;

constexpr const char* kInk = "#1f4e99";   // scatter marks
constexpr const char* kAxis = "#333333";  // axes, ticks and labels
// Grid cells of those values, above every number (a block's smallest value
// is then a number when it holds one).
constexpr uint32_t kInfiniteWinCell = UINT32_MAX - 2;
constexpr uint32_t kDrawCell = UINT32_MAX - 1;

// A coordinate with at most two decimals and no trailing zeros.
std::string num(double v) {
  std::string s = fmt::format("{:.2f}", v);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string nimber(uint64_t v) {
  return v == 0 ? "0" : fmt::format("*{}", v);
}

// A tick step of 1, 2 or 5 times a power of ten giving about `target` ticks over
// `span` units (at least 1).
int64_t tickStep(int64_t span, int target) {
  double raw = static_cast<double>(std::max<int64_t>(span, 1)) / std::max(target, 1);
  int64_t step = 1;
  while (true) {
    for (int64_t m : {1, 2, 5}) {
      if (static_cast<double>(step * m) >= raw) return step * m;
    }
    step *= 10;
  }
}

// The multiples of a nice step in [lo, hi] (0 <= lo), without overflowing
// near INT64_MAX.
std::vector<int64_t> ticks(int64_t lo, int64_t hi, int target) {
  std::vector<int64_t> out;
  if (hi < lo) return out;
  int64_t step = tickStep(hi - lo, target);
  int64_t v = lo / step * step;
  if (v < lo && __builtin_add_overflow(v, step, &v)) return out;
  while (v <= hi) {
    out.push_back(v);
    if (__builtin_add_overflow(v, step, &v)) break;
  }
  return out;
}

// Viridis (matplotlib) at 0, 0.1, ..., 1.
constexpr std::array<uint32_t, 11> kViridis = {0x440154, 0x482475, 0x414487, 0x355f8d,
                                               0x2a788e, 0x21918c, 0x22a884, 0x44bf70,
                                               0x7ad151, 0xbddf26, 0xfde725};

std::string rgb(uint32_t c) {
  return fmt::format("#{:06x}", c);
}

uint32_t viridis(double t) {
  t = std::clamp(t, 0.0, 1.0) * 10;
  size_t i = std::min<size_t>(static_cast<size_t>(t), 9);
  double f = t - static_cast<double>(i);
  uint32_t a = kViridis[i], b = kViridis[i + 1], out = 0;
  for (int shift : {16, 8, 0}) {
    double x = ((a >> shift) & 0xff) * (1 - f) + ((b >> shift) & 0xff) * f;
    out |= static_cast<uint32_t>(std::lround(x)) << shift;
  }
  return out;
}

// The grid palette: 0 is black; 1..maxValue run from viridis' yellow (small) to its
// indigo at 0.2 (large), never as dark as the P-positions.
std::string cellColour(uint32_t v, uint32_t maxValue) {
  if (v == 0) return kPColour;
  double t = maxValue <= 1 ? 0.0 : static_cast<double>(v - 1) / (maxValue - 1);
  return rgb(viridis(1.0 - 0.8 * t));
}

// The SVG document under construction.
class Svg {
 public:
  Svg(double width, double height) {
    out_ += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out_ += fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
        "viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\" font-size=\"12\">\n",
        num(width), num(height));
    out_ += fmt::format("<rect width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>\n", num(width),
                        num(height));
  }
  std::string& raw() { return out_; }
  // `anchor` is start, middle or end; `extra` more attributes.
  void text(double x, double y, std::string_view s, const char* anchor = "start",
            const std::string& extra = "") {
    out_ += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"{}\"{}{}>{}</text>\n", num(x),
                        num(y), anchor, extra.empty() ? "" : " ", extra, escapeXml(s));
  }
  void line(double x1, double y1, double x2, double y2) {
    out_ += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>\n", num(x1), num(y1),
                        num(x2), num(y2));
  }
  std::string finish() {
    out_ += "</svg>\n";
    return std::move(out_);
  }

 private:
  std::string out_;
};

// Which parameter each range runs over: the parameters are walked in order, and a
// parameter whose bounds equal those of the next range is that range. (A fixed
// parameter is lo..lo, so it can be mistaken only for a one-value range with the same
// value, which names the same positions.)
std::vector<size_t> rangedParams(const TableResult& t) {
  std::vector<size_t> out;
  for (size_t i = 0; i < t.params.size() && out.size() < t.ranges.size(); ++i)
    if (t.params[i] == t.ranges[out.size()]) out.push_back(i);
  return out;
}

std::string paramName(const TableResult& t, size_t range) {
  std::vector<size_t> ranged = rangedParams(t);
  if (range < ranged.size() && ranged[range] < t.names.size()) return t.names[ranged[range]];
  return range == 0 && t.ranges.size() == 1 ? "n" : std::string(1, static_cast<char>('a' + range));
}

// The position (or block of positions) at the given text of each range:
// Wythoff(3, 5), Bash(7, 3), Wythoff(0..3, 4..7).
std::string positionText(const TableResult& t, const std::vector<std::string>& at) {
  std::vector<size_t> ranged = rangedParams(t);
  std::string s = t.game + "(";
  size_t next = 0;
  for (size_t i = 0; i < t.params.size(); ++i) {
    if (i) s += ", ";
    if (next < ranged.size() && ranged[next] == i && next < at.size())
      s += at[next++];
    else
      s += std::to_string(t.params[i].first);
  }
  return s + ")";
}

std::string span(int64_t lo, int64_t hi) {
  return lo == hi ? std::to_string(lo) : fmt::format("{}..{}", lo, hi);
}

// --- The scatter plot ---------------------------------------------------------------

constexpr double kLeft = 70, kTop = 50;
constexpr double kWidth = kLeft + kPlotWidth + 210, kHeight = kTop + kPlotHeight + 60;
// The strips of a loopy game's infinite values, above the plot.
constexpr double kStripsTop = 48, kStripHeight = 14;
constexpr int kShades = 6;
constexpr std::array<const char*, kShades> kOpacity = {".18", ".32", ".48", ".64", ".82", "1"};

// One rectangle of a density plot: columns [c0, c1) of value row `row`, shade 1..kShades.
struct DensityMark {
  int c0, c1, row, shade;
};

struct Density {
  int columns = kPlotWidth;
  int64_t rowValues = 1;  // values per row
  int rows = 1;
  double maxShare = 0;  // the largest share of a column's heaps in one cell
  std::vector<DensityMark> marks;
};

// Bins heaps into `columns` pixel columns and values into rows of `rowValues`, and
// merges runs of equal shade along each row.
// A loopy game's heaps of infinite value (`infinite`) are left out.
template <typename Infinite>
void binDensity(const NimTable& values, Density& d, Infinite infinite) {
  const int64_t n = values.size();
  std::vector<int64_t> count(static_cast<size_t>(d.columns) * d.rows, 0);
  std::vector<int64_t> perColumn(static_cast<size_t>(d.columns), 0);
  for (int64_t i = 0; i < n; ++i) {
    if (infinite(i)) continue;
    size_t c = static_cast<size_t>(i * d.columns / n);
    size_t r = static_cast<size_t>(values[i] / d.rowValues);
    ++count[r * d.columns + c];
    ++perColumn[c];
  }
  d.maxShare = 0;
  for (int r = 0; r < d.rows; ++r)
    for (int c = 0; c < d.columns; ++c)
      if (int64_t k = count[static_cast<size_t>(r) * d.columns + c])
        d.maxShare = std::max(d.maxShare, static_cast<double>(k) / perColumn[c]);
  d.marks.clear();
  for (int r = 0; r < d.rows; ++r) {
    int c = 0;
    while (c < d.columns) {
      int64_t k = count[static_cast<size_t>(r) * d.columns + c];
      if (k == 0) {
        ++c;
        continue;
      }
      auto shadeOf = [&](int col, int64_t cnt) {
        double share = static_cast<double>(cnt) / perColumn[col] / d.maxShare;
        return std::clamp(static_cast<int>(std::ceil(std::sqrt(share) * kShades)), 1, kShades);
      };
      int shade = shadeOf(c, k), c1 = c + 1;
      while (c1 < d.columns) {
        int64_t k1 = count[static_cast<size_t>(r) * d.columns + c1];
        if (k1 == 0 || shadeOf(c1, k1) != shade) break;
        ++c1;
      }
      d.marks.push_back({c, c1, r, shade});
      c = c1;
    }
  }
}

// The strips of a loopy game's one-range table: its infinite wins (0 in K)
// and its draws, one mark per heap (a circle of radius `r`), or with r = 0
// one band per run of heaps of the plot's pixel columns holding one.
template <typename XOf>
void infiniteStrips(Svg& svg, const TableResult& t, XOf xOf, double r) {
  const NimTable& values = t.rows.at(0);
  const int64_t lo = t.ranges[0].first, n = values.size();
  std::string& out = svg.raw();
  const char* names[2] = {"∞, a win", "∞, a draw"};
  const char* colours[2] = {kInfiniteWinColour, kDrawColour};
  const char* ids[2] = {"infinite-wins", "draws"};
  for (int strip = 0; strip < 2; ++strip) {
    const double y = kStripsTop + strip * kStripHeight + kStripHeight / 2;
    svg.text(kLeft - 8, y + 4, names[strip], "end", fmt::format("fill=\"{}\"", kAxis));
    out += fmt::format("<g id=\"{}\" fill=\"{}\">\n", ids[strip], colours[strip]);
    int64_t runFrom = -1;  // the first pixel column of the band being drawn
    auto close = [&](int64_t column) {
      if (runFrom < 0) return;
      out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n",
                         num(kLeft + runFrom), num(y - kStripHeight / 2 + 2), num(column - runFrom),
                         num(kStripHeight - 4));
      runFrom = -1;
    };
    int64_t column = 0;
    bool held = false;  // the pixel column `column` holds a heap of this strip
    for (int64_t i = 0; i < n; ++i) {
      const LoopyValue* v = t.infiniteAt(0, i);
      const bool here = v && (outcomeOf(*v) == 'D') == (strip == 1);
      if (r > 0) {
        if (here)
          out += fmt::format(
              "<circle cx=\"{}\" cy=\"{}\" r=\"{}\"><title>{}: {}, {}</title></circle>\n",
              num(xOf(static_cast<double>(i))), num(y), num(r),
              escapeXml(positionText(t, {std::to_string(lo + i)})), escapeXml(formatLoopy(*v)),
              outcomeOf(*v));
        continue;
      }
      const int64_t c = i * kPlotWidth / n;
      if (c != column) {
        if (!held) close(column);
        column = c;
        held = false;
      }
      if (here) {
        held = true;
        if (runFrom < 0) runFrom = column;
      }
    }
    if (!held) close(column);
    close(kPlotWidth);
    out += "</g>\n";
  }
}

std::string scatter(const TableResult& t) {
  const NimTable& values = t.rows.at(0);
  const int64_t lo = t.ranges[0].first, n = values.size();
  uint32_t maxValue = 0;
  for (int64_t i = 0; i < n; ++i) maxValue = std::max(maxValue, values[i]);
  const bool dense = n > kPlotWidth;
  // A loopy game's infinite values go in two strips above the plot, the
  // infinite wins and the draws, not among the numbers (values[i] is 0 there).
  const bool loopy = !t.infinite.empty() && !t.infinite[0].empty();
  const double top = loopy ? kStripsTop + 2 * kStripHeight + 16 : kTop;
  const double height = kHeight + (top - kTop);
  auto infinite = [&](int64_t i) { return loopy ? t.infiniteAt(0, i) : nullptr; };

  Density d;
  if (dense) {
    // Rows of at least 2 px; then coarser until the marks fit the budget.
    d.rowValues = (int64_t{maxValue} + 1 + kPlotHeight / 2 - 1) / (kPlotHeight / 2);
    while (true) {
      d.rows = static_cast<int>((int64_t{maxValue} + d.rowValues) / d.rowValues);
      binDensity(values, d, infinite);
      if (static_cast<int64_t>(d.marks.size()) <= kMaxDensityMarks) break;
      if (d.columns > 50) d.columns = (d.columns + 1) / 2;
      if (d.rows > 50) d.rowValues *= 2;
    }
  }
  // Values 0..yDomain-1 fill the height; heap i is at the middle of its slot.
  const double yDomain = dense ? static_cast<double>(d.rows * d.rowValues) : maxValue + 1.0;
  auto xOf = [&](double i) { return kLeft + (i + 0.5) * kPlotWidth / std::max<int64_t>(n, 1); };
  auto yOf = [&](double v) { return top + kPlotHeight - (v + 0.5) * kPlotHeight / yDomain; };

  Svg svg(kWidth, height);
  svg.text(kLeft, 28, t.title, "start", "font-size=\"16\" font-weight=\"bold\"");

  // Axes, ticks, grid lines and axis names.
  const double bottom = top + kPlotHeight, right = kLeft + kPlotWidth;
  svg.raw() += fmt::format("<g stroke=\"#e6e6e6\">\n");
  for (int64_t v : ticks(0, maxValue, 8)) svg.line(kLeft, yOf(v), right, yOf(v));
  svg.raw() += "</g>\n";
  svg.raw() += fmt::format("<g stroke=\"{}\">\n", kAxis);
  svg.line(kLeft, top, kLeft, bottom);
  svg.line(kLeft, bottom, right, bottom);
  for (int64_t h : ticks(lo, lo + (n - 1), 10))
    svg.line(xOf(h - lo), bottom, xOf(h - lo), bottom + 5);
  for (int64_t v : ticks(0, maxValue, 8)) svg.line(kLeft - 5, yOf(v), kLeft, yOf(v));
  svg.raw() += "</g>\n";
  svg.raw() += fmt::format("<g fill=\"{}\">\n", kAxis);
  for (int64_t h : ticks(lo, lo + (n - 1), 10))
    svg.text(xOf(h - lo), bottom + 18, std::to_string(h), "middle");
  for (int64_t v : ticks(0, maxValue, 8)) svg.text(kLeft - 8, yOf(v) + 4, std::to_string(v), "end");
  svg.text(kLeft + kPlotWidth / 2.0, bottom + 42, "heap", "middle");
  svg.text(18, top + kPlotHeight / 2.0, "nim-value", "middle",
           fmt::format("transform=\"rotate(-90 18 {})\"", num(top + kPlotHeight / 2.0)));
  svg.raw() += "</g>\n";
  if (n == 0) svg.text(kLeft + kPlotWidth / 2.0, top + kPlotHeight / 2.0, "(no heaps)", "middle");

  std::string& out = svg.raw();
  if (!dense) {
    // One circle per heap, with a tooltip.
    double r = std::clamp(0.45 * kPlotWidth / std::max<int64_t>(n, 1), 1.2, 4.0);
    out += fmt::format("<g id=\"marks\" fill=\"{}\">\n", kInk);
    for (int64_t i = 0; i < n; ++i) {
      if (infinite(i)) continue;
      std::string pos = positionText(t, {std::to_string(lo + i)});
      out += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"{}\"><title>{}: {}</title></circle>\n",
                         num(xOf(static_cast<double>(i))), num(yOf(values[i])), num(r),
                         escapeXml(pos), nimber(values[i]));
    }
    out += "</g>\n";
    if (loopy) infiniteStrips(svg, t, xOf, r);
    return svg.finish();
  }

  // The density plot: one rectangle per run of cells of equal shade.
  const double colWidth = static_cast<double>(kPlotWidth) / d.columns;
  const double rowHeight = static_cast<double>(kPlotHeight) / d.rows;
  // With one value per row a mark is a band of at most 3 px at the value's height.
  const double markHeight = d.rowValues == 1 ? std::min(rowHeight, 3.0) : rowHeight;
  // The marks of one shade share a group that sets their opacity.
  out += fmt::format("<g id=\"marks\" fill=\"{}\" shape-rendering=\"crispEdges\">\n", kInk);
  for (int shade = 1; shade <= kShades; ++shade) {
    out += fmt::format("<g fill-opacity=\"{}\">\n", kOpacity[static_cast<size_t>(shade - 1)]);
    for (const DensityMark& m : d.marks) {
      if (m.shade != shade) continue;
      double y = d.rowValues == 1 ? yOf(m.row) - markHeight / 2 : bottom - (m.row + 1) * rowHeight;
      out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n",
                         num(kLeft + m.c0 * colWidth), num(y), num((m.c1 - m.c0) * colWidth),
                         num(markHeight));
    }
    out += "</g>\n";
  }
  out += "</g>\n";

  // The legend: what a column and a row hold, and the shades.
  double lx = right + 20, ly = top + 10;
  const int64_t fewest = n / d.columns, most = (n + d.columns - 1) / d.columns;
  svg.text(lx, ly, "density", "start", "font-weight=\"bold\"");
  svg.text(lx, ly + 18,
           fewest == most ? fmt::format("column: {} heaps", most)
                          : fmt::format("column: {} or {} heaps", fewest, most));
  svg.text(lx, ly + 34,
           d.rowValues == 1 ? std::string("row: one value")
                            : fmt::format("row: {} values", d.rowValues));
  svg.text(lx, ly + 56, "share of a column's");
  svg.text(lx, ly + 70, "heaps with the value:");
  out += fmt::format("<g id=\"legend\" fill=\"{}\">\n", kInk);
  for (int s = kShades; s >= 1; --s) {
    double y = ly + 80 + (kShades - s) * 20;
    double upTo = d.maxShare * (s * s) / (kShades * kShades) * 100;
    out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"14\" fill-opacity=\"{}\"/>\n",
                       num(lx), num(y), kOpacity[static_cast<size_t>(s - 1)]);
    std::string percent = upTo >= 10 ? fmt::format("{:.0f}", upTo) : fmt::format("{:.1f}", upTo);
    svg.text(lx + 20, y + 11, fmt::format("up to {}%", percent), "start",
             fmt::format("fill=\"{}\"", kAxis));
  }
  out += "</g>\n";
  if (loopy) infiniteStrips(svg, t, xOf, 0);
  return svg.finish();
}

// --- The grid ---------------------------------------------------------------------

std::string grid(const TableResult& t) {
  const int64_t loA = t.ranges[0].first, loB = t.ranges[1].first;
  const int64_t nA = static_cast<int64_t>(t.rows.size());
  const int64_t nB = nA > 0 ? t.rows[0].size() : 0;
  // Blocks of kA x kB positions, at most kGridMaxSide along each side.
  const int64_t kA = std::max<int64_t>(1, (nA + kGridMaxSide - 1) / kGridMaxSide);
  const int64_t kB = std::max<int64_t>(1, (nB + kGridMaxSide - 1) / kGridMaxSide);
  const int64_t down = (nA + kA - 1) / kA, across = (nB + kB - 1) / kB;
  const bool binned = kA > 1 || kB > 1;
  std::vector<uint32_t> cell(static_cast<size_t>(down * across), UINT32_MAX);
  bool loopy = false;  // a cell holds an infinite value
  for (int64_t a = 0; a < nA; ++a)
    for (int64_t b = 0; b < nB; ++b) {
      uint32_t& c = cell[static_cast<size_t>((a / kA) * across + b / kB)];
      uint32_t v = t.rows[static_cast<size_t>(a)][b];
      if (const LoopyValue* inf = t.infiniteAt(static_cast<size_t>(a), b)) {
        v = outcomeOf(*inf) == 'D' ? kDrawCell : kInfiniteWinCell;
        loopy = true;
      }
      c = std::min(c, v);
    }
  uint32_t maxValue = 0;
  for (uint32_t v : cell)
    if (v < kInfiniteWinCell) maxValue = std::max(maxValue, v);

  // Whole pixels per cell: at least 640 / kGridMaxSide = 4, at most 24.
  const double area = 640;
  const double size = std::clamp(
      std::floor(std::min(area / std::max<int64_t>(across, 1), area / std::max<int64_t>(down, 1))),
      1.0, 24.0);
  const double left = 80, top = 86;
  const double gridW = size * across, gridH = size * down;
  const double legendX = left + gridW + 30;
  const double width = std::max(legendX + 170, 420.0);
  const double height = std::max(top + gridH + 30, top + 330);
  const std::string nameA = paramName(t, 0), nameB = paramName(t, 1);

  Svg svg(width, height);
  svg.text(left, 28, t.title, "start", "font-size=\"16\" font-weight=\"bold\"");
  std::string& out = svg.raw();

  // Cells, in rows of the first parameter (down) and columns of the second (across),
  // as `gdsl table` prints them.
  const bool titled = down * across <= kMaxTitledCells;
  out += "<g id=\"cells\" shape-rendering=\"crispEdges\">\n";
  for (int64_t i = 0; i < down; ++i)
    for (int64_t j = 0; j < across; ++j) {
      uint32_t v = cell[static_cast<size_t>(i * across + j)];
      if (v == kNoPosition) continue;  // outside a table with dependent ranges
      const char* special = v == kDrawCell          ? kDrawColour
                            : v == kInfiniteWinCell ? kInfiniteWinColour
                                                    : nullptr;
      out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"",
                         num(left + j * size), num(top + i * size), num(size), num(size),
                         special ? std::string(special) : cellColour(v, maxValue));
      if (!titled) {
        out += "/>\n";
        continue;
      }
      int64_t a0 = loA + i * kA, a1 = loA + (std::min((i + 1) * kA, nA) - 1);
      int64_t b0 = loB + j * kB, b1 = loB + (std::min((j + 1) * kB, nB) - 1);
      std::string pos = positionText(t, {span(a0, a1), span(b0, b1)});
      std::string what;
      if (binned && special)
        what = v == kDrawCell ? "draws only" : "infinite values only, a win among them";
      else if (binned)
        what = fmt::format("smallest value {}", nimber(v));
      else if (special)
        what = formatLoopy(*t.infiniteAt(static_cast<size_t>(i), j)) +
               (v == kDrawCell ? ", D" : ", N");
      else
        what = fmt::format("{}, {}", nimber(v), v == 0 ? "P" : "N");
      out += fmt::format("><title>{}: {}</title></rect>\n", escapeXml(pos), what);
    }
  out += "</g>\n";
  // A white dot in each P cell large enough to hold one.
  if (size >= 6) {
    out += "<g id=\"p-marks\" fill=\"#ffffff\">\n";
    for (int64_t i = 0; i < down; ++i)
      for (int64_t j = 0; j < across; ++j)
        if (cell[static_cast<size_t>(i * across + j)] == 0)
          out +=
              fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"{}\"/>\n", num(left + (j + 0.5) * size),
                          num(top + (i + 0.5) * size), num(size * 0.18));
    out += "</g>\n";
  }

  // Axes: the second parameter across the top, the first down the left side.
  out += fmt::format("<g fill=\"{}\">\n", kAxis);
  const int targetB = std::max(2, static_cast<int>(gridW / 50));
  const int targetA = std::max(2, static_cast<int>(gridH / 30));
  for (int64_t b : ticks(loB, loB + (nB - 1), targetB))
    svg.text(left + ((b - loB) / kB + 0.5) * size, top - 6, std::to_string(b), "middle");
  for (int64_t a : ticks(loA, loA + (nA - 1), targetA))
    svg.text(left - 6, top + ((a - loA) / kA + 0.5) * size + 4, std::to_string(a), "end");
  svg.text(left + gridW / 2, top - 26, fmt::format("{} = {} →", nameB, span(loB, loB + (nB - 1))),
           "middle");
  double midA = top + gridH / 2;
  svg.text(24, midA, fmt::format("{} = {} →", nameA, span(loA, loA + (nA - 1))), "middle",
           fmt::format("transform=\"rotate(90 24 {})\"", num(midA)));
  if (nA == 0 || nB == 0) svg.text(left, top + 20, "(no positions)");
  out += "</g>\n";

  // The legend.
  double lx = legendX, ly = top;
  svg.text(lx, ly, "value", "start", "font-weight=\"bold\"");
  if (binned) svg.text(lx, ly + 16, fmt::format("smallest in {} x {}", kA, kB));
  ly += binned ? 30 : 14;
  out += "<g id=\"legend\">\n";
  out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"16\" height=\"16\" fill=\"{}\"/>\n", num(lx),
                     num(ly), kPColour);
  out += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"#ffffff\"/>\n", num(lx + 8),
                     num(ly + 8));
  svg.text(lx + 24, ly + 12, "0 (P-position)");
  ly += 26;
  if (maxValue >= 1 && maxValue <= 12) {
    for (uint32_t v = 1; v <= maxValue; ++v, ly += 20) {
      out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"16\" height=\"16\" fill=\"{}\"/>\n",
                         num(lx), num(ly), cellColour(v, maxValue));
      svg.text(lx + 24, ly + 12, nimber(v));
    }
  } else if (maxValue > 12) {
    // A colour bar from *1 (top) to the largest value (bottom), stops at viridis' nodes.
    const double barH = 220;
    out += "<defs><linearGradient id=\"ramp\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"1\">";
    for (int k = 10; k >= 2; --k)
      out += fmt::format("<stop offset=\"{}\" stop-color=\"{}\"/>", num((1 - k / 10.0) / 0.8),
                         rgb(kViridis[static_cast<size_t>(k)]));
    out += "</linearGradient></defs>\n";
    out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"16\" height=\"{}\" fill=\"url(#ramp)\"/>\n",
                       num(lx), num(ly), num(barH));
    std::vector<int64_t> marks = ticks(1, maxValue, 6);
    if (marks.empty() || marks.front() != 1) marks.insert(marks.begin(), 1);
    for (int64_t v : marks) {
      double y = ly + barH * static_cast<double>(v - 1) / (maxValue - 1);
      svg.text(lx + 24, y + 4, nimber(static_cast<uint64_t>(v)));
    }
    ly += barH + 20;
  }
  if (loopy) {
    // A loopy game's infinite values: wins (0 in K) and draws.
    for (auto [colour, name] : {std::pair{kInfiniteWinColour, "∞, a win (0 in K)"},
                                std::pair{kDrawColour, "∞, a draw"}}) {
      out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"16\" height=\"16\" fill=\"{}\"/>\n",
                         num(lx), num(ly), colour);
      svg.text(lx + 24, ly + 12, name);
      ly += 20;
    }
  }
  out += "</g>\n";
  return svg.finish();
}

// A listed table over two ranges (`W(a in 0..9, b in 0..a)`) as a grid over
// its bounding box, where the cells of no position stay empty.
TableResult boxOf(const TableResult& t) {
  TableResult box;
  box.game = t.game;
  box.title = t.title;
  box.ranges = t.ranges;
  box.params = t.params;
  box.names = t.names;
  std::vector<size_t> ranged = rangedParams(t);
  const int64_t loA = t.ranges[0].first, loB = t.ranges[1].first;
  const int64_t nA = t.ranges[0].second - loA + 1, nB = t.ranges[1].second - loB + 1;
  if (nA > 10000 || nB > 10000)
    throw std::invalid_argument(
        "a plot of a table over dependent ranges spans at most 10000 "
        "values of each range");
  std::vector<std::vector<uint32_t>> cells(
      static_cast<size_t>(std::max<int64_t>(nA, 0)),
      std::vector<uint32_t>(static_cast<size_t>(std::max<int64_t>(nB, 0)), kNoPosition));
  for (size_t k = 0; k < t.positions.size(); ++k) {
    int64_t a = t.positions[k][ranged[0]] - loA, b = t.positions[k][ranged[1]] - loB;
    cells[static_cast<size_t>(a)][static_cast<size_t>(b)] =
        static_cast<uint32_t>(std::min<uint64_t>(t.values[k], kNoPosition - 1));
  }
  for (const std::vector<uint32_t>& row : cells) {
    NimTable out;
    for (uint32_t v : row) out.push(v);
    box.rows.push_back(std::move(out));
  }
  return box;
}

}  // namespace

std::string escapeXml(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string renderPlot(const TableResult& table) {
  if (table.listed) {
    if (table.ranges.size() != 2 || rangedParams(table).size() != 2)
      throw std::invalid_argument("a plot needs a table with one or two ranges");
    return grid(boxOf(table));
  }
  if (table.ranges.size() == 1 && table.rows.size() == 1) return scatter(table);
  if (table.ranges.size() == 2) return grid(table);
  throw std::invalid_argument("a plot needs a table with one or two ranges");
}

}  // namespace gdsl
