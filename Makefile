# SPDX-License-Identifier: GPL-2.0
#
# Block-layer policy modules on top of hooks.patch.
#
#   make run     build, boot the guest, demonstrate each policy
#   make check   build, host checks, all guest selftests (TAP)
#   make shell   interactive root shell in the guest
#   make bench   benchmarks, results/bench.json
#   make profile a module's guest instructions per unit of its benchmark,
#                by function (a TCG plugin; results/profile.txt)
#   make design  docs/design.png from docs/design.dot (graphviz)
#   make deb     the patched kernel (linux-image, linux-headers) and
#                blkpolicy-dkms_<version>_all.deb in DEBOUT
#   make deb-next  the same kernel released as <version>-blkpolicy-next
#                (the Debian test's kernel upgrade), in DEBOUT
#
# Variables: KCACHE (build cache, default ~/.cache/blkpolicy), DEBUG=1 (the
# debug kernel variant), JOBS (parallel make jobs), TESTS (selftest name
# filter, a shell glob), DEBOUT (make deb's output directory, default
# $KCACHE/deb, or $KCACHE/deb-kconfig with KCONFIG), KCONFIG (make deb's
# base kernel config, default the guest's; e.g. /boot/config-$(uname -r)),
# PARALLEL (guests at a time, default 2 on two or
# more cores), STRESS_CYCLES, VM_ACCEL (kvm|tcg, default: probed),
# PROFILE (make profile's module: blkowner, the default, or rocheck).

KCACHE ?= $(HOME)/.cache/blkpolicy
DEBUG ?= 0
JOBS ?= $(shell nproc)
TESTS ?= *
# A KCONFIG build's packages have the test kernel's names: kept apart.
ifneq ($(KCONFIG),)
DEBOUT ?= $(KCACHE)/deb-kconfig
else
DEBOUT ?= $(KCACHE)/deb
endif
export KCACHE JOBS

ifeq ($(filter $(DEBUG),0 1),)
$(error DEBUG must be 0 or 1, not '$(DEBUG)')
endif
ifneq ($(KCONFIG),)
ifeq ($(wildcard $(KCONFIG)),)
$(error KCONFIG names no file: '$(KCONFIG)')
endif
endif
ifeq ($(shell echo '$(JOBS)' | grep -Ex '[1-9][0-9]*'),)
$(error JOBS must be a positive number, not '$(JOBS)')
endif

ifeq ($(DEBUG),1)
VARIANT := hooks-debug
FRAGMENTS := $(CURDIR)/qemu/debug.config
else
VARIANT := hooks
FRAGMENTS :=
endif
KDIR := $(KCACHE)/$(VARIANT)
KVER = $(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null)
INITRAMFS := $(KCACHE)/initramfs.img
VM := $(CURDIR)/qemu/vm
export VARIANT

.PHONY: all deps kernel vanilla modules initramfs helpers check host-check \
	run shell bench profile design deb deb-next clean help

all: modules

help:
	@awk 'NR >= 3 { if (!/^#/) exit; sub(/^# ?/, ""); print }' Makefile

deps:
	@scripts/install-deps

kernel: deps
	@scripts/kernel-build hooks $(FRAGMENTS) >/dev/null

vanilla: deps
	@scripts/kernel-build vanilla >/dev/null

# W=1 and sparse on every module build; the host check fails on any warning.
# Installed beside the staging tree, then renamed into it: running guests
# load from it over 9p, and modules_install rewrites each file in place.
modules: kernel
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 C=1 modules
	rm -rf $(KDIR)/staging.new
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_PATH=$(KDIR)/staging.new \
		INSTALL_MOD_DIR=extra DEPMOD=/bin/true modules_install >/dev/null
	mkdir -p $(KDIR)/staging/lib/modules/$(KVER)/extra
	mv -f $(KDIR)/staging.new/lib/modules/$(KVER)/extra/*.ko \
		$(KDIR)/staging/lib/modules/$(KVER)/extra/
	rm -rf $(KDIR)/staging.new
	depmod -b $(KDIR)/staging $(KVER)

# Rebuilt only when the guest's user space description changes.
$(INITRAMFS): qemu/init qemu/mkinitramfs
	@mkdir -p $(KCACHE)
	qemu/mkinitramfs $@.tmp >/dev/null && mv $@.tmp $@

initramfs: deps $(INITRAMFS)

# Static test helpers run in the guest from the shared repository.
HELPERS := $(patsubst %.c,%,$(wildcard selftests/helpers/*.c))
selftests/helpers/%: selftests/helpers/%.c
	$(CC) -O2 -Wall -Wextra -static -o $@ $< -lpthread

helpers: $(HELPERS)

host-check: modules
	@scripts/check-host

# The packaging test (selftests/debian) installs the plain kernel's
# packages, and a second release of it; the debug variant's check leaves
# it out.
ifeq ($(DEBUG),0)
check: deb deb-next
endif
# No vanilla kernel: the guests run the patched one, unloading a module
# for each baseline; the host checks prepare the tree without hooks.patch
# (scripts/kernel-build vanilla --prepare) and the Debian test installs
# Debian's own kernel.
check: modules initramfs helpers
	@mkdir -p results
	@selftests/run '$(TESTS)'

run: modules initramfs helpers
	@$(VM) run --kernel $(VARIANT) -- qemu/demo

shell: modules initramfs helpers
	@$(VM) shell --kernel $(VARIANT)

bench: modules vanilla initramfs helpers
	@mkdir -p results
	@bench/run

profile: modules initramfs helpers
	@bench/profile $(or $(PROFILE),blkowner)

deb: kernel
ifeq ($(DEBUG),1)
	$(error make deb packages the plain kernel: run it without DEBUG=1)
endif
	@scripts/make-kernel-deb $(DEBOUT) $(KCONFIG)
	@scripts/make-deb $(DEBOUT)

# The packaging test's kernel upgrade: the test kernel again, released as
# <version>-blkpolicy-next.
deb-next: kernel
ifeq ($(DEBUG),1)
	$(error make deb-next packages the plain kernel: run it without DEBUG=1)
endif
	@KSUFFIX=-next scripts/make-kernel-deb $(DEBOUT) >/dev/null

design: deps
	dot -Tpng -Gdpi=96 docs/design.dot -o docs/design.png

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null
	rm -rf results $(HELPERS)
