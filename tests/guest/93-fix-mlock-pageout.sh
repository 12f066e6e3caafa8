# Reclaim through a plain mapping of file pages that a locked VMA maps
# none of: an untouched MLOCK_ONFAULT mapping of a 32 MiB XFS
# file, and a plain mapping read through; MADV_PAGEOUT on the plain one.
# The reference is the same workload with fixes=none (the stock kernel's
# reclaim): the locked VMA holds no page, so reclaim must unmap the plain
# mapping's pages with the fix as without it. Judged by pagemap, not by the
# module. Before the fix, ma_try_to_unmap_one() stopped the rmap walk at
# the locked VMA and every page stayed mapped (32768 of 32768 kB on 6.12).
# Run with the classic LRU and with the multi-gen LRU (on by default in
# Debian's 6.12), where the kernel has it.
. ./lib.sh
MB=32
KB=$((MB * 1024))
xfs_mount
trap 'umount /mnt/xfs 2>/dev/null; knobs_restore' EXIT
dd if=/dev/zero of=/mnt/xfs/f bs=1M count=$MB 2>/dev/null || fail "dd"
sync

run() { # FIXES ORDER: load with fixes=FIXES, ma-pageout's line into /tmp/pageout
	unload
	load fixes="$1"
	echo 3 >/proc/sys/vm/drop_caches
	ma-pageout /mnt/xfs/f $MB "$2" >/tmp/pageout || fail "ma-pageout failed with fixes=$1"
}

LRU_GEN=/sys/kernel/mm/lru_gen/enabled
lrus="n y"
[ -w $LRU_GEN ] || { lrus=classic; info "no multi-gen LRU here ($LRU_GEN): the classic LRU only"; }
for lru in $lrus; do
	[ $lru = classic ] || knob $LRU_GEN $lru
	info "lru_gen/enabled: $(cat $LRU_GEN 2>/dev/null || echo none)"
	for order in locked-first plain-first; do
		run none $order
		ref=$(cat /tmp/pageout)
		run mlock $order
		state=$(fix_state mlock)
		fixed=$(cat /tmp/pageout)
		unload
		need_fix mlock "$state" active upstream
		info "$order: fixes=none: $ref"
		info "$order: fixes=mlock ($state): $fixed"
		for out in "$ref" "$fixed"; do
			[ "$(field plain_before_kb "$out")" = $KB ] ||
				fail "$order: the plain mapping was not fully mapped before MADV_PAGEOUT: $out"
			[ "$(field locked_kb "$out")" = 0 ] || fail "$order: the MLOCK_ONFAULT mapping mapped pages: $out"
		done
		r=$(field plain_after_kb "$ref")
		f=$(field plain_after_kb "$fixed")
		# the reference must show that MADV_PAGEOUT reclaims here at all
		[ "$r" -le $((KB / 32)) ] ||
			fail "$order (lru_gen $lru): fixes=none: $r of $KB kB still mapped after MADV_PAGEOUT: no reference"
		[ "$f" -le $((r + KB / 32)) ] ||
			fail "$order (lru_gen $lru): with the mlock fix ($state) $f of $KB kB stay mapped after MADV_PAGEOUT, against $r kB with fixes=none"
	done
done
exit 0
