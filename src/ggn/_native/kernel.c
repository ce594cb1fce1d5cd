/* The native kernel of ggn (a placeholder until the kernel lands): no Python here, so that the
 * same file builds into the extension and into the libFuzzer target (fuzz/kernel_fuzz.c). */
#include "kernel.h"

int ggn_kernel_abi(void) { return GGN_KERNEL_ABI; }
