/*
 * fifo.h - an array used as a queue: elements join at the end and leave
 * at the head, the consumed head reused once the end reaches the
 * capacity.  The kernel bridge's held sub-buffers and the relay client's
 * queued messages are kept this way.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 */
#ifndef UST_FIFO_H
#define UST_FIFO_H

#include <stddef.h>

/*
 * Room for one more element at the end of the queue `arr`, whose live
 * elements (`size` bytes each) are arr[*head, *head + nr) of *cap.  When
 * the end reaches *cap, the consumed head leaves first (the live elements
 * move down to arr[0], *head becomes 0); if the array is still full, it
 * doubles (`first_cap` elements when it has none).  Returns the array,
 * moved or not, or NULL without memory: `arr` then stays the queue's
 * array, with the same live elements.
 */
void *ust__fifo_room(void *arr, size_t size, size_t *head, size_t nr,
		     size_t *cap, size_t first_cap);

#endif /* UST_FIFO_H */
