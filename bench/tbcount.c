// SPDX-License-Identifier: GPL-2.0
/*
 * tbcount: a QEMU TCG plugin that counts the guest kernel's executed
 * instructions per translation block.  bench/profile loads it (VM_PLUGIN)
 * and turns the counts into instructions per function.
 *
 * At exit it writes one line per kernel block that ran, "VADDR INSNS
 * EXECUTED-INSNS", to the file named by its out= argument.  A block is
 * counted inline (one add per execution, no callback), so the guest runs
 * at nearly its usual TCG speed.
 *
 * Debian's QEMU 7.2 loads plugins but ships no qemu-plugin.h: the few
 * declarations used are those of its plugin API, version 1.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
typedef struct qemu_info_t qemu_info_t;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      enum qemu_plugin_op op,
					      void *ptr, uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *userdata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

/* A block is its start and length: one retranslated keeps its counter. */
struct block {
	uint64_t vaddr;
	uint64_t insns;
	uint64_t executed;
};

#define NR_SLOTS	(1u << 22)	/* a booted kernel translates ~10^5 */
#define KERNEL_TEXT	0xffffffff80000000ull	/* the kernel and its modules */

static struct block *blocks;
static unsigned int nr_blocks;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const char *out_path = "tbcount.out";

static struct block *lookup(uint64_t vaddr, uint64_t insns)
{
	uint64_t h = ((vaddr ^ insns << 56) * 0x9e3779b97f4a7c15ull) >> 42;
	struct block *b;

	for (;; h++) {
		b = &blocks[h & (NR_SLOTS - 1)];
		if (!b->vaddr) {
			if (++nr_blocks > NR_SLOTS / 2)
				return NULL;
			b->vaddr = vaddr;
			b->insns = insns;
			return b;
		}
		if (b->vaddr == vaddr && b->insns == insns)
			return b;
	}
}

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t vaddr = qemu_plugin_tb_vaddr(tb);
	size_t insns = qemu_plugin_tb_n_insns(tb);
	struct block *b;

	if (vaddr < KERNEL_TEXT)
		return;
	pthread_mutex_lock(&lock);
	b = lookup(vaddr, insns);
	pthread_mutex_unlock(&lock);
	if (b)
		qemu_plugin_register_vcpu_tb_exec_inline(tb,
			QEMU_PLUGIN_INLINE_ADD_U64, &b->executed, insns);
}

static void write_counts(qemu_plugin_id_t id, void *userdata)
{
	FILE *f = fopen(out_path, "w");
	unsigned int i;

	if (!f) {
		perror(out_path);
		return;
	}
	for (i = 0; i < NR_SLOTS; i++)
		if (blocks[i].executed)
			fprintf(f, "%llx %llu %llu\n",
				(unsigned long long)blocks[i].vaddr,
				(unsigned long long)blocks[i].insns,
				(unsigned long long)blocks[i].executed);
	if (nr_blocks > NR_SLOTS / 2)
		fprintf(stderr, "tbcount: table full, later blocks not counted\n");
	fclose(f);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
			int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (strncmp(argv[i], "out=", 4)) {
			fprintf(stderr, "tbcount: unknown argument '%s' (out=FILE)\n",
				argv[i]);
			return -1;
		}
		out_path = strdup(argv[i] + 4);
	}
	blocks = calloc(NR_SLOTS, sizeof(*blocks));
	if (!blocks)
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
	qemu_plugin_register_atexit_cb(id, write_counts, NULL);
	return 0;
}
