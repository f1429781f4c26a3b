// Lets glibc load a gdsl whose relative relocations are packed (lld's
// --pack-dyn-relocs=relr; docs/architecture.md, "Start-up"). Packed, the
// 9000-odd relocations that the dynamic loader applies at every start take
// 1.4 KB instead of 220 KB. glibc 2.36 applies them, but refuses an executable
// with packed relocations unless it names the version GLIBC_ABI_DT_RELR of
// libc.so.6, which lld 14 does not add (lld 15's -z pack-relative-relocs
// does). This reference to the version's own symbol adds it. CMake links this
// file only after checking that such an executable links and runs.

extern "C" char glibcAbiDtRelr asm("GLIBC_ABI_DT_RELR");
asm(".symver GLIBC_ABI_DT_RELR, GLIBC_ABI_DT_RELR@GLIBC_ABI_DT_RELR");

namespace gdsl {

// Kept by `used`; never read.
[[gnu::used]] extern const void* const packedRelocationsVersion = &glibcAbiDtRelr;

}  // namespace gdsl
