# SPDX-License-Identifier: GPL-2.0
# Helpers shared by the audit-versus-oracle tests (sourced after lib.sh).
# vmas_of PID: the module's rows of one process (its "vmas" lists every
# process; a row begins with pid=PID)
vmas_of() { grep "^pid=$1 " $DBG/vmas; }

KEYS="start end flags resident mlocked missed missed_crossed partial small_unmlocked"
# 6.1's smaps has no VmFlags mnemonic for VM_LOCKONFAULT ("lf" came later),
# so the oracle cannot tell onfault from locked there: compare the rest,
# and check the onfault scenario's flag directly below.
if [ "$MA_KERNEL" = 6.1 ]; then
	KEYS="start end resident mlocked missed missed_crossed partial small_unmlocked"
fi
norm() { # key=value lines -> the KEYS, in order
	awk -v keys="$KEYS" '{ delete v; for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		n = split(keys, k, " "); line = ""; for (i = 1; i <= n; i++) line = line " " k[i] "=" v[k[i]]
		print substr(line, 2) }'
}
compare_pid() { # NAME PID: the module's rows for PID equal the oracle's
	mod=$(vmas_of "$2" | norm)
	ora=$(ma-kpf "$2" | grep '^vma ' | norm)
	[ -n "$ora" ] || fail "$1: the oracle found no locked VMA in pid $2"
	[ "$mod" = "$ora" ] || fail "$1: pid $2 rows differ
module: $mod
oracle: $ora"
	info "$1: pid $2: $(echo "$mod" | head -n 3 | tr '\n' ';')"
}
compare_system() { # NAME
	echo 1 >/proc/sys/vm/stat_refresh
	sum=$(cat $DBG/summary)
	ora=$(ma-kpf $(ls /proc | grep -E '^[0-9]+$') | grep '^system ')
	get() { echo "$sum" | awk -v k="$1" '$1 == k { print $2 }'; }
	oget() { echo "$ora" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
	[ "$(get locked_kb)" = $(($(oget locked_pages) * 4)) ] &&
		[ "$(get locked_mlocked_kb)" = $(($(oget in_mlocked_folios) * 4)) ] &&
		[ "$(get undercount_kb)" = $(($(oget undercount) * 4)) ] &&
		[ "$(get locked_vma_kb)" = "$(oget locked_vma_kb)" ] ||
		fail "$1: system figures differ: module locked $(get locked_kb) kB mlocked $(get locked_mlocked_kb) kB undercount $(get undercount_kb) kB locked VMAs $(get locked_vma_kb) kB; oracle: $ora"
	info "$1: system locked $(get locked_kb) kB, undercount $(get undercount_kb) kB (missed $(get undercount_missed_kb), crossed $(get undercount_missed_crossed_kb)), locked VMAs $(get locked_vma_kb) kB"
}
scenario() { # NAME ma-lock-args...
	name=$1
	shift
	hold "$@"
	compare_pid "$name" $HOLD_PID
	compare_system "$name"
	unhold
}


# The module and the oracle read at different instants: keep the kernel
# from moving locked pages meanwhile (compaction may migrate mlocked pages,
# briefly leaving them unmlocked, kcompactd's proactive compaction the
# others, briefly unmapped, and khugepaged collapse them, leaving them
# unmapped until touched).
knob /proc/sys/vm/compact_unevictable_allowed 0
knob /proc/sys/vm/compaction_proactiveness 0
khugepaged_asleep
