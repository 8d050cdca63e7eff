// SPDX-License-Identifier: GPL-2.0
/*
 * splicerace SRC DST N
 *
 * Direct I/O of page cache: N times, 1 MiB of file SRC is spliced into a
 * pipe and from the pipe into DST, opened O_DIRECT, at offset i MiB, while
 * a thread rewrites SRC with write(2).  The bio of the direct write
 * carries SRC's page-cache pages, which write(2) changes in place unless
 * they are under writeback; on a disk with T10 PI the write then fails its
 * guard check (EILSEQ).  SRC is filled first (1 MiB) and written back.
 *
 * Prints "runs=N failed=F eilseq=E" and exits 0; exits 2 on setup errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MIB (1 << 20)

static int src;
static atomic_int stop;

static void *racer(void *arg)
{
	static char buf[4096];
	unsigned int n = 0;
	off_t off;

	(void)arg;
	while (!atomic_load(&stop)) {
		memset(buf, n++, sizeof(buf));
		for (off = 0; off < MIB && !atomic_load(&stop); off += sizeof(buf))
			if (pwrite(src, buf, sizeof(buf), off) < 0)
				return NULL;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int dst, p[2], n, i, failed = 0, eilseq = 0;
	static char fill[MIB];
	pthread_t t;
	loff_t in, out;
	ssize_t r, left;

	if (argc != 4) {
		fprintf(stderr, "usage: splicerace SRC DST N\n");
		return 2;
	}
	n = atoi(argv[3]);
	src = open(argv[1], O_RDWR | O_CREAT, 0600);
	dst = open(argv[2], O_WRONLY | O_DIRECT);
	if (src < 0 || dst < 0 || pipe(p) || fcntl(p[1], F_SETPIPE_SZ, MIB) < MIB) {
		perror("splicerace: setup");
		return 2;
	}
	memset(fill, 0x5a, sizeof(fill));
	if (pwrite(src, fill, MIB, 0) != MIB || fsync(src)) {
		perror("splicerace: fill");
		return 2;
	}
	for (i = 0; i < n; i++) {
		in = 0;
		for (left = MIB; left > 0; left -= r) {
			r = splice(src, &in, p[1], NULL, left, 0);
			if (r <= 0) {
				perror("splicerace: splice in");
				return 2;
			}
		}
		atomic_store(&stop, 0);
		if (pthread_create(&t, NULL, racer, NULL))
			return 2;
		out = (loff_t)i * MIB;
		for (left = MIB; left > 0; left -= r) {
			r = splice(p[0], NULL, dst, &out, left, 0);
			if (r <= 0)
				break;
		}
		atomic_store(&stop, 1);
		pthread_join(t, NULL);
		if (left > 0) {
			failed++;
			if (r < 0 && errno == EILSEQ)
				eilseq++;
			/* A new pipe: what the failed write left is dropped. */
			close(p[0]);
			close(p[1]);
			if (pipe(p) || fcntl(p[1], F_SETPIPE_SZ, MIB) < MIB)
				return 2;
		}
	}
	printf("runs=%d failed=%d eilseq=%d\n", n, failed, eilseq);
	return 0;
}
