# The file-backed THP selftests of this kernel's linux-source (built by
# scripts/selftests), where the "fault" fix is active, with every fix
# loaded against fixes=none:
#  - khugepaged's shmem cases (madvise:shmem) and file cases (madvise:file,
#    on tmpfs huge=advise: Debian kernels lack READ_ONLY_THP_FOR_FS, so no
#    collapse of XFS files) give the same result lines and exit status.
#    Only the madvise (MADV_COLLAPSE) context: the khugepaged context waits
#    for khugepaged's scans, which under TCG take 4 minutes and time out in
#    3 cases with and without the fixes alike.
#  - split_huge_page_test on an XFS directory (its page-cache cases need
#    large folios) gives the same result lines and exit status too.
# A pair of arms that differs is shown and run once more, which decides.
. ./lib.sh
ST=/add/selftests
[ -x $ST/khugepaged ] && [ -x $ST/split_huge_page_test ] ||
	skip "no khugepaged/split_huge_page_test in $ST (tests/run builds them with scripts/selftests)"
[ -n "$SCRATCH" ] || skip "no scratch disk (run with scripts/vm-run --disk)"
unload
load
state=$(fix_state fault)
unload
need_fix fault "$state" active
xfs_mount
mkdir -p /mnt/advise
mount -t tmpfs -o huge=advise,size=256m tmpfs /mnt/advise || fail "tmpfs huge=advise"
# fresh: page cache dropped and memory compacted before each selftest.
# Each allocates huge pages, which fail to allocate in the memory that the
# earlier tests fragment ("No THP is allocated").
fresh() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	echo 1 >/proc/sys/vm/compact_memory
}
# run MODE: split_huge_page_test and the khugepaged cases with fixes=MODE
run() {
	load fixes=$1
	: >/tmp/rc.$1
	fresh
	(cd /tmp && $ST/split_huge_page_test /mnt/xfs) >/tmp/split.$1 2>&1
	echo "split_huge_page_test $?" >>/tmp/rc.$1
	fresh
	(cd /tmp && $ST/khugepaged madvise:shmem) >/tmp/khs.$1 2>&1
	echo "khugepaged_shmem $?" >>/tmp/rc.$1
	fresh
	(cd /tmp && $ST/khugepaged madvise:file /mnt/advise) >/tmp/khf.$1 2>&1
	echo "khugepaged_file $?" >>/tmp/rc.$1
	for f in split khs khf; do ksft_results /tmp/$f.$1 >/tmp/$f.$1.res; done
	unload
}
# differs: the selftests whose result lines or exit status differ between
# the two arms
differs() {
	for f in split khs khf; do
		cmp -s /tmp/$f.none.res /tmp/$f.all.res || echo $f
	done
	cmp -s /tmp/rc.none /tmp/rc.all || echo status
}
run all
run none
d=$(differs)
if [ -n "$d" ]; then
	# The stock selftests are not always repeatable in a guest that has
	# run the rest of its part (a collapse that finds no huge page fails):
	# show the difference and run both arms once more; that pair decides.
	for f in $d; do
		[ $f = status ] && info "exit statuses differed: $(paste /tmp/rc.none /tmp/rc.all | tr '\t\n' '/ ')" && continue
		info "$f differed, run again: $(res_diff /tmp/$f.none.res /tmp/$f.all.res)"
		tail -n 6 /tmp/$f.none /tmp/$f.all | no_colours | cut -c1-160 | sed 's/^/        /'
	done
	run all
	run none
fi
for f in split khs khf; do
	info "$f: $(grep -c . /tmp/$f.all.res) result lines, $(grep -c -E 'Fail|not ok|Bail' /tmp/$f.all.res) failing with the fixes, $(grep -c -E 'Fail|not ok|Bail' /tmp/$f.none.res) without"
	cmp -s /tmp/$f.none.res /tmp/$f.all.res || fail "$f results differ with the fixes: $(res_diff /tmp/$f.none.res /tmp/$f.all.res)"
done
sed 's/^/  exit status /' /tmp/rc.all
cmp -s /tmp/rc.none /tmp/rc.all || fail "exit statuses differ: $(paste /tmp/rc.none /tmp/rc.all)"
grep -q '^ok ' /tmp/split.all.res || fail "split_huge_page_test ran no case"
grep -q '^split_huge_page_test 0$' /tmp/rc.all && grep -E -q 'Fail|not ok|Bail' /tmp/split.all.res &&
	fail "split_huge_page_test: a case failed yet exited 0"
umount /mnt/xfs /mnt/advise
exit 0
