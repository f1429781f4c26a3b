// The C helpers called by JIT-compiled code. Each one that can fail records
// the error (the same RuntimeError the interpreter would throw, or whatever
// the engine threw) in the context and returns a non-zero status; the code
// then returns, and JitBackend rethrows. No exception crosses native frames.
#include "backend/jit/JitRuntime.h"

#include <algorithm>

#include "compiler/ir/Arith.h"
#include "compiler/ir/Errors.h"
#include "compiler/support/Interrupt.h"
#include "runtime/Components.h"
#include "runtime/ListKey.h"
#include "runtime/Mex.h"

namespace gdsl::jit {

namespace {

ir::ListVal allocate(Context* ctx, int64_t size) {
  return ir::ListVal{arenaAllocate(ctx, size), size, 0, false};
}

constexpr size_t kArenaBlock = 1 << 14;

int32_t failWith(Context* ctx, int32_t loc, std::string message) {
  ctx->error = std::make_exception_ptr(RuntimeError(ctx->host->location(loc), std::move(message)));
  return 1;
}

// Checks and normalizes the component built so far; 0 or an error status.
int32_t finishComponent(Context* ctx, int32_t loc) {
  std::string negative = negativeParameterText(*ctx->program, ctx->current, "successor");
  if (!negative.empty()) return failWith(ctx, loc, std::move(negative));
  try {
    ctx->host->normalize(ctx->current);
  } catch (...) {
    ctx->error = std::current_exception();
    return 1;
  }
  return 0;
}

}  // namespace

void Context::resetArena() {
  if (arenaBlocks.empty()) arenaBlocks.emplace_back(kArenaBlock);
  arenaBlock = 0;
  arenaNext = arenaBlocks[0].data();
  arenaEnd = arenaNext + arenaBlocks[0].size();
}

void Context::readWordMemo() {
  wordSlots = words->slots();
  wordMask = words->mask();
  wordShift = words->shift();
  wordNarrow = words->narrow() ? 1 : 0;
}

int64_t* arenaAllocate(Context* ctx, int64_t count) {
  if (ctx->arenaEnd - ctx->arenaNext >= count) {
    int64_t* p = ctx->arenaNext;
    ctx->arenaNext += count;
    return p;
  }
  return gdsl_jit_arena_grow(ctx, count);
}

extern "C" {

int32_t gdsl_jit_fail(Context* ctx, int32_t code, int32_t loc, int64_t a, int64_t b, int32_t op) {
  char spelling[2] = {static_cast<char>(op), 0};
  return failWith(ctx, loc,
                  ir::errorText(static_cast<ir::ErrorCode>(code), a, b,
                                op == kPower ? "**" : static_cast<const char*>(spelling)));
}

void gdsl_jit_comp_begin(Context* ctx, int32_t game) {
  ctx->current.game = static_cast<uint32_t>(game);
  ctx->current.words.clear();
}

void gdsl_jit_comp_int(Context* ctx, int64_t value) {
  ctx->current.words.push_back(value);
}

int32_t gdsl_jit_comp_list(Context* ctx, const ir::ListVal* list, int32_t loc) {
  if (list->size > ir::kMaxPositionList)
    return failWith(ctx, loc, ir::errorText(ir::ErrorCode::PositionListTooLong, list->size, 0));
  ctx->current.words.push_back(list->size);
  for (int64_t i = 0; i < list->size; ++i) ctx->current.words.push_back(list->at(i));
  return 0;
}

int32_t gdsl_jit_comp_push(Context* ctx, int32_t loc) {
  if (int32_t status = finishComponent(ctx, loc)) return status;
  ctx->components.push_back(ctx->current);
  return 0;
}

int32_t gdsl_jit_comp_value(Context* ctx, int32_t loc, uint32_t* out) {
  if (int32_t status = finishComponent(ctx, loc)) return status;
  try {
    *out = ctx->oracle->valueOf(ctx->current);
  } catch (...) {
    ctx->error = std::current_exception();
    return 1;
  }
  return 0;
}

int32_t gdsl_jit_push_words(Context* ctx, int32_t game, const int64_t* words, int64_t count,
                            int32_t loc, int32_t normalized) {
  gdsl_jit_comp_begin(ctx, game);
  ctx->current.words.assign(words, words + count);
  if (!normalized) return gdsl_jit_comp_push(ctx, loc);
  ctx->components.push_back(ctx->current);
  return 0;
}

int32_t gdsl_jit_value_words(Context* ctx, int32_t game, const int64_t* words, int64_t count,
                             int32_t loc, int32_t normalized, uint32_t* out) {
  gdsl_jit_comp_begin(ctx, game);
  ctx->current.words.assign(words, words + count);
  if (!normalized) return gdsl_jit_comp_value(ctx, loc, out);
  try {
    *out = ctx->oracle->valueOf(ctx->current);
  } catch (...) {
    ctx->error = std::current_exception();
    return 1;
  }
  return 0;
}

void gdsl_jit_move_begin(Context* ctx) {
  ctx->components.clear();
}

int32_t gdsl_jit_move_emit(Context* ctx, int32_t move, int64_t* ints, ir::ListVal* lists) {
  try {
    ir::Frame frame{ints, lists};
    bool more = ctx->sink->onMove(
        ctx->program->games[static_cast<size_t>(ctx->game)].moves[static_cast<size_t>(move)], frame,
        ctx->components);
    return more ? 0 : 2;
  } catch (...) {
    ctx->error = std::current_exception();
    return 1;
  }
}

void gdsl_jit_mark_big(Context* ctx, uint32_t value) {
  size_t size = std::max<size_t>(static_cast<size_t>(value) + 1, 2 * ctx->stampStore.size());
  ctx->stampStore.resize(size, 0);
  ctx->stamps = ctx->stampStore.data();
  ctx->capacity = ctx->stampStore.size();
  ctx->stamps[value] = ctx->epoch;
}

void gdsl_jit_make_list(Context* ctx, const int64_t* items, int64_t count, int32_t isSet,
                        ir::ListVal* out) {
  ir::ListVal l = allocate(ctx, count);
  int64_t* data = const_cast<int64_t*>(l.data);
  std::copy(items, items + count, data);
  if (isSet) {
    std::sort(data, data + count);
    l.size = std::unique(data, data + count) - data;
  }
  *out = l;
}

void gdsl_jit_sort(Context* ctx, const ir::ListVal* in, ir::ListVal* out) {
  if (in->isRange) {
    *out = *in;
    return;
  }
  ir::ListVal l = allocate(ctx, in->size);
  int64_t* data = const_cast<int64_t*>(l.data);
  std::copy(in->data, in->data + in->size, data);
  std::sort(data, data + in->size);
  *out = l;
}

int32_t gdsl_jit_min_list(Context* ctx, const ir::ListVal* in, int32_t isMax, int32_t loc,
                          int64_t* out) {
  if (in->size == 0)
    return failWith(ctx, loc,
                    ir::errorText(isMax ? ir::ErrorCode::EmptyMax : ir::ErrorCode::EmptyMin, 0, 0));
  if (in->isRange) {
    *out = isMax ? in->lo + in->size - 1 : in->lo;
    return 0;
  }
  *out = isMax ? *std::max_element(in->data, in->data + in->size)
               : *std::min_element(in->data, in->data + in->size);
  return 0;
}

int64_t gdsl_jit_list_eq(const ir::ListVal* a, const ir::ListVal* b) {
  if (a->size != b->size) return 0;
  for (int64_t i = 0; i < a->size; ++i)
    if (a->at(i) != b->at(i)) return 0;
  return 1;
}

int64_t gdsl_jit_in_list(int64_t x, const ir::ListVal* list) {
  if (list->isRange) return x >= list->lo && x - list->lo < list->size;
  return std::find(list->data, list->data + list->size, x) != list->data + list->size;
}

int32_t gdsl_jit_index_nested(Context* ctx, int32_t nested, int64_t index, int32_t loc,
                              ir::ListVal* out) {
  const std::vector<int>& rows = ctx->program->nested[static_cast<size_t>(nested)];
  auto size = static_cast<int64_t>(rows.size());
  if (index < 0 || index >= size)
    return failWith(ctx, loc, ir::errorText(ir::ErrorCode::IndexOutOfRange, index, size));
  const std::vector<int64_t>& l =
      ctx->program->lists[static_cast<size_t>(rows[static_cast<size_t>(index)])];
  *out = ir::ListVal{l.data(), static_cast<int64_t>(l.size()), 0, false};
  return 0;
}

int32_t gdsl_jit_poll(Context* ctx) {
  if (int why = interruptFlag().load(std::memory_order_relaxed)) {
    ctx->error = std::make_exception_ptr(Interrupted(static_cast<StopReason>(why)));
    return 1;
  }
  return 0;
}

void gdsl_jit_collect_begin(Context* ctx, int32_t depth) {
  auto at = static_cast<size_t>(depth);
  if (ctx->collected.size() <= at) ctx->collected.resize(at + 1);
  ctx->collected[at].clear();
}

int32_t gdsl_jit_collect_push(Context* ctx, int32_t depth, int64_t value, int32_t loc) {
  std::vector<int64_t>& items = ctx->collected[static_cast<size_t>(depth)];
  if (static_cast<int64_t>(items.size()) >= ir::kMaxSetLength)
    return failWith(ctx, loc, ir::errorText(ir::ErrorCode::ListTooLong, 0, 0));
  items.push_back(value);
  return 0;
}

void gdsl_jit_collect_end(Context* ctx, int32_t depth, ir::ListVal* out) {
  const std::vector<int64_t>& items = ctx->collected[static_cast<size_t>(depth)];
  ir::ListVal l = allocate(ctx, static_cast<int64_t>(items.size()));
  std::copy(items.begin(), items.end(), const_cast<int64_t*>(l.data));
  *out = l;
}

int64_t* gdsl_jit_arena_grow(Context* ctx, int64_t count) {
  // The next block large enough (older blocks stay for reuse), or a new one;
  // moving a block keeps its numbers where they are.
  auto size = static_cast<size_t>(count);
  std::vector<std::vector<int64_t>>& blocks = ctx->arenaBlocks;
  size_t next = ctx->arenaBlock + 1;
  while (next < blocks.size() && blocks[next].size() < size) ++next;
  if (next >= blocks.size()) {
    blocks.emplace_back(std::max(kArenaBlock, size));
    next = blocks.size() - 1;
  }
  ctx->arenaBlock = next;
  int64_t* p = blocks[next].data();
  ctx->arenaNext = p + count;
  ctx->arenaEnd = p + blocks[next].size();
  return p;
}

const int64_t* gdsl_jit_list_words(Context* ctx, const ir::ListVal* list) {
  int64_t* words = arenaAllocate(ctx, 1 + list->size);
  words[0] = list->size;
  for (int64_t i = 0; i < list->size; ++i) words[1 + i] = list->at(i);
  return words;
}

int64_t gdsl_jit_list_key(const int64_t* words) {
  uint64_t key = 0;
  packListKey(words, key);
  return static_cast<int64_t>(key);
}

int32_t gdsl_jit_search_length(Context* ctx, const int64_t* words) {
  try {
    return ctx->host->listSearch(ctx->game, words[0])(ctx, words);
  } catch (...) {
    ctx->error = std::current_exception();
    return 1;
  }
}

int32_t gdsl_jit_list_miss(Context* ctx, const ir::ListVal* list) {
  if (list->size > ir::kMaxPositionList) return 1;  // the engine's search reports it
  const int64_t* words = gdsl_jit_list_words(ctx, list);
  return gdsl_jit_dense_miss(ctx, words, 1 + list->size);
}

void gdsl_jit_pending_grow(Context* ctx) {
  ctx->pendingStore.resize(std::max<size_t>(1024, 2 * ctx->pendingStore.size()));
  ctx->pending = ctx->pendingStore.data();
  ctx->pendingCapacity = ctx->pendingStore.size();
}

void gdsl_jit_seen_grow(Context* ctx) {
  ctx->seenStore.resize(std::max<size_t>(1024, 2 * ctx->seenStore.size()));
  ctx->seen = ctx->seenStore.data();
  ctx->seenCapacity = ctx->seenStore.size();
}

int32_t gdsl_jit_search_poll(Context* ctx) {
  ctx->keepValues = ctx->redos * 16 > kSearchPollPositions ? 1 : 0;
  ctx->redos = 0;
  return gdsl_jit_poll(ctx);
}

uint32_t gdsl_jit_epoch_reset(Context* ctx) {
  std::fill(ctx->stampStore.begin(), ctx->stampStore.end(), 0);
  ctx->epoch = 1;
  return 1;
}

int32_t gdsl_jit_dense_miss(Context* ctx, const int64_t* words, int64_t count) {
  for (int64_t i = 0; i < count; ++i)
    if (words[i] < 0) return 1;
  ctx->miss->assign(words, words + count);
  return statusCode(NativeStatus::Outside);
}

int32_t gdsl_jit_dense_deep(Context* ctx, const int64_t* words, int64_t count) {
  ctx->miss->assign(words, words + count);
  return statusCode(NativeStatus::Deep);
}

int32_t gdsl_jit_pow(int64_t a, int64_t b, int64_t* out) {
  if (b < 0) return 1;
  return arith::pow(a, b, *out) ? 0 : 2;
}

int32_t gdsl_jit_word_enter(Context* ctx, int64_t key) {
  if (!ctx->words->insert(static_cast<uint64_t>(key))) return statusCode(NativeStatus::Full);
  ctx->words->set(static_cast<uint64_t>(key), kCellOnStack);
  ctx->readWordMemo();
  return 0;
}

void gdsl_jit_word_set(Context* ctx, int64_t key, uint32_t cell) {
  ctx->words->set(static_cast<uint64_t>(key), cell);
  ctx->readWordMemo();
}

void gdsl_jit_word_forget(Context* ctx, int64_t key) {
  ctx->words->forget(static_cast<uint64_t>(key));
}

uint32_t gdsl_jit_word_get(Context* ctx, int64_t key) {
  return ctx->words->get(static_cast<uint64_t>(key));
}

int64_t gdsl_jit_split(Context* ctx, int32_t game, int64_t cells, int64_t* out) {
  const ir::CellMoves& moves = *ctx->program->games[static_cast<size_t>(game)].cells;
  return splitComponents(moves, cells, out);
}

}  // extern "C"

std::span<const Helper> helpers() {
  static const Helper table[] = {
      {"gdsl_jit_fail", reinterpret_cast<void*>(&gdsl_jit_fail)},
      {"gdsl_jit_comp_begin", reinterpret_cast<void*>(&gdsl_jit_comp_begin)},
      {"gdsl_jit_comp_int", reinterpret_cast<void*>(&gdsl_jit_comp_int)},
      {"gdsl_jit_comp_list", reinterpret_cast<void*>(&gdsl_jit_comp_list)},
      {"gdsl_jit_comp_push", reinterpret_cast<void*>(&gdsl_jit_comp_push)},
      {"gdsl_jit_comp_value", reinterpret_cast<void*>(&gdsl_jit_comp_value)},
      {"gdsl_jit_push_words", reinterpret_cast<void*>(&gdsl_jit_push_words)},
      {"gdsl_jit_value_words", reinterpret_cast<void*>(&gdsl_jit_value_words)},
      {"gdsl_jit_move_begin", reinterpret_cast<void*>(&gdsl_jit_move_begin)},
      {"gdsl_jit_move_emit", reinterpret_cast<void*>(&gdsl_jit_move_emit)},
      {"gdsl_jit_mark_big", reinterpret_cast<void*>(&gdsl_jit_mark_big)},
      {"gdsl_jit_make_list", reinterpret_cast<void*>(&gdsl_jit_make_list)},
      {"gdsl_jit_sort", reinterpret_cast<void*>(&gdsl_jit_sort)},
      {"gdsl_jit_min_list", reinterpret_cast<void*>(&gdsl_jit_min_list)},
      {"gdsl_jit_list_eq", reinterpret_cast<void*>(&gdsl_jit_list_eq)},
      {"gdsl_jit_in_list", reinterpret_cast<void*>(&gdsl_jit_in_list)},
      {"gdsl_jit_index_nested", reinterpret_cast<void*>(&gdsl_jit_index_nested)},
      {"gdsl_jit_poll", reinterpret_cast<void*>(&gdsl_jit_poll)},
      {"gdsl_jit_pow", reinterpret_cast<void*>(&gdsl_jit_pow)},
      {"gdsl_jit_arena_grow", reinterpret_cast<void*>(&gdsl_jit_arena_grow)},
      {"gdsl_jit_collect_begin", reinterpret_cast<void*>(&gdsl_jit_collect_begin)},
      {"gdsl_jit_collect_push", reinterpret_cast<void*>(&gdsl_jit_collect_push)},
      {"gdsl_jit_collect_end", reinterpret_cast<void*>(&gdsl_jit_collect_end)},
      {"gdsl_jit_list_words", reinterpret_cast<void*>(&gdsl_jit_list_words)},
      {"gdsl_jit_list_key", reinterpret_cast<void*>(&gdsl_jit_list_key)},
      {"gdsl_jit_list_miss", reinterpret_cast<void*>(&gdsl_jit_list_miss)},
      {"gdsl_jit_search_length", reinterpret_cast<void*>(&gdsl_jit_search_length)},
      {"gdsl_jit_pending_grow", reinterpret_cast<void*>(&gdsl_jit_pending_grow)},
      {"gdsl_jit_epoch_reset", reinterpret_cast<void*>(&gdsl_jit_epoch_reset)},
      {"gdsl_jit_seen_grow", reinterpret_cast<void*>(&gdsl_jit_seen_grow)},
      {"gdsl_jit_search_poll", reinterpret_cast<void*>(&gdsl_jit_search_poll)},
      {"gdsl_jit_dense_miss", reinterpret_cast<void*>(&gdsl_jit_dense_miss)},
      {"gdsl_jit_dense_deep", reinterpret_cast<void*>(&gdsl_jit_dense_deep)},
      {"gdsl_jit_word_enter", reinterpret_cast<void*>(&gdsl_jit_word_enter)},
      {"gdsl_jit_word_set", reinterpret_cast<void*>(&gdsl_jit_word_set)},
      {"gdsl_jit_word_forget", reinterpret_cast<void*>(&gdsl_jit_word_forget)},
      {"gdsl_jit_word_get", reinterpret_cast<void*>(&gdsl_jit_word_get)},
      {"gdsl_jit_split", reinterpret_cast<void*>(&gdsl_jit_split)},
  };
  return table;
}

const char* helperName(const void* address) {
  for (const Helper& h : helpers())
    if (h.address == address) return h.name;
  return nullptr;
}

void* helperAddress(const std::string& name) {
  for (const Helper& h : helpers())
    if (name == h.name) return h.address;
  return nullptr;
}

}  // namespace gdsl::jit
