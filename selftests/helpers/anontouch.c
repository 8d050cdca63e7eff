// SPDX-License-Identifier: GPL-2.0
/*
 * anontouch MIB SECONDS [hold|collapse|full]
 *
 * Map MIB of private anonymous memory and write one byte of every page,
 * over and over, for SECONDS: a working set that swaps when its memory
 * cgroup's limit is below it.  The clock is read every 64 pages, so a
 * pass slowed by swap ends on time.  Prints "passes=N pages=M" (M pages
 * written in all) and exits 0; 2 on a setup error.  Each pass writes a
 * new byte value, so a page that comes back from swap with stale contents
 * is caught: exits 1 and prints "corrupt at page P" if a page does not
 * hold the previous pass's value.  SECONDS 0: one pass, every page
 * faulted in once (the page-fault benchmark).  Also prints the CPU time
 * it used and the time from its mmap to its munmap (cpu_ms=C wall_ms=W),
 * which leaves out loading the program.  hold: one pass, "ready", then
 * the memory sits idle (cold, the first that global reclaim swaps out)
 * for SECONDS, and every page is checked at the end.  The pass itself is
 * not timed: on a debug kernel it takes a minute.  collapse: as hold,
 * but the pass faults 4 KiB pages (MADV_NOHUGEPAGE), then MADV_HUGEPAGE
 * hands the range to khugepaged before "ready".  full: as with no mode,
 * but the first pass always ends (on a debug kernel under memory pressure
 * it takes longer than SECONDS); the clock stops the passes after it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned long i, n, passes = 0, pages = 0;
	long psz = sysconf(_SC_PAGESIZE);
	unsigned char *p, want = 0;
	int collapse = 0, full = 0, hold;
	double secs, start, end;
	struct rusage ru;

	if (argc == 4 && !strcmp(argv[3], "collapse"))
		collapse = 1;
	else if (argc == 4 && !strcmp(argv[3], "full"))
		full = 1;
	else if (argc == 4 && strcmp(argv[3], "hold"))
		argc = 0;
	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: anontouch MIB SECONDS [hold|collapse|full]\n");
		return 2;
	}
	hold = argc == 4 && !full;	/* hold or collapse */
	n = strtoul(argv[1], NULL, 0) * (1UL << 20) / psz;
	secs = strtod(argv[2], NULL);
	start = now();
	end = hold ? HUGE_VAL : start + secs;
	p = mmap(NULL, n * psz, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	if (collapse && madvise(p, n * psz, MADV_NOHUGEPAGE)) {
		perror("madvise");
		return 2;
	}
	for (;;) {
		for (i = 0; i < n; i++) {
			if (passes && p[i * psz] != want) {
				printf("corrupt at page %lu: %u, not %u\n",
				       i, p[i * psz], want);
				return 1;
			}
			p[i * psz] = want + 1;
			pages++;
			if (secs > 0 && (passes || !full) && i % 64 == 63 &&
			    now() >= end)
				goto out;
		}
		want++;
		passes++;
		if (secs <= 0)
			break;
		if (hold) {
			if (collapse && madvise(p, n * psz, MADV_HUGEPAGE)) {
				perror("madvise");
				return 2;
			}
			printf("ready\n");
			fflush(stdout);
			end = now() + secs;
			while (now() < end)
				usleep(100000);
			for (i = 0; i < n; i++) {
				if (p[i * psz] != want) {
					printf("corrupt at page %lu: %u, not %u\n",
					       i, p[i * psz], want);
					return 1;
				}
			}
			break;
		}
	}
out:
	/* Freeing is part of the cost the page-fault benchmark measures. */
	munmap(p, n * psz);
	getrusage(RUSAGE_SELF, &ru);
	printf("passes=%lu pages=%lu cpu_ms=%ld wall_ms=%.3f\n", passes, pages,
	       (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000L +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000,
	       (now() - start) * 1000);
	return 0;
}
