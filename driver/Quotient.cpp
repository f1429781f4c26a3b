// gdsl quotient (see Quotient.h): the heap game's moves read from the
// backend, the quotient computed, and its presentation printed.
#include "driver/Quotient.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <ostream>

#include "compiler/ir/Fingerprint.h"
#include "compiler/support/Interrupt.h"
#include "runtime/GameQuotients.h"
#include "runtime/QuotientCache.h"

namespace gdsl {

QuotientResult gameQuotient(Engine& engine, int game, int64_t maxHeap, uint32_t maxOrder,
                            const ProgressFn& progress, QuotientResult* partial) {
  QuotientOptions o = quotientOptionsFor(engine, game);
  o.maxHeap = maxHeap;
  o.maxOrder = maxOrder;
  const std::string& name = engine.program().games[static_cast<size_t>(game)].name;
  if (progress)
    o.progress = [&](int64_t heap, uint32_t order) {
      progress(fmt::format("quotient of {} (|Q| = {})", name, order), "heaps", heap, maxHeap, false,
               -1);
    };
  // A quotient kept from an earlier run answers when it is the one this run
  // would compute (runtime/QuotientCache.h).
  QuotientCache cache(QuotientCache::directoryFromEnvironment());
  std::string key;
  if (cache.enabled()) {
    key = QuotientCache::key(engine.program(), static_cast<size_t>(game), o);
    if (std::optional<QuotientResult> cached = cache.load(key);
        cached && quotientAnswers(*cached, maxHeap))
      return *cached;
  }
  QuotientBuilder builder(heapOptionsOf(engine, game), o);
  try {
    QuotientResult q = builder.extendTo(maxHeap);
    if (progress) progress("quotient of " + name, "heaps", q.lastHeap, maxHeap, true, -1);
    if (!key.empty()) cache.store(key, q);
    return q;
  } catch (const Interrupted&) {
    if (progress)
      progress("quotient of " + name, "heaps", builder.result().lastHeap, maxHeap, true, -1);
    if (partial) *partial = builder.result();
    throw;
  }
}

void printQuotient(std::ostream& out, const std::string& name, const QuotientResult& q, bool json) {
  const BipartiteMonoid& m = q.quotient;
  Presentation pr = presentation(q);
  bool tame = isTame(m, productTable(m));
  std::vector<std::string> pElements, phi;
  for (uint32_t x = 0; x < m.size; ++x)
    if (m.inP[x]) pElements.push_back(pr.elements[x]);
  for (uint32_t x : q.phi) phi.push_back(pr.elements[x]);
  if (json) {
    nlohmann::json j;
    j["kind"] = "quotient";
    j["game"] = name;
    j["heaps"] = q.lastHeap;
    j["order"] = m.size;
    j["p_portion"] = pElements.size();
    j["p_elements"] = pElements;
    j["tame"] = tame;
    j["final_heap"] = q.finalHeap ? nlohmann::json(*q.finalHeap) : nlohmann::json(nullptr);
    j["phi_period"] = q.period ? nlohmann::json(*q.period) : nlohmann::json(nullptr);
    j["phi_preperiod"] = q.preperiod ? nlohmann::json(*q.preperiod) : nlohmann::json(nullptr);
    nlohmann::json gens = nlohmann::json::array();
    for (size_t g = 0; g < pr.names.size(); ++g)
      gens.push_back({{"name", pr.names[g]}, {"heap", pr.heapOf[g]}});
    j["generators"] = gens;
    j["relations"] = pr.relations;
    j["phi"] = phi;
    j["expansions"] = q.expansions;
    j["stopped"] = q.stopped.empty() ? nlohmann::json(nullptr) : nlohmann::json(q.stopped);
    out << j.dump() << "\n";
    return;
  }
  out << fmt::format("quotient of {}, heaps 0..{}: |Q| = {}, |P| = {}, {}\n", name, q.lastHeap,
                     m.size, pElements.size(), tame ? "tame" : "wild");
  if (q.finalHeap)
    out << fmt::format(
        "final: proved at heap {} (the periodicity theorem, period {} from heap {})\n",
        *q.finalHeap, *q.period, *q.preperiod);
  else if (q.period)
    out << fmt::format(
        "not proved final; the pretending function repeats with period {} from heap "
        "{} (observed to heap {})\n",
        *q.period, *q.preperiod, q.lastHeap);
  else
    out << fmt::format("not proved final; the pretending function shows no period to heap {}\n",
                       q.lastHeap);
  std::vector<std::string> gens;
  for (size_t g = 0; g < pr.names.size(); ++g)
    gens.push_back(fmt::format("{} = {}({})", pr.names[g], name, pr.heapOf[g]));
  out << "generators: " << (gens.empty() ? "none" : fmt::format("{}", fmt::join(gens, ", ")))
      << "\n";
  out << "relations: "
      << (pr.relations.empty() ? "none" : fmt::format("{}", fmt::join(pr.relations, ", "))) << "\n";
  out << "P-portion: "
      << (pElements.empty() ? "none" : fmt::format("{}", fmt::join(pElements, ", "))) << "\n";
  std::vector<std::string> heaps;
  for (size_t h = 0; h < phi.size(); ++h) heaps.push_back(fmt::format("{}:{}", h, phi[h]));
  out << "pretending function: " << fmt::format("{}", fmt::join(heaps, " ")) << "\n";
}

}  // namespace gdsl
