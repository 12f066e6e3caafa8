// SPDX-License-Identifier: GPL-2.0
/*
 * ma-drain: drain the per-CPU LRU and mlock batches of every CPU, without
 * migrating anything. move_pages(2) with nodes given calls
 * lru_cache_disable(), which drains every CPU's batches
 * (__lru_add_drain_all(true): lru_add_drain_cpu() and mlock_drain_local()
 * per CPU; mm/migrate.c do_pages_move(), mm/swap.c, 6.1 to 7.3); with no
 * page to move, that is all it does. Writing vm/compact_memory drains too,
 * but then compacts: a not-mlocked large page-cache folio that compaction
 * splits comes back unmapped (stock split_folio() does not remap file
 * pages), which a test would read as memory the module unmapped.
 *
 *   ma-drain
 * Exits 0 on success, 1 with a message otherwise.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int node = 0;

	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "usage: ma-drain\n");
		return 1;
	}
	if (syscall(SYS_move_pages, 0, 0UL, NULL, &node, NULL, 0) != 0) {
		fprintf(stderr, "ma-drain: move_pages: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}
