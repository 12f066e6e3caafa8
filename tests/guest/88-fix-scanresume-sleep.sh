# The "scanresume" fix swaps the khugepaged thread when it is enabled
#: the new thread must sleep out what is left of the old one's
# scan sleep, not start a pass at once. khugepaged is asleep for an hour
# with a process registered; for 5 s after enabling, full_scans must not
# move. Then the sleep is cut short by a write of scan_sleep_millisecs,
# which wakes khugepaged: the new thread must scan. Before this was
# handled, the new thread ran a pass within a second of the swap.
. ./lib.sh
need_fix_probe scanresume "fixes=scanresume" active
khugepaged_asleep
p0=$(kh_pid)
f0=$(cat $KH/full_scans)
load fixes=scanresume
p1=$(kh_pid)
[ -n "$p1" ] && [ "$p1" != "$p0" ] || fail "khugepaged was not replaced ($p0 -> $p1)"
sleep 5
f1=$(cat $KH/full_scans)
info "khugepaged $p0 -> $p1; full_scans $f0 before enabling, $f1 5 s after"
[ "$f1" = "$f0" ] ||
	fail "the new khugepaged started a pass at once: full_scans $f0 -> $f1 within 5 s of the swap, with about 3600 s of scan sleep left"
# a write of the setting wakes khugepaged (and the sleep is 10 s from then)
knob $KH/scan_sleep_millisecs 10000
wait_for 15 file_gt $KH/full_scans "$f1" ||
	fail "the new khugepaged did not scan within 15 s of being woken (full_scans $(cat $KH/full_scans))"
info "woken: full_scans $f1 -> $(cat $KH/full_scans)"
unload
info "the new khugepaged slept out the old one's scan sleep and scanned when woken"
