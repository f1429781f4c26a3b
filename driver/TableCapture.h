// An Output that hands table results to a callback instead of printing them and
// passes everything else (errors above all) on to another Output. `gdsl plot`
// runs a table statement through it to draw the table rather than print it.
#pragma once

#include <functional>
#include <memory>

#include "driver/Results.h"

namespace gdsl {

class TableCapture : public Output {
 public:
  using TableFn = std::function<void(const TableResult&)>;
  TableCapture(std::unique_ptr<Output> inner, TableFn onTable)
      : inner_(std::move(inner)), onTable_(std::move(onTable)) {}

  void table(const TableResult& r) override { onTable_(r); }
  void eval(const EvalResult& r) override { inner_->eval(r); }
  void misere(const MisereResult& r) override { inner_->misere(r); }
  void moves(const MovesResult& r) override { inner_->moves(r); }
  void period(const PeriodResult& r) override { inner_->period(r); }
  void assertion(bool ok) override { inner_->assertion(ok); }
  void error(const Diagnostic& d) override { inner_->error(d); }

 private:
  std::unique_ptr<Output> inner_;
  TableFn onTable_;
};

}  // namespace gdsl
