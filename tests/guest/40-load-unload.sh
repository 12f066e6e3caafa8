# 20 load/unload cycles: each loads cleanly, unloads cleanly, leaves no
# kprobe behind, and slab usage does not grow.
. ./lib.sh
unload
settle() { sync; echo 3 >/proc/sys/vm/drop_caches; sleep 1; }
cycle() {
	modprobe mlock_audit || fail "modprobe failed in cycle $1"
	cat $DBG/probes >/dev/null || fail "probes unreadable in cycle $1"
	rmmod mlock_audit || fail "rmmod failed in cycle $1"
	[ -d /sys/module/mlock_audit ] && fail "still loaded after rmmod in cycle $1"
	[ -e $DBG ] && fail "$DBG left behind in cycle $1"
	grep -q mlock_audit /sys/kernel/debug/kprobes/list && fail "kprobes left behind in cycle $1"
	return 0
}
# Two warm-up cycles first: the first load populates caches for good.
cycle w1
cycle w2
settle
s0=$(meminfo_kb Slab) p0=$(meminfo_kb Percpu)
i=1
while [ $i -le 20 ]; do
	cycle $i
	i=$((i + 1))
done
settle
s1=$(meminfo_kb Slab) p1=$(meminfo_kb Percpu)
info "Slab ${s0} kB -> ${s1} kB, Percpu ${p0} kB -> ${p1} kB over 20 cycles"
# Noise from the rest of the system stays well under this bound; a leak
# of one 4 kB object per cycle would exceed it.
[ $((s1 - s0)) -lt 80 ] || fail "Slab grew by $((s1 - s0)) kB over 20 cycles"
[ $((p1 - p0)) -lt 40 ] || fail "Percpu grew by $((p1 - p0)) kB over 20 cycles"
exit 0
