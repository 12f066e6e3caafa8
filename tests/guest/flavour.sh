# The module on a Debian flavour kernel, run by
# tests/host/flavour-build on BASE-cloud and BASE-rt ($MA_VARIANT) with the
# module built against that flavour's headers, and by tests/host/deb12-kernel
# on 6.12-deb12 (bookworm's rebuild of 6.12, generic flavour): it loads; "fixes" gives
# every fix a state and, for one that is not active, its reason; where the
# flavour has CONFIG_TRANSPARENT_HUGEPAGE (cloud) the states are those of
# the generic kernel (expected-states), where it has none (rt) every fix
# is unsupported for that reason; the audit counts a 16 MiB locked file
# mapping (rootfs: no THP needed) in summary; every hook probes its
# functions (rmap_add and finish_fault everywhere, khugepaged_scan with
# THP): a flavour build has no symbol map, so its hooks find their
# functions by name, not by the addresses a build with a map gives them
# (src/hook_sites.c); the module unloads.
. ./lib.sh
case $MA_VARIANT in cloud | rt | deb12) ;; *) fail "not a flavour or rebuild kernel (MA_VARIANT '$MA_VARIANT')" ;; esac
cfg=$(ls /add/config /add/config-* 2>/dev/null | head -n1)
[ -n "$cfg" ] || fail "no kernel config under /add"
thp=$(sed -n 's/^CONFIG_TRANSPARENT_HUGEPAGE=//p' "$cfg")
unload
load
info "$(uname -r), CONFIG_TRANSPARENT_HUGEPAGE=${thp:-unset}:"
sed 's/^/  /' $DBG/fixes
[ "$(head -n1 $DBG/fixes)" = "format 1" ] || fail "fixes does not start with 'format 1'"
for fix in mlock fault lazyfree scanresume; do
	line=$(grep "^fix=$fix " $DBG/fixes) || fail "no line for fix $fix"
	state=$(fix_state $fix)
	detail=$(echo "$line" | sed -n 's/.* detail=//p')
	case $state in
	active | upstream | unsupported | off) ;;
	*) fail "fix $fix: state '$state'" ;;
	esac
	[ "$state" = active ] || [ -n "$detail" ] || fail "fix $fix is $state with no reason"
	if [ "$thp" = y ]; then
		want=$(expected_state $fix)
		[ "$state" = "$want" ] ||
			fail "fix $fix is $state on the $MA_VARIANT flavour, $want on the generic $MA_KERNEL"
	else
		[ "$state" = unsupported ] && echo "$detail" | grep -q CONFIG_TRANSPARENT_HUGEPAGE ||
			fail "fix $fix without THP: '$state', '$detail'"
	fi
done
hooks="rmap_add finish_fault"
[ "$thp" = y ] && hooks="$hooks khugepaged_scan"
for h in $hooks; do
	grep -q "^$h [a-z_.0-9]* hits=" $DBG/probes ||
		fail "hook $h probes nothing: $(grep "^$h " $DBG/probes)"
done
info "probes: $(grep -c ' hits=' $DBG/probes) functions ($(awk '/ hits=/ { printf "%s%s", s, $2; s = " " }' $DBG/probes))"
rm -f /tmp/fl.hold
mkfifo /tmp/fl.hold || fail "mkfifo"
ma-lock --file /tmp/fl.data --mb 16 --lock populate </tmp/fl.hold >/tmp/fl.out 2>&1 &
lpid=$!
exec 4>/tmp/fl.hold
wait_for 30 grep -qs '^ready' /tmp/fl.out || fail "ma-lock did not start: $(cat /tmp/fl.out)"
locked=$(awk '$1 == "locked_kb" { print $2 }' $DBG/summary)
vmas=$(awk '$1 == "locked_vmas" { print $2 }' $DBG/summary)
exec 4>&-
wait $lpid
rm -f /tmp/fl.data
info "summary with 16 MiB locked: locked_kb=$locked locked_vmas=$vmas"
[ "${locked:-0}" -ge 16384 ] && [ "${locked:-0}" -le $((16384 + 1024)) ] && [ "${vmas:-0}" -ge 1 ] ||
	fail "the audit does not see the 16 MiB locked mapping: locked_kb=$locked locked_vmas=$vmas"
unload
[ ! -d /sys/module/mlock_audit ] || fail "mlock_audit still loaded after unload"
exit 0
