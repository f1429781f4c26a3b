// Results as MIME bundles for a notebook: the text output's text, with HTML
// tables and SVG plots beside it.
#include "driver/NotebookOutput.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "driver/Output.h"
#include "driver/Plot.h"

namespace gdsl {
namespace {

// A value's cell: `<td>`, bold for 0 (a P-position), ∞(K) for an infinite value.
std::string valueCell(uint64_t value, const LoopyValue* infinite) {
  if (infinite) return "<td>" + escapeXml(formatLoopy(*infinite)) + "</td>";
  return value == 0 ? "<td><b>0</b></td>" : fmt::format("<td>{}</td>", value);
}

std::string omitted(int64_t shown, int64_t all) {
  return shown < all
             ? fmt::format("<p><i>{} of {} values shown; the text has them all</i></p>", shown, all)
             : "";
}

// One range: rows of ten values, each row headed by its first position.
std::string oneRange(const TableResult& r) {
  const NimTable& row = r.rows[0];
  const int64_t lo = r.ranges[0].first, count = row.size();
  const int64_t shown = std::min(count, kHtmlTableCells);
  std::string html = "<table class=\"gdsl-table\"><thead><tr><th></th>";
  for (int c = 0; c < 10 && c < count; ++c) html += fmt::format("<th>+{}</th>", c);
  html += "</tr></thead><tbody>";
  for (int64_t i = 0; i < shown; i += 10) {
    html += fmt::format("<tr><th>{}</th>", lo + i);
    for (int64_t j = i; j < i + 10 && j < shown; ++j) html += valueCell(row[j], r.infiniteAt(0, j));
    html += "</tr>";
  }
  return html + "</tbody></table>" + omitted(shown, count);
}

// Two ranges: the first down, the second across.
std::string twoRanges(const TableResult& r) {
  const int64_t rows = static_cast<int64_t>(r.rows.size());
  const int64_t columns = rows ? r.rows[0].size() : 0;
  const int64_t shownColumns = std::min<int64_t>(columns, 100);
  const int64_t shownRows =
      std::min<int64_t>(rows, shownColumns ? kHtmlTableCells / shownColumns : 0);
  std::string html = "<table class=\"gdsl-table\"><thead><tr><th></th>";
  for (int64_t j = 0; j < shownColumns; ++j)
    html += fmt::format("<th>{}</th>", r.ranges[1].first + j);
  html += "</tr></thead><tbody>";
  for (int64_t i = 0; i < shownRows; ++i) {
    html += fmt::format("<tr><th>{}</th>", r.ranges[0].first + i);
    const auto row = static_cast<size_t>(i);
    for (int64_t j = 0; j < shownColumns; ++j)
      html += valueCell(r.rows[row][j], r.infiniteAt(row, j));
    html += "</tr>";
  }
  return html + "</tbody></table>" + omitted(shownRows * shownColumns, rows * columns);
}

// Positions listed one per row: a listed table, or `table [P for ...]`.
std::string positionRows(const TableResult& r) {
  const int64_t count = static_cast<int64_t>(r.values.size());
  const int64_t shown = std::min(count, kHtmlTableCells);
  std::string html =
      "<table class=\"gdsl-table\"><thead><tr><th>position</th><th>value</th></tr></thead><tbody>";
  for (int64_t k = 0; k < shown; ++k) {
    const auto i = static_cast<size_t>(k);
    std::string position;
    if (r.ofPositions) {
      position = r.positionShown.empty() || r.positionShown[i].empty() ? r.positionTexts[i]
                                                                       : r.positionShown[i];
    } else {
      position = r.game + "(";
      for (size_t p = 0; p < r.positions[i].size(); ++p)
        position += (p ? ", " : "") + std::to_string(r.positions[i][p]);
      position += ")";
    }
    html += "<tr><td><pre>" + escapeXml(position) + "</pre></td>" +
            valueCell(r.values[i], nullptr) + "</tr>";
  }
  return html + "</tbody></table>" + omitted(shown, count);
}

class NotebookOutput final : public Output {
 public:
  NotebookOutput(DisplayFn display, std::ostream& err, const SourceManager& sources)
      : display_(std::move(display)), text_(makeTextOutput(buffer_, err, sources)) {}

  void eval(const EvalResult& r) override {
    text_->eval(r);
    show({});
  }
  void misere(const MisereResult& r) override {
    text_->misere(r);
    show({});
  }
  void moves(const MovesResult& r) override {
    text_->moves(r);
    show({});
  }
  void table(const TableResult& r) override {
    text_->table(r);
    show({{"text/html", tableHtml(r)}});
  }
  // The picture, and as its text only the title: the values are the
  // table's (`table` prints them).
  void plot(const TableResult& r) override {
    display_({{"image/svg+xml", renderPlot(r)}, {"text/plain", "plot of " + r.title}});
  }
  void period(const PeriodResult& r) override {
    text_->period(r);
    show({});
  }
  void assertion(bool ok) override {
    text_->assertion(ok);
    show({});
  }
  void error(const Diagnostic& d) override { text_->error(d); }

 private:
  // Sends what the text output printed, with `more` beside it.
  void show(nlohmann::json more) {
    std::string text = buffer_.str();
    buffer_.str("");
    if (text.empty() && more.empty()) return;
    if (!text.empty() && text.back() == '\n') text.pop_back();
    more["text/plain"] = text;
    display_(more);
  }

  DisplayFn display_;
  std::ostringstream buffer_;
  std::unique_ptr<Output> text_;
};

}  // namespace

std::string tableHtml(const TableResult& r) {
  std::string html = "<div class=\"gdsl\"><p><b>" + escapeXml(r.title) + "</b></p>";
  if (r.ofPositions || r.listed)
    html += positionRows(r);
  else if (r.ranges.size() == 1)
    html += oneRange(r);
  else
    html += twoRanges(r);
  return html + "</div>";
}

std::unique_ptr<Output> makeNotebookOutput(DisplayFn display, std::ostream& err,
                                           const SourceManager& sources) {
  return std::make_unique<NotebookOutput>(std::move(display), err, sources);
}

}  // namespace gdsl
