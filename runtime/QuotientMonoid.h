// Finite commutative monoids with a marked subset (bipartite monoids), as the
// misère quotient construction (runtime/MisereQuotient.h, docs/misere.md)
// handles them: a monoid is given by how each of its generators acts on its
// elements, element 0 is the identity, and every element is reached from 0
// by generators. The operations: the product with cyclic monoids, the
// submonoid of some generators, reduction to the quotient by
// indistinguishability (x ~ y when xz and yz are both in P or both not, for
// every z), the product of two elements, and the tests for tameness.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gdsl {

struct BipartiteMonoid {
  uint32_t size = 1;
  // act[g][x] = x * generator g; generator g itself is act[g][0].
  std::vector<std::vector<uint32_t>> act;
  std::vector<uint8_t> inP;  // the P-portion, one flag per element
  // A path from 0 to each element: parent[x] * generator parentGen[x] = x
  // (parent[0] = 0, parentGen[0] = -1); the breadth-first tree that built it.
  std::vector<uint32_t> parent;
  std::vector<int32_t> parentGen;

  uint32_t generator(size_t g) const { return act[g][0]; }
  uint32_t product(uint32_t x, uint32_t y) const;
  size_t pCount() const;
};

// The cyclic monoid C(index, period): 1, a, ..., a^(index+period-1), with
// a^(index+period) = a^index.
struct Cyclic {
  uint32_t index = 1;
  uint32_t period = 2;
  uint32_t next(uint32_t e) const { return e + 1 < index + period ? e + 1 : index; }
};

// A monoid built from the generators of `base` that are kept, times one
// cyclic component per new generator: the elements reached from the identity,
// numbered in breadth-first order. Generator i of the result is base
// generator keep[i] for i < keep.size(), then cyclic component i - keep.size().
// The P-portion is left empty (the caller marks it).
BipartiteMonoid productWithCyclic(const BipartiteMonoid& base, const std::vector<int>& keep,
                                  const std::vector<Cyclic>& cyclic);

// The quotient of `m` by indistinguishability (Moore's refinement on the
// generators' actions, starting from P and not P). `classOf` (if given)
// receives each element's class; classes are numbered in breadth-first order
// from the identity, so equal monoids give equal numbers. Generators are
// kept, one per generator of `m`, duplicates included.
BipartiteMonoid reduce(const BipartiteMonoid& m, std::vector<uint32_t>* classOf = nullptr);

// Rebuilds the paths (parent, parentGen) and numbers elements breadth-first
// from the identity; used after building `act` by hand.
void renumber(BipartiteMonoid& m);

// The full product table (size * size), row x holding x * y for each y.
std::vector<uint32_t> productTable(const BipartiteMonoid& m);

// The index of x: the least i with x^i = x^(i+p) for some p >= 1.
uint32_t cyclicIndex(const BipartiteMonoid& m, uint32_t x);

// True when (Q, P) is tame: isomorphic to the misère quotient of a closed set
// of nim heaps (docs/misere.md, "Quotients"): the trivial monoid; {1, a} with
// a^2 = 1 and P = {a}; or {1, a} and a group G of order 2^n (n >= 2) in which
// every square is G's identity z, with a^2 = 1, a z in G other than z, and
// P = {a, z}.
bool isTame(const BipartiteMonoid& m, const std::vector<uint32_t>& table);

}  // namespace gdsl
