/* SPDX-License-Identifier: GPL-2.0 */
/* `mlock-audit watch`: the summary refreshed, with probe hit deltas. */
#ifndef MLOCK_AUDIT_WATCH_H
#define MLOCK_AUDIT_WATCH_H

#include "cli.h"

int ma_cmd_watch(const struct ma_opts *o, int argc, char **argv);

#endif
