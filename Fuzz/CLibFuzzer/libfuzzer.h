// libFuzzer's driver, from the toolchain's libclang_rt.fuzzer (linked by
// -sanitize=fuzzer): SwiftPM's executables name their own main, so each fuzz
// target's main hands its arguments and its input function to this.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
