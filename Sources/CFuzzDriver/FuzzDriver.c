#include "CFuzzDriver.h"
#include <stdio.h>

// libFuzzer is linked without its own main (libclang_rt.fuzzer_no_main) into the AddressSanitizer build,
// which scripts/sanitize compiles with ONAIR_LIBFUZZER and coverage instrumentation: one build serves the
// sanitized tests and the fuzzers. Every other build has no libFuzzer.
#ifdef ONAIR_LIBFUZZER
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *, size_t));
#endif

int onair_fuzz_run(int argc, char **argv, onair_fuzz_target target) {
#ifdef ONAIR_LIBFUZZER
    return LLVMFuzzerRunDriver(&argc, &argv, target);
#else
    (void)argc; (void)target;
    fprintf(stderr, "%s: this build has no libFuzzer; scripts/fuzz builds and runs one that has\n", argv[0]);
    return 64;
#endif
}
