// The plugin's compiler (JitPlugin.h): emits one function of a game into an
// LLVM module of its own (backend/jit/Codegen.cpp), optimizes it (O2 for hot
// functions; a cleanup for cold ones) and compiles it to a position-
// independent object for the host CPU. The LLVM boundary is here: every
// llvm::Error becomes an error string.
#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>

#include <chrono>
#include <mutex>

#include "backend/jit/Codegen.h"
#include "backend/jit/JitPlugin.h"
#include "backend/jit/LlvmPages.h"

namespace gdsl::jit {
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

class LlvmCompiler final : public ObjectCompiler {
 public:
  bool start(std::string& error) {
    static std::once_flag initialized;
    std::call_once(initialized, [] {
      llvm::InitializeNativeTarget();
      llvm::InitializeNativeTargetAsmPrinter();
    });
    auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!builder) {
      error = message(builder.takeError());
      return false;
    }
    // Position-independent code in the small code model: gdsl's own linker
    // (ObjectLoader.h) places the object anywhere.
    builder->setRelocationModel(llvm::Reloc::PIC_);
    builder->setCodeModel(llvm::CodeModel::Small);
    auto make = [&](std::unique_ptr<llvm::TargetMachine>& out) {
      auto machine = builder->createTargetMachine();
      if (!machine) {
        error = message(machine.takeError());
        return false;
      }
      out = std::move(*machine);
      return true;
    };
    if (!make(machine_)) return false;
    // Cold functions: the fast instruction selector, no machine optimization
    // (about four times faster to compile).
    builder->setCodeGenOptLevel(llvm::CodeGenOpt::None);
    if (!make(fastMachine_)) return false;
    triple_ = builder->getTargetTriple().str();
    return true;
  }

  bool compile(const CompileRequest& request, CompiledObject& out, std::string& error) override {
    const ir::Game& g = request.program->games[static_cast<size_t>(request.game)];
    bool cold = isCold(g, request.what);
    llvm::LLVMContext context;
    auto module = std::make_unique<llvm::Module>(
        functionName(request.game, request.what, request.length), context);
    module->setDataLayout(machine_->createDataLayout());
    module->setTargetTriple(triple_);
    std::vector<SourceRange> locations(static_cast<size_t>(request.firstLocation));
    emitFunction(*request.program, request.game, request.what, request.length, *module, locations);
    std::string verifyErrors;
    llvm::raw_string_ostream verifyStream(verifyErrors);
    if (llvm::verifyModule(*module, &verifyStream)) {
      error = "internal error: the generated code does not verify: " + verifyStream.str();
      return false;
    }
    optimize(*module, machine_.get(), cold);
    if (request.optimizedIr) {
      llvm::raw_string_ostream irStream(*request.optimizedIr);
      module->print(irStream, nullptr);
    }
    llvm::orc::SimpleCompiler compileObject(cold ? *fastMachine_ : *machine_);
    auto object = compileObject(*module);
    if (!object) {
      error = message(object.takeError());
      return false;
    }
    out.object.assign((*object)->getBufferStart(), (*object)->getBufferSize());
    out.locations.assign(locations.begin() + request.firstLocation, locations.end());
    releaseLlvmCode();
    return true;
  }

 private:
  std::unique_ptr<llvm::TargetMachine> machine_, fastMachine_;
  std::string triple_;
};

}  // namespace
}  // namespace gdsl::jit

extern "C" gdsl::jit::ObjectCompiler* gdsl_jit_compiler(std::string* error, double* setupMillis) {
  auto start = std::chrono::steady_clock::now();
  auto compiler = std::make_unique<gdsl::jit::LlvmCompiler>();
  if (!compiler->start(*error)) return nullptr;
  *setupMillis =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return compiler.release();
}
