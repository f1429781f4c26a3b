// GDSL_ASAN is defined in builds with AddressSanitizer (clang's and GCC's
// spellings of the test): code that must act differently under it (freeing
// the quarantine, leaving by the normal exit for LeakSanitizer) tests this.
#pragma once

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GDSL_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(GDSL_ASAN)
#define GDSL_ASAN 1
#endif
