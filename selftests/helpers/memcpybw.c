// SPDX-License-Identifier: GPL-2.0
/* memcpybw: memcpy bandwidth in MiB/s, 1 MiB blocks, best of 5 runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(void)
{
	size_t sz = 1 << 20, n = 256, i;
	char *a = malloc(sz), *b = malloc(sz);
	double best = 0;
	int r;

	if (!a || !b)
		return 1;
	memset(a, 1, sz);
	memset(b, 2, sz);
	for (r = 0; r < 5; r++) {
		struct timespec t0, t1;
		double s;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (i = 0; i < n; i++)
			memcpy(i & 1 ? a : b, i & 1 ? b : a, sz);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
		if (n / s > best)
			best = n / s;
	}
	printf("%.0f\n", best);
	return a[0] == 3;
}
