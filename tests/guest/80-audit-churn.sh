# Read "vmas" and "summary" for CHURN_SECONDS (30) seconds while 8
# processes continuously mmap, mlock, munlock, munmap and exit. Every read must succeed, and every row
# be well-formed and consistent in itself: a VMA's classes add up to its
# resident pages, and the summary's undercount is locked minus mlocked and
# the sum of its causes. The harness fails the run on any splat or hang.
. ./lib.sh
load fixes=none
SECONDS_=${CHURN_SECONDS:-30}
mkdir -p /mnt/churn
mount -t tmpfs -o huge=always,size=256m tmpfs /mnt/churn || fail "tmpfs"
ma-churn 8 "$SECONDS_" /mnt/churn >/tmp/churn.out 2>&1 &
churn=$!
reads=0 rows=0
end=$(($(date +%s) + SECONDS_))
while [ "$(date +%s)" -lt $end ]; do
	cat $DBG/vmas >/tmp/vmas || fail "reading vmas failed"
	cat $DBG/summary >/tmp/summary || fail "reading summary failed"
	awk 'NR == 1 && $0 != "format 1" { bad = 1 }
	     NR > 1 { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		if (v["resident"] != v["mlocked"] + v["missed"] + v["partial"] + v["small_unmlocked"] ||
		    v["missed_crossed"] > v["missed"]) { print "inconsistent: " $0; bad = 1 } }
	     END { exit bad }' /tmp/vmas || fail "inconsistent vmas row"
	awk 'NR == 1 && $0 != "format 1" { bad = 1 } NR > 1 { v[$1] = $2 }
	     END { if (v["undercount_kb"] != v["locked_kb"] - v["locked_mlocked_kb"] ||
		       v["undercount_kb"] != v["undercount_missed_kb"] + v["undercount_partial_kb"] +
					     v["undercount_small_unmlocked_kb"]) bad = 1
		   exit bad }' /tmp/summary || fail "inconsistent summary: $(tr '\n' ' ' </tmp/summary)"
	rows=$((rows + $(grep -c '^pid=' /tmp/vmas)))
	reads=$((reads + 1))
done
wait $churn || fail "churn workers failed: $(cat /tmp/churn.out)"
info "$reads reads of vmas and summary, $rows locked-VMA rows seen; $(cat /tmp/churn.out)"
[ $rows -gt 0 ] || fail "no locked VMA was ever seen under churn"
umount /mnt/churn
exit 0
