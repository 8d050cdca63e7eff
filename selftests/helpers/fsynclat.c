// SPDX-License-Identifier: GPL-2.0
/*
 * fsynclat FILE COUNT GAP_MS: COUNT times, truncate FILE, write 4 KiB at
 * its start and fsync it; print each one's microseconds, GAP_MS apart.
 * One process for all of them: starting a dd per sample adds a fork and
 * an exec that outweigh the fsync under TCG.
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
	int fd, i, n, ms;
	long long t0;

	if (argc != 4 || (n = atoi(argv[2])) <= 0 || (ms = atoi(argv[3])) < 0) {
		fprintf(stderr, "usage: fsynclat FILE COUNT GAP_MS\n");
		return 2;
	}
	fd = open(argv[1], O_WRONLY | O_CREAT, 0644);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	memset(buf, 0x5a, sizeof(buf));
	gap.tv_sec = ms / 1000;
	gap.tv_nsec = (ms % 1000) * 1000000L;
	for (i = 0; i < n; i++) {
		t0 = now_us();
		if (ftruncate(fd, 0) || pwrite(fd, buf, sizeof(buf), 0) != sizeof(buf) ||
		    fsync(fd)) {
			perror(argv[1]);
			return 1;
		}
		printf("%lld\n", now_us() - t0);
		fflush(stdout);
		nanosleep(&gap, NULL);
	}
	return close(fd) ? 1 : 0;
}
