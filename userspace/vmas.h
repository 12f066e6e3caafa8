/* SPDX-License-Identifier: GPL-2.0 */
/* `mlock-audit vmas`: the per-mapping table of the module's vmas file. */
#ifndef MLOCK_AUDIT_VMAS_H
#define MLOCK_AUDIT_VMAS_H

#include "cli.h"

/* Sort keys, for --help. */
#define MA_VMAS_SORT_KEYS "missed (default), resident, mlocked, partial, size, pid, start"

int ma_cmd_vmas(const struct ma_opts *o, int argc, char **argv);

#endif
