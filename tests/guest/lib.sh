# SPDX-License-Identifier: GPL-2.0
# Helpers for the guest tests (busybox sh). A test exits 0 to pass, 1 to
# fail and 4 to skip (the kselftest convention), printing why.

DBG=/sys/kernel/debug/mlock_audit
KSFT_SKIP=4

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit $KSFT_SKIP; }
info() { echo "  $*"; }

LP=/sys/kernel/livepatch/mlock_audit

# Speed limits are set for the stock kernels. The debug kernel (KASAN,
# lockdep, kmemleak; make check-debug) does the same work 3 to 7 times
# slower under TCG (measured per guest test against stock 6.12), so there
# a speed limit is multiplied by TIME_SCALE. Timeouts that only catch hangs
# are not scaled.
TIME_SCALE=1
[ "${MA_VARIANT:-}" = debug ] && TIME_SCALE=4

loaded() { [ -d /sys/module/mlock_audit ]; }
# not_switched: every task a livepatch transition has not switched yet,
# with the top of its kernel stack
not_switched() {
	grep -l '^0$' /proc/[0-9]*/patch_state 2>/dev/null | while read -r f; do
		p=${f%/patch_state}
		echo "  not switched: ${p#/proc/} $(cat $p/comm) $(head -n 2 $p/stack | tr '\n' ' ')"
	done
}
# load [PARAM=VALUE...]: modprobe with those module parameters; when that
# enables the livepatch, wait until its transition is complete
load() {
	loaded || modprobe mlock_audit "$@" || fail "modprobe mlock_audit $* failed"
	n=0
	while [ "$(cat $LP/transition 2>/dev/null)" = 1 ]; do
		if [ $n -ge 900 ]; then
			not_switched
			fail "livepatch transition not complete 90 s after modprobe"
		fi
		sleep 0.1
		n=$((n + 1))
	done
}
# The livepatch holds the module until it is disabled; disabling takes a
# transition (a second or so), after which its sysfs directory goes away.
lp_disable() {
	[ -d $LP ] || return 0
	echo 0 >$LP/enabled 2>/dev/null
	n=0
	while [ -d $LP ]; do
		[ $n -ge 300 ] && fail "livepatch still present 30 s after disabling it"
		sleep 0.1
		n=$((n + 1))
	done
}
unload() { ! loaded || { lp_disable; rmmod mlock_audit; } || fail "rmmod mlock_audit failed"; }
# kh_tune SLEEP_MS PAGES: set khugepaged's scan_sleep_millisecs and
# pages_to_scan, keeping the old values for kh_restore
KH=/sys/kernel/mm/transparent_hugepage/khugepaged
kh_tune() {
	KH_OLD="$(cat $KH/scan_sleep_millisecs) $(cat $KH/pages_to_scan)"
	echo "$1" >$KH/scan_sleep_millisecs
	echo "$2" >$KH/pages_to_scan
	info "khugepaged: scan_sleep_millisecs=$1 pages_to_scan=$2 (were $KH_OLD)"
}
kh_restore() {
	[ -n "${KH_OLD:-}" ] || return 0
	echo "${KH_OLD% *}" >$KH/scan_sleep_millisecs
	echo "${KH_OLD#* }" >$KH/pages_to_scan
}
# kh_pid: the PID of the khugepaged thread (none when THP is off)
kh_pid() {
	for p in /proc/[0-9]*; do
		[ "$(cat $p/comm 2>/dev/null)" = khugepaged ] && echo "${p#/proc/}"
	done
}
# fix_state NAME: the state of a live fix in debugfs "fixes"
fix_state() { sed -n "s/^fix=$1 state=\([a-z]*\).*/\1/p" $DBG/fixes; }

# Sum of the hits of every symbol of HOOK in debugfs "probes".
hits() {
	awk -v h="$1" '$1 == h && $3 ~ /^hits=/ { sub("hits=", "", $3); n += $3; f = 1 }
		END { if (!f) exit 1; print n }' $DBG/probes
}

# A /proc/meminfo field in kB, after folding the per-CPU vmstat deltas
# (without that, counters such as Mlocked lag by up to a few pages per CPU).
meminfo_kb() {
	echo 1 >/proc/sys/vm/stat_refresh 2>/dev/null
	awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo
}

# xfs_mount [MKFS_OPTIONS...]: a fresh XFS on the scratch disk at /mnt/xfs
xfs_mount() {
	[ -n "$SCRATCH" ] || skip "no scratch disk (run with scripts/vm-run --disk)"
	umount /mnt/xfs 2>/dev/null	# left mounted by a test that failed
	mkfs.xfs -q -f "$@" "$SCRATCH" || fail "mkfs.xfs"
	mkdir -p /mnt/xfs
	mount -t xfs "$SCRATCH" /mnt/xfs || fail "mount xfs"
}

# Drain the per-CPU LRU and mlock batches on every CPU: the compaction
# sysctl runs lru_add_drain_all() first (tests set
# compact_unevictable_allowed=0 so that mlocked pages are not migrated).
drain() { echo 1 >/proc/sys/vm/compact_memory; }

# hold ARGS...: run "ma-lock ARGS" in the background until unhold; sets
# HOLD_PID (and HOLD_CHILD with --fork).
HOLDS=0
hold() {
	HOLDS=$((HOLDS + 1))
	mkfifo /tmp/hold.$HOLDS
	ma-lock "$@" </tmp/hold.$HOLDS >/tmp/hold.$HOLDS.out 2>&1 &
	p=$!
	eval "exec $((HOLDS + 5))>/tmp/hold.$HOLDS"
	while ! grep -q '^ready' /tmp/hold.$HOLDS.out; do
		kill -0 $p 2>/dev/null || fail "ma-lock $* died: $(cat /tmp/hold.$HOLDS.out)"
		sleep 0.1
	done
	HOLD_PID=$(sed -n 's/^ready pid=\([0-9]*\).*/\1/p' /tmp/hold.$HOLDS.out)
	HOLD_CHILD=$(sed -n 's/^child=\([0-9]*\)/\1/p' /tmp/hold.$HOLDS.out)
}
# unhold: end every held mapping
unhold() {
	while [ $HOLDS -gt 0 ]; do
		eval "exec $((HOLDS + 5))>&-"
		rm -f /tmp/hold.$HOLDS /tmp/hold.$HOLDS.out
		HOLDS=$((HOLDS - 1))
	done
	wait
}

# ksft_results FILE: the result lines of a kselftest run, colours and
# numbers stripped, to compare two runs; runs of dots become "..." (the
# khugepaged selftest prints one per half second it waits for a scan)
ksft_results() {
	sed "s/$(printf '\033')\[[0-9;]*m//g" "$1" |
		grep -E '(OK|Fail|Skip|Timeout)$|^(ok|not ok) |^Bail' |
		sed 's/ *#.*//; s/[0-9]\{3,\}/N/g; s/\.\.\.\.*/.../g'
}
