# Benchmark: a fault-heavy loop (page_fault3-style shared writes to a
# small-folio tmpfs file, whose work no fix changes) with the module not
# loaded and loaded three ways, alternating in one boot: the default load
# (fixes and probes), fixes=none (probes only) and probes=off fixes=none
# (neither). Each arm runs the loop 3 times and keeps its fastest: under
# TCG a run now and then takes half as long again, whatever the arm
# (seen on every kernel, quiet host, the module loaded or not). Prints one
# "BENCH ..." line per round for tests/bench.
. /tests/lib.sh
MB=${MB:-32} ITERS=${ITERS:-6} ROUNDS=${ROUNDS:-5}
mkdir -p /mnt/bench
mount -t tmpfs -o size=$((MB * 2))m tmpfs /mnt/bench || fail "tmpfs mount"
run() { ma-workload file-touch /mnt/bench "$MB" "$ITERS"; }
val() { echo "$1" | sed -n "s/.*$2=\([0-9]*\).*/\1/p"; }
# probe hits of the rmap add and finish_fault hooks (0 with probes=off)
fault_hits() {
	awk '$1 ~ /^(rmap_add|finish_fault)$/ && $3 ~ /^hits=/ { sub("hits=", "", $3); n += $3 }
		END { print n + 0 }' $DBG/probes
}
# arm NAME [PARAM...]: the loop with the module loaded with PARAMs
# (none: not loaded); sets NAME_ns, the fastest of 3 runs, and, loaded,
# NAME_hits per iteration
arm() {
	a_name=$1
	shift
	unload
	[ "$1" = none ] || load "$@"
	h0=0
	[ "$1" = none ] || h0=$(fault_hits)
	a_best="" a_all=""
	for a_run in 1 2 3; do
		a_out=$(run) || fail "workload failed ($a_name)"
		a_ns=$(val "$a_out" ns_per_iter)
		a_all=$a_all${a_all:+,}$a_ns
		[ -n "$a_best" ] && [ "$a_best" -le "$a_ns" ] || a_best=$a_ns
	done
	all="$all ${a_name}_runs=$a_all"
	h1=0
	[ "$1" = none ] || h1=$(fault_hits)
	eval "${a_name}_ns=$a_best ${a_name}_hits=$(((h1 - h0) / (3 * ITERS)))"
	a_flt=$(val "$a_out" minflt_per_iter)
}
unload
run >/dev/null # warm-up
r=1
while [ $r -le "$ROUNDS" ]; do
	all=""
	arm off none
	arm on
	arm probes fixes=none
	arm bare probes=off fixes=none
	echo "BENCH round=$r pages=$((MB * 256)) off_ns=$off_ns on_ns=$on_ns" \
		"probes_ns=$probes_ns bare_ns=$bare_ns minflt=$a_flt" \
		"hits=$probes_hits on_hits=$on_hits bare_hits=$bare_hits$all"
	r=$((r + 1))
done
unload
umount /mnt/bench
