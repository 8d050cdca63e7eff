// SPDX-License-Identifier: GPL-2.0
/*
 * diowrite SRC SRC_OFF LEN DEV DEV_OFF
 *
 * One O_DIRECT pwrite() of LEN bytes to DEV at DEV_OFF, from a shared
 * mapping of the file SRC at byte SRC_OFF: a direct I/O buffer made of
 * page-cache pages, as unaligned as the queue's dma_alignment allows, so
 * one bio segment can straddle two pages with different owners.  Then
 * reads the range back with O_DIRECT and compares it with SRC.
 *
 * Prints "written=N" and exits 0 if the data read back equals the source,
 * prints the error and exits 1 otherwise (2: bad usage or setup).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	size_t src_off, len, map_len;
	off_t dev_off;
	struct stat st;
	char *map, *back;
	int src, dev;
	ssize_t n;

	if (argc != 6) {
		fprintf(stderr, "usage: diowrite SRC SRC_OFF LEN DEV DEV_OFF\n");
		return 2;
	}
	src_off = strtoul(argv[2], NULL, 0);
	len = strtoul(argv[3], NULL, 0);
	dev_off = strtoll(argv[5], NULL, 0);
	src = open(argv[1], O_RDWR);
	dev = open(argv[4], O_RDWR | O_DIRECT);
	if (src < 0 || dev < 0 || fstat(src, &st)) {
		perror("open");
		return 2;
	}
	map_len = st.st_size;
	if (src_off + len > map_len) {
		fprintf(stderr, "diowrite: SRC is shorter than SRC_OFF + LEN\n");
		return 2;
	}
	map = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_SHARED, src, 0);
	if (map == MAP_FAILED || posix_memalign((void **)&back, 4096, len)) {
		perror("mmap");
		return 2;
	}
	n = pwrite(dev, map + src_off, len, dev_off);
	if (n != (ssize_t)len) {
		printf("written=%zd error=%s\n", n, n < 0 ? strerror(errno) : "short");
		return 1;
	}
	if (pread(dev, back, len, dev_off) != (ssize_t)len) {
		printf("written=%zd readback=%s\n", n, strerror(errno));
		return 1;
	}
	if (memcmp(back, map + src_off, len)) {
		printf("written=%zd readback=differs\n", n);
		return 1;
	}
	printf("written=%zd\n", n);
	return 0;
}
