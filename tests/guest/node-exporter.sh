# The guest half of scripts/check-packages' node-exporter test (not run by
# run-all: make check does not run it). The modules are the ones DKMS
# built from the mlock-audit-dkms package (scripts/vm-run --module);
# /add/reporter is a root holding the mlock-audit package's files as apt
# installed them in the release's chroot, with the libraries and the few
# tools (dash, env, mktemp, chmod, mv, rm) they need from the same chroot.
# The packaged textfile script runs chrooted into that root, as its
# systemd service runs it: the packaged binary at its packaged path, found
# on PATH by the packaged script, with the release's own libraries, not
# the guest's busybox nor the suite's build of the reporter.
# One 64 MiB MAP_LOCKED mapping of a huge-page tmpfs file is held while
# the textfile is written twice: with the module loaded with fixes=none,
# then reloaded with its fixes (the repair at load, as demo.sh). Each
# textfile is printed between "TEXTFILE-BEGIN PHASE" and "TEXTFILE-END
# PHASE" lines, beside a "MEMINFO PHASE ..." line from /proc/meminfo, for
# the host's node exporter to read and the host to check.
. ./lib.sh
R=/add/reporter
TF=/var/lib/prometheus/node-exporter
MB=64
[ -x $R/usr/sbin/mlock-audit ] && [ -x $R/usr/libexec/mlock-audit/mlock-audit-textfile ] ||
	fail "no packaged reporter and textfile script under $R"
mkdir -p $R/proc $R/sys $R$TF
mount -t proc proc $R/proc || fail "mount proc in $R"
mount -t sysfs sysfs $R/sys || fail "mount sysfs in $R"
mount -t debugfs debugfs $R/sys/kernel/debug || fail "mount debugfs in $R"
trap 'unhold; unload; kh_holder_end; umount /mnt/huge $R/sys/kernel/debug $R/sys $R/proc 2>/dev/null; knobs_restore' EXIT

# textfile PHASE: the packaged script into $TF in the reporter's root, with
# the environment its service has; the file it wrote, printed
textfile() {
	chroot $R /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/usr/libexec/mlock-audit/mlock-audit-textfile $TF || fail "mlock-audit-textfile exited $? ($1)"
	echo "TEXTFILE-BEGIN $1"
	cat $R$TF/mlock_audit.prom || fail "no $TF/mlock_audit.prom ($1)"
	echo "TEXTFILE-END $1"
}
# meminfo PHASE: Mlocked, and its growth since the mapping was made, beside
# the mapping's own VmLck and what of it is mapped (smaps_rollup Locked)
meminfo() {
	drain
	mi=$(meminfo_kb Mlocked)
	echo "MEMINFO $1 mlocked_kb=$mi mlocked_growth_kb=$((mi - m0))" \
		"vmlck_kb=$(awk '/^VmLck:/ { print $2 }' /proc/$HOLD_PID/status)" \
		"locked_kb=$(awk '/^Locked:/ { print $2 }' /proc/$HOLD_PID/smaps_rollup)"
}

unload
huge_file $MB
# no migration of mlocked pages while the mapping is held
knob /proc/sys/vm/compact_unevictable_allowed 0
drain
m0=$(meminfo_kb Mlocked)
info "kernel $(uname -r) ($(uname -v))"

audit_hold /mnt/huge/f $MB
meminfo fixes=none
textfile fixes=none

unload
load
# the files modprobe loaded (the host compares them with DKMS's)
for m in mlock_audit mlock_audit_fixes; do
	p=$(modinfo -n $m) || fail "modinfo -n $m"
	[ "$(cat /sys/module/$m/srcversion)" = "$(modinfo -F srcversion $m)" ] ||
		fail "the loaded $m is not $p"
	echo "MODULE $m $p sha256=$(sha256sum <"$p" | cut -d' ' -f1)"
done
info "$(grep '^fix=mlock ' $DBG/fixes)"
meminfo fixes
textfile fixes
unhold
unload
exit 0
