// SPDX-License-Identifier: GPL-2.0
/*
 * nvmeadmin DEV CMD [ARG...]
 *
 * One NVMe admin command through passthrough (NVME_IOCTL_ADMIN_CMD) on
 * DEV, the controller's char device (/dev/nvme0) or a namespace's block
 * or generic char device.  CMD is one of:
 *   format NSID          Format NVM of NSID (FFFFFFFF: all), LBA format 0,
 *                        no secure erase
 *   setfeat FID VAL [NSID]  Set Features FID to VAL (saved if FID has
 *                        bit 31, Save, set)
 *   getfeat FID [NSID]   Get Features FID, current value
 *   identify CNS [NSID]  Identify, the 4096-byte answer
 *   getlog LID [NSID]    Get Log Page LID, 512 bytes
 *   selftest NSID        Device Self-test, short
 *   vendor               opcode 0xc1 (vendor specific), no data
 *   attach|detach NSID CNTLID  Namespace Attachment of NSID to or from the
 *                        controller CNTLID (of the same subsystem)
 *   raw OPCODE CDW10 CDW11  any admin command, no data, NSID 0
 *
 * Prints "ok" and, for getfeat the value ("ok value=0xN"), for identify
 * and getlog a checksum of the data ("ok sum=0xN"), and exits 0 when the
 * command completed successfully; prints "errno=NAME" (the ioctl failed)
 * or "status=0xN" (the device's status) and exits 1 otherwise; exits 2 on
 * bad usage or setup.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/nvme_ioctl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static unsigned long num(int argc, char **argv, int i, unsigned long def)
{
	return i < argc ? strtoul(argv[i], NULL, 0) : def;
}

int main(int argc, char **argv)
{
	struct nvme_passthru_cmd c = { 0 };
	static uint8_t buf[4096] __attribute__((aligned(4096)));
	const char *cmd;
	uint64_t sum = 1469598103934665603ULL;
	unsigned int i;
	int fd, ret;

	if (argc < 3) {
		fprintf(stderr, "usage: nvmeadmin DEV format|setfeat|getfeat|identify|getlog|selftest|vendor|attach|detach|raw [ARG...]\n");
		return 2;
	}
	cmd = argv[2];
	if (!strcmp(cmd, "format") && argc == 4) {
		c.opcode = 0x80;
		c.nsid = num(argc, argv, 3, 0);
		c.timeout_ms = 60000;
	} else if (!strcmp(cmd, "setfeat") && argc >= 5) {
		c.opcode = 0x09;
		/* FID, and Save (bit 31) if given. */
		c.cdw10 = num(argc, argv, 3, 0) & 0x800000ff;
		c.cdw11 = num(argc, argv, 4, 0);
		c.nsid = num(argc, argv, 5, 0);
	} else if (!strcmp(cmd, "getfeat") && argc >= 4) {
		c.opcode = 0x0a;
		c.cdw10 = num(argc, argv, 3, 0) & 0xff;
		c.nsid = num(argc, argv, 4, 0);
	} else if (!strcmp(cmd, "identify") && argc >= 4) {
		c.opcode = 0x06;
		c.cdw10 = num(argc, argv, 3, 0) & 0xff;
		c.nsid = num(argc, argv, 4, 0);
		c.addr = (uintptr_t)buf;
		c.data_len = 4096;
	} else if (!strcmp(cmd, "getlog") && argc >= 4) {
		c.opcode = 0x02;
		/* NUMDL, 0's based dwords, and the log identifier. */
		c.cdw10 = ((512 / 4 - 1) << 16) | (num(argc, argv, 3, 0) & 0xff);
		c.nsid = num(argc, argv, 4, 0xffffffff);
		c.addr = (uintptr_t)buf;
		c.data_len = 512;
	} else if (!strcmp(cmd, "selftest") && argc == 4) {
		c.opcode = 0x14;
		c.nsid = num(argc, argv, 3, 0);
		c.cdw10 = 1;	/* short device self-test */
	} else if (!strcmp(cmd, "vendor") && argc == 3) {
		c.opcode = 0xc1;
	} else if (!strcmp(cmd, "raw") && argc == 6) {
		c.opcode = num(argc, argv, 3, 0);
		c.cdw10 = num(argc, argv, 4, 0);
		c.cdw11 = num(argc, argv, 5, 0);
	} else if ((!strcmp(cmd, "attach") || !strcmp(cmd, "detach")) &&
		   argc == 5) {
		/* A controller list of one: the count, then the ID (LE). */
		unsigned long id = num(argc, argv, 4, 0);

		c.opcode = 0x15;
		c.nsid = num(argc, argv, 3, 0);
		c.cdw10 = !strcmp(cmd, "detach");
		buf[0] = 1;
		buf[2] = id & 0xff;
		buf[3] = id >> 8;
		c.addr = (uintptr_t)buf;
		c.data_len = 4096;
	} else {
		fprintf(stderr, "nvmeadmin: bad command or arguments\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 2;
	}
	ret = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &c);
	if (ret < 0) {
		printf("errno=%s\n", strerrorname_np(errno) ?: "?");
		return 1;
	}
	if (ret > 0) {
		printf("status=0x%x\n", ret);
		return 1;
	}
	if (c.opcode == 0x0a) {
		printf("ok value=0x%x\n", c.result);
	} else if (c.data_len && c.opcode != 0x15) {
		for (i = 0; i < c.data_len; i++)
			sum = (sum ^ buf[i]) * 1099511628211ULL;
		printf("ok sum=0x%llx\n", (unsigned long long)sum);
	} else {
		printf("ok\n");
	}
	return 0;
}
