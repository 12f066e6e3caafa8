# Not a test (run by tests/capture-fixtures): hold the audit scenarios at
# once, each on its own file or anonymous mapping, with the module loaded
# with fixes=$1, and print every debugfs file, /proc/meminfo, /proc/vmstat
# and the processes' smaps_rollup between CAPTURE lines.
. ./lib.sh
MB=8
unload
load fixes="${1:-none}"
mkdir -p /mnt/huge
mount -t tmpfs -o huge=always,size=200m tmpfs /mnt/huge || fail "huge tmpfs"
xfs_mount
echo 3600000 >/sys/kernel/mm/transparent_hugepage/khugepaged/scan_sleep_millisecs
n=0
hold() { # ARGS...: start ma-lock ARGS, holding its mapping until killed
	n=$((n + 1))
	sleep 600 | ma-lock "$@" >/tmp/lock.$n &
}
hold --file /mnt/huge/aligned --mb $MB --lock maplocked
hold --file /mnt/huge/plus4k --mb $MB --offset-kb 4 --lock maplocked
hold --file /mnt/huge/plus1m --mb $MB --offset-kb 1024 --lock maplocked
hold --file /mnt/huge/fault --mb $MB --lock fault
hold --file /mnt/huge/onfault --mb $MB --lock onfault --touch-pct 50
hold --file /mnt/huge/partial --mb $MB --lock fault --munlock-kb 2048:2048
hold --anon --mb $MB --lock fault
hold --anon --mb $MB --offset-kb 4 --lock fault
hold --file /mnt/xfs/f --mb $MB --lock maplocked
i=0
until [ "$(cat /tmp/lock.* 2>/dev/null | grep -c ready)" = $n ]; do
	[ $i -ge 300 ] && fail "scenarios not ready"
	sleep 0.1
	i=$((i + 1))
done
capture() { # NAME FILE
	echo "CAPTURE-BEGIN $1"
	cat "$2"
	echo "CAPTURE-END"
}
for f in version probes fixes vmas summary; do
	capture $f $DBG/$f
done
# the reporter's cross-checks, read at the same time
echo 1 >/proc/sys/vm/stat_refresh
capture proc/meminfo /proc/meminfo
capture proc/vmstat /proc/vmstat
for p in $(pidof ma-lock); do
	capture proc/$p/smaps_rollup /proc/$p/smaps_rollup
done
kill $(pidof ma-lock)
sleep 1
umount /mnt/huge /mnt/xfs
