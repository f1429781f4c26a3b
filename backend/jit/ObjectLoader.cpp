// LinkedObject (see ObjectLoader.h): reads the section headers and the symbol
// table of an ELF64 x86-64 relocatable object, lays its allocated sections
// out in one mapping (code and call stubs first, then constants, data and
// GOT entries, each part page-aligned), applies the RELA relocations, and
// makes the code pages read-and-execute.
#include "backend/jit/ObjectLoader.h"

#include <elf.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <limits>

namespace gdsl::jit {
namespace {

constexpr size_t kStubBytes = 16;  // jmp *0(%rip); .quad target

size_t alignUp(size_t value, size_t alignment) {
  return alignment <= 1 ? value : (value + alignment - 1) / alignment * alignment;
}

bool fitsInt32(int64_t v) {
  return v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
}

// The object's bytes, read with bounds checks.
class Image {
 public:
  explicit Image(std::string_view bytes) : bytes_(bytes) {}
  template <class T>
  bool read(uint64_t offset, T& out) const {
    if (offset > bytes_.size() || bytes_.size() - offset < sizeof(T)) return false;
    std::memcpy(&out, bytes_.data() + offset, sizeof(T));
    return true;
  }
  bool contains(uint64_t offset, uint64_t size) const {
    return offset <= bytes_.size() && size <= bytes_.size() - offset;
  }
  // The NUL-terminated string at `offset` of the table [table, table + size).
  bool string(uint64_t table, uint64_t size, uint64_t offset, std::string& out) const {
    if (!contains(table, size) || offset >= size) return false;
    const char* start = bytes_.data() + table + offset;
    const void* end = std::memchr(start, 0, size - offset);
    if (!end) return false;
    out.assign(start, static_cast<const char*>(end));
    return true;
  }
  const char* data() const { return bytes_.data(); }

 private:
  std::string_view bytes_;
};

}  // namespace

std::unique_ptr<LinkedObject> LinkedObject::link(std::string_view object, const Resolver& resolve,
                                                 std::string& error) {
  Image image(object);
  auto broken = [&](const std::string& why) {
    error = "the JIT's object cannot be linked: " + why;
    return nullptr;
  };
  Elf64_Ehdr header;
  if (!image.read(0, header) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0)
    return broken("not an ELF file");
  if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_ident[EI_DATA] != ELFDATA2LSB ||
      header.e_machine != EM_X86_64 || header.e_type != ET_REL)
    return broken("not an x86-64 relocatable object");
  if (header.e_shentsize != sizeof(Elf64_Shdr) ||
      !image.contains(header.e_shoff, uint64_t{header.e_shnum} * sizeof(Elf64_Shdr)) ||
      header.e_shstrndx >= header.e_shnum)
    return broken("damaged section headers");
  std::vector<Elf64_Shdr> sections(header.e_shnum);
  for (size_t i = 0; i < sections.size(); ++i)
    image.read(header.e_shoff + i * sizeof(Elf64_Shdr), sections[i]);
  const Elf64_Shdr& names = sections[header.e_shstrndx];

  // Which sections are loaded, and where (offsets in the code or data part).
  enum class Part { None, Code, Data };
  std::vector<Part> part(sections.size(), Part::None);
  std::vector<size_t> offset(sections.size(), 0);
  size_t codeSize = 0, dataSize = 0;
  const Elf64_Shdr* symtab = nullptr;
  for (size_t i = 0; i < sections.size(); ++i) {
    const Elf64_Shdr& s = sections[i];
    if (s.sh_type == SHT_SYMTAB) {
      if (symtab) return broken("two symbol tables");
      symtab = &s;
    }
    if (!(s.sh_flags & SHF_ALLOC) || s.sh_size == 0) continue;
    std::string name;
    if (!image.string(names.sh_offset, names.sh_size, s.sh_name, name))
      return broken("damaged section names");
    if (name == ".eh_frame") continue;  // no exception crosses JIT-compiled frames
    if (s.sh_type != SHT_PROGBITS && s.sh_type != SHT_NOBITS)
      return broken("section " + name + " of an unexpected type");
    if (s.sh_type == SHT_PROGBITS && !image.contains(s.sh_offset, s.sh_size))
      return broken("section " + name + " past the end of the file");
    if (s.sh_addralign > 4096 || s.sh_size > (uint64_t{1} << 30))
      return broken("section " + name + " too large");
    size_t& size = (s.sh_flags & SHF_EXECINSTR) ? codeSize : dataSize;
    part[i] = (s.sh_flags & SHF_EXECINSTR) ? Part::Code : Part::Data;
    offset[i] = alignUp(size, s.sh_addralign);
    size = offset[i] + s.sh_size;
  }
  if (!symtab || symtab->sh_entsize != sizeof(Elf64_Sym) ||
      !image.contains(symtab->sh_offset, symtab->sh_size) || symtab->sh_link >= sections.size())
    return broken("no symbol table");
  const Elf64_Shdr& strtab = sections[symtab->sh_link];
  size_t symbolCount = symtab->sh_size / sizeof(Elf64_Sym);
  std::vector<Elf64_Sym> symbols(symbolCount);
  for (size_t i = 0; i < symbolCount; ++i)
    image.read(symtab->sh_offset + i * sizeof(Elf64_Sym), symbols[i]);

  // One stub and one GOT entry per symbol at most.
  size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  size_t stubsOffset = alignUp(codeSize, kStubBytes);
  size_t codePart = alignUp(stubsOffset + symbolCount * kStubBytes, page);
  size_t gotOffset = alignUp(dataSize, 8);
  size_t total = codePart + alignUp(gotOffset + symbolCount * 8, page);
  if (total > (size_t{1} << 30)) return broken("too large");  // 32-bit displacements reach all
  void* mapping = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) return broken("no memory for the code");
  std::unique_ptr<LinkedObject> linked(new LinkedObject());
  linked->memory_ = static_cast<char*>(mapping);
  linked->size_ = total;
  char* base = linked->memory_;
  auto sectionAddress = [&](size_t i) {
    return base + (part[i] == Part::Code ? 0 : codePart) + offset[i];
  };
  for (size_t i = 0; i < sections.size(); ++i)
    if (part[i] != Part::None && sections[i].sh_type == SHT_PROGBITS)
      std::memcpy(sectionAddress(i), image.data() + sections[i].sh_offset, sections[i].sh_size);

  // Each symbol's address, resolved on first use; stubs and GOT entries made on demand.
  std::vector<char*> address(symbolCount, nullptr);
  std::vector<bool> resolved(symbolCount, false);
  std::vector<char*> stub(symbolCount, nullptr), got(symbolCount, nullptr);
  auto symbolAddress = [&](size_t index, char*& out) -> bool {
    if (index >= symbolCount) return false;
    if (!resolved[index]) {
      const Elf64_Sym& sym = symbols[index];
      if (sym.st_shndx == SHN_UNDEF) {
        std::string name;
        if (!image.string(strtab.sh_offset, strtab.sh_size, sym.st_name, name)) return false;
        address[index] = static_cast<char*>(resolve(name));
        if (!address[index]) {
          error = "the JIT's object cannot be linked: undefined symbol " + name;
          return false;
        }
      } else if (sym.st_shndx == SHN_ABS) {
        address[index] = reinterpret_cast<char*>(sym.st_value);
      } else if (sym.st_shndx < sections.size() && part[sym.st_shndx] != Part::None &&
                 sym.st_value <= sections[sym.st_shndx].sh_size) {
        address[index] = sectionAddress(sym.st_shndx) + sym.st_value;
      } else {
        return false;
      }
      resolved[index] = true;
    }
    out = address[index];
    return true;
  };

  for (size_t r = 0; r < sections.size(); ++r) {
    const Elf64_Shdr& rela = sections[r];
    if (rela.sh_type == SHT_REL) return broken("REL relocations");
    if (rela.sh_type != SHT_RELA || rela.sh_info >= sections.size() ||
        part[rela.sh_info] == Part::None)
      continue;  // relocations of a section not loaded (.eh_frame)
    if (rela.sh_entsize != sizeof(Elf64_Rela) || !image.contains(rela.sh_offset, rela.sh_size))
      return broken("damaged relocations");
    const Elf64_Shdr& target = sections[rela.sh_info];
    char* targetBase = sectionAddress(rela.sh_info);
    for (uint64_t at = 0; at + sizeof(Elf64_Rela) <= rela.sh_size; at += sizeof(Elf64_Rela)) {
      Elf64_Rela entry;
      image.read(rela.sh_offset + at, entry);
      uint32_t type = ELF64_R_TYPE(entry.r_info);
      size_t index = ELF64_R_SYM(entry.r_info);
      if (type == R_X86_64_NONE) continue;
      size_t width = type == R_X86_64_64 || type == R_X86_64_PC64 ? 8 : 4;
      if (entry.r_offset > target.sh_size || target.sh_size - entry.r_offset < width)
        return broken("a relocation outside its section");
      char* place = targetBase + entry.r_offset;
      char* s = nullptr;
      if (index != 0 && !symbolAddress(index, s))
        return error.empty() ? broken("a relocation against a damaged symbol") : nullptr;
      // Wrapping arithmetic (a damaged addend must not overflow), read as signed after.
      uint64_t S = reinterpret_cast<uintptr_t>(s);
      uint64_t P = reinterpret_cast<uintptr_t>(place);
      uint64_t A = static_cast<uint64_t>(entry.r_addend);
      int64_t value = 0;
      switch (type) {
        case R_X86_64_64:
          value = static_cast<int64_t>(S + A);
          break;
        case R_X86_64_PC64:
          value = static_cast<int64_t>(S + A - P);
          break;
        case R_X86_64_32:
          value = static_cast<int64_t>(S + A);
          if (value < 0 || value > std::numeric_limits<uint32_t>::max())
            return broken("an absolute 32-bit address out of range");
          break;
        case R_X86_64_32S:
          value = static_cast<int64_t>(S + A);
          if (!fitsInt32(value)) return broken("an absolute 32-bit address out of range");
          break;
        case R_X86_64_PC32:
        case R_X86_64_PLT32:
          value = static_cast<int64_t>(S + A - P);
          if (!fitsInt32(value) && type == R_X86_64_PLT32 && index != 0) {
            if (!stub[index]) {  // jmp *0(%rip), then the target
              stub[index] = base + stubsOffset + index * kStubBytes;
              const unsigned char jump[6] = {0xff, 0x25, 0, 0, 0, 0};
              std::memcpy(stub[index], jump, sizeof jump);
              std::memcpy(stub[index] + sizeof jump, &s, sizeof s);
            }
            value = static_cast<int64_t>(reinterpret_cast<uintptr_t>(stub[index]) + A - P);
          }
          if (!fitsInt32(value)) return broken("a 32-bit displacement out of range");
          break;
        case R_X86_64_GOTPCREL:
        case R_X86_64_GOTPCRELX:
        case R_X86_64_REX_GOTPCRELX:
          if (index == 0) return broken("a GOT relocation without a symbol");
          if (!got[index]) {
            got[index] = base + codePart + gotOffset + index * 8;
            std::memcpy(got[index], &s, sizeof s);
          }
          value = static_cast<int64_t>(reinterpret_cast<uintptr_t>(got[index]) + A - P);
          if (!fitsInt32(value)) return broken("a 32-bit displacement out of range");
          break;
        default:
          return broken("relocation type " + std::to_string(type) + " is not supported");
      }
      if (width == 8) {
        std::memcpy(place, &value, 8);
      } else {
        auto low = static_cast<uint32_t>(static_cast<uint64_t>(value));
        std::memcpy(place, &low, 4);
      }
    }
  }

  for (size_t i = 1; i < symbolCount; ++i) {
    const Elf64_Sym& sym = symbols[i];
    unsigned bind = ELF64_ST_BIND(sym.st_info);
    if ((bind != STB_GLOBAL && bind != STB_WEAK) || sym.st_shndx == SHN_UNDEF) continue;
    std::string name;
    char* at = nullptr;
    if (!image.string(strtab.sh_offset, strtab.sh_size, sym.st_name, name) || !symbolAddress(i, at))
      return broken("a damaged symbol");
    linked->symbols_.push_back({name, at});
  }
  if (codePart > 0 && mprotect(base, codePart, PROT_READ | PROT_EXEC) != 0)
    return broken("the code cannot be made executable");
  return linked;
}

LinkedObject::~LinkedObject() {
  if (memory_) munmap(memory_, size_);
}

void* LinkedObject::symbol(const std::string& name) const {
  for (const Symbol& s : symbols_)
    if (s.name == name) return s.address;
  return nullptr;
}

}  // namespace gdsl::jit
