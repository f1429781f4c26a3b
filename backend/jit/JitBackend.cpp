// JitBackend: compiles each function of a game on its first use with LLVM 14
// ORC (LLJIT), optimized for the host CPU, and calls the native kernels,
// enumerators and searches.
// The LLVM boundary is here: every llvm::Error becomes an error string.
#include "backend/jit/JitBackend.h"

#include <fmt/format.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <iterator>
#include <mutex>

#include "backend/jit/Codegen.h"
#include "backend/jit/JitCache.h"
#include "backend/jit/JitRuntime.h"
#include "backend/jit/LlvmPages.h"
#include "runtime/PositionBuilder.h"

namespace gdsl::jit {

using KernelFn = int64_t (*)(Context*, int64_t, const void*);
using EnumerateFn = int32_t (*)(Context*, const int64_t*);

struct JitBackend::Impl {
  const ir::Program* program = nullptr;
  PositionBuilder* positions = nullptr;  // normalize rules
  std::unique_ptr<llvm::orc::LLJIT> jit;
  // The address of each game's functions (Codegen.h, Emitted), once compiled.
  std::vector<std::array<void*, std::size(kEmitted)>> functions;
  // The native searches of list games, by the length they are specialized to.
  std::vector<std::array<void*, kListKeyMaxLength + 1>> listSearches;
  std::vector<SourceRange> locations;
  // Code generation at the default level, and without optimization (cold
  // functions); `target` names both's triple, CPU and features (cache keys).
  std::unique_ptr<llvm::TargetMachine> machine, fastMachine;
  std::string triple, target;
  std::unique_ptr<JitCache> cache;
  int cachedFunctions = 0;
  int compiledFunctions = 0;
  std::string compileLog;  // a line per function compiled, for --verbose
  bool keepIr = false;
  std::string optimizedIr;
  double compileMillis = 0;
  std::vector<std::unique_ptr<Context>> contexts;
  size_t depth = 0;
};

namespace {

std::string message(llvm::Error error) {
  return llvm::toString(std::move(error));
}

// Optimizes a hot function's module with LLVM's O2 pipeline; a cold one (an
// enumerator that only lists the moves of a position asked about, its game
// having a kernel or a native search) only gets its stack slots promoted to
// registers and its control flow simplified.
void optimize(llvm::Module& module, llvm::TargetMachine* machine, bool cold) {
  llvm::PassBuilder builder(machine);
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgscc, modules);
  if (cold) {
    llvm::FunctionPassManager cleanup;
    cleanup.addPass(llvm::SROAPass());
    cleanup.addPass(llvm::EarlyCSEPass());
    cleanup.addPass(llvm::SimplifyCFGPass());
    llvm::ModulePassManager pipeline;
    pipeline.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(cleanup)));
    pipeline.run(module, modules);
    return;
  }
  llvm::ModulePassManager pipeline =
      builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2);
  pipeline.run(module, modules);
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

std::unique_ptr<JitBackend> JitBackend::create(PositionBuilder& positions, std::string& error) {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  auto start = std::chrono::steady_clock::now();
  std::unique_ptr<JitBackend> backend(new JitBackend());
  Impl& impl = *backend->impl_;
  const ir::Program& program = positions.program();
  impl.program = &program;
  impl.positions = &positions;
  impl.functions.assign(program.games.size(), {});
  impl.listSearches.assign(program.games.size(), {});

  auto machineBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machineBuilder) {
    error = message(machineBuilder.takeError());
    return nullptr;
  }
  auto machine = machineBuilder->createTargetMachine();
  if (!machine) {
    error = message(machine.takeError());
    return nullptr;
  }
  impl.machine = std::move(*machine);
  // Cold functions: the fast instruction selector, no machine optimization
  // (about four times faster to compile).
  llvm::orc::JITTargetMachineBuilder fastBuilder = *machineBuilder;
  fastBuilder.setCodeGenOptLevel(llvm::CodeGenOpt::None);
  auto fastMachine = fastBuilder.createTargetMachine();
  if (!fastMachine) {
    error = message(fastMachine.takeError());
    return nullptr;
  }
  impl.fastMachine = std::move(*fastMachine);
  impl.triple = machineBuilder->getTargetTriple().str();
  impl.target =
      fmt::format("LLVM {} {} {} {}", LLVM_VERSION_STRING, impl.triple,
                  impl.machine->getTargetCPU().str(), impl.machine->getTargetFeatureString().str());
  // No platform: emitted code has no static initializers or atexit handlers,
  // and the generic IR platform compiled support code of its own at the first
  // lookup (about 4 ms of every run that uses the JIT).
  auto jit = llvm::orc::LLJITBuilder()
                 .setJITTargetMachineBuilder(*machineBuilder)
                 .setPlatformSetUp(llvm::orc::setUpInactivePlatform)
                 .create();
  if (!jit) {
    error = message(jit.takeError());
    return nullptr;
  }
  impl.jit = std::move(*jit);
  // Emitted code calls the helpers by name; anything else it needs (memset,
  // say, from a lowered intrinsic) comes from the process.
  llvm::orc::SymbolMap helperSymbols;
  for (const Helper& h : helpers())
    helperSymbols[impl.jit->mangleAndIntern(h.name)] = llvm::JITEvaluatedSymbol(
        llvm::pointerToJITTargetAddress(h.address), llvm::JITSymbolFlags::Exported);
  llvm::orc::JITDylib& main = impl.jit->getMainJITDylib();
  if (auto e = main.define(llvm::orc::absoluteSymbols(std::move(helperSymbols)))) {
    error = message(std::move(e));
    return nullptr;
  }
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      impl.jit->getDataLayout().getGlobalPrefix());
  if (!process) {
    error = message(process.takeError());
    return nullptr;
  }
  main.addGenerator(std::move(*process));
  impl.cache = std::make_unique<JitCache>(JitCache::directoryFromEnvironment());
  impl.compileMillis =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return backend;
}

// Compiles one function of a game (on its first use) into a module of its
// own. An enumerator is cold when the game has a kernel or a native search (it
// then only lists the moves of a position asked about): it is compiled for
// speed of compilation, every other function for speed of its code.
bool JitBackend::compile(int game, Emitted what, int64_t length, std::string& error) {
  Impl& impl = *impl_;
  auto start = std::chrono::steady_clock::now();
  const ir::Game& g = impl.program->games[static_cast<size_t>(game)];
  auto context = std::make_unique<llvm::LLVMContext>();
  std::string name = functionName(game, what, length);
  auto module = std::make_unique<llvm::Module>(name, *context);
  module->setDataLayout(impl.jit->getDataLayout());
  module->setTargetTriple(impl.triple);
  emitFunction(*impl.program, game, what, length, *module, impl.locations);
  std::string verifyErrors;
  llvm::raw_string_ostream verifyStream(verifyErrors);
  if (llvm::verifyModule(*module, &verifyStream)) {
    error = "internal error: the generated code does not verify: " + verifyStream.str();
    return false;
  }
  bool cold = what == Emitted::Enumerator && (hasKernel(g) || nativeKind(g) != NativeKind::None);
  // The cache key: the IR before optimization, with what else its code
  // depends on. Not when the optimized IR is wanted (gdsl check --dump=llvm).
  std::string key;
  std::unique_ptr<llvm::MemoryBuffer> object;
  if (impl.cache->enabled() && !impl.keepIr) {
    std::string text = fmt::format("{}\n{}\n", impl.target, cold ? "cold" : "hot");
    llvm::raw_string_ostream textStream(text);
    module->print(textStream, nullptr);
    key = JitCache::key(textStream.str());
    object = impl.cache->load(key);
  }
  bool cached = object != nullptr;
  if (!object) {
    optimize(*module, impl.machine.get(), cold);
    if (impl.keepIr) {
      llvm::raw_string_ostream irStream(impl.optimizedIr);
      module->print(irStream, nullptr);
    }
    llvm::orc::SimpleCompiler compileObject(cold ? *impl.fastMachine : *impl.machine);
    auto compiledObject = compileObject(*module);
    if (!compiledObject) {
      error = message(compiledObject.takeError());
      return false;
    }
    object = std::move(*compiledObject);
    if (!key.empty()) impl.cache->store(key, object->getBuffer());
  }
  if (auto e = impl.jit->addObjectFile(std::move(object))) {
    error = message(std::move(e));
    return false;
  }
  auto symbol = impl.jit->lookup(name);
  if (!symbol) {
    error = message(symbol.takeError());
    return false;
  }
  void* address = reinterpret_cast<void*>(symbol->getAddress());
  if (length >= 0)
    impl.listSearches[static_cast<size_t>(game)][static_cast<size_t>(length)] = address;
  else
    impl.functions[static_cast<size_t>(game)][static_cast<size_t>(what)] = address;
  ++impl.compiledFunctions;
  releaseLlvmCode();
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

bool JitBackend::compileAll(std::string& error) {
  impl_->keepIr = true;
  for (size_t g = 0; g < impl_->program->games.size(); ++g)
    for (Emitted what : kEmitted)
      if (emits(impl_->program->games[g], what) &&
          !impl_->functions[g][static_cast<size_t>(what)]) {
        // A list game's search: the one for lists of four, as an example.
        bool lists =
            what == Emitted::Search && nativeKind(impl_->program->games[g]) == NativeKind::List;
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
const ir::Move& JitBackend::move(int game, int index) const {
  return impl_->program->games[static_cast<size_t>(game)].moves[static_cast<size_t>(index)];
}

Context& JitBackend::enter() {
  Impl& impl = *impl_;
  if (impl.contexts.size() <= impl.depth) {
    auto c = std::make_unique<Context>();
    c->program = impl.program;
    c->backend = this;
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
  if (++c.epoch == 0) {
    std::fill(c.stampStore.begin(), c.stampStore.end(), 0);
    c.epoch = 1;
  }
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
  return nativeKind(impl_->program->games[static_cast<size_t>(game)]) != NativeKind::None;
}

NativeStatus JitBackend::searchNative(int game, const int64_t* words, NativeMemo memo,
                                      ValueOracle& oracle, std::vector<int64_t>& miss,
                                      uint64_t stackFloor) {
  NativeKind kind = nativeKind(impl_->program->games[static_cast<size_t>(game)]);
  if (kind == NativeKind::None || (kind == NativeKind::Box) != (memo.box != nullptr) ||
      (kind == NativeKind::List) != memo.lists)
    return NativeStatus::Unsupported;
  DepthGuard guard(*this);
  Context& c = guard.context();
  SearchFn search = kind == NativeKind::List
                        ? listSearch(game, words[0])
                        : reinterpret_cast<SearchFn>(function(game, Emitted::Search));
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
  c.seenTop = 0;
  c.pendingTop = 0;
  c.miss = &miss;
  c.stackFloor = stackFloor;
  int32_t status = search(&c, words);
  switch (status) {
    case 0:
      return NativeStatus::Done;
    case kDenseOutside:
      return NativeStatus::Outside;
    case kDenseDeep:
      return NativeStatus::Deep;
    case kDenseCycle:
      return NativeStatus::Cycle;
    case kDenseFull:
      return NativeStatus::Full;
    default:
      break;
  }
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
