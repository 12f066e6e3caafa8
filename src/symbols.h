/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _MLOCK_AUDIT_SYMBOLS_H
#define _MLOCK_AUDIT_SYMBOLS_H

int ma_symbols_init(void);

#endif /* _MLOCK_AUDIT_SYMBOLS_H */
