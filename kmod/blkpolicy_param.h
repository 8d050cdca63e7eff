/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Module parameters that hold one word of a fixed list (off, warn, deny,
 * ...), shared by the policy modules.  A bad value is refused with -EINVAL,
 * the old value stays, and dmesg names the accepted words.
 */
#ifndef _BLKPOLICY_PARAM_H
#define _BLKPOLICY_PARAM_H

#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/string.h>
#include <linux/sysfs.h>

struct bp_words {
	int *value;			/* index into names */
	const char * const *names;
	unsigned int nr;
};

static inline int bp_words_set(const char *val, const struct kernel_param *kp)
{
	const struct bp_words *w = kp->arg;
	int i = __sysfs_match_string(w->names, w->nr, val);
	char list[64] = "";
	unsigned int n;

	if (i >= 0) {
		WRITE_ONCE(*w->value, i);
		return 0;
	}
	for (n = 0; n < w->nr; n++) {
		if (n)
			strlcat(list, ", ", sizeof(list));
		strlcat(list, w->names[n], sizeof(list));
	}
	pr_err("%s: invalid value, accepted: %s\n", kp->name, list);
	return -EINVAL;
}

static inline int bp_words_get(char *buf, const struct kernel_param *kp)
{
	const struct bp_words *w = kp->arg;

	return sysfs_emit(buf, "%s\n", w->names[READ_ONCE(*w->value)]);
}

static const struct kernel_param_ops bp_words_ops = {
	.set = bp_words_set,
	.get = bp_words_get,
};

#endif /* _BLKPOLICY_PARAM_H */
