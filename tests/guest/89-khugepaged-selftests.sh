# The kernel's own khugepaged selftest (tools/testing/selftests/mm
# /khugepaged from its linux-source, built by scripts/selftests) in the
# khugepaged and madvise contexts, for anonymous memory, shmem and files,
# once with fixes=none and once with every fix this kernel needs: the
# result lines and the exit status must be the same. Every case runs
# through the fixes that touch khugepaged ("lazyfree" replaces its PMD
# scanner, "scanresume" the khugepaged thread). A case that fails both
# ways is the kernel's own behaviour in this guest (no swap, for example)
# and is listed. The file cases need CONFIG_READ_ONLY_THP_FOR_FS, read
# from the kernel's config (/add/config*).
. ./lib.sh
ST=/add/selftests
[ -x $ST/khugepaged ] || skip "no khugepaged selftest in $ST (tests/run builds it)"
unload
load
info "fixes with the default: $(grep '^fix=' $DBG/fixes | cut -d' ' -f1-2 | tr '\n' ' ')"
unload
cfg=$(ls /add/config* 2>/dev/null | head -n1)
[ -n "$cfg" ] || fail "no kernel config in /add (tests/run adds it)"
types="anon shmem"
if grep -q '^CONFIG_READ_ONLY_THP_FOR_FS=y' "$cfg"; then
	types="$types file"
else
	info "file: not run, CONFIG_READ_ONLY_THP_FOR_FS is not set in ${cfg##*/} (khugepaged does not collapse regular files)"
fi
up() { awk '{ printf "%d", $1 }' /proc/uptime; }
bad=""
for c in khugepaged madvise; do
	for t in $types; do
		for m in none all; do
			load fixes=$m
			s=$(up)
			dir=""
			[ $t = file ] && mkdir -p /tmp/khdir && dir=/tmp/khdir
			(cd /tmp && timeout 900 $ST/khugepaged $c:$t $dir) >/tmp/kh.$m 2>&1
			echo "exit $?" >>/tmp/kh.$m
			ksft_results /tmp/kh.$m >/tmp/kh.$m.res
			grep '^exit' /tmp/kh.$m >>/tmp/kh.$m.res
			info "$c:$t fixes=$m: $(($(up) - s)) s, $(grep -c -E 'OK$|^ok ' /tmp/kh.$m.res) ok, $(grep -c -E 'Fail$|^not ok ' /tmp/kh.$m.res) failed, $(tail -n1 /tmp/kh.$m.res)"
			unload
		done
		grep -v -E 'OK$|^ok |^exit|^$' /tmp/kh.all.res | sed 's/^/      both ways: /'
		grep -q -E 'OK$|^ok ' /tmp/kh.none.res ||
			bad="$bad $c:$t (no case passed even without the fixes)"
		cmp -s /tmp/kh.none.res /tmp/kh.all.res ||
			bad="$bad $c:$t ($(diff /tmp/kh.none.res /tmp/kh.all.res | grep '^[<>]' | head -2 | tr '\n' '|'))"
	done
done
[ -z "$bad" ] || fail "differs with the fixes:$bad"
exit 0
