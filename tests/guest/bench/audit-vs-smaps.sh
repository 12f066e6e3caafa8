# Benchmark: auditing processes with the module (one read of "vmas", which
# walks every process's locked VMAs) against reading their
# /proc/PID/smaps_rollup, which walks the same page tables.
# 16 processes hold 1 GiB locked: 8 x 64 MiB anonymous THP and 8 x 64 MiB
# of a huge-tmpfs file mapped 4 KiB off alignment (PTE-mapped). Prints
# "BENCH ..." lines for tests/bench.
. /tests/lib.sh
load fixes=none
ROUNDS=${ROUNDS:-5}
mkdir -p /mnt/bench
mount -t tmpfs -o huge=always,size=600m tmpfs /mnt/bench || fail "tmpfs"
pids=""
i=0
while [ $i -lt 8 ]; do
	hold --anon --mb 64 --lock fault
	pids="$pids $HOLD_PID"
	dd if=/dev/zero of=/mnt/bench/f$i bs=1M count=64 2>/dev/null
	hold --file /mnt/bench/f$i --mb 64 --offset-kb 4 --lock maplocked
	pids="$pids $HOLD_PID"
	i=$((i + 1))
done
us() { echo "${EPOCHREALTIME/./}"; }
r=1
while [ $r -le "$ROUNDS" ]; do
	t0=$(us)
	for p in $pids; do cat /proc/$p/smaps_rollup >/dev/null; done
	t1=$(us)
	cat $DBG/vmas >/dev/null
	t2=$(us)
	echo "BENCH round=$r processes=16 locked_mib=1024 smaps_us=$((t1 - t0)) audit_us=$((t2 - t1))"
	r=$((r + 1))
done
unhold
umount /mnt/bench
