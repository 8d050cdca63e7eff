/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Module parameters that hold one word of a fixed list (off, warn, deny,
 * ...), a strict boolean or a bounded number, shared by the policy modules.  A bad value is
 * refused with -EINVAL, the old value stays, and dmesg names the accepted
 * words.
 */
#ifndef _BLKPOLICY_PARAM_H
#define _BLKPOLICY_PARAM_H

#include <linux/kstrtox.h>
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

static const struct kernel_param_ops bp_words_ops __maybe_unused = {
	.set = bp_words_set,
	.get = bp_words_get,
};

/*
 * A boolean, strictly: kstrtobool() takes "1abc" or "yes please" as true,
 * which hides typos in scripts.  Accepts 0, 1, n, y, N, Y (and a trailing
 * newline); the stored value is a bool, read back as Y or N.
 */
static inline int bp_bool_parse(const char *val, bool *on)
{
	static const char * const words[] = { "0", "1", "n", "y", "N", "Y" };
	int i = __sysfs_match_string(words, ARRAY_SIZE(words), val);

	if (i < 0)
		return -EINVAL;
	*on = i & 1;
	return 0;
}

static inline int bp_bool_set(const char *val, const struct kernel_param *kp)
{
	bool on;

	if (bp_bool_parse(val, &on)) {
		pr_err("%s: invalid value, accepted: 0, 1, n, y\n", kp->name);
		return -EINVAL;
	}
	WRITE_ONCE(*(bool *)kp->arg, on);
	return 0;
}

static const struct kernel_param_ops bp_bool_ops __maybe_unused = {
	.set = bp_bool_set,
	.get = param_get_bool,
};

/*
 * An unsigned number from @min to @max, a multiple of @step (0 and 1: any),
 * or 0 when @zero_off says 0 switches the feature off.
 */
struct bp_uint {
	unsigned int *value;
	unsigned int min, max, step;
	bool zero_off;
};

static inline int bp_uint_set(const char *val, const struct kernel_param *kp)
{
	const struct bp_uint *u = kp->arg;
	unsigned int n;

	if (!kstrtouint(val, 0, &n) &&
	    ((!n && u->zero_off) ||
	     (n >= u->min && n <= u->max && (u->step <= 1 || !(n % u->step))))) {
		WRITE_ONCE(*u->value, n);
		return 0;
	}
	if (u->step > 1)
		pr_err("%s: invalid value, accepted: %s%u to %u in steps of %u\n",
		       kp->name, u->zero_off ? "0 (off) or " : "", u->min,
		       u->max, u->step);
	else
		pr_err("%s: invalid value, accepted: %s%u to %u\n", kp->name,
		       u->zero_off ? "0 (off) or " : "", u->min, u->max);
	return -EINVAL;
}

static inline int bp_uint_get(char *buf, const struct kernel_param *kp)
{
	const struct bp_uint *u = kp->arg;

	return sysfs_emit(buf, "%u\n", READ_ONCE(*u->value));
}

static const struct kernel_param_ops bp_uint_ops __maybe_unused = {
	.set = bp_uint_set,
	.get = bp_uint_get,
};

#endif /* _BLKPOLICY_PARAM_H */
