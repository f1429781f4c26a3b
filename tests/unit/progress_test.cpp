// The progress bar's time left (driver/Progress.h, TimeLeft) on synthetic
// clocks: a plain-method table, whose heap n costs about n (time ~ n^2), is
// estimated from a third of the way with the method's exponent and with a
// fitted one, where the linear estimate is far too short (it said 21 s for a
// table that took 230 s); near-linear and constant costs; a long run whose
// reports are thinned. And the take-and-break solver's cost exponent.
#include "driver/Progress.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "runtime/TakeBreakSolver.h"

namespace {

// Reports every 0.1 s of a run that has done units(t) units at time t, until
// `until` seconds; returns the units done by then.
template <class Units>
int64_t feed(gdsl::TimeLeft& t, Units units, double until) {
  int64_t done = 0;
  for (int tick = 0; tick <= static_cast<int>(until * 10 + 0.5); ++tick) {
    done = units(tick / 10.0);
    t.add(tick / 10.0, done);
  }
  return done;
}

}  // namespace

TEST_CASE("the time left of a quadratic table follows the method's cost model", "[progress]") {
  // 10^6 heaps in 230 s, time a * n^2; reports for the first 25 s (a third of the heaps).
  const int64_t target = 1'000'000;
  const double a = 230.0 / 1e12;
  auto seconds = [&](double n) { return a * n * n; };
  auto units = [&](double t) { return static_cast<int64_t>(std::sqrt(t / a)); };
  gdsl::TimeLeft t;
  int64_t done = feed(t, units, 25);
  double truth = seconds(static_cast<double>(target)) - seconds(static_cast<double>(done));
  INFO("done " << done << ", truth " << truth << " s");
  CHECK(t.estimate(target, 1) == Approx(truth).epsilon(0.05));
  CHECK(t.fittedExponent() == Approx(1).margin(0.1));
  CHECK(t.estimate(target, -1) == Approx(truth).epsilon(0.15));
  // The linear model (the bar before): less than half of the truth.
  CHECK(t.estimate(target, 0) < 0.5 * truth);
  CHECK(t.rate() > 0);
}

TEST_CASE("the time left of near-linear and constant costs", "[progress]") {
  const int64_t target = 10'000'000;
  SECTION("cost per heap growing as n^0.1, fitted") {
    const double b = 60.0 / std::pow(1e7, 1.1);
    auto units = [&](double t) { return static_cast<int64_t>(std::pow(t / b, 1 / 1.1)); };
    gdsl::TimeLeft t;
    int64_t done = feed(t, units, 10);
    double truth = 60 - b * std::pow(static_cast<double>(done), 1.1);
    CHECK(t.fittedExponent() == Approx(0.1).margin(0.05));
    CHECK(t.estimate(target, -1) == Approx(truth).epsilon(0.05));
  }
  SECTION("constant cost: every exponent fitted or given as 0 is exact") {
    auto units = [&](double t) { return static_cast<int64_t>(t * 100000); };
    gdsl::TimeLeft t;
    feed(t, units, 20);
    CHECK(t.fittedExponent() == Approx(0).margin(0.02));
    CHECK(t.estimate(target, 0) == Approx(80).epsilon(0.01));
    CHECK(t.estimate(target, -1) == Approx(80).epsilon(0.03));
    CHECK(t.rate() == Approx(100000).epsilon(0.01));
  }
  SECTION("a long run: thousands of reports, thinned, still right") {
    const double a = 3600.0 / 1e16;  // 10^8 heaps in an hour, quadratic
    auto units = [&](double t) { return static_cast<int64_t>(std::sqrt(t / a)); };
    gdsl::TimeLeft t;
    int64_t done = feed(t, units, 900);
    double truth = 3600 - a * static_cast<double>(done) * static_cast<double>(done);
    CHECK(t.estimate(100'000'000, 1) == Approx(truth).epsilon(0.05));
  }
  SECTION("nothing known before two reports, and nothing left at the target") {
    gdsl::TimeLeft t;
    CHECK(t.estimate(target, 1) < 0);
    t.add(0, 0);
    CHECK(t.estimate(target, 1) < 0);
    t.add(1, 1000);
    CHECK(t.estimate(1000, 1) == 0);
    CHECK(gdsl::progressLine("G", "heaps", 5, 10, 2, -1).find("? left") != std::string::npos);
    CHECK(gdsl::progressLine("G", "heaps", 5, 10, 2, 9000).find("2.5 h left") != std::string::npos);
  }
}

TEST_CASE("the take-and-break solver's cost exponent", "[progress]") {
  gdsl::ir::TakeBreakShape grundy;
  grundy.twoUnequal = {0};
  auto exponentAt = [](const gdsl::ir::TakeBreakShape& shape, gdsl::SparseOptions options,
                       int64_t heaps) {
    gdsl::TakeBreakSolver solver(shape, options);
    gdsl::NimTable table;
    while (table.size() < heaps) table.push(solver.next(table));
    return solver.costExponent();
  };
  gdsl::SparseOptions plain;
  plain.enabled = false;
  CHECK(exponentAt(grundy, plain, 5000) == 1);
  gdsl::ir::TakeBreakShape removals;
  removals.one = {1, 2};
  CHECK(exponentAt(removals, gdsl::SparseOptions{}, 5000) == 0);
  // Sparse space on Grundy's game: few rare heaps, far below the plain method's 1.
  double sparse = exponentAt(grundy, gdsl::SparseOptions{}, 1 << 17);
  CHECK(sparse >= 0);
  CHECK(sparse < 0.5);
  CHECK(exponentAt(grundy, gdsl::SparseOptions{}, 2000) == -1);  // too few doublings yet
}
