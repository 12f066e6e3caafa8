/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fields of the debugfs file "summary" (format 1), in file order: the
 * one place where a field is defined, shared by the module and the
 * userspace reporter. No include guard: users define MA_SIZE, MA_COUNT and
 * MA_EVENT, include this file, and undefine them.
 *
 *   MA_SIZE(key, json, prom, cause, label, cross, help)
 *	a size in kB. JSON json and Prometheus prom give it in bytes. With a
 *	cause, prom is the family MA_CAUSE_PROM and cause its label value.
 *	label: its row in the table form (NULL: none of its own); cross: the
 *	/proc figure the table shows beside it (enum ma_cross_kind).
 *   MA_COUNT(key, prom, help)
 *	a count; JSON calls it key.
 *   MA_EVENT(name)
 *	the vmstat event unevictable_pgs_<name>, read by the module; its
 *	Prometheus form is MA_EVENT_PROM{event="<name>"}.
 *
 * Adding a field: one entry here, the line of ma_summary_show() (audit.c)
 * that sets its member, and its line in the README's table and in
 * mlock-audit(8).
 */
MA_SIZE(mlocked_kb, "mlocked_bytes", "mlock_audit_mlocked_bytes", NULL,
	"Mlocked", MA_CROSS_MEMINFO_MLOCKED,
	"Mlocked as the kernel counts it (NR_MLOCK).")
MA_SIZE(locked_kb, "locked_bytes", "mlock_audit_locked_bytes", NULL,
	"Truly locked", MA_CROSS_SMAPS_LOCKED,
	"Truly locked memory: distinct pages mapped by a locked VMA.")
MA_SIZE(locked_mlocked_kb, "locked_mlocked_bytes",
	"mlock_audit_locked_mlocked_bytes", NULL,
	"  of it mlocked", MA_CROSS_NONE,
	"The part of mlock_audit_locked_bytes in mlocked folios.")
MA_SIZE(undercount_kb, "undercount_bytes", "mlock_audit_undercount_bytes",
	NULL, "Undercount", MA_CROSS_NONE,
	"Locked memory that Mlocked leaves out.")
MA_SIZE(undercount_missed_kb, "undercount_missed_bytes", MA_CAUSE_PROM,
	"missed", "  missed", MA_CROSS_NONE, MA_CAUSE_HELP)
MA_SIZE(undercount_missed_crossed_kb, "undercount_missed_crossed_bytes",
	"mlock_audit_undercount_missed_crossed_bytes", NULL,
	"    of which crossed", MA_CROSS_NONE,
	"The part of the missed cause in folios whose mapping crosses a page-table boundary.")
MA_SIZE(undercount_partial_kb, "undercount_partial_bytes", MA_CAUSE_PROM,
	"partial", "  partial", MA_CROSS_NONE, MA_CAUSE_HELP)
MA_SIZE(undercount_small_unmlocked_kb, "undercount_small_unmlocked_bytes",
	MA_CAUSE_PROM, "small_unmlocked", "  small unmlocked",
	MA_CROSS_NONE, MA_CAUSE_HELP)
MA_SIZE(unevictable_kb, "unevictable_bytes", "mlock_audit_unevictable_bytes",
	NULL, "Unevictable", MA_CROSS_MEMINFO_UNEVICTABLE,
	"Unevictable as the kernel counts it (NR_UNEVICTABLE).")
MA_EVENT(culled)
MA_EVENT(scanned)
MA_EVENT(rescued)
MA_EVENT(mlocked)
MA_EVENT(munlocked)
MA_EVENT(cleared)
MA_EVENT(stranded)
MA_COUNT(processes, "mlock_audit_processes_walked",
	 "Processes the audit walked.")
MA_COUNT(locked_vmas, "mlock_audit_locked_vmas",
	 "Locked VMAs the audit walked.")
MA_SIZE(locked_vma_kb, "locked_vma_bytes", "mlock_audit_locked_vma_bytes",
	NULL, "Locked VMA size", MA_CROSS_NONE,
	"Size of the locked VMAs, resident or not.")
MA_COUNT(pfnmap_vmas, "mlock_audit_pfnmap_vmas",
	 "Locked VM_PFNMAP/VM_IO VMAs, not walked.")
MA_COUNT(hugetlb_vmas, "mlock_audit_hugetlb_vmas",
	 "hugetlb VMAs of the walked processes, reported apart.")
MA_SIZE(hugetlb_vma_kb, "hugetlb_vma_bytes", "mlock_audit_hugetlb_vma_bytes",
	NULL, NULL, MA_CROSS_NONE,
	"Size of the hugetlb VMAs of the walked processes.")
MA_COUNT(changed_vmas, "mlock_audit_changed_vmas",
	 "VMAs that changed while the walk had dropped mmap_lock.")
MA_SIZE(bitmap_kb, "bitmap_bytes", "mlock_audit_bitmap_bytes", NULL, NULL,
	MA_CROSS_NONE, "Memory the audit used to count each page once.")
