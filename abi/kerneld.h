/*
 * kerneld-abi.h - what `ust record` (cli/kernel.c) and ust-kerneld
 * (consumer/kernel/) agree on: the exit statuses the recorder tells
 * apart.  One definition for both sides.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_KERNELD_ABI_H
#define UST_KERNELD_ABI_H

#define KERNELD_EXIT_USAGE	2	/* bad event list: ust record stops */
#define KERNELD_EXIT_UNAVAIL	3	/* no permission, no tracefs: go on */

#endif /* UST_KERNELD_ABI_H */
