# SIGBUS semantics with the "fault" fix (whole-folio faults), in the style
# of fstests generic/749: a file whose size ends inside a large folio,
# mapped past its end. The page holding EOF must not raise SIGBUS and every
# page wholly past EOF must, on reads and on writes (POSIX), on XFS with
# 4 KiB blocks and on tmpfs huge=within_size. tmpfs huge=always maps its
# huge pages whole, across i_size, on every kernel (upstream keeps this
# shmem exception): there the result must be the same with and without the
# fixes. Each case is run with fixes=none and with every fix.
. ./lib.sh
[ -n "$SCRATCH" ] || skip "no scratch disk (run with scripts/vm-run --disk)"
unload
xfs_mount -b size=4096
mkdir -p /mnt/always /mnt/within
mount -t tmpfs -o huge=always,size=64m tmpfs /mnt/always || fail "tmpfs huge=always"
mount -t tmpfs -o huge=within_size,size=64m tmpfs /mnt/within || fail "tmpfs huge=within_size"
MAPLEN=$((4 << 20))
# EOF 100 bytes into a page, in the middle of a 2 MiB folio, and one page in
SIZES="$((1024 * 1024 + 4096 * 3 + 100)) $((2 * 1024 * 1024 + 4096 + 1)) 4000"
for mode in none all; do
	load fixes=$mode
	info "fixes=$mode: fault fix $(fix_state fault)"
	for fs in xfs within always; do
		for size in $SIZES; do
			out=$(ma-sigbus /mnt/$fs/f $size $MAPLEN)
			rc=$?
			[ $rc -le 1 ] || fail "ma-sigbus on $fs: $out"
			echo "$fs $size $rc $(echo "$out" | tr '\n' ' ')" >>/tmp/sigbus.$mode
			[ $fs = always ] || [ $rc = 0 ] ||
				fail "$fs, size $size, fixes=$mode: POSIX SIGBUS semantics broken:
$out"
		done
	done
	unload
done
cmp -s /tmp/sigbus.none /tmp/sigbus.all || fail "results differ with the fixes:
$(diff /tmp/sigbus.none /tmp/sigbus.all)"
awk '{ printf "  %s size %s: %s\n", $1, $2, $3 ? "past-EOF pages mapped (shmem huge pages)" : "POSIX" }' /tmp/sigbus.all
umount /mnt/xfs /mnt/always /mnt/within
exit 0
