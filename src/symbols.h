/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _MLOCK_AUDIT_SYMBOLS_H
#define _MLOCK_AUDIT_SYMBOLS_H

int ma_symbols_init(void);

/* Unexported kernel data, resolved by ma_symbols_init(). */
extern unsigned long *ma_huge_zero_pfn;	/* mm/huge_memory.c */

#endif /* _MLOCK_AUDIT_SYMBOLS_H */
