# Unloading while a reader holds a debugfs file open never crashes: rmmod
# is refused while the file is open, succeeds after it is closed, and
# readers racing with load/unload cycles see data or an error, nothing else.
. ./lib.sh
load fixes=none
exec 3<$DBG/probes
head -n1 <&3 >/dev/null
if rmmod mlock_audit 2>/dev/null; then
	info "rmmod succeeded with the file open"
	cat <&3 >/dev/null 2>&1 || info "read after unload failed cleanly"
else
	info "rmmod refused while the file is open (module in use)"
fi
exec 3<&-
unload
loaded && fail "module still loaded after the file was closed"

# Readers in a loop while the module comes and goes.
load fixes=none
( end=$(($(date +%s) + 8))
  while [ "$(date +%s)" -lt $end ]; do
	cat $DBG/probes $DBG/version >/dev/null 2>&1
  done ) &
reader=$!
i=0
while [ $i -lt 10 ]; do
	rmmod mlock_audit 2>/dev/null # may be refused while a read is open
	modprobe mlock_audit fixes=none || fail "modprobe failed in cycle $i"
	i=$((i + 1))
done
wait $reader
unload
info "10 load/unload cycles with a concurrent reader"
exit 0
