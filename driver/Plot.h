// Pictures of value tables as standalone SVG (`gdsl plot`, docs/plots.md). A
// one-range table becomes a scatter plot of nim-value against heap, binned into a
// density plot when there are more heaps than pixel columns; a two-range table
// becomes a grid of cells coloured by value, P-positions in black, a loopy
// game's draws in their own colour. Pure rendering
// from a TableResult to text: no engine, no files.
#pragma once

#include <string>
#include <string_view>

#include "driver/Results.h"

namespace gdsl {

// The scatter plot's drawing area, in pixels. With at most kPlotWidth heaps each heap
// gets one mark; with more, heaps are binned into pixel columns.
inline constexpr int kPlotWidth = 900;
inline constexpr int kPlotHeight = 480;
// A density plot draws at most this many rectangles: when its cells would need more,
// columns and value rows are merged two by two until they fit.
inline constexpr int kMaxDensityMarks = 20000;
// A grid draws at most this many cells along each side; a longer range is binned
// into blocks, each showing the smallest value in it (so a block holding a
// P-position is black).
inline constexpr int kGridMaxSide = 160;
// Grid cells carry a tooltip (`<title>`) naming the position when there are at most
// this many of them.
inline constexpr int kMaxTitledCells = 10000;
// The colour of value 0 in a grid.
inline constexpr const char* kPColour = "#000000";
// A loopy game's infinite values (runtime/Loopy.h), apart from the numbers: a
// draw, and an infinite value that is a win (0 in K). A one-range plot draws
// them in two strips above the numbers; a grid colours their cells.
inline constexpr const char* kDrawColour = "#c0392b";
inline constexpr const char* kInfiniteWinColour = "#e67e22";

// Text for XML character data and attribute values (`&`, `<`, `>`, `"`
// escaped): SVG here, HTML in driver/NotebookOutput.cpp.
std::string escapeXml(std::string_view text);

// The SVG document for a table with one or two ranges (std::invalid_argument
// otherwise).
std::string renderPlot(const TableResult& table);

}  // namespace gdsl
