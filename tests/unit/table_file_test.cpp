// Table files (runtime/TableFile.h): values kept across growth, widening to
// 32 bits, flushes, a SIGKILL (in a forked child) and reopening; damaged,
// truncated and locked files refused and left byte for byte as they were;
// and Grundy's game computed by the take-and-break solver into a table file,
// stopped and resumed at several heaps, equal to the uninterrupted solver
// and to the independent brute force.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "brute_force.h"
#include "runtime/Checkpoint.h"
#include "runtime/TableFile.h"
#include "runtime/TakeBreakSolver.h"
#include "test_scale.h"

namespace {

namespace fs = std::filesystem;

// A fresh directory for one test case, removed with what it holds when the
// case ends.
struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("gdsl-table-file-" + std::to_string(getpid()));
  Scratch() {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~Scratch() {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
  }
  fs::path file(const std::string& name) const { return dir / name; }
};

std::string bytesOf(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Made-up values: small, with one that does not fit in 16 bits at `wideAt`.
uint32_t valueAt(int64_t i, int64_t wideAt) {
  return i == wideAt ? 70000u
                     : static_cast<uint32_t>((static_cast<uint64_t>(i) * 2654435761u) % 1000);
}

std::unique_ptr<gdsl::TableFile> reopen(const fs::path& path, std::string& error) {
  std::unique_ptr<gdsl::TableFile> file;
  gdsl::TableFile::Open r = gdsl::TableFile::open(path.string(), file, error);
  INFO(error);
  REQUIRE(r == gdsl::TableFile::Open::Opened);
  return file;
}

// Grundy's game by the solver, heaps from..to-1 pushed onto `table`.
void grundy(gdsl::NimTable& table, int64_t to) {
  gdsl::ir::TakeBreakShape shape;
  shape.twoUnequal = {0};
  gdsl::TakeBreakSolver solver(shape, gdsl::SparseOptions{});
  while (table.size() < to) table.push(solver.next(table));
}

}  // namespace

TEST_CASE("a table file keeps its values across growth, widening, a kill and reopening",
          "[tablefile]") {
  const Scratch scratch;
  const fs::path path = scratch.file("kill.tab");
  const int64_t flushed = brute::scaled(2'000'000, 300'000), wideAt = flushed + 1000;
  const int64_t killedAt = flushed + 200'000;
  // A child fills the file, flushes, widens it past the flush, and is killed.
  pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    gdsl::NimTable table;
    for (int64_t i = 0; i < 1000; ++i) table.push(valueAt(i, wideAt));
    auto file = gdsl::TableFile::create(path.string(), 42, "G", table);
    while (table.size() < flushed) table.push(valueAt(table.size(), wideAt));
    file->flush(table);
    while (table.size() < killedAt) table.push(valueAt(table.size(), wideAt));
    raise(SIGKILL);
    _exit(3);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGKILL);
  CHECK_FALSE(fs::exists(path.string() + ".tmp"));

  // The file counts what was flushed, in 32 bits since the widening.
  std::string error;
  auto file = reopen(path, error);
  CHECK(file->game() == "G");
  CHECK(file->fingerprint() == 42);
  CHECK(file->count() == flushed);
  gdsl::NimTable table;
  REQUIRE(file->load(table, error));
  REQUIRE(table.size() == flushed);
  CHECK(table.wide());
  for (int64_t i = 0; i < flushed; ++i)
    if (table[i] != valueAt(i, wideAt)) FAIL("value " << i << " is " << table[i]);
  // Grown on from there, flushed, closed: the file is cut to the values it counts.
  while (table.size() < killedAt) table.push(valueAt(table.size(), wideAt));
  file->flush(table);
  table = gdsl::NimTable();
  file.reset();
  CHECK(fs::file_size(path) == gdsl::kTableFileHeaderBytes + static_cast<size_t>(killedAt) * 4);
  file = reopen(path, error);
  CHECK(file->count() == killedAt);
  REQUIRE(file->load(table, error));
  CHECK(table[killedAt - 1] == valueAt(killedAt - 1, wideAt));
  CHECK(table[wideAt] == 70000u);
}

TEST_CASE("a damaged, truncated or locked table file is refused and left as it was",
          "[tablefile]") {
  const Scratch scratch;
  const fs::path path = scratch.file("refuse.tab");
  {
    gdsl::NimTable table;
    auto file = gdsl::TableFile::create(path.string(), 7, "G", table);
    for (int64_t i = 0; i < 100'000; ++i) table.push(valueAt(i, -1));
    file->flush(table);
  }
  const std::string good = bytesOf(path);
  auto refused = [&](const std::string& bytes, const std::string& expected) {
    {
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out << bytes;
    }
    std::unique_ptr<gdsl::TableFile> file;
    std::string error;
    gdsl::TableFile::Open r = gdsl::TableFile::open(path.string(), file, error);
    if (r == gdsl::TableFile::Open::Opened) {
      gdsl::NimTable table;
      CHECK_FALSE(file->load(table, error));
      CHECK(table.empty());
      file.reset();
    } else {
      CHECK(r == gdsl::TableFile::Open::Failed);
    }
    INFO(error);
    CHECK(error.find(path.string()) != std::string::npos);
    CHECK(error.find(expected) != std::string::npos);
    CHECK(bytesOf(path) == bytes);
  };
  std::string value = good, header = good, version = good;
  value[gdsl::kTableFileHeaderBytes + 5000] ^= 1;
  header[33] ^= 1;  // the count
  version[8] = 9;
  refused(value, "its values do not match the checksum in its header");
  refused(header, "its header does not match its checksum");
  refused(version, "was written by another version of gdsl (table format 9");
  refused(good.substr(0, good.size() - 2),
          "it is cut short: its header counts 100000 values, it holds 99999");
  refused(good.substr(0, 100), "it is shorter than its header (100 bytes)");
  refused("game G(n) { take 1 }\n", "is not a gdsl table file");

  // One run at a time: a second open of a file in use is refused.
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << good;
  }
  std::string error;
  auto first = reopen(path, error);
  std::unique_ptr<gdsl::TableFile> second;
  CHECK(gdsl::TableFile::open(path.string(), second, error) == gdsl::TableFile::Open::Failed);
  CHECK(error.find("is in use by another gdsl run") != std::string::npos);
  first.reset();
  CHECK(bytesOf(path) == good);
  fs::remove(path);
  CHECK(gdsl::TableFile::open(path.string(), second, error) == gdsl::TableFile::Open::Missing);
}

TEST_CASE("Grundy's game resumed from a table file equals the uninterrupted solver",
          "[tablefile]") {
  const int64_t heaps = brute::scaled(60'000, 20'000);
  gdsl::NimTable reference;
  grundy(reference, heaps);
  // The solver against the independent brute force for small heaps.
  brute::Table brute = brute::grundyGame(2000);
  for (int64_t i = 0; i <= 2000; ++i) REQUIRE(reference[i] == brute[static_cast<size_t>(i)]);

  // Stopped at each of these heaps (values computed past the last flush are
  // lost, as in a kill), then resumed by a new solver that has only the table.
  const Scratch scratch;
  const fs::path path = scratch.file("grundy.tab");
  for (int64_t stop : {int64_t{100}, int64_t{511}, int64_t{4097}, heaps / 2}) {
    INFO("stopped at heap " << stop);
    fs::remove(path);
    {
      gdsl::NimTable table;
      auto file = gdsl::TableFile::create(path.string(), 1, "Grundy", table);
      grundy(table, stop);
      file->flush(table);
      grundy(table, stop + 1000);  // not flushed
    }
    std::string error;
    auto file = reopen(path, error);
    gdsl::NimTable table;
    REQUIRE(file->load(table, error));
    REQUIRE(table.size() == stop);
    grundy(table, heaps);
    file->flush(table);
    for (int64_t i = 0; i < heaps; ++i)
      if (table[i] != reference[i])
        FAIL("heap " << i << ": " << table[i] << " != " << reference[i]);
  }
  fs::remove(path);
}
