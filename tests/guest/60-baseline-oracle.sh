# Reproduce the stock-kernel baseline (shared/reference/baseline.md, huge
# tmpfs part) without the module, and check the userspace oracle ma-kpf
# against /proc/meminfo: the pages it finds in mlocked folios must equal the
# Mlocked delta, and its classes must add up to the resident pages.
. ./lib.sh
unload
MB=64
PAGES=$((MB * 256))
mkdir -p /mnt/huge
mount -t tmpfs -o huge=always,size=$((MB * 2))m tmpfs /mnt/huge || fail "huge tmpfs"
for f in /sys/kernel/mm/transparent_hugepage/hugepages-64kB/shmem_enabled; do
	[ -w $f ] && knob $f always
done
dd if=/dev/zero of=/mnt/huge/f bs=1M count=$MB 2>/dev/null || fail "writing the file"
# ma-kpf reads pagemap, then kpageflags: a page migrated in between reads
# as the freed old one (6.1 once: the 512 small pages of "anon +4 KiB"
# unmlocked, while Mlocked counted them). No migration of mlocked pages,
# no khugepaged collapse while the scenarios run.
knob /proc/sys/vm/compact_unevictable_allowed 0
knob /proc/sys/vm/compaction_proactiveness 0
khugepaged_asleep

# scenario: args for ma-lock; expected Mlocked delta in kB on 6.1 6.12 7.3
run() {
	name=$1 want=$2
	shift 2
	m0=$(meminfo_kb Mlocked)
	hold "$@"
	m1=$(meminfo_kb Mlocked)
	out=$(ma-kpf $HOLD_PID) || fail "$name: ma-kpf failed"
	unhold
	vma=$(echo "$out" | grep '^vma ' | awk '{ for (i = 2; i <= NF; i++) print $i }' |
		grep -E '^(resident|mlocked|missed|missed_crossed|partial|small_unmlocked)=' | tr '\n' ' ')
	eval "$(echo "$vma" | tr ' ' '\n' | grep . | sed 's/^/k_/')"
	d=$((m1 - m0))
	info "$name: Mlocked +$d kB (baseline $want); oracle: $vma"
	[ "$k_resident" = $PAGES ] || fail "$name: oracle sees $k_resident resident pages, want $PAGES"
	[ $((k_mlocked + k_missed + k_partial + k_small_unmlocked)) = "$k_resident" ] ||
		fail "$name: oracle classes do not add up to the resident pages"
	[ $((k_mlocked * 4)) = $d ] || fail "$name: oracle mlocked $((k_mlocked * 4)) kB != Mlocked delta $d kB"
	[ $d = "$want" ] || fail "$name: Mlocked +$d kB, baseline says $want"
}
case $MA_KERNEL in
6.1) a_ml=65536 ;;
6.12) a_ml=0 ;;
7.3) a_ml=65536 ;;
esac
run "tmpfs aligned, fault then mlock" 65536 --file /mnt/huge/f --mb $MB --lock fault
run "tmpfs aligned, MAP_LOCKED" $a_ml --file /mnt/huge/f --mb $MB --lock maplocked
run "tmpfs aligned, mlock populate" $a_ml --file /mnt/huge/f --mb $MB --lock populate
run "tmpfs +4 KiB, MAP_LOCKED" 0 --file /mnt/huge/f --mb $MB --offset-kb 4 --lock maplocked
run "tmpfs +1 MiB, fault then mlock" 0 --file /mnt/huge/f --mb $MB --offset-kb 1024 --lock fault
run "anon aligned, touch then mlock" 65536 --anon --mb $MB --lock fault
run "anon +4 KiB, touch then mlock" 65536 --anon --mb $MB --offset-kb 4 --lock fault
umount /mnt/huge
exit 0
