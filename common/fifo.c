/*
 * fifo.c - room at the end of an array used as a queue (fifo.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 */
#include <stdlib.h>
#include <string.h>

#include "fifo.h"

void *ust__fifo_room(void *arr, size_t size, size_t *head, size_t nr,
		     size_t *cap, size_t first_cap)
{
	size_t bigger;
	void *p;

	if (*head && *head + nr == *cap) {
		memmove(arr, (char *)arr + *head * size, nr * size);
		*head = 0;
	}
	if (*head + nr < *cap)
		return arr;
	bigger = *cap ? 2 * *cap : first_cap;
	p = realloc(arr, bigger * size);
	if (p)
		*cap = bigger;
	return p;
}
