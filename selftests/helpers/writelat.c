// SPDX-License-Identifier: GPL-2.0
/*
 * writelat FILE OFFSET COUNT GAP_MS: COUNT times, write 4 KiB to FILE at
 * OFFSET (buffered, no fsync); print each write's microseconds, GAP_MS
 * apart.  A buffered write waits for the file's i_rwsem, so its time
 * shows how long another task writing the same file holds it.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000LL + t.tv_nsec / 1000;
}

int main(int argc, char **argv)
{
	static char buf[4096];
	struct timespec gap;
	long long t0;
	int fd, i, n, ms;
	off_t off;

	if (argc != 5 || (off = atoll(argv[2])) < 0 ||
	    (n = atoi(argv[3])) <= 0 || (ms = atoi(argv[4])) < 0) {
		fprintf(stderr, "usage: writelat FILE OFFSET COUNT GAP_MS\n");
		return 2;
	}
	fd = open(argv[1], O_WRONLY | O_CREAT, 0644);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	memset(buf, 0xa5, sizeof(buf));
	gap.tv_sec = ms / 1000;
	gap.tv_nsec = (ms % 1000) * 1000000L;
	for (i = 0; i < n; i++) {
		t0 = now_us();
		if (pwrite(fd, buf, sizeof(buf), off) != sizeof(buf)) {
			perror(argv[1]);
			return 1;
		}
		printf("%lld\n", now_us() - t0);
		fflush(stdout);
		nanosleep(&gap, NULL);
	}
	return close(fd) ? 1 : 0;
}
