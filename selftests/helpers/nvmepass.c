// SPDX-License-Identifier: GPL-2.0
/*
 * nvmepass DEV CMD SLBA NLB
 *
 * One NVMe I/O command through passthrough (NVME_IOCTL_IO_CMD) on DEV, a
 * namespace's block device (/dev/nvme0n1) or generic char device
 * (/dev/ng0n1), for NLB logical blocks from SLBA.  CMD is one of:
 *   write    Write, of NLB blocks of the byte 0xa5
 *   zeroes   Write Zeroes
 *   uncor    Write Uncorrectable
 *   trim     Dataset Management, one range, Deallocate
 *   read     Read (the data is dropped)
 *   flush    Flush (SLBA and NLB ignored)
 *
 * Prints "ok" and exits 0 when the command completed successfully; prints
 * "errno=NAME" (the ioctl failed) or "status=0xN" (the device's status)
 * and exits 1 otherwise; exits 2 on bad usage or setup.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/nvme_ioctl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define NVME_DSM_AD	(1 << 2)

struct dsm_range {
	uint32_t cattr;
	uint32_t nlb;
	uint64_t slba;
};

int main(int argc, char **argv)
{
	struct nvme_passthru_cmd c = { 0 };
	struct dsm_range range = { 0 };
	unsigned long long slba;
	unsigned int nlb;
	void *buf = NULL;
	int fd, nsid, lbs, ret;

	if (argc != 5) {
		fprintf(stderr, "usage: nvmepass DEV write|zeroes|uncor|trim|read|flush SLBA NLB\n");
		return 2;
	}
	slba = strtoull(argv[3], NULL, 0);
	nlb = strtoul(argv[4], NULL, 0);
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 2;
	}
	nsid = ioctl(fd, NVME_IOCTL_ID);
	if (nsid <= 0 || !nlb || nlb > 65536) {
		fprintf(stderr, "nvmepass: no namespace id, or NLB not 1-65536\n");
		return 2;
	}
	/* The generic char device has no BLKSSZGET: take 512 unless told. */
	if (ioctl(fd, BLKSSZGET, &lbs))
		lbs = getenv("NVMEPASS_LBS") ? atoi(getenv("NVMEPASS_LBS")) : 512;
	c.nsid = nsid;
	c.cdw10 = slba & 0xffffffff;
	c.cdw11 = slba >> 32;
	c.cdw12 = nlb - 1;
	if (!strcmp(argv[2], "write") || !strcmp(argv[2], "read")) {
		c.opcode = argv[2][0] == 'w' ? 0x01 : 0x02;
		c.data_len = nlb * lbs;
		if (posix_memalign(&buf, 4096, c.data_len))
			return 2;
		memset(buf, 0xa5, c.data_len);
		c.addr = (uintptr_t)buf;
	} else if (!strcmp(argv[2], "zeroes")) {
		c.opcode = 0x08;
	} else if (!strcmp(argv[2], "uncor")) {
		c.opcode = 0x04;
	} else if (!strcmp(argv[2], "trim")) {
		c.opcode = 0x09;
		range.nlb = nlb;
		range.slba = slba;
		c.cdw10 = 0;		/* one range, 0's based */
		c.cdw11 = NVME_DSM_AD;
		c.cdw12 = 0;
		c.addr = (uintptr_t)&range;
		c.data_len = sizeof(range);
	} else if (!strcmp(argv[2], "flush")) {
		c.opcode = 0x00;
		c.cdw10 = c.cdw11 = c.cdw12 = 0;
	} else {
		fprintf(stderr, "nvmepass: unknown command '%s'\n", argv[2]);
		return 2;
	}
	ret = ioctl(fd, NVME_IOCTL_IO_CMD, &c);
	if (ret < 0) {
		printf("errno=%s\n", strerrorname_np(errno) ?: "?");
		return 1;
	}
	if (ret > 0) {
		printf("status=0x%x\n", ret);
		return 1;
	}
	printf("ok\n");
	return 0;
}
