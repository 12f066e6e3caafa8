# Unloading while a reader holds a debugfs file open never crashes: rmmod
# is refused while the file is open (the open file holds the module: its
# file_operations name it as owner), the file still reads, rmmod succeeds
# after it is closed, and readers racing with load/unload cycles see data
# or a clean error (ENOENT, ENODEV, or EIO from debugfs for a file being
# removed), never a malformed file.
. ./lib.sh
load fixes=none
exec 3<$DBG/probes
head -n1 <&3 >/dev/null
msg=$(rmmod mlock_audit 2>&1) && fail "rmmod succeeded with $DBG/probes open"
case $msg in *"in use"*) ;; *) fail "rmmod with the file open: '$msg', want 'in use'" ;; esac
info "rmmod refused while the file is open: $msg"
cat <&3 >/tmp/rest || fail "reading on after the refused rmmod failed"
exec 3<&-
unload
loaded && fail "module still loaded after the file was closed"

# Readers in a loop while the module comes and goes.
load fixes=none
# a reader: each read gives a whole file ("format N" first) or an error
# that says the file or module is gone; anything else is written down
rm -f /tmp/reader.bad
( end=$(($(date +%s) + 8)) n=0
  while [ "$(date +%s)" -lt $end ]; do
	for f in probes version; do
		if out=$(cat $DBG/$f 2>/tmp/reader.err); then
			case $out in "format "[0-9]*) n=$((n + 1)) ;; *) echo "$f: '$(echo "$out" | head -n1)'" >>/tmp/reader.bad ;; esac
		elif ! grep -q -E 'No such file|No such device|Input/output error' /tmp/reader.err; then
			echo "$f: $(cat /tmp/reader.err)" >>/tmp/reader.bad
		fi
	done
  done
  echo $n >/tmp/reader.n ) &
reader=$!
i=0
while [ $i -lt 10 ]; do
	rmmod mlock_audit 2>/dev/null # may be refused while a read is open
	modprobe mlock_audit fixes=none || fail "modprobe failed in cycle $i"
	i=$((i + 1))
done
wait $reader
unload
[ -s /tmp/reader.bad ] && fail "the reader saw: $(head -n 3 /tmp/reader.bad | tr '\n' ' ')"
[ "$(cat /tmp/reader.n)" -gt 0 ] || fail "the reader never read a whole file"
info "10 load/unload cycles with a concurrent reader: $(cat /tmp/reader.n) whole files read"
exit 0
