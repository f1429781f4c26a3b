// gdsl's own linker for the objects the JIT compiles: an x86-64 ELF
// relocatable object (what LLVM emits for one function, position-independent)
// is copied into fresh pages, its relocations applied, and its code made
// executable. No LLVM here, so that a run whose functions all come from the
// code cache never loads libLLVM (docs/architecture.md, "LLVM on demand").
//
// What it handles is what LLVM 14 emits for gdsl's modules with the PIC
// relocation model and the small code model: sections of code, constants,
// data and zeroed data; relocations R_X86_64_64, PC32, PC64, PLT32, 32, 32S
// and the GOT-relative loads (GOTPCREL, GOTPCRELX, REX_GOTPCRELX). Calls to
// a symbol out of 32-bit reach go through a stub; GOT entries are made in the
// object's own pages. Unwind tables (.eh_frame) are not loaded: no exception
// crosses JIT-compiled frames (backend/jit/JitRuntime.h). Anything else is an
// error, never a guess.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gdsl::jit {

class LinkedObject {
 public:
  // The address of an undefined symbol the object uses, or null when there is none.
  using Resolver = std::function<void*(const std::string& name)>;

  // Links `object` (the bytes of an ELF file, copied) or returns null with
  // `error` set. Every byte is bounds-checked: damaged input is an error.
  static std::unique_ptr<LinkedObject> link(std::string_view object, const Resolver& resolve,
                                            std::string& error);
  ~LinkedObject();
  LinkedObject(const LinkedObject&) = delete;
  LinkedObject& operator=(const LinkedObject&) = delete;

  // The address of the global symbol `name` the object defines, or null.
  void* symbol(const std::string& name) const;
  // The bytes mapped for the object (code, data, stubs and GOT).
  size_t mappedBytes() const { return size_; }

 private:
  LinkedObject() = default;
  struct Symbol {
    std::string name;
    void* address;
  };
  char* memory_ = nullptr;
  size_t size_ = 0;
  std::vector<Symbol> symbols_;
};

}  // namespace gdsl::jit
