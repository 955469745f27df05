/*
 * insnprof: a QEMU TCG plugin (API version 1, QEMU 7.2) that counts the
 * guest instructions executed per translation block start address.
 * At exit it writes "vaddr n_insns executions" lines to the file given
 * as out=FILE.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <stdbool.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
typedef struct qemu_info_t qemu_info_t;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*tb_trans_cb)(qemu_plugin_id_t, struct qemu_plugin_tb *);
typedef void (*udata_cb)(qemu_plugin_id_t, void *);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t, tb_trans_cb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *,
		enum qemu_plugin_op, void *, uint64_t);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t, udata_cb, void *);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

struct blk {
	uint64_t count;
	uint64_t vaddr;
	uint64_t ninsns;
	struct blk *next;
};

static struct blk *blocks;
static const char *out = "insnprof.out";
static uint64_t lo, hi = UINT64_MAX;

static void trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t va = qemu_plugin_tb_vaddr(tb);
	struct blk *b;

	if (va < lo || va >= hi)
		return;
	b = calloc(1, sizeof(*b));
	if (!b)
		abort();
	b->vaddr = va;
	b->ninsns = qemu_plugin_tb_n_insns(tb);
	b->next = blocks;
	blocks = b;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &b->count, 1);
}

static void done(qemu_plugin_id_t id, void *p)
{
	FILE *f = fopen(out, "w");
	struct blk *b;

	if (!f)
		return;
	for (b = blocks; b; b = b->next)
		if (b->count)
			fprintf(f, "%llx %llu %llu\n",
				(unsigned long long)b->vaddr,
				(unsigned long long)b->ninsns,
				(unsigned long long)b->count);
	fclose(f);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
			int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			out = argv[i] + 4;
		else if (!strncmp(argv[i], "lo=", 3))
			lo = strtoull(argv[i] + 3, NULL, 0);
		else if (!strncmp(argv[i], "hi=", 3))
			hi = strtoull(argv[i] + 3, NULL, 0);
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, trans);
	qemu_plugin_register_atexit_cb(id, done, NULL);
	return 0;
}
