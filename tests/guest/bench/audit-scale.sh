# Benchmark: the audit walks the page tables of locked VMAs
# only, so a system-wide read of "summary" costs in proportion to the
# locked memory, not to all of it.
# 200 processes (ma-scale) share 4 GiB of touched, unlocked memory: 1.5 GiB
# anonymous THP, 1.25 GiB of page cache of a sparse file on XFS (read: the
# holes' zeroed folios, no disk I/O) and 1.25 GiB of huge tmpfs
# (huge=always). Two of them also hold 32 MiB each, one of anonymous THP
# (PMD-mapped), one of huge tmpfs mapped 4 KiB off alignment (huge folios
# mapped by PTEs), unlocked at first.
#  - the two mlock their 32 MiB: 64 MiB locked; ROUNDS rounds, each
#    reading the smaps_rollup of every process (the 200 and every other
#    process) and then "summary";
#  - growth, with the 200 gone: two processes for each step hold the same
#    half-and-half mix (32 + 32, 96 + 96, 384 + 384 MiB); ROUNDS rounds,
#    each reading "summary" with 64, 256 and 1024 MiB locked (locking a
#    step more each time) and then with all of it munlocked (locked_mib=0,
#    the base). Without the 200 the base is a third of the 1.3 ms it is
#    with them, which the 0.4 ms of 64 MiB is small against: a host busy
#    with other work varies the guest's speed by more than that.
# Each round reads the files READS times (ma-scale read, which forks
# nothing: a cat per smaps_rollup would cost more than the read) and
# prints the median, least and greatest time (and for the growth the
# mean); tests/bench takes the least, which the other vCPU and the host's
# other work inflate the least, and the median of the rounds. The growth
# takes the mean: a read at 1 GiB is longer than the host lets the guest
# run at a stretch when it is busy, one at 64 MiB is not, so the least
# would favour the small sizes. Prints "BENCH ..." lines for tests/bench.
. /tests/lib.sh
load fixes=none
ROUNDS=${ROUNDS:-5} READS=${READS:-25}
NPROCS=200
# a khugepaged pass over the 200 processes would run during the reads, on
# the one host thread that runs every vCPU
knob /sys/kernel/mm/transparent_hugepage/khugepaged/scan_sleep_millisecs 3600000
# and so would proactive compaction: with it on, whole rounds of the
# growth below ran 1.5 to 2 times slower than their neighbours
knob /proc/sys/vm/compaction_proactiveness 0
xfs_mount
mkdir -p /mnt/huge
mount -t tmpfs -o huge=always,size=3g tmpfs /mnt/huge || fail "huge tmpfs"
# scale N ARGS...: run "ma-scale procs ARGS" with stdin the FIFO that fd N
# writes until it is closed; wait until its processes are ready, and set
# PIDS to them and NEW to the two that lock on SIGUSR1 (unlock on SIGUSR2),
# which join LOCKERS
LOCKERS=""
scale() {
	sc_fd=$1
	shift
	rm -f /tmp/scale.$sc_fd.in /tmp/scale.$sc_fd.out
	mkfifo /tmp/scale.$sc_fd.in || fail "mkfifo /tmp/scale.$sc_fd.in"
	ma-scale procs "$@" </tmp/scale.$sc_fd.in >/tmp/scale.$sc_fd.out 2>&1 &
	sc_pid=$!
	eval "exec $sc_fd>/tmp/scale.$sc_fd.in"
	# touching 4 GiB under TCG takes half a minute or more
	until grep -qs '^ready' /tmp/scale.$sc_fd.out; do
		kill -0 $sc_pid 2>/dev/null || fail "ma-scale $* died: $(cat /tmp/scale.$sc_fd.out)"
		sleep 1
	done
	PIDS=$(sed -n 's/^ready pids=//p' /tmp/scale.$sc_fd.out)
	NEW=$(echo "$PIDS" | cut -d' ' -f1-2)
	LOCKERS="$LOCKERS $NEW"
}
# lock_file NAME MIB: a file of MIB MiB on the huge tmpfs, written (not
# touched through a mapping 4 KiB off alignment, which would give small
# folios), so that its huge folios are mapped by PTEs there
lock_file() { dd if=/dev/zero of=/mnt/huge/$1 bs=1M count="$2" 2>/dev/null || fail "dd of /mnt/huge/$1"; }
# signal_lockers SIG WORD PID...: send SIG to the lockers PID... and wait
# until each has said WORD ("locked", "unlocked") once more
signal_lockers() {
	sl_sig=$1 sl_word=$2
	shift 2
	sl_want=$(($(cat /tmp/scale.*.out | grep -c "^$sl_word ") + $#))
	kill -"$sl_sig" "$@"
	n=0
	until [ "$(cat /tmp/scale.*.out | grep -c "^$sl_word ")" = $sl_want ]; do
		[ $n -lt 600 ] || fail "lockers $* not $sl_word after 60 s: $(cat /tmp/scale.*.out | grep -v '^ready')"
		sleep 0.1
		n=$((n + 1))
	done
}
t0=$(ms)
lock_file lock0 32
scale 3 --procs $NPROCS --anon-mb 1536 --file /mnt/xfs/cache --file-mb 1280 \
	--shmem /mnt/huge/shared --shmem-mb 1280 \
	--lock-anon-mb 32 --lock-shmem /mnt/huge/lock0 --lock-shmem-mb 32
[ "$(echo $PIDS | wc -w)" = $NPROCS ] || fail "ma-scale started $(echo $PIDS | wc -w) processes, not $NPROCS"
kb() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }
echo "BENCH scale processes=$NPROCS setup_ms=$(($(ms) - t0)) anon_kb=$(kb AnonPages)" \
	"anon_huge_kb=$(kb AnonHugePages) cached_kb=$(kb Cached) shmem_kb=$(kb Shmem)" \
	"shmem_pmd_kb=$(kb ShmemPmdMapped) mem_free_kb=$(kb MemFree) all_processes=$(ls -d /proc/[0-9]* | wc -l)"
# read_ns FILE...: "MEDIAN MIN MAX", in ns, of READS times reading them all
read_ns() { ma-scale read --repeat "$READS" "$@" | sed -n 's/^ns=\([0-9]*\) min_ns=\([0-9]*\) max_ns=\([0-9]*\) .*/\1 \2 \3/p'; }
# summary_field KEY: a line of "summary"
summary_field() { awk -v k="$1" '$1 == k { print $2 }' $DBG/summary; }
# locked_is MIB: "summary" counts MIB MiB locked
locked_is() {
	lk=$(summary_field locked_kb)
	[ "$lk" = $(($1 * 1024)) ] || fail "summary: locked_kb $lk with $1 MiB locked"
}
# growth MIB N: "summary" read N times with MIB MiB locked (checked in
# round 1): their mean
growth() {
	[ $r -gt 1 ] || locked_is "$1"
	echo "BENCH growth locked_mib=$1 round=$r reads=$2 $(ma-scale read --repeat "$2" $DBG/summary |
		sed -n 's/^ns=\([0-9]*\) min_ns=\([0-9]*\) max_ns=\([0-9]*\) mean_ns=\([0-9]*\) .*/summary_ns=\1 summary_min_ns=\2 summary_max_ns=\3 summary_mean_ns=\4/p')"
}
signal_lockers USR1 locked $NEW
locked_is 64
r=1
while [ $r -le "$ROUNDS" ]; do
	set -- $(read_ns /proc/[0-9]*/smaps_rollup) $(read_ns $DBG/summary)
	echo "BENCH scale round=$r processes=$(ls -d /proc/[0-9]* | wc -l) locked_mib=64" \
		"smaps_ns=$1 smaps_min_ns=$2 smaps_max_ns=$3 summary_ns=$4 summary_min_ns=$5 summary_max_ns=$6"
	r=$((r + 1))
done
# the growth runs without the 200: see the top
exec 3>&-
wait
LOCKERS=""
lock_file lock1 32
scale 4 --procs 2 --lock-anon-mb 32 --lock-shmem /mnt/huge/lock1 --lock-shmem-mb 32
L64=$NEW
lock_file lock2 96
scale 5 --procs 2 --lock-anon-mb 96 --lock-shmem /mnt/huge/lock2 --lock-shmem-mb 96
L256=$NEW
lock_file lock3 384
scale 6 --procs 2 --lock-anon-mb 384 --lock-shmem /mnt/huge/lock3 --lock-shmem-mb 384
L1024=$NEW
echo "BENCH growth_processes all_processes=$(ls -d /proc/[0-9]* | wc -l)"
# every round goes through the four sizes, each read for about as long
# (0.1 to 0.3 s), so that a host busy with other work slows them alike
r=1
signal_lockers USR1 locked $L64
while [ $r -le "$ROUNDS" ]; do
	growth 64 200
	signal_lockers USR1 locked $L256
	growth 256 100
	signal_lockers USR1 locked $L1024
	growth 1024 40
	signal_lockers USR2 unlocked $LOCKERS
	growth 0 200
	signal_lockers USR1 locked $L64
	r=$((r + 1))
done
echo "BENCH summary_after_growth anon_huge_kb=$(kb AnonHugePages) $(tr '\n' ' ' <$DBG/summary)"
exec 4>&- 5>&- 6>&-
wait
umount /mnt/huge /mnt/xfs
