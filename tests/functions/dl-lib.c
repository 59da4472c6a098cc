/*
 * dl-lib.c - the libraries statedump-app loads with dlopen(): built
 * twice, as libsdfirst.so and libsdsecond.so.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
int dl_lib_value(void);

int dl_lib_value(void)
{
	return 42;
}
