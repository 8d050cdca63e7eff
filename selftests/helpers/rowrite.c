// SPDX-License-Identifier: GPL-2.0
/*
 * rowrite DEV OFFSET LEN BYTE CMD
 *
 * Open DEV read-write, dirty LEN bytes of page cache at OFFSET with BYTE
 * (buffered, not synced), run CMD with sh -c while the fd stays open (so
 * no close-time sync happens before it), then fsync.  Prints
 * "fsync: ok" or "fsync: <error>"; exits 0 if fsync succeeded, 1 if not,
 * 2 on a setup error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long long off;
	size_t len;
	char *buf;
	int fd, c;

	if (argc != 6) {
		fprintf(stderr, "usage: rowrite DEV OFFSET LEN BYTE CMD\n");
		return 2;
	}
	off = atoll(argv[2]);
	len = strtoul(argv[3], NULL, 0);
	c = (int)strtol(argv[4], NULL, 0);
	buf = malloc(len);
	if (!buf)
		return 2;
	memset(buf, c, len);
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		perror("open");
		return 2;
	}
	if (pwrite(fd, buf, len, off) != (ssize_t)len) {
		perror("pwrite");
		return 2;
	}
	if (system(argv[5]) != 0)
		fprintf(stderr, "rowrite: command failed: %s\n", argv[5]);
	if (fsync(fd)) {
		printf("fsync: %s\n", strerror(errno));
		return 1;
	}
	printf("fsync: ok\n");
	return 0;
}
