// SPDX-License-Identifier: GPL-2.0
/*
 * pirace DEV COUNT SIZE_KIB [LBS [BASE_KIB]]
 *
 * The T10 PI direct I/O race: COUNT O_DIRECT AIO writes of SIZE_KIB each,
 * at consecutive offsets of DEV from BASE_KIB (default 0), and right after io_submit() returns (the
 * kernel has computed the protection information by then, the device has
 * not read all the data yet) the buffer is overwritten, again and again
 * until the write completes.  Then every region is
 * read back with O_DIRECT and compared, logical block by logical block
 * (LBS bytes, default 512), with the data present at submission.
 *
 * With PIRACE_FAULTS set in the environment, the task turns on its
 * make-it-fail flag (fault injection with task-filter) once set up.
 * PIRACE_BUF=hugetlb or thp puts the written buffer in one physically
 * contiguous 2 MiB huge page (hugetlbfs pages must be reserved), so a
 * direct I/O bio carries it as a single multi-page bvec.
 *
 * Prints "writes=N failed=F eilseq=E torn=T intact=I scribbled=S
 * unreadable=U nomem=M": failed writes (refused at submission or a
 * completion error; E of them with EILSEQ, a protection error, M with
 * ENOMEM or EAGAIN, a clean failure for want of memory), and for
 * successful writes the blocks
 * that match the submitted data (intact), hold one whole scribble of the
 * racer (scribbled: written from the buffer after submission, as intbounce
 * retry mode does), read back with an error (unreadable), or anything
 * else (torn).  Exit status 0 unless a setup step failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define HUGE_SZ (2UL << 20)

/* The buffer the race writes from: normal, hugetlb or THP memory. */
static void *race_buffer(size_t size)
{
	const char *kind = getenv("PIRACE_BUF");
	void *p;

	if (!kind || !strcmp(kind, "normal"))
		return posix_memalign(&p, 4096, size) ? NULL : p;
	if (size > HUGE_SZ) {
		fprintf(stderr, "pirace: a huge-page buffer holds at most 2 MiB\n");
		return NULL;
	}
	if (!strcmp(kind, "hugetlb")) {
		p = mmap(NULL, HUGE_SZ, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
		return p == MAP_FAILED ? NULL : p;
	}
	if (!strcmp(kind, "thp")) {
		/* Over-allocate to place the buffer on a 2 MiB boundary. */
		p = mmap(NULL, 2 * HUGE_SZ, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		p = (void *)(((uintptr_t)p + HUGE_SZ - 1) & ~(HUGE_SZ - 1));
		if (madvise(p, HUGE_SZ, MADV_HUGEPAGE))
			return NULL;
		return p;
	}
	fprintf(stderr, "pirace: PIRACE_BUF must be normal, hugetlb or thp\n");
	return NULL;
}

/* kB of THP in this process (AnonHugePages), -1 if unknown. */
static long thp_kib(void)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	char line[256];
	long kib = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "AnonHugePages: %ld kB", &kib) == 1)
			break;
	if (f)
		fclose(f);
	return kib;
}

static int fail_fd = -1;

/* One of the racer's scribbles: every byte the same. */
static int uniform(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (p[i] != p[0])
			return 0;
	return 1;
}

/* Fault injection on or off for this task; true if it took (or is unused). */
static int make_it_fail(int on)
{
	if (fail_fd < 0)
		return 1;
	return pwrite(fail_fd, on ? "1" : "0", 1, 0) == 1;
}

static void fill(uint32_t *buf, size_t bytes, uint32_t gen)
{
	size_t i;

	for (i = 0; i < bytes / 4; i++)
		buf[i] = (gen << 24) ^ (uint32_t)(i / 128) * 2654435761u ^ 0x5a5a0000u;
}

int main(int argc, char **argv)
{
	aio_context_t ctx = 0;
	struct iocb cb, *cbs[1] = { &cb };
	struct io_event ev;
	size_t size, lbs = 512, b;
	off_t base = 0;
	unsigned long count, i, failed = 0, torn = 0, intact = 0;
	unsigned long scribbled = 0, unreadable = 0, eilseq = 0, nomem = 0;
	uint32_t *buf, *want, *got;
	struct timespec zero = { 0, 0 };
	int fd, err = 0;
	long k, n;

	if (argc < 4) {
		fprintf(stderr, "usage: pirace DEV COUNT SIZE_KIB [LBS [BASE_KIB]]\n");
		return 2;
	}
	count = strtoul(argv[2], NULL, 0);
	size = strtoul(argv[3], NULL, 0) * 1024;
	if (argc > 4)
		lbs = strtoul(argv[4], NULL, 0);
	if (argc > 5)
		base = (off_t)strtoull(argv[5], NULL, 0) * 1024;
	fd = open(argv[1], O_RDWR | O_DIRECT);
	if (fd < 0) {
		perror("open");
		return 2;
	}
	buf = race_buffer(size);
	if (!buf) {
		perror("buffer");
		return 2;
	}
	memset(buf, 0, size);
	if (getenv("PIRACE_BUF"))
		printf("thp_kib=%ld ", thp_kib());
	if (posix_memalign((void **)&want, 4096, size) ||
	    posix_memalign((void **)&got, 4096, size))
		return 2;
	if (syscall(SYS_io_setup, 1, &ctx)) {
		perror("io_setup");
		return 2;
	}
	/* Fault injection (task-filter) for the I/O only, not the setup. */
	memset(buf, 0, size);
	memset(want, 0, size);
	memset(got, 0, size);
	if (getenv("PIRACE_FAULTS")) {
		/* Injected failures must hit the I/O, not our own page faults. */
		if (mlockall(MCL_CURRENT | MCL_FUTURE)) {
			perror("mlockall");
			return 2;
		}
		fail_fd = open("/proc/self/make-it-fail", O_WRONLY);
		if (fail_fd < 0 || !make_it_fail(1)) {
			perror("make-it-fail");
			return 2;
		}
	}
	for (i = 0; i < count; i++) {
		fill(buf, size, (uint32_t)i + 1);
		memset(&cb, 0, sizeof(cb));
		cb.aio_fildes = fd;
		cb.aio_lio_opcode = IOCB_CMD_PWRITE;
		cb.aio_buf = (uintptr_t)buf;
		cb.aio_nbytes = size;
		cb.aio_offset = base + (off_t)(i * size);
		if (syscall(SYS_io_submit, ctx, 1, cbs) != 1) {
			/* Refused at submission (e.g. no memory): a clean failure. */
			failed++;
			if (errno == ENOMEM || errno == EAGAIN)
				nomem++;
			if (!err)
				err = errno;
			continue;
		}
		/*
		 * PI is computed; the device has not fetched all the data.
		 * Keep rewriting the buffer until the write completes, so
		 * every part the device reads late sees changed bytes.
		 */
		for (k = 0;; k++) {
			memset(buf, 0xbb ^ (k & 0xff), size);
			n = syscall(SYS_io_getevents, ctx, 0, 1, &ev, &zero);
			if (n == 1)
				break;
			if (n < 0) {
				perror("io_getevents");
				return 2;
			}
		}
		if (ev.res != (long long)size) {
			failed++;
			if (ev.res == -EILSEQ)
				eilseq++;
			if (ev.res == -ENOMEM || ev.res == -EAGAIN)
				nomem++;
			if (!err)
				err = ev.res < 0 ? (int)-ev.res : 0;
			continue;
		}
		fill(want, size, (uint32_t)i + 1);
		/*
		 * A read-back that fails PI verification is unreadable.  The
		 * check reads without fault injection: an injected allocation
		 * failure of the read says nothing about the data written.
		 */
		make_it_fail(0);
		n = pread(fd, got, size, base + (off_t)(i * size));
		make_it_fail(1);
		if (n != (ssize_t)size) {
			unreadable += size / lbs;
			continue;
		}
		for (b = 0; b < size; b += lbs) {
			if (!memcmp((char *)got + b, (char *)want + b, lbs))
				intact++;
			else if (uniform((unsigned char *)got + b, lbs))
				scribbled++;
			else
				torn++;
		}
	}
	printf("writes=%lu failed=%lu eilseq=%lu torn=%lu intact=%lu scribbled=%lu unreadable=%lu nomem=%lu",
	       count, failed, eilseq, torn, intact, scribbled, unreadable,
	       nomem);
	if (err)
		printf(" first_error=%s", strerror(err));
	printf("\n");
	return 0;
}
