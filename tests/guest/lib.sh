# SPDX-License-Identifier: GPL-2.0
# Helpers for the guest tests (busybox sh). A test exits 0 to pass, 1 to
# fail and 4 to skip (the kselftest convention), printing why.

DBG=/sys/kernel/debug/mlock_audit
KSFT_SKIP=4
. /tests/thp-files.sh

# fail also leaves its words in /tmp/ma.failed: run-all fails the test even
# when the exit was lost (a subshell: a piped loop, a $(...))
fail() { echo "FAIL: $*"; echo "FAIL: $*" >>/tmp/ma.failed; exit 1; }
skip() { echo "SKIP: $*"; exit $KSFT_SKIP; }
info() { echo "  $*"; }

# The live fixes are the module mlock_audit_fixes, which the audit
# (mlock_audit) loads once its own init is done; its livepatch is named
# after it.
LP=/sys/kernel/livepatch/mlock_audit_fixes

# Speed limits are set for the stock kernels. The debug kernel (KASAN,
# lockdep, kmemleak; make check-debug) does the same work 3 to 7 times
# slower under TCG (measured per guest test against stock 6.12), so there
# a speed limit is multiplied by TIME_SCALE. Timeouts that only catch hangs
# are not scaled.
TIME_SCALE=1
[ "${MA_VARIANT:-}" = debug ] && TIME_SCALE=4

loaded() { [ -d /sys/module/mlock_audit ]; }
fixes_loaded() { [ -d /sys/module/mlock_audit_fixes ]; }
# fixes_requested: the audit has had its answer about the fixes module
# (loaded and live, refused, or not asked for with fixes=none); its
# livepatch line, not a fix's, tells: every fix's state may be the build's
fixes_requested() {
	! grep -q '^livepatch state=loading ' $DBG/fixes 2>/dev/null &&
		{ ! fixes_loaded || file_is /sys/module/mlock_audit_fixes/initstate live; }
}

# wait_for SECONDS CMD...: run CMD every 0.1 s until it succeeds; status 1
# when it still fails after SECONDS
wait_for() {
	wf_n=0 wf_lim=$(($1 * 10))
	shift
	until "$@"; do
		[ $wf_n -ge $wf_lim ] && return 1
		sleep 0.1
		wf_n=$((wf_n + 1))
	done
}

# file_is FILE VALUE, file_not FILE VALUE, file_gt FILE N: FILE holds
# VALUE, does not (a missing FILE does not), or holds a number above N;
# read anew at each call, for wait_for (whose arguments are expanded once,
# when it is called)
file_is() { [ "$(cat "$1" 2>/dev/null)" = "$2" ]; }
file_not() { ! file_is "$@"; }
file_gt() { [ "$(cat "$1" 2>/dev/null)" -gt "$2" ] 2>/dev/null; }

# knob FILE VALUE: write VALUE to a sysctl or sysfs FILE; its old value is
# kept, and written back by knobs_restore. A test that changes a setting of
# the host restores it: lib.sh runs knobs_restore at exit, and a test with
# its own EXIT trap calls it there (run-all fails a test that leaves a
# setting changed).
knob() {
	knob_keep "$1"
	echo "$2" >"$1" || fail "cannot write '$2' to $1"
}
# knob_keep FILE: keep FILE's value for knobs_restore, as knob does before
# its first write, without writing it (for settings a program changes)
knob_keep() {
	grep -q "^$1 " /tmp/knobs.saved 2>/dev/null ||
		echo "$1 $(knob_value "$1")" >>/tmp/knobs.saved
}
# knob_saved FILE: the value kept for FILE (empty: none kept)
knob_saved() { awk -v f="$1" '$1 == f { print $2 }' /tmp/knobs.saved 2>/dev/null; }
# knob_value FILE: the value of a setting; of "a [b] c", the selected b
knob_value() {
	kv=$(cat "$1")
	case $kv in *"["*"]"*) kv=${kv#*[}; kv=${kv%%]*} ;; esac
	echo "$kv"
}
# knob_reset FILE: put back the value FILE had before the first knob
knob_reset() {
	kr=$(knob_saved "$1")
	[ -z "$kr" ] || echo "$kr" >"$1" || fail "cannot write '$kr' back to $1"
}
knobs_restore() {
	[ -f /tmp/knobs.saved ] || return 0
	while read -r kf kv; do echo "$kv" >"$kf"; done </tmp/knobs.saved
	rm -f /tmp/knobs.saved
}
trap 'kh_holder_end; knobs_restore; modules_restore' EXIT
# not_switched: every task (thread) an enable transition has not switched
# yet, with the top of its kernel stack
not_switched() {
	grep -l '^0$' /proc/[0-9]*/task/[0-9]*/patch_state 2>/dev/null | while read -r f; do
		p=${f%/patch_state}
		echo "  not switched: ${p#/proc/} $(cat $p/comm) $(head -n 2 $p/stack | tr '\n' ' ')"
	done
}
# load [PARAM=VALUE...]: modprobe with those module parameters; wait
# for the audit's request of the fixes module, and when that enables the
# livepatch, until its transition is complete
load() {
	loaded || modprobe mlock_audit "$@" || fail "modprobe mlock_audit $* failed"
	wait_for 60 fixes_requested || fail "the fixes module still loading 60 s after modprobe"
	ma-wait 90 not $LP/transition 1 || {
		not_switched
		fail "livepatch transition not complete 90 s after modprobe"
	}
}
# undo_over: the mlock fix's undo (6.1, a work item after the livepatch
# goes) is not running
undo_over() { ! grep -q '^fix=mlock .*undo=running' $DBG/fixes 2>/dev/null; }
# The livepatch holds the module until it is disabled; disabling takes a
# transition (a second or so), after which its sysfs directory goes away;
# on 6.1 lp_disable also waits for the mlock fix's undo to finish.
lp_disable() {
	[ -d $LP ] || return 0
	echo 0 >$LP/enabled 2>/dev/null
	ma-wait 30 gone $LP || fail "livepatch still present 30 s after disabling it"
	wait_for 60 undo_over ||
		fail "the mlock fix's undo still running 60 s after the disable: $(grep '^fix=mlock' $DBG/fixes)"
}
# rm_modules: rmmod the fixes module (its livepatch disabled) and the audit,
# once the audit's request of the fixes module is over: one still running
# would load it between the two rmmods
rm_modules() {
	wait_for 60 fixes_requested || return 1
	! fixes_loaded || rmmod mlock_audit_fixes || return 1
	rmmod mlock_audit
}
# use_modules DIR: install DIR's mlock_audit.ko and mlock_audit_fixes.ko
# (another build of them) in place of the suite's, for modprobe and for
# the audit's request of the fixes module; modules_restore (at exit)
# puts the suite's back
use_modules() {
	um_dir=$(dirname "$(modinfo -n mlock_audit)")
	if [ ! -d /tmp/modules.saved ]; then
		mkdir -p /tmp/modules.saved
		cp "$um_dir"/mlock_audit.ko "$um_dir"/mlock_audit_fixes.ko /tmp/modules.saved/ ||
			fail "cannot keep the suite's modules"
	fi
	cp "$1"/mlock_audit.ko "$1"/mlock_audit_fixes.ko "$um_dir"/ || fail "cannot install the modules of $1"
}
modules_restore() {
	[ -d /tmp/modules.saved ] || return 0
	cp /tmp/modules.saved/*.ko "$(dirname "$(modinfo -n mlock_audit)")"/ && rm -rf /tmp/modules.saved
}
# unload: disable the livepatch, then remove the fixes module and the audit
unload() {
	loaded || return 0
	# a request of the fixes module still running would race the rmmod
	wait_for 60 fixes_requested || fail "the fixes module still loading 60 s after modprobe"
	lp_disable
	rm_modules || fail "rmmod mlock_audit_fixes mlock_audit failed"
}
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
# khugepaged_asleep: no khugepaged pass from here to the end of the test
# (the settings come back at exit). A long scan_sleep_millisecs is not
# enough: khugepaged with no process registered waits for one to register
# and then starts a pass at once (khugepaged_wait_work()); that collapsed
# the locked XFS mapping of 71-audit-oracle-xfs on 7.3 between the module's
# reading and the oracle's. So a holder with a touched MADV_HUGEPAGE'd
# mapping (ma-lock --lock none) stays registered until the test exits.
# The write that lengthens the sleep starts one more pass, which runs
# through the list of processes at most twice (pages_to_scan is raised
# for it so that it does not stop short of that, and put back after): it
# is over once full_scans has moved and khugepaged has slept, using no CPU
# time, for 0.3 s (a pass paused in khugepaged_alloc_sleep() would pass
# for over; writing the setting wakes that sleep, and the tests do not run
# short of memory).
# Call it after loading the module: disabling the scanresume fix swaps the
# thread back to the kernel's khugepaged(), which starts with a pass
# (enabling it no longer does: 88-fix-scanresume-sleep).
khugepaged_asleep() {
	case $(knob_value /sys/kernel/mm/transparent_hugepage/enabled) in
	never) fail "khugepaged_asleep: THP is disabled, no holder can register" ;;
	esac
	if [ -z "${KH_HOLDER:-}" ]; then
		rm -f /tmp/kh.hold /tmp/kh.out
		mkfifo /tmp/kh.hold || fail "mkfifo /tmp/kh.hold"
		# not a child of the test: unhold's wait must not wait for it
		(ma-lock --anon --mb 4 --lock none </tmp/kh.hold >/tmp/kh.out 2>&1 &)
		exec 5>/tmp/kh.hold
		wait_for 30 grep -qs '^ready' /tmp/kh.out ||
			fail "khugepaged_asleep: the holder did not start: $(cat /tmp/kh.out)"
		KH_HOLDER=$(sed -n 's/^ready pid=\([0-9]*\).*/\1/p' /tmp/kh.out)
	fi
	kh_f0=$(cat $KH/full_scans)
	kh_pages=$(cat $KH/pages_to_scan)
	knob $KH/pages_to_scan 4194304
	knob $KH/scan_sleep_millisecs 3600000
	# each try takes 0.4 s or more: about 60 s in all
	wait_for 15 kh_pass_over ||
		fail "khugepaged_asleep: the pass did not end in about 60 s (full_scans $kh_f0 -> $(cat $KH/full_scans), khugepaged $(kh_pid))"
	# later passes (a thread swap's first) as long as before
	echo "$kh_pages" >$KH/pages_to_scan || fail "cannot put pages_to_scan back"
	info "khugepaged asleep: holder pid $KH_HOLDER, full_scans $kh_f0 -> $(cat $KH/full_scans)"
}
# kh_pass_over: khugepaged's pass after kh_f0 is over (see khugepaged_asleep)
kh_pass_over() {
	[ "$(cat $KH/full_scans)" -gt "$kh_f0" ] || return 1
	kh_p=$(kh_pid)
	[ -n "$kh_p" ] || return 1
	kh_s0=$(awk '{ print $3, $14 + $15 }' /proc/$kh_p/stat)
	sleep 0.3
	kh_s1=$(awk '{ print $3, $14 + $15 }' /proc/$kh_p/stat)
	[ "$kh_s0" = "$kh_s1" ] && [ "${kh_s0% *}" = S ]
}
kh_holder_end() { [ -z "${KH_HOLDER:-}" ] || kill "$KH_HOLDER" 2>/dev/null; }
# ftrace_fns: how many functions have an ftrace callback (ftrace's
# enabled_functions); hooks_left BASE: more than BASE, or a line naming the
# module (a function whose one callback is a hook names it): the module left
# a hook behind
FTRACE_FNS=/sys/kernel/tracing/enabled_functions
ftrace_fns() { wc -l <$FTRACE_FNS; }
hooks_left() { [ "$(ftrace_fns)" -gt "$1" ] || grep -q '\[mlock_audit' $FTRACE_FNS; }
# fix_state NAME: the state of a live fix in debugfs "fixes"
fix_state() { sed -n "s/^fix=$1 state=\([a-z]*\).*/\1/p" $DBG/fixes; }
# fixes_field NAME: the value of NAME=N in debugfs "fixes" (one fix's line)
fixes_field() { sed -n "s/.* $1=\([0-9]*\).*/\1/p" $DBG/fixes; }

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

# field KEY LINE: the value of KEY=VALUE among the words of LINE
field() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }

# A /proc/vmstat counter, after folding the per-CPU deltas
vmstat_n() {
	echo 1 >/proc/sys/vm/stat_refresh 2>/dev/null
	awk -v k="$1" '$1 == k { print $2; f = 1 } END { if (!f) exit 1 }' /proc/vmstat ||
		fail "no $1 in /proc/vmstat"
}

# xfs_mount [MKFS_OPTIONS...]: a fresh XFS on the scratch disk at /mnt/xfs
xfs_mount() {
	[ -n "$SCRATCH" ] || skip "no scratch disk (run with scripts/vm-run --disk)"
	umount /mnt/xfs 2>/dev/null	# left mounted by a test that failed
	mkfs.xfs -q -f "$@" "$SCRATCH" || fail "mkfs.xfs"
	mkdir -p /mnt/xfs
	mount -t xfs "$SCRATCH" /mnt/xfs || fail "mount xfs"
}

# cold_xfs_file MB: a fresh XFS at /mnt/xfs with an MB MiB file
# /mnt/xfs/f, written and dropped from the page cache, so that reading it
# back through readahead gives large folios (6.1 writes small ones);
# compaction may not move mlocked pages (a migrated large folio comes back
# unmlocked); then drain, and ml0 and ue0 are Mlocked and Unevictable in kB
cold_xfs_file() {
	knob /proc/sys/vm/compact_unevictable_allowed 0
	xfs_mount
	dd if=/dev/zero of=/mnt/xfs/f bs=1M count="$1" 2>/dev/null || fail "dd of /mnt/xfs/f"
	sync
	echo 3 >/proc/sys/vm/drop_caches
	drain
	ml0=$(meminfo_kb Mlocked) ue0=$(meminfo_kb Unevictable)
}

# back_at_base WHEN [NOTE]: drained, Mlocked and Unevictable (ml2, ue2)
# are back within 64 kB of their base line (ml0, ue0); WHEN begins the
# info line and the failures, NOTE ends the info line
back_at_base() {
	drain
	ml2=$(meminfo_kb Mlocked) ue2=$(meminfo_kb Unevictable)
	info "$1: Mlocked $ml0 -> $ml2 kB, Unevictable $ue0 -> $ue2 kB${2:+; $2}"
	[ "$ml2" -le $((ml0 + 64)) ] || fail "$1: Mlocked stranded: $ml0 -> $ml2 kB"
	[ "$ue2" -le $((ue0 + 64)) ] || fail "$1: Unevictable stranded: $ue0 -> $ue2 kB"
}

# fifo_run NAME CMD...: run CMD in the background with its stdin the FIFO
# /tmp/NAME.in, which the test's fd 3 writes (closing fd 3 ends its
# input), and its output in /tmp/NAME.out; wait for its "ready" line. Sets
# FIFO_PID.
fifo_run() {
	fr_name=$1
	shift
	rm -f /tmp/$fr_name.in /tmp/$fr_name.out
	mkfifo /tmp/$fr_name.in || fail "mkfifo /tmp/$fr_name.in"
	"$@" </tmp/$fr_name.in >/tmp/$fr_name.out 2>&1 &
	FIFO_PID=$!
	exec 3>/tmp/$fr_name.in
	wait_for 30 grep -qs '^ready' /tmp/$fr_name.out || fail "$1 did not start: $(cat /tmp/$fr_name.out)"
}

# huge_tmpfs MB: a tmpfs of MB MiB at /mnt/huge whose files get huge pages
huge_tmpfs() {
	mkdir -p /mnt/huge
	mount -t tmpfs -o huge=always,size="$1"m tmpfs /mnt/huge || fail "huge tmpfs"
}
# huge_file MB: an MB MiB file /mnt/huge/f on a huge_tmpfs twice its size
# (the demo's and node-exporter's locked file)
huge_file() {
	huge_tmpfs $(($1 * 2))
	dd if=/dev/zero of=/mnt/huge/f bs=1M count="$1" 2>/dev/null || fail "writing the tmpfs file"
}
# audit_hold FILE MB: the audit alone loaded (fixes=none), khugepaged
# asleep (see demo.sh: a pass may unmap part of a locked file mapping),
# and MB MiB of FILE held MAP_LOCKED (hold)
audit_hold() {
	load fixes=none
	khugepaged_asleep
	hold --file "$1" --mb "$2" --lock maplocked
}

# stress_setup: for the stress tests (82, 83), the module unloaded, the
# stress's length in SECONDS_ (STRESS_SECONDS, default 90 s), no compaction
# of mlocked pages, the hung-task detector at 20 s, and no background PIDs
# in $pids yet (stress_start, stress_stop)
stress_setup() {
	unload
	SECONDS_=${STRESS_SECONDS:-90}
	knob /proc/sys/vm/compact_unevictable_allowed 0
	knob /proc/sys/kernel/hung_task_timeout_secs 20
	pids=""
}
# stress_stop: at a stress test's exit, kill what it runs in the
# background ($pids), wait for its children, end the khugepaged holder and
# put the settings back
stress_stop() {
	kill $pids 2>/dev/null
	wait 2>/dev/null
	kh_holder_end
	knobs_restore
}
# stress_fs: for the stress tests (82, 83), XFS on the scratch disk and a
# 400 MiB huge tmpfs at /mnt/huge, with an 8 MiB random reference file on
# XFS whose checksum is in $STRESS_SUM
stress_fs() {
	xfs_mount
	huge_tmpfs 400
	dd if=/dev/urandom of=/mnt/xfs/reference bs=1M count=8 2>/dev/null || fail "dd of the reference file"
	STRESS_SUM=$(sha256sum </mnt/xfs/reference)
}
# stranded_pgs VAR: into VAR, vmstat's unevictable_pgs_stranded: the pages
# the kernel's stranded-munlock race has left mlocked so far
# (stress_residue)
stranded_pgs() {
	sp_n=$(vmstat_n unevictable_pgs_stranded) && [ -n "$sp_n" ] ||
		fail "no unevictable_pgs_stranded in /proc/vmstat"
	eval "$1=\$sp_n"
}
# stress_base_line: drained, the base line a stress is judged against:
# Mlocked and Unevictable in M0 and U0 (gone_figures), the stranded pages
# in S0 (stranded_pgs)
stress_base_line() {
	drain
	M0=$(meminfo_kb Mlocked) U0=$(meminfo_kb Unevictable)
	stranded_pgs S0
}
# stress_start: in the background for SECONDS_, ma-stress's 8 workers over
# stress_fs's file systems, their output in /tmp/stress.out (PID in
# STRESS_PID), and stress_pressure (PID in PRESSURE_PID); both PIDs are
# added to $pids, which the test's cleanup kills
stress_start() {
	ma-stress 8 "$SECONDS_" /mnt/xfs/reference /mnt/huge /mnt/xfs >/tmp/stress.out 2>&1 &
	STRESS_PID=$!
	pids="$pids $STRESS_PID"
	stress_pressure "$SECONDS_"
	PRESSURE_PID=$!
	pids="$pids $PRESSURE_PID"
}
# stress_pressure SECONDS: in the background ($! is its PID), memory
# pressure for SECONDS: map and touch about 40% of the memory available
# now, again and again
stress_pressure() {
	sp_mb=$(($(meminfo_kb MemAvailable) / 1024))
	(
		end=$(($(date +%s) + $1))
		while [ "$(date +%s)" -lt $end ]; do
			ma-workload anon-thp $((sp_mb * 4 / 10)) 1 >/dev/null 2>&1
		done
	) &
}

# Drain the per-CPU LRU and mlock batches on every CPU, migrating nothing
# (ma-drain: move_pages() of no page; why not vm/compact_memory: see
# tests/progs/ma-drain.c)
drain() { ma-drain || fail "ma-drain failed"; }

# gone_figures [NOTE]: once a test's workloads are gone, Mlocked and
# Unevictable (M1, U1); then unload the module, and the same again (M2,
# U2); says them against the base line (M0, U0), with NOTE
gone_figures() {
	drain
	M1=$(meminfo_kb Mlocked) U1=$(meminfo_kb Unevictable)
	unload
	drain
	M2=$(meminfo_kb Mlocked) U2=$(meminfo_kb Unevictable)
	info "Mlocked $M0 -> $M1 (workloads gone) -> $M2 kB (module gone); Unevictable $U0 -> $U1 -> $U2 kB${1:+; $1}"
}

# stress_residue STRANDED PAGES KB [CONTEXT]: Mlocked stayed M2 - M0 kB
# above its base line after a stress on /mnt/huge and /mnt/xfs
# (gone_figures). That passes only as the stock kernel's stranded-munlock
# race leaves it: page cache that the stress's workers mlocked and that
# outlives them, that is the stress's reference file and the text of
# ma-stress itself, whose workers mlockall() (ma-kpcache, by kpageflags;
# within PAGES pages), no more pages than STRANDED (what vmstat
# unevictable_pgs_stranded grew by while that race could run), and gone
# once that page cache is (the file systems unmounted, ma-stress's file
# replaced by a copy): Mlocked within KB kB of the base line, Unevictable
# within 64 kB. CONTEXT, when given, goes into the failure that names the
# race.
stress_residue() {
	sr_bin=$(command -v ma-stress)
	kpc=$(ma-kpcache /mnt/xfs/reference "$sr_bin") || fail "ma-kpcache failed"
	ref_ml=$(echo "$kpc" | sed -n 's/.* mlocked=\([0-9]*\) .*/\1/p' | awk '{ n += $1 } END { print n + 0 }')
	umount /mnt/huge /mnt/xfs
	cp "$sr_bin" "$sr_bin.new" && mv "$sr_bin.new" "$sr_bin" || fail "replacing $sr_bin"
	drain
	M3=$(meminfo_kb Mlocked) U3=$(meminfo_kb Unevictable)
	info "RESIDUE: $((M2 - M0)) kB stayed mlocked after the stress; $(echo "$kpc" | tr '\n' ';') $1 pages stranded by the kernel's munlock race meanwhile; after umount and a new $sr_bin Mlocked $M3 kB, Unevictable $U3 kB"
	off=$(((M2 - M0) / 4 - ref_ml))
	[ "${off#-}" -le "$2" ] ||
		fail "the residue is not the page cache of the reference file and ma-stress: $((M2 - M0)) kB mlocked, $ref_ml pages of it there"
	[ "$ref_ml" -le "$1" ] ||
		fail "$ref_ml pages stayed mlocked in the reference file and ma-stress, more than the $1 the kernel's munlock race stranded: not that race ($(echo "$kpc" | tr '\n' ';')${4:+ $4})"
	[ $((M3 - M0)) -le "$3" ] && [ $((U3 - U0)) -le 64 ] ||
		fail "Mlocked $M0 -> $M3 kB, Unevictable $U0 -> $U3 kB even after umount and a new $sr_bin"
}

# kpf_sum "KEY..." PID...: the locked VMAs of the PIDs by pagemap +
# kpageflags (ma-kpf), each KEY (a field of its "vma" lines) summed over
# them, in pages, in the order given
kpf_sum() {
	ks_keys=$1
	shift
	kt=$(ma-kpf "$@") || fail "ma-kpf $* failed"
	echo "$kt" | awk -v keys="$ks_keys" '$1 == "vma" { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] += kv[2] } }
		END { n = split(keys, k, " "); for (i = 1; i <= n; i++) printf "%d%s", v[k[i]], i < n ? " " : "\n" }'
}
# kpf_totals PID...: "resident mlocked missed missed_crossed partial
# small_unmlocked" of kpf_sum
kpf_totals() { kpf_sum "resident mlocked missed missed_crossed partial small_unmlocked" "$@"; }
# hold ARGS...: run "ma-lock ARGS" in the background until unhold; sets
# HOLD_PID (and HOLD_CHILD with --fork).
HOLDS=0
hold() {
	HOLDS=$((HOLDS + 1))
	mkfifo /tmp/hold.$HOLDS
	ma-lock "$@" </tmp/hold.$HOLDS >/tmp/hold.$HOLDS.out 2>&1 &
	p=$!
	eval "exec $((HOLDS + 5))>/tmp/hold.$HOLDS"
	while ! grep -qs '^ready' /tmp/hold.$HOLDS.out; do
		kill -0 $p 2>/dev/null || fail "ma-lock $* died: $(cat /tmp/hold.$HOLDS.out)"
		sleep 0.1
	done
	HOLD_PID=$(sed -n 's/^ready pid=\([0-9]*\).*/\1/p' /tmp/hold.$HOLDS.out)
	HOLD_CHILD=$(sed -n 's/^child=\([0-9]*\)/\1/p' /tmp/hold.$HOLDS.out)
}
# unhold_last: end the mapping held last (the others stay)
unhold_last() {
	[ $HOLDS -gt 0 ] || fail "unhold_last: nothing held"
	ul_pid=$(sed -n 's/^ready pid=\([0-9]*\).*/\1/p' /tmp/hold.$HOLDS.out)
	eval "exec $((HOLDS + 5))>&-"
	# its mappings are gone by the time it can be waited for
	wait "$ul_pid"
	rm -f /tmp/hold.$HOLDS /tmp/hold.$HOLDS.out
	HOLDS=$((HOLDS - 1))
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

# no_colours [FILE...]: the text without its ANSI colour sequences
no_colours() { sed "s/$(printf '\033')\[[0-9;]*m//g" "$@"; }

# ksft_results FILE: the result lines of a kselftest run, colours and
# numbers stripped, to compare two runs; runs of dots become "..." (the
# khugepaged selftest prints one per half second it waits for a scan)
ksft_results() {
	no_colours "$1" |
		grep -E '(OK|Fail|Skip|Timeout)$|^(ok|not ok) |^Bail' |
		sed 's/ *#.*//; s/[0-9]\{3,\}/N/g; s/\.\.\.\.*/.../g'
}

# res_diff NONE ALL: the lines that differ between two result files, on
# one line ("none: ...; fixes: ..."); busybox's diff writes unified diffs
res_diff() {
	diff -a -U0 "$1" "$2" | grep -v -E '^(---|\+\+\+|@@) ' |
		sed 's/^-/none: /; s/^+/fixes: /' | paste -sd';'
}

# The reference livepatch (tests/modules/ma_lp_replace, built for this
# kernel by tests/run and added at /add): a cumulative livepatch
# (.replace = true) of cmdline_proc_show() alone. Its transition is the
# stock figure a transition of ours is compared with.
RP_KO=/add/ma_lp_replace.ko
RP=/sys/kernel/livepatch/ma_lp_replace
# ms: milliseconds since boot
ms() { awk '{ printf "%d", $1 * 1000 }' /proc/uptime; }

# klp_ms WHAT: the kernel log time, in ms, of the last "livepatch:
# 'ma_lp_replace': WHAT" line
klp_ms() {
	dmesg | sed -n "s/^\[ *\([0-9]*\)\.\([0-9]\{3\}\)[0-9]*\] livepatch: 'ma_lp_replace': $1.*/\1\2/p" |
		tail -n 1 | sed 's/^0*//'
}
# replace: insmod the cumulative livepatch; in $T the time in ms from
# insmod to the end of its transition, in $TT that of the transition itself
# (from "starting patching transition" to "patching complete" in the
# kernel log); fail after 60 s
replace() {
	t0=$(ms)
	insmod $RP_KO || fail "insmod ma_lp_replace failed"
	shown=0
	while [ "$(cat $RP/transition 2>/dev/null)" != 0 ]; do
		# a transition this slow is a failure to come: say what holds it
		if [ $shown = 0 ] && [ $(($(ms) - t0)) -gt 5000 ]; then
			info "still in transition after 5 s:"
			not_switched
			shown=1
		fi
		if [ $(($(ms) - t0)) -gt 60000 ]; then
			not_switched
			fail "ma_lp_replace still in transition 60 s after insmod"
		fi
		sleep 0.1
	done
	T=$(($(ms) - t0))
	a=$(klp_ms 'starting patching transition') b=$(klp_ms 'patching complete')
	[ -n "$a" ] && [ -n "$b" ] || fail "no transition lines for ma_lp_replace in the kernel log"
	TT=$((b - a))
	grep -q 'ma_lp_replace is in force' /proc/cmdline || fail "/proc/cmdline: $(cat /proc/cmdline)"
}
unreplace() {
	[ -d $RP ] && echo 0 >$RP/enabled
	wait_for 30 test ! -d $RP || fail "ma_lp_replace still present 30 s after disabling it"
	rmmod ma_lp_replace || fail "rmmod ma_lp_replace"
}

# expected_state FIX [FIELD]: from the table /tests/expected-states, the
# state this kernel should report for FIX (FIELD 3), or the phrase its
# detail must contain (FIELD 4: the rest of the line)
expected_state() {
	awk -v k="$MA_KERNEL" -v f="$1" -v n="${2:-3}" '
		/^#/ || NF < 3 { next }
		$1 == k && $2 == f {
			if (n == 3) { print $3; exit }
			sub(/^[^\t ]+[\t ]+[^\t ]+[\t ]+[^\t ]+[\t ]*/, ""); print; exit
		}' /tests/expected-states
}
# fixes_not_refused ERE: the lines of debugfs "fixes" that do not say
# what the audit says of each fix when the fixes module is not there:
# the kernel's own state of it where the build knows it (expected-states:
# upstream, unsupported), else a detail that matches ERE (the refusal)
fixes_not_refused() {
	grep '^fix=' $DBG/fixes | while read -r fnr_line; do
		fnr_fix=${fnr_line#fix=}
		fnr_fix=${fnr_fix%% *}
		case $(expected_state "$fnr_fix") in
		upstream) fnr_want='state=upstream detail=' ;;
		unsupported) fnr_want='state=unsupported detail=' ;;
		*) fnr_want="state=[a-z]* detail=$1" ;;
		esac
		echo "$fnr_line" | grep -qE "^fix=$fnr_fix $fnr_want" || echo "$fnr_line"
	done
}
# need_fix FIX GOT STATE...: GOT, the state the module reported for FIX,
# must be the one expected-states gives for this kernel (else FAIL); if it
# is none of STATE..., the test is not for this kernel: SKIP, with the
# table's reason
need_fix() {
	nf_fix=$1 nf_got=$2
	shift 2
	nf_want=$(expected_state "$nf_fix")
	[ -n "$nf_want" ] || fail "expected-states has no line for $nf_fix on $MA_KERNEL"
	[ "$nf_got" = "$nf_want" ] ||
		fail "fix $nf_fix is '$nf_got' here, but expected-states says '$nf_want' on $MA_KERNEL"
	for nf_s; do [ "$nf_got" = "$nf_s" ] && return 0; done
	skip "fix $nf_fix is $nf_got on $MA_KERNEL (expected-states${nf_want:+: }$(expected_state "$nf_fix" 4))"
}
# need_fix_probe FIX "PARAMS" WANT...: load the module on its own (with the
# module PARAMS, which may be empty), read FIX's state, unload; then
# need_fix FIX with that state. The state is kept for the rest of the boot,
# keyed by FIX, PARAMS and the fixes module's checksum (use_modules installs
# other builds): a load and an unload cost 5 to 10 s under TCG, and 15
# tests probe.
need_fix_probe() {
	nfp_fix=$1 nfp_params=$2
	shift 2
	nfp_sum=$(md5sum <"$(modinfo -n mlock_audit_fixes)") || fail "no mlock_audit_fixes module to probe"
	nfp_file=/tmp/ma-probe.$(echo "$nfp_fix $nfp_params ${nfp_sum%% *}" | tr -c 'A-Za-z0-9\n' _)
	if [ -s "$nfp_file" ]; then
		nfp_state=$(cat "$nfp_file")
	else
		unload
		load $nfp_params
		nfp_state=$(fix_state "$nfp_fix")
		unload
		[ -z "$nfp_state" ] || echo "$nfp_state" >"$nfp_file"
	fi
	need_fix "$nfp_fix" "$nfp_state" "$@"
}
