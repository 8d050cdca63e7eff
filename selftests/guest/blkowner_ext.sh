#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 900
# plan: 33
# append: blk_page_ext=on
# icount: 2
#
# blkowner.ko with the owners of dirty pages in page_ext words instead of
# its pfn table: the kernel is booted with blk_page_ext=on, and every case of
# blkowner.sh runs again.
BO_STORE=page_ext
. "$(dirname "$0")/blkowner.sh"
