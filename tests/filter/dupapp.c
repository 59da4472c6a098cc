/*
 * dupapp.c - two libraries with an event of the same name, dup:ev, and
 * different fields: ten of each, x and y = 0..9 and 0..90 (samename.sh).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
void dupa_emit(int i);
void dupb_emit(int i);

int main(void)
{
	int i;

	for (i = 0; i < 10; i++) {
		dupa_emit(i);
		dupb_emit(i);
	}
	return 0;
}
