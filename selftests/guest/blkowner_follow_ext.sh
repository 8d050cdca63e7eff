#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
# plan: 12
# numa: 2
# append: blk_page_ext=on
#
# blkowner_follow.sh with the owners in page_ext words (booted with
# blk_page_ext=on): the put-back and the moves go through
# blk_page_ext_cmpxchg() and blk_page_ext_xchg() instead of the pfn table.
BO_STORE=page_ext
. "$(dirname "$0")/blkowner_follow.sh"
