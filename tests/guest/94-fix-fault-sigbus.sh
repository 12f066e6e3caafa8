# SIGBUS semantics with the "fault" fix (whole-folio faults), in the style
# of fstests generic/749: a file whose size ends inside a large folio,
# mapped past its end. On XFS with 4 KiB blocks (the file written MAPLEN
# long, then truncated, so that EOF falls in a large folio) POSIX must hold
# with fixes=none and with every fix, with the same result: the page
# holding EOF does not raise SIGBUS and every page wholly past EOF does, on
# reads and on writes.
#
# tmpfs (huge=within_size and huge=always, the file written SIZE long):
# pages past EOF within the 2 MiB extent holding EOF may be mapped, every
# page past it must raise SIGBUS. Stock 6.12 itself maps pages past EOF
# there at times, with or without the fixes (seen with fixes=none after
# memory pressure: write faults past EOF succeed on huge=within_size), and
# huge=always may map a huge page across i_size by design (upstream keeps
# that shmem exception); those results depend on chance and are not
# compared between the two runs.
. ./lib.sh
[ -n "$SCRATCH" ] || skip "no scratch disk (run with scripts/vm-run --disk)"
unload
xfs_mount -b size=4096
mkdir -p /mnt/always /mnt/within
mount -t tmpfs -o huge=always,size=64m tmpfs /mnt/always || fail "tmpfs huge=always"
mount -t tmpfs -o huge=within_size,size=64m tmpfs /mnt/within || fail "tmpfs huge=within_size"
MAPLEN=$((4 << 20))
rm -f /tmp/sigbus.none /tmp/sigbus.all
# EOF 100 bytes into a page, in the middle of a 2 MiB folio, and one page in
SIZES="$((1024 * 1024 + 4096 * 3 + 100)) $((2 * 1024 * 1024 + 4096 + 1)) 4000"
for mode in none all; do
	load fixes=$mode
	info "fixes=$mode: fault fix $(fix_state fault)"
	for fs in xfs within always; do
		for size in $SIZES; do
			case $fs in
			always) out=$(ma-sigbus --huge-extent --exact /mnt/$fs/f.$mode.$size $size $MAPLEN) ;;
			within) out=$(ma-sigbus --huge-extent --exact /mnt/$fs/f.$mode.$size $size $MAPLEN) ;;
			*) out=$(ma-sigbus /mnt/$fs/f.$mode.$size $size $MAPLEN) ;;
			esac
			rc=$?
			rm -f /mnt/$fs/f.$mode.$size
			[ $rc = 0 ] || fail "$fs, size $size, fixes=$mode: SIGBUS semantics broken:
$out"
			[ $fs = xfs ] &&
				echo "$fs $size $(echo "$out" | tr '\n' ' ')" >>/tmp/sigbus.$mode
		done
	done
	unload
done
cmp -s /tmp/sigbus.none /tmp/sigbus.all || fail "results differ with the fixes:
$(diff /tmp/sigbus.none /tmp/sigbus.all)"
info "XFS: POSIX at sizes $SIZES, the same with and without the fixes; tmpfs: no page mapped past the 2 MiB extent of EOF"
umount /mnt/xfs /mnt/always /mnt/within
exit 0
