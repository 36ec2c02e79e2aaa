#ifndef CFUZZDRIVER_H
#define CFUZZDRIVER_H
#include <stddef.h>
#include <stdint.h>

/// One fuzz target: libFuzzer calls it with each input.
typedef int (*onair_fuzz_target)(const uint8_t *_Nonnull data, size_t size);

/// Runs libFuzzer on `target` with the options and corpus folders in argv (argv[0] is the program's
/// name). In a build without libFuzzer it says so in one line and returns 64.
int onair_fuzz_run(int argc, char *_Nullable *_Nonnull argv, onair_fuzz_target _Nonnull target);

#endif
