// libFuzzer's entry for programs that keep their own main(): the fuzz build of plantleaf-fuzz
// (see Fuzz/main.swift) hands its remaining arguments and one target to it. The function lives
// in the toolchain's libFuzzer runtime, linked by -sanitize=fuzzer; nothing else calls it.
#ifndef PLANTLEAF_CFUZZER_H
#define PLANTLEAF_CFUZZER_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*run_one_input)(const uint8_t *data, size_t size));

#endif
