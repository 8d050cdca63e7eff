// SPDX-License-Identifier: GPL-2.0
/*
 * movepages FILE NODE
 *
 * Map FILE shared, fault in every page, and move the pages to NUMA node
 * NODE with move_pages(2).  Prints "pages=N moved=M before=B" where B is
 * the number of pages that were on NODE already; exits 0 if every page
 * ends on NODE, 1 if not, 2 on a setup error.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MPOL_MF_MOVE	(1 << 1)

static long move_pages(unsigned long n, void **pages, const int *nodes,
		       int *status)
{
	return syscall(SYS_move_pages, 0, n, pages, nodes, status, MPOL_MF_MOVE);
}

int main(int argc, char **argv)
{
	unsigned long i, n, before = 0, moved = 0;
	long psz = sysconf(_SC_PAGESIZE);
	int fd, node, *nodes, *status;
	volatile char sum = 0;
	struct stat st;
	void **pages;
	char *map;

	if (argc != 3) {
		fprintf(stderr, "usage: movepages FILE NODE\n");
		return 2;
	}
	node = atoi(argv[2]);
	fd = open(argv[1], O_RDWR);
	if (fd < 0 || fstat(fd, &st)) {
		perror(argv[1]);
		return 2;
	}
	n = (st.st_size + psz - 1) / psz;
	map = mmap(NULL, n * psz, PROT_READ, MAP_SHARED, fd, 0);
	pages = calloc(n, sizeof(*pages));
	nodes = calloc(n, sizeof(*nodes));
	status = calloc(n, sizeof(*status));
	if (map == MAP_FAILED || !pages || !nodes || !status) {
		perror("mmap");
		return 2;
	}
	for (i = 0; i < n; i++) {
		sum += map[i * psz];
		pages[i] = map + i * psz;
		nodes[i] = node;
	}
	/* Where the pages are now: nodes NULL only queries. */
	if (move_pages(n, pages, NULL, status)) {
		perror("move_pages (query)");
		return 2;
	}
	for (i = 0; i < n; i++)
		before += status[i] == node;
	if (move_pages(n, pages, nodes, status) < 0) {
		perror("move_pages");
		return 2;
	}
	for (i = 0; i < n; i++)
		moved += status[i] == node;
	printf("pages=%lu moved=%lu before=%lu\n", n, moved, before);
	return moved == n ? 0 : 1;
}
