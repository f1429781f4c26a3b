// What JIT-compiled code works with: the per-call context and the C helpers
// it calls for what is not worth inlining (building components, asking the
// engine for a value, list operations, errors). No LLVM here: the codegen
// calls the helpers by name, and the backend's linker resolves the names.
#pragma once

#include <cstdint>
#include <exception>
#include <span>
#include <string>
#include <vector>

#include "compiler/ir/Evaluator.h"
#include "runtime/Backend.h"
#include "runtime/WordMemo.h"

namespace gdsl::jit {

// The fields emitted code reads and writes at fixed offsets: the mex stamps
// of the kernels, and the state of a native dense search.
struct KernelState {
  uint32_t* stamps = nullptr;  // stamps[v] == epoch: value v was seen
  uint64_t capacity = 0;
  uint32_t epoch = 0;
  // Native search: how a position's values are kept when it expands a
  // successor (CodegenSearch.cpp, beginMarking): 0, its moves run again; 1, they
  // are also pushed on the seen stack, and stamped again from there. The
  // search switches to 1 when more than one position in 16 expands a
  // successor (`redos`, counted over the last 256 positions: a search of ten
  // thousand positions decides at its start, not when two fifths are done).
  uint64_t keepValues = 0;
  uint64_t redos = 0;
  // The values of the moves of every position being expanded while
  // keepValues is 1, innermost last; a position's start at the top it found.
  uint32_t* seen = nullptr;
  uint64_t seenTop = 0;
  uint64_t seenCapacity = 0;
  // Native search (Backend::searchNative): the box being filled (16-bit cells
  // for Emitted::Search, 32-bit ones for Emitted::SearchWide).
  void* cells = nullptr;
  const int64_t* extent = nullptr;
  const int64_t* stride = nullptr;
  // Or the packed table of words being filled (runtime/WordMemo.h); the
  // helper that inserts updates these when it grows.
  uint8_t* wordSlots = nullptr;
  uint64_t wordMask = 0;
  uint64_t wordShift = 64;
  uint64_t wordNarrow = 1;  // 8-byte slots (else 12-byte ones)
  // The search stops with NativeStatus::Deep when the native stack reaches this address.
  uint64_t stackFloor = 0;
  uint64_t ticks = 0;  // positions expanded: every 256, a poll for Ctrl-C
  // The lists the code builds: a bump arena of blocks, one per context.
  // Emitted code allocates inline from [arenaNext, arenaEnd) and calls
  // gdsl_jit_arena_grow past it; a mark is the three fields, restored to
  // free what was built since (after each element of a loop).
  int64_t* arenaNext = nullptr;
  int64_t* arenaEnd = nullptr;
  uint64_t arenaBlock = 0;  // index in Context::arenaBlocks
  // A search over a table of words whose every move leads to one position of
  // the game itself first lists the successors' words here (prefetching their
  // slots), then reads them: the table's cache misses overlap.
  int64_t* pending = nullptr;
  uint64_t pendingTop = 0;
  uint64_t pendingCapacity = 0;
};

// What emitted native searches return: a NativeStatus (runtime/MemoCell.h)
// as an i32.
constexpr int32_t statusCode(NativeStatus s) {
  return static_cast<int32_t>(s);
}
// A native search calls gdsl_jit_search_poll once every this many positions.
inline constexpr uint64_t kSearchPollPositions = 256;

struct Context;
// A native search: `i32 search(ctx, words)` (a NativeStatus as a number).
using SearchFn = int32_t (*)(Context*, const int64_t*);

// What the helpers ask of the backend that runs the native code (JitBackend
// implements it): they sit below it and reach it only through this.
class HelperHost {
 public:
  virtual ~HelperHost() = default;
  // The source range of location index `index` of the compiled code.
  virtual SourceRange location(int32_t index) const = 0;
  // Runs the game's normalize rule on a component the code built.
  virtual void normalize(Position& position) = 0;
  // The native search of list game `game` for lists of `length`, compiled
  // now if it was not (throws RuntimeError when LLVM fails).
  virtual SearchFn listSearch(int game, int64_t length) = 0;
};

// One context per nesting depth (a kernel may ask the engine for a value,
// which may run another kernel). KernelState is the base, at offset 0, so the
// emitted code reads the mex fields straight from the context pointer.
struct Context : KernelState {
  std::vector<uint32_t> stampStore;
  const ir::Program* program = nullptr;
  HelperHost* host = nullptr;
  ValueOracle* oracle = nullptr;
  MoveSink* sink = nullptr;
  int game = 0;      // the game being expanded
  Position current;  // the component being built
  std::vector<Position> components;
  std::exception_ptr error;  // set when a helper fails
  std::vector<uint32_t> seenStore;
  std::vector<int64_t> pendingStore;
  std::vector<int64_t>* miss = nullptr;           // where a dense search reports a position
  WordMemo* words = nullptr;                      // the packed table a search fills, if any
  std::vector<std::vector<int64_t>> arenaBlocks;  // kept for reuse after a release
  // The elements of the comprehensions being built, by nesting depth.
  std::vector<std::vector<int64_t>> collected;
  // Empties the arena (a context is reused at the same depth).
  void resetArena();
  // Copies where `words` keeps its slots now (KernelState::wordSlots ...).
  void readWordMemo();
};

// `count` numbers from the context's arena (what emitted code does inline).
int64_t* arenaAllocate(Context* ctx, int64_t count);

// Codes the emitted code passes to jitFail for operator spellings.
// (kPower stands for "**".)
enum OpChar : int32_t { kPlus = '+', kMinus = '-', kTimes = '*', kDivide = '/', kPower = 'P' };

extern "C" {
int32_t gdsl_jit_fail(Context* ctx, int32_t code, int32_t loc, int64_t a, int64_t b, int32_t op);
void gdsl_jit_comp_begin(Context* ctx, int32_t game);
void gdsl_jit_comp_int(Context* ctx, int64_t value);
int32_t gdsl_jit_comp_list(Context* ctx, const ir::ListVal* list, int32_t loc);
int32_t gdsl_jit_comp_push(Context* ctx, int32_t loc);
int32_t gdsl_jit_comp_value(Context* ctx, int32_t loc, uint32_t* out);
// A component of a game with integer parameters given as words at once;
// `normalized`: its normalize rule already ran (inline).
int32_t gdsl_jit_push_words(Context* ctx, int32_t game, const int64_t* words, int64_t count,
                            int32_t loc, int32_t normalized);
int32_t gdsl_jit_value_words(Context* ctx, int32_t game, const int64_t* words, int64_t count,
                             int32_t loc, int32_t normalized, uint32_t* out);
void gdsl_jit_move_begin(Context* ctx);
int32_t gdsl_jit_move_emit(Context* ctx, int32_t move, int64_t* ints, ir::ListVal* lists);
void gdsl_jit_mark_big(Context* ctx, uint32_t value);
void gdsl_jit_make_list(Context* ctx, const int64_t* items, int64_t count, int32_t isSet,
                        ir::ListVal* out);
void gdsl_jit_sort(Context* ctx, const ir::ListVal* in, ir::ListVal* out);
int32_t gdsl_jit_min_list(Context* ctx, const ir::ListVal* in, int32_t isMax, int32_t loc,
                          int64_t* out);
int64_t gdsl_jit_list_eq(const ir::ListVal* a, const ir::ListVal* b);
int64_t gdsl_jit_in_list(int64_t x, const ir::ListVal* list);
int32_t gdsl_jit_index_nested(Context* ctx, int32_t nested, int64_t index, int32_t loc,
                              ir::ListVal* out);
// Range loops call this every 65536 values: non-zero (with the error set)
// when the computation was asked to stop (Ctrl-C, --timeout, --max-memory).
int32_t gdsl_jit_poll(Context* ctx);
// a ** b into `out`: 0, or 1 for a negative exponent, 2 for an overflow.
int32_t gdsl_jit_pow(int64_t a, int64_t b, int64_t* out);
// [e for ...]: starts the list of nesting depth `depth`, adds an element
// (1 with the error set past kMaxSetLength elements), and ends it: its
// elements are copied into the arena and `out` is set to them.
void gdsl_jit_collect_begin(Context* ctx, int32_t depth);
int32_t gdsl_jit_collect_push(Context* ctx, int32_t depth, int64_t value, int32_t loc);
void gdsl_jit_collect_end(Context* ctx, int32_t depth, ir::ListVal* out);
// The arena's slow path: moves to a block with room for `count` numbers.
int64_t* gdsl_jit_arena_grow(Context* ctx, int64_t count);
// A list position's words (its length, then its elements), built in the
// arena; its packed key (runtime/ListKey.h), which the engine checked; a
// successor list that does not pack: recorded as the miss (NativeStatus::Outside),
// or 1 when an element is negative (an error the engine's search reports).
const int64_t* gdsl_jit_list_words(Context* ctx, const ir::ListVal* list);
int64_t gdsl_jit_list_key(const int64_t* words);
int32_t gdsl_jit_list_miss(Context* ctx, const ir::ListVal* list);
// The native search of the context's list game for a list of another length
// than the caller's (compiled on its first use).
int32_t gdsl_jit_search_length(Context* ctx, const int64_t* words);
// Native search: a new epoch when the count wrapped to 0 (every stamp cleared:
// returns 1); grows the seen stack; every 256 positions, chooses keepValues
// and polls for a stop (as gdsl_jit_poll); a successor
// outside the box (NativeStatus::Outside, or 1 when a parameter is negative); the
// position where the native stack ran out (NativeStatus::Deep).
uint32_t gdsl_jit_epoch_reset(Context* ctx);
void gdsl_jit_seen_grow(Context* ctx);
int32_t gdsl_jit_search_poll(Context* ctx);
void gdsl_jit_pending_grow(Context* ctx);
int32_t gdsl_jit_dense_miss(Context* ctx, const int64_t* words, int64_t count);
int32_t gdsl_jit_dense_deep(Context* ctx, const int64_t* words, int64_t count);
// The packed table of words: mark `key` as being expanded (NativeStatus::Full when
// the table is full); set its cell; make it unknown again; read its cell.
// Those that may move the slots (or widen them) update the context's copy.
int32_t gdsl_jit_word_enter(Context* ctx, int64_t key);
void gdsl_jit_word_set(Context* ctx, int64_t key, uint32_t cell);
void gdsl_jit_word_forget(Context* ctx, int64_t key);
uint32_t gdsl_jit_word_get(Context* ctx, int64_t key);
// The parts of board `cells` of game `game`, whose board splits
// (runtime/Components.h), into `out` (room for kMaxComponents); their number,
// or -1 when the board is valued whole.
int64_t gdsl_jit_split(Context* ctx, int32_t game, int64_t cells, int64_t* out);
}

// Every helper above by name: emitted code calls them by these names (so an
// object compiled in one process links in another: backend/jit/JitCache.h),
// and the linker (backend/jit/ObjectLoader.h) resolves each name to its address.
struct Helper {
  const char* name;
  void* address;
};
std::span<const Helper> helpers();
// The name of the helper at `address` (null for an address that is none).
const char* helperName(const void* address);
// The address of the helper named `name` (null for a name that is none).
void* helperAddress(const std::string& name);

}  // namespace gdsl::jit
