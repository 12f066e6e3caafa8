# The file-backed THP selftests of this kernel's linux-source (built by
# scripts/selftests) give the same results with every fix loaded as with
# fixes=none, where the "fault" fix is active: split_huge_page_test on an
# XFS directory (its page-cache cases need large folios) and khugepaged's
# shmem cases (madvise:shmem) and file cases (madvise:file, on tmpfs
# huge=advise: Debian kernels lack READ_ONLY_THP_FOR_FS, so no collapse of
# XFS files). Only the madvise (MADV_COLLAPSE) context: the khugepaged
# context waits for khugepaged's scans, which under TCG take 4 minutes and
# time out in 3 cases with and without the fixes alike. Compared: each
# case's result lines and the exit status.
. ./lib.sh
ST=/add/selftests
[ -x $ST/khugepaged ] && [ -x $ST/split_huge_page_test ] ||
	skip "no khugepaged/split_huge_page_test in $ST (tests/run builds them with scripts/selftests)"
[ -n "$SCRATCH" ] || skip "no scratch disk (run with scripts/vm-run --disk)"
unload
load
state=$(fix_state fault)
unload
[ "$state" = active ] || skip "the fault fix is $state here"
xfs_mount
mkdir -p /mnt/advise
mount -t tmpfs -o huge=advise,size=256m tmpfs /mnt/advise || fail "tmpfs huge=advise"
# results FILE: the result lines of a run, colours and numbers stripped
ESC=$(printf '\033')
results() {
	sed "s/$ESC\[[0-9;]*m//g" "$1" | grep -E '(OK|Fail|Skip|Timeout)$|^(ok|not ok) |^Bail' |
		sed 's/ *#.*//; s/[0-9]\{3,\}/N/g'
}
run() {
	load fixes=$1
	(cd /tmp && $ST/split_huge_page_test /mnt/xfs) >/tmp/split.$1 2>&1
	echo "split_huge_page_test $?" >/tmp/rc.$1
	(cd /tmp && $ST/khugepaged madvise:shmem) >/tmp/khs.$1 2>&1
	echo "khugepaged_shmem $?" >>/tmp/rc.$1
	(cd /tmp && $ST/khugepaged madvise:file /mnt/advise) >/tmp/khf.$1 2>&1
	echo "khugepaged_file $?" >>/tmp/rc.$1
	for f in split khs khf; do results /tmp/$f.$1 >/tmp/$f.$1.res; done
	unload
}
run none
run all
for f in split khs khf; do
	info "$f: $(grep -c . /tmp/$f.all.res) result lines, $(grep -c -E 'Fail|not ok|Bail' /tmp/$f.all.res) failing with the fixes, $(grep -c -E 'Fail|not ok|Bail' /tmp/$f.none.res) without"
	cmp -s /tmp/$f.none.res /tmp/$f.all.res || fail "$f results differ with the fixes:
$(diff /tmp/$f.none.res /tmp/$f.all.res)"
done
sed 's/^/  exit status /' /tmp/rc.all
cmp -s /tmp/rc.none /tmp/rc.all || fail "exit statuses differ: $(paste /tmp/rc.none /tmp/rc.all)"
umount /mnt/xfs /mnt/advise
exit 0
