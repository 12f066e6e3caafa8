# Benchmark: a fault-heavy loop (page_fault3-style shared writes to a tmpfs
# file) with the module not loaded and loaded, alternating in one boot.
# Prints one "BENCH ..." line per round for tests/bench to summarise.
. /tests/lib.sh
MB=${MB:-32} ITERS=${ITERS:-6} ROUNDS=${ROUNDS:-5}
mkdir -p /mnt/bench
mount -t tmpfs -o size=$((MB * 2))m tmpfs /mnt/bench || fail "tmpfs mount"
run() { ma-workload file-touch /mnt/bench "$MB" "$ITERS"; }
val() { echo "$1" | sed -n "s/.*$2=\([0-9]*\).*/\1/p"; }
unload
run >/dev/null # warm-up
r=1
while [ $r -le "$ROUNDS" ]; do
	unload
	off=$(run) || fail "workload failed"
	load fixes=none
	h0=$(($(hits rmap_add) + $(hits finish_fault)))
	on=$(run) || fail "workload failed"
	h1=$(($(hits rmap_add) + $(hits finish_fault)))
	echo "BENCH round=$r pages=$((MB * 256)) off_ns=$(val "$off" ns_per_iter)" \
		"on_ns=$(val "$on" ns_per_iter) minflt=$(val "$on" minflt_per_iter)" \
		"hits=$(((h1 - h0) / ITERS))"
	r=$((r + 1))
done
unload
umount /mnt/bench
