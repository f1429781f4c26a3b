// JitBackend: gets each function of a game on its first use, from the code
// cache or else from the compiler plugin (LLVM, loaded then), links it with
// gdsl's own linker, and calls the native kernels, enumerators and searches.
// No LLVM here: a run whose functions are all in the cache never loads it.
#include "backend/jit/JitBackend.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cassert>
#include <chrono>
#include <iterator>

#include "backend/jit/Functions.h"
#include "backend/jit/JitCache.h"
#include "backend/jit/JitPlugin.h"
#include "backend/jit/JitRuntime.h"
#include "backend/jit/ObjectLoader.h"
#include "compiler/ir/Fingerprint.h"
#include "runtime/PositionBuilder.h"

namespace gdsl::jit {

using KernelFn = int64_t (*)(Context*, int64_t, const void*);
using EnumerateFn = int32_t (*)(Context*, const int64_t*);

struct JitBackend::Impl {
  const ir::Program* program = nullptr;
  PositionBuilder* positions = nullptr;  // normalize rules
  CompilerSource compilerSource;
  std::unique_ptr<ObjectCompiler> compiler;  // loaded on the first cache miss
  std::string compilerIdentity;              // the plugin's build (cache keys)
  std::vector<std::unique_ptr<LinkedObject>> objects;
  // The address of each game's functions (Functions.h, Emitted), once compiled.
  std::vector<std::array<void*, std::size(kEmitted)>> functions;
  // The native searches of list games, by the length they are specialized to.
  std::vector<std::array<void*, kListKeyMaxLength + 1>> listSearches;
  std::vector<SourceRange> locations;
  std::unique_ptr<JitCache> cache;
  std::string keyPrefix;  // what every key covers besides the function
  int cachedFunctions = 0;
  int compiledFunctions = 0;
  std::string compileLog;  // a line per function compiled, for --verbose
  bool keepIr = false;
  std::string optimizedIr;
  double compileMillis = 0;
  std::vector<std::unique_ptr<Context>> contexts;
  size_t depth = 0;
  BackendWork work;
  std::vector<bool> searches;  // each game's: whether it has a native search (Functions.h)
};

namespace {

// The stamps every kernel's context holds (values below 2^16).
constexpr size_t kNarrowStamps = size_t{1} << 16;

// The build of the running executable (its code and data layouts are what
// compiled code calls and reads).
const std::string& executableIdentity() {
  static const std::string identity = buildIdentity("/proc/self/exe");
  return identity;
}

// What compiled code calls: the helpers by name, else the process's symbols
// (memset, say, from a lowered intrinsic).
void* resolveSymbol(const std::string& name) {
  if (void* helper = helperAddress(name)) return helper;
  return dlsym(RTLD_DEFAULT, name.c_str());
}

// Rethrows the error a native call recorded, naming the position expanded.
[[noreturn]] void rethrow(Context& c, const ir::Program& program, const Position& position) {
  try {
    std::rethrow_exception(c.error);
  } catch (RuntimeError& e) {
    if (e.context.empty()) e.context = formatPosition(program, position);
    throw;
  }
}

class DepthGuard {
 public:
  explicit DepthGuard(JitBackend& b) : backend_(b), context_(b.enter()) {}
  ~DepthGuard() { backend_.leave(); }
  Context& context() { return context_; }

 private:
  JitBackend& backend_;
  Context& context_;
};

}  // namespace

JitBackend::JitBackend() : impl_(std::make_unique<Impl>()) {}
JitBackend::~JitBackend() = default;

std::unique_ptr<JitBackend> JitBackend::create(PositionBuilder& positions, CompilerSource compiler,
                                               std::string compilerIdentity) {
  std::unique_ptr<JitBackend> backend(new JitBackend());
  Impl& impl = *backend->impl_;
  const ir::Program& program = positions.program();
  impl.program = &program;
  impl.positions = &positions;
  impl.compilerSource = std::move(compiler);
  impl.compilerIdentity = std::move(compilerIdentity);
  impl.functions.assign(program.games.size(), {});
  for (const ir::Game& g : program.games) impl.searches.push_back(hasSearch(g));
  impl.listSearches.assign(program.games.size(), {});
  impl.cache = std::make_unique<JitCache>(JitCache::directoryFromEnvironment());
  return backend;
}

bool JitBackend::startCompiler(std::string& error) {
  Impl& impl = *impl_;
  if (impl.compiler) return true;
  auto start = std::chrono::steady_clock::now();
  double llvmMillis = 0;
  impl.compiler = impl.compilerSource(error, llvmMillis);
  if (!impl.compiler) return false;
  double millis =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  impl.compileMillis += millis;
  impl.compileLog += fmt::format("gdsl: jit:   LLVM loaded and set up in {:.1f} ms\n", millis);
  return true;
}

// Gets one function of a game (on its first use): from the code cache, or
// compiled by the plugin (and stored); then links it.
bool JitBackend::compile(int game, Emitted what, int64_t length, std::string& error,
                         bool cacheOnly) {
  Impl& impl = *impl_;
  auto start = std::chrono::steady_clock::now();
  const ir::Game& g = impl.program->games[static_cast<size_t>(game)];
  std::string name = functionName(game, what, length);
  bool cold = isCold(g, what);
  auto firstLocation = static_cast<int32_t>(impl.locations.size());
  // The cache key: the program's rules with their locations, the function,
  // its first location index, and the builds and CPU the code is for. Not
  // when the optimized IR is wanted (gdsl check --dump=llvm).
  std::string key;
  CompiledObject compiled;
  bool cached = false;
  if (impl.cache->enabled() && !impl.keepIr) {
    if (impl.keyPrefix.empty())
      impl.keyPrefix = fmt::format("gdsl {}\ncompiler {}\ncpu {}\n", executableIdentity(),
                                   impl.compilerIdentity, hostCpuIdentity());
    key = JitCache::key(impl.keyPrefix +
                        fmt::format("{} {} {}\n", name, firstLocation, cold ? "cold" : "hot") +
                        ir::codeText(*impl.program));
    cached = impl.cache->load(key, compiled);
  }
  if (!cached && cacheOnly) {
    error = name + " is not in the code cache";
    return false;
  }
  if (!cached) {
    if (!startCompiler(error)) return false;
    CompileRequest request;
    request.program = impl.program;
    request.game = game;
    request.what = what;
    request.length = length;
    request.firstLocation = firstLocation;
    request.optimizedIr = impl.keepIr ? &impl.optimizedIr : nullptr;
    if (!impl.compiler->compile(request, compiled, error)) return false;
    if (!key.empty()) impl.cache->store(key, compiled);
  }
  std::unique_ptr<LinkedObject> linked = LinkedObject::link(compiled.object, resolveSymbol, error);
  if (!linked) return false;
  void* address = linked->symbol(name);
  if (!address) {
    error = "the JIT's object does not define " + name;
    return false;
  }
  impl.objects.push_back(std::move(linked));
  impl.locations.insert(impl.locations.end(), compiled.locations.begin(), compiled.locations.end());
  if (length >= 0)
    impl.listSearches[static_cast<size_t>(game)][static_cast<size_t>(length)] = address;
  else
    impl.functions[static_cast<size_t>(game)][static_cast<size_t>(what)] = address;
  ++impl.compiledFunctions;
  double millis =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  impl.compileMillis += millis;
  impl.cachedFunctions += cached ? 1 : 0;
  impl.compileLog += fmt::format("gdsl: jit:   {} in {:.1f} ms{}{}\n", name, millis,
                                 cold ? " (cold)" : "", cached ? " (from the code cache)" : "");
  return true;
}

void* JitBackend::compiled(void*& address, int game, Emitted what, int64_t length) {
  std::string error;
  if (!address && !compile(game, what, length, error))
    throw RuntimeError(impl_->program->games[static_cast<size_t>(game)].loc,
                       "the JIT could not compile this game: " + error);
  return address;
}

void* JitBackend::function(int game, Emitted what) {
  return compiled(impl_->functions[static_cast<size_t>(game)][static_cast<size_t>(what)], game,
                  what, -1);
}

SearchFn JitBackend::listSearch(int game, int64_t length) {
  return reinterpret_cast<SearchFn>(
      compiled(impl_->listSearches[static_cast<size_t>(game)][static_cast<size_t>(length)], game,
               Emitted::Search, length));
}

bool JitBackend::prepare(int game, Emitted what, int64_t length, std::string& error,
                         bool cacheOnly) {
  return has(game, what, length) || compile(game, what, length, error, cacheOnly);
}

bool JitBackend::has(int game, Emitted what, int64_t length) const {
  const Impl& impl = *impl_;
  if (length >= 0)
    return impl.listSearches[static_cast<size_t>(game)][static_cast<size_t>(length)] != nullptr;
  return impl.functions[static_cast<size_t>(game)][static_cast<size_t>(what)] != nullptr;
}

void JitBackend::rebind(PositionBuilder& positions) {
  impl_->positions = &positions;
  impl_->program = &positions.program();
  for (auto& c : impl_->contexts) c->program = impl_->program;
}

bool JitBackend::compileAll(std::string& error) {
  impl_->keepIr = true;
  for (size_t g = 0; g < impl_->program->games.size(); ++g)
    for (Emitted what : kEmitted)
      if (emits(impl_->program->games[g], what) &&
          !impl_->functions[g][static_cast<size_t>(what)]) {
        // A list game's search: the one for lists of four, as an example.
        bool lists =
            what == Emitted::Search && memoKind(impl_->program->games[g]) == MemoKind::Lists;
        if (lists ? !impl_->listSearches[g][4] && !compile(static_cast<int>(g), what, 4, error)
                  : !compile(static_cast<int>(g), what, -1, error))
          return false;
      }
  return true;
}

const std::string& JitBackend::optimizedIr() const {
  return impl_->optimizedIr;
}
double JitBackend::compileMillis() const {
  return impl_->compileMillis;
}
SourceRange JitBackend::location(int32_t index) const {
  return impl_->locations[static_cast<size_t>(index)];
}
const ir::Program& JitBackend::program() const {
  return *impl_->program;
}

Context& JitBackend::enter() {
  Impl& impl = *impl_;
  if (impl.contexts.size() <= impl.depth) {
    auto c = std::make_unique<Context>();
    c->program = impl.program;
    c->host = this;
    c->stampStore.assign(64, 0);
    c->stamps = c->stampStore.data();
    c->capacity = c->stampStore.size();
    impl.contexts.push_back(std::move(c));
  }
  Context& c = *impl.contexts[impl.depth++];
  c.error = nullptr;
  c.resetArena();
  return c;
}

void JitBackend::leave() {
  Impl& impl = *impl_;
  --impl.depth;
}

void JitBackend::normalize(Position& position) {
  impl_->positions->normalize(position);
}

void JitBackend::enumerate(const Position& position, MoveSink& sink) {
  DepthGuard guard(*this);
  Context& c = guard.context();
  auto enumerator =
      reinterpret_cast<EnumerateFn>(function(static_cast<int>(position.game), Emitted::Enumerator));
  c.sink = &sink;
  c.game = static_cast<int>(position.game);
  int32_t status = enumerator(&c, position.words.data());
  if (status == 1) rethrow(c, *impl_->program, position);
}

uint32_t JitBackend::heapValue(int game, int64_t n, TableView table, ValueOracle& oracle) {
  DepthGuard guard(*this);
  Context& c = guard.context();
  auto kernel = reinterpret_cast<KernelFn>(
      function(game, table.wide ? Emitted::Kernel32 : Emitted::Kernel16));
  c.oracle = &oracle;
  c.game = game;
  // A 16-bit kernel stamps xors of table entries unchecked (CodegenSearch.cpp,
  // markSeen): its stamps hold every value below 2^16.
  if (c.stampStore.size() < kNarrowStamps) {
    c.stampStore.resize(kNarrowStamps, 0);
    c.stamps = c.stampStore.data();
    c.capacity = c.stampStore.size();
  }
  if (++c.epoch == 0) {
    std::fill(c.stampStore.begin(), c.stampStore.end(), 0);
    c.epoch = 1;
  }
  ++impl_->work.kernelHeaps;
  int64_t value = kernel(&c, n, table.data);
  if (value < 0) {
    Position p;
    p.game = static_cast<uint32_t>(game);
    p.words.push_back(n);
    rethrow(c, *impl_->program, p);
  }
  return static_cast<uint32_t>(value);
}

bool JitBackend::searchesNatively(int game) {
  return impl_->searches[static_cast<size_t>(game)];
}

NativeStatus JitBackend::searchNative(int game, const int64_t* words, NativeMemo memo,
                                      ValueOracle& oracle, std::vector<int64_t>& miss,
                                      uint64_t stackFloor) {
  // The engine asks only when searchesNatively says so, with the memo of
  // memoKind's rule, which the code was made for.
  assert(impl_->searches[static_cast<size_t>(game)] &&
         memo.kind == memoKind(impl_->program->games[static_cast<size_t>(game)]));
  DepthGuard guard(*this);
  Context& c = guard.context();
  SearchFn search =
      memo.lists()
          ? listSearch(game, words[0])
          : reinterpret_cast<SearchFn>(function(
                game, memo.box && memo.box->wide() ? Emitted::SearchWide : Emitted::Search));
  c.oracle = &oracle;
  c.game = game;
  if (memo.box) {
    c.cells = memo.box->cells();
    c.extent = memo.box->extent().data();
    c.stride = memo.box->stride().data();
  } else {
    c.words = memo.words;
    c.readWordMemo();
  }
  c.pendingTop = 0;
  c.seenTop = 0;
  c.miss = &miss;
  c.stackFloor = stackFloor;
  uint64_t ticks = c.ticks;
  int32_t status = search(&c, words);
  impl_->work.searchedPositions += c.ticks - ticks;
  if (status != static_cast<int32_t>(NativeStatus::Failed))
    return static_cast<NativeStatus>(status);  // the statuses of runtime/MemoCell.h
  // A runtime error is left to the engine's search, which reports it in its
  // own order; a stop request (or anything else) goes on up.
  if (c.error) {
    try {
      std::rethrow_exception(c.error);
    } catch (const RuntimeError&) {
    }
  }
  return NativeStatus::Failed;
}

BackendWork JitBackend::work() const {
  return impl_->work;
}

std::string JitBackend::report() const {
  size_t games = 0;
  auto some = [](const auto& fs) {
    return std::any_of(fs.begin(), fs.end(), [](void* p) { return p != nullptr; });
  };
  for (size_t g = 0; g < impl_->functions.size(); ++g)
    games += some(impl_->functions[g]) || some(impl_->listSearches[g]) ? 1 : 0;
  int functions = impl_->compiledFunctions;
  std::string cache = impl_->cache->enabled()
                          ? fmt::format("{} of them from the code cache in {}",
                                        impl_->cachedFunctions, impl_->cache->directory())
                          : std::string("the code cache is off");
  return fmt::format(
             "gdsl: jit: compiled {} function{} of {} game{} in {:.1f} ms (LLVM set-up "
             "included; {})\n",
             functions, functions == 1 ? "" : "s", games, games == 1 ? "" : "s",
             impl_->compileMillis, cache) +
         impl_->compileLog;
}

}  // namespace gdsl::jit
