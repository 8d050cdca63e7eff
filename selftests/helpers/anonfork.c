// SPDX-License-Identifier: GPL-2.0
/*
 * anonfork MIB SECONDS PROCS_FILE...
 *
 * Anonymous memory shared by fork and copied on write: the parent writes
 * 1 to every page of MIB of private anonymous memory and forks; the child
 * moves itself into the cgroups whose cgroup.procs files are given, then
 * writes 2 to the first half of the pages (each a copy of its own now).
 * Once the copies are made "ready" is printed; both hold the memory for
 * SECONDS and then check every page: the parent's all 1, the child's
 * first half 2 and second half 1 (still shared with the parent).  Exits
 * 0 if every page held what was written, 1 if not, 2 on a setup error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static unsigned long n;
static long psz;
static unsigned char *p;

static int check(const char *who, unsigned long copied)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		unsigned char want = i < copied ? 2 : 1;

		if (p[i * psz] != want) {
			printf("%s: corrupt at page %lu: %u, not %u\n", who, i,
			       p[i * psz], want);
			return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long i;
	int fd[2], st, bad, a;
	unsigned int secs;
	pid_t pid;
	char c;

	if (argc < 3) {
		fprintf(stderr, "usage: anonfork MIB SECONDS PROCS_FILE...\n");
		return 2;
	}
	psz = sysconf(_SC_PAGESIZE);
	n = strtoul(argv[1], NULL, 0) * (1UL << 20) / psz;
	secs = strtoul(argv[2], NULL, 0);
	p = mmap(NULL, n * psz, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || pipe(fd)) {
		perror("anonfork");
		return 2;
	}
	for (i = 0; i < n; i++)
		p[i * psz] = 1;
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 2;
	}
	if (!pid) {
		for (a = 3; a < argc; a++) {
			FILE *f = fopen(argv[a], "w");

			if (!f || fprintf(f, "0\n") < 0 || fclose(f)) {
				perror(argv[a]);
				return 2;
			}
		}
		for (i = 0; i < n / 2; i++)
			p[i * psz] = 2;
		if (write(fd[1], "r", 1) != 1)
			return 2;
		sleep(secs);
		return check("child", n / 2);
	}
	if (read(fd[0], &c, 1) != 1)
		return 2;
	printf("ready\n");
	fflush(stdout);
	sleep(secs);
	bad = check("parent", 0);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return 2;
	if (WEXITSTATUS(st))
		return WEXITSTATUS(st);
	return bad;
}
