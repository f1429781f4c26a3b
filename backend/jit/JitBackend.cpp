// JitBackend: compiles the whole program with LLVM 14 ORC (LLJIT), optimizes
// it at O2 for the host CPU, and calls the native kernels and enumerators.
// The LLVM boundary is here: every llvm::Error becomes an error string.
#include "backend/jit/JitBackend.h"

#include <fmt/format.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <chrono>
#include <mutex>

#include "backend/jit/Codegen.h"
#include "backend/jit/JitRuntime.h"
#include "runtime/PositionBuilder.h"

namespace gdsl::jit {

using KernelFn = int64_t (*)(Context*, int64_t, const void*);
using EnumerateFn = int32_t (*)(Context*, const int64_t*);
using SearchFn = int32_t (*)(Context*, const int64_t*);

struct JitBackend::Impl {
  const ir::Program* program = nullptr;
  PositionBuilder* positions = nullptr;  // normalize rules
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::vector<KernelFn> kernels;      // reading 16-bit tables
  std::vector<KernelFn> wideKernels;  // reading 32-bit tables
  std::vector<EnumerateFn> enumerators;
  std::vector<SearchFn> searches;  // native searches (Codegen.h, nativeKind)
  std::vector<SourceRange> locations;
  std::unique_ptr<llvm::TargetMachine> machine;
  std::string triple;
  std::vector<bool> compiled;
  bool keepIr = false;
  std::string optimizedIr;
  double compileMillis = 0;
  std::vector<std::unique_ptr<Context>> contexts;
  size_t depth = 0;
  ir::ListArena arena;
  std::vector<ir::ListArena::Mark> marks;
};

namespace {

std::string message(llvm::Error error) {
  return llvm::toString(std::move(error));
}

void optimize(llvm::Module& module, llvm::TargetMachine* machine) {
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
  impl.kernels.assign(program.games.size(), nullptr);
  impl.wideKernels.assign(program.games.size(), nullptr);
  impl.enumerators.assign(program.games.size(), nullptr);
  impl.searches.assign(program.games.size(), nullptr);
  impl.compiled.assign(program.games.size(), false);

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
  impl.triple = machineBuilder->getTargetTriple().str();
  auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(*machineBuilder).create();
  if (!jit) {
    error = message(jit.takeError());
    return nullptr;
  }
  impl.jit = std::move(*jit);
  impl.compileMillis =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return backend;
}

// Compiles one game's kernel and enumerator (on its first use).
bool JitBackend::compile(int game, std::string& error) {
  Impl& impl = *impl_;
  auto start = std::chrono::steady_clock::now();
  auto context = std::make_unique<llvm::LLVMContext>();
  auto module = std::make_unique<llvm::Module>("gdsl_game_" + std::to_string(game), *context);
  module->setDataLayout(impl.jit->getDataLayout());
  module->setTargetTriple(impl.triple);
  emitGame(*impl.program, game, *module, impl.locations);
  std::string verifyErrors;
  llvm::raw_string_ostream verifyStream(verifyErrors);
  if (llvm::verifyModule(*module, &verifyStream)) {
    error = "internal error: the generated code does not verify: " + verifyStream.str();
    return false;
  }
  optimize(*module, impl.machine.get());
  if (impl.keepIr) {
    llvm::raw_string_ostream irStream(impl.optimizedIr);
    module->print(irStream, nullptr);
  }
  if (auto e = impl.jit->addIRModule(
          llvm::orc::ThreadSafeModule(std::move(module), std::move(context)))) {
    error = message(std::move(e));
    return false;
  }
  if (hasKernel(impl.program->games[static_cast<size_t>(game)])) {
    for (bool wide : {false, true}) {
      auto symbol = impl.jit->lookup(kernelName(game, wide));
      if (!symbol) {
        error = message(symbol.takeError());
        return false;
      }
      (wide ? impl.wideKernels : impl.kernels)[static_cast<size_t>(game)] =
          reinterpret_cast<KernelFn>(symbol->getAddress());
    }
  }
  auto symbol = impl.jit->lookup(enumeratorName(game));
  if (!symbol) {
    error = message(symbol.takeError());
    return false;
  }
  impl.enumerators[static_cast<size_t>(game)] = reinterpret_cast<EnumerateFn>(symbol->getAddress());
  if (nativeKind(impl.program->games[static_cast<size_t>(game)]) != NativeKind::None) {
    auto search = impl.jit->lookup(nativeName(game));
    if (!search) {
      error = message(search.takeError());
      return false;
    }
    impl.searches[static_cast<size_t>(game)] = reinterpret_cast<SearchFn>(search->getAddress());
  }
  impl.compiled[static_cast<size_t>(game)] = true;
  impl.compileMillis +=
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return true;
}

void JitBackend::ensureCompiled(int game) {
  if (impl_->compiled[static_cast<size_t>(game)]) return;
  std::string error;
  if (!compile(game, error))
    throw RuntimeError(impl_->program->games[static_cast<size_t>(game)].loc,
                       "the JIT could not compile this game: " + error);
}

bool JitBackend::compileAll(std::string& error) {
  impl_->keepIr = true;
  for (size_t g = 0; g < impl_->program->games.size(); ++g)
    if (!impl_->compiled[g] && !compile(static_cast<int>(g), error)) return false;
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
    c->arena = &impl.arena;
    c->stampStore.assign(64, 0);
    c->stamps = c->stampStore.data();
    c->capacity = c->stampStore.size();
    impl.contexts.push_back(std::move(c));
  }
  impl.marks.push_back(impl.arena.mark());
  Context& c = *impl.contexts[impl.depth++];
  c.error = nullptr;
  return c;
}

void JitBackend::leave() {
  Impl& impl = *impl_;
  --impl.depth;
  impl.arena.release(impl.marks.back());
  impl.marks.pop_back();
}

void JitBackend::normalize(Position& position) {
  impl_->positions->normalize(position);
}

void JitBackend::enumerate(const Position& position, MoveSink& sink) {
  DepthGuard guard(*this);
  Context& c = guard.context();
  ensureCompiled(static_cast<int>(position.game));
  c.sink = &sink;
  c.game = static_cast<int>(position.game);
  int32_t status = impl_->enumerators[position.game](&c, position.words.data());
  if (status == 1) rethrow(c, *impl_->program, position);
}

uint32_t JitBackend::heapValue(int game, int64_t n, TableView table, ValueOracle& oracle) {
  DepthGuard guard(*this);
  Context& c = guard.context();
  ensureCompiled(game);
  c.oracle = &oracle;
  c.game = game;
  if (++c.epoch == 0) {
    std::fill(c.stampStore.begin(), c.stampStore.end(), 0);
    c.epoch = 1;
  }
  KernelFn kernel = (table.wide ? impl_->wideKernels : impl_->kernels)[static_cast<size_t>(game)];
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
  if (kind == NativeKind::None || (kind == NativeKind::Box) != (memo.box != nullptr))
    return NativeStatus::Unsupported;
  DepthGuard guard(*this);
  Context& c = guard.context();
  ensureCompiled(game);
  c.oracle = &oracle;
  c.game = game;
  if (memo.box) {
    c.cells = memo.box->cells();
    c.extent = memo.box->extent().data();
    c.stride = memo.box->stride().data();
  } else {
    c.words = memo.words;
    c.wordSlots = reinterpret_cast<uint8_t*>(memo.words->slots());
    c.wordMask = memo.words->mask();
    c.wordShift = memo.words->shift();
  }
  c.seenTop = 0;
  c.miss = &miss;
  c.stackFloor = stackFloor;
  int32_t status = impl_->searches[static_cast<size_t>(game)](&c, words);
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
  for (bool c : impl_->compiled) games += c ? 1 : 0;
  return fmt::format("gdsl: jit: compiled {} game{} in {:.1f} ms (LLVM set-up included)\n", games,
                     games == 1 ? "" : "s", impl_->compileMillis);
}

}  // namespace gdsl::jit
