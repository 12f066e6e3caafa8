# The "mlock" live fix against the audit issue's scenarios (huge tmpfs,
# anonymous THP, XFS large folios): each is run without the fix
# (fixes=none) and with every applicable fix, and the Mlocked change and
# the audit's classes are printed side by side. With the fix active, or
# upstream (7.3), no locked page may be left in a fully mapped large folio
# that is not mlocked, except across a page-table boundary (which upstream
# leaves out on purpose), and Mlocked must cover every locked page that is
# not in such a crossed or partly mapped folio (less 16 pages: the Mlocked
# change is read from /proc/meminfo while other CPUs' batches may still be
# settling from the previous scenario). After each scenario exits,
# Mlocked and Unevictable return to where they were (after a drain of the
# per-CPU batches, see drain() in lib.sh) within 16 pages.
. ./lib.sh
[ -n "$SCRATCH" ] || skip "no scratch disk (run with scripts/vm-run --disk)"
unload
MB=16
mkdir -p /mnt/huge
mount -t tmpfs -o huge=always,size=128m tmpfs /mnt/huge || fail "huge tmpfs"
dd if=/dev/zero of=/mnt/huge/f bs=1M count=$MB 2>/dev/null
xfs_mount
dd if=/dev/zero of=/mnt/xfs/f bs=1M count=$MB 2>/dev/null
sync
knob /proc/sys/vm/compact_unevictable_allowed 0

T="--file /mnt/huge/f --mb $MB"
X="--file /mnt/xfs/f --mb $MB"
SCENARIOS="tmpfs_aligned_MAP_LOCKED|$T --lock maplocked
tmpfs_+4K_MAP_LOCKED|$T --offset-kb 4 --lock maplocked
tmpfs_+1M_MAP_LOCKED|$T --offset-kb 1024 --lock maplocked
tmpfs_fault_then_mlock|$T --lock fault
tmpfs_mlock_populate|$T --lock populate
tmpfs_onfault_half|$T --lock onfault --touch-pct 50
tmpfs_partial_munlock|$T --lock fault --munlock-kb 4096:2048
anon_THP_aligned|--anon --mb $MB --lock fault
anon_THP_+4K|--anon --mb $MB --offset-kb 4 --lock fault
anon_mlockall|--anon --mb $MB --lock mlockall
xfs_written_MAP_LOCKED|$X --lock maplocked
xfs_written_fault_then_mlock|$X --lock fault
xfs_drop_MAP_LOCKED|drop $X --lock maplocked
xfs_drop_populate|drop $X --lock populate
xfs_drop_+4K_MAP_LOCKED|drop $X --offset-kb 4 --lock maplocked"

# both: each scenario's line without the fix joined with its line with it
both() { awk 'NR == FNR { a[$1] = $0; next } { n = $1; $1 = ""; print a[n] $0 }' /tmp/mode.none /tmp/mode.all; }
sum() { awk -v k="$1" '$1 == k { print $2 }' $DBG/summary; }
# settled NAME: Mlocked and Unevictable are back to the base line
settled() {
	drain
	m=$(meminfo_kb Mlocked) u=$(meminfo_kb Unevictable)
	[ $((m - MBASE)) -le 64 ] && [ $((u - UBASE)) -le 64 ] ||
		fail "$1 ($2): Mlocked $MBASE -> $m kB, Unevictable $UBASE -> $u kB after it exited"
}
# run MODE: every scenario with fixes=MODE; one line per scenario into
# /tmp/mode.MODE: name delta locked missed crossed partial
run() {
	load fixes=$1
	# after the load: the scanresume fix starts a khugepaged pass
	khugepaged_asleep
	: >/tmp/mode.$1
	# not the right-hand side of a pipe: fail in the loop must end the test
	while IFS='|' read -r name args <&3; do
		case $args in drop*) sync; echo 3 >/proc/sys/vm/drop_caches; args=${args#drop } ;; esac
		m0=$(meminfo_kb Mlocked)
		hold $args
		d=$(($(meminfo_kb Mlocked) - m0))
		echo "$name $d $(sum locked_kb) $(sum undercount_missed_kb) $(sum undercount_missed_crossed_kb) $(sum undercount_partial_kb) $(sum undercount_small_unmlocked_kb)" >>/tmp/mode.$1
		unhold
		settled "$name" "fixes=$1"
	done 3<<EOF
$SCENARIOS
EOF
	state=$(fix_state mlock)
	unload
}
drain
MBASE=$(meminfo_kb Mlocked) UBASE=$(meminfo_kb Unevictable)
run none
run all
after_state=$state
info "fix mlock: $after_state"
printf '  %-30s %9s %9s %9s %8s %8s %8s\n' scenario "before" "after" locked missed crossed partial
both | while read -r name d0 l0 m0 c0 p0 s0 d l m c p s; do
	printf '  %-30s %9s %9s %9s %8s %8s %8s\n' "$name" "$d0" "$d" "$l" "$m" "$c" "$p"
done
need_fix mlock "$after_state" active upstream
bad=$(both | awk '{ d = $8; l = $9; m = $10; c = $11; p = $12; s = $13
	if (m - c != 0) print $1 ": " m - c " kB missed outside page-table crossings"
	else if (d < l - c - p - s - 64) print $1 ": Mlocked +" d " kB, want at least " l - c - p - s }')
[ -z "$bad" ] || fail "$bad"
umount /mnt/huge /mnt/xfs
exit 0
