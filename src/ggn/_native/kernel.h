/* The native kernel of ggn: plays variants from the flat tables ggn's rule system makes.
 *
 * A placeholder until the kernel lands: the build (setup.py) compiles this file with module.c
 * into the extension module ggn._native. */
#ifndef GGN_KERNEL_H
#define GGN_KERNEL_H

/* The version of the tables' layout the kernel reads; ggn.rules._native checks it. */
#define GGN_KERNEL_ABI 0

int ggn_kernel_abi(void);

#endif
