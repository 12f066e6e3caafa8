# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the mlock_audit scripts. Source it; do not run it.
#
# Everything downloaded or built outside the clone lives under $MA_CACHE
# (default /var/cache/mlock_audit, override with MLOCK_AUDIT_CACHE), so that
# later runs and CI reuse it. The machine's own apt sources are never
# touched: all Debian look-ups go through a private apt configuration there.

MA_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MA_CACHE=${MLOCK_AUDIT_CACHE:-/var/cache/mlock_audit}
MA_KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
# The supported kernels and their facts: the table supported-kernels at the
# top of the tree, read once here. MA_SUPPORTED lists the series in its
# order, MA_DEFAULT_KERNEL is the one marked "default".
declare -gA MA_KERNEL_RELEASE=() MA_KERNEL_TARGET=() MA_KERNEL_ABI=()
MA_SUPPORTED="" MA_DEFAULT_KERNEL=""
while read -r _k _rel _tgt _abi _def; do
	case $_k in '' | '#'*) continue ;; esac
	MA_SUPPORTED="${MA_SUPPORTED:+$MA_SUPPORTED }$_k"
	MA_KERNEL_RELEASE[$_k]=$_rel MA_KERNEL_TARGET[$_k]=$_tgt MA_KERNEL_ABI[$_k]=$_abi
	[ "$_def" != default ] || MA_DEFAULT_KERNEL=$_k
done <"$MA_TOP/supported-kernels"
unset _k _rel _tgt _abi _def
# Debug kernels (the debug lane, `make check-debug`): built by
# scripts/debug-kernel from a supported kernel's Debian source; named
# BASE-debug, they behave as BASE everywhere except where they come from.
MA_DEBUG_KERNELS="6.12-debug"
# Flavour kernels: BASE-cloud and BASE-rt are Debian's cloud and
# rt images of the same release as BASE (the version scripts/kernels
# fetched for BASE), booted to check the module built with
# scripts/build --flavour; they behave as BASE everywhere else.
MA_FLAVOURS="cloud rt"
# A build outside the record: 6.12-prev is Debian's generic
# image of the newest 6.12 build older than the one scripts/kernels
# fetched for 6.12 that compat/verified/builds does not list, booted to
# check that the module refuses to apply unverified fixes there. 6.12
# only: 6.1's build packages are one linux-kbuild-6.1 for every 6.1 build,
# so its chroot cannot hold two builds' tools, and Debian carries a single
# 7.3 build.
MA_PREV_KERNELS="6.12-prev"
# Another suite's rebuild: 6.12-deb12 is bookworm's own build of
# the 6.12 series (linux-image-6.12.N+deb12-amd64, bookworm-security,
# built with bookworm's gcc-12), the newer kernel bookworm users install;
# built in the bookworm chroot, it behaves as 6.12 everywhere else.
MA_SUITE_KERNELS="6.12-deb12"

ma_log() { printf '[%s] %s\n' "${0##*/}" "$*" >&2; }
ma_die() { printf '[%s] error: %s\n' "${0##*/}" "$*" >&2; exit 1; }

# Per kernel: a regular expression for its ABI name, the userspace release
# (chroot) whose compiler built it, and the apt target release its build
# packages come from. A supported kernel's are in supported-kernels; a
# debug, flavour or -prev kernel has its BASE's, except where said below.
ma_kernel_is_base() { [ -n "${MA_KERNEL_ABI[$1]:-}" ]; }
ma_kernel_abi_re() {
	local b=$1
	case $1 in
	6.12-debug) echo '6\.12\.[0-9]+-mlock-audit-debug'; return ;;
	6.12-deb12) echo '6\.12\.[0-9]+\+deb12'; return ;;
	*-cloud | *-rt) b=${1%-*} ;;
	*-prev) case " $MA_PREV_KERNELS " in *" $1 "*) b=${1%-prev} ;; esac ;;
	esac
	ma_kernel_is_base "$b" ||
		ma_die "unsupported kernel '$1' (supported: $MA_SUPPORTED; debug: $MA_DEBUG_KERNELS; flavours: BASE-${MA_FLAVOURS// /, BASE-}; outside the record: $MA_PREV_KERNELS; other suites: $MA_SUITE_KERNELS)"
	echo "${MA_KERNEL_ABI[$b]}"
}
ma_kernel_release() {
	case $1 in
	6.12-deb12) echo bookworm ;;
	*)
		ma_kernel_is_base "$(ma_kernel_base "$1")" ||
			ma_die "unsupported kernel '$1' (supported: $MA_SUPPORTED)"
		echo "${MA_KERNEL_RELEASE[$(ma_kernel_base "$1")]}" ;;
	esac
}
ma_kernel_target() {
	case $1 in
	6.12-deb12) echo bookworm-security ;;
	*-prev) echo "${MA_KERNEL_TARGET[${1%-prev}]:-}" ;;
	*) echo "${MA_KERNEL_TARGET[$1]:-}" ;;
	esac
}
ma_check_kernel() { ma_kernel_abi_re "$1" >/dev/null; }
# The supported kernel a kernel name stands for: BASE for BASE-debug,
# BASE-cloud, BASE-rt, BASE-prev and BASE-deb12.
ma_kernel_base() { case $1 in *-debug | *-cloud | *-rt | *-prev | *-deb12) echo "${1%-*}" ;; *) echo "$1" ;; esac; }
ma_is_debug() { case $1 in *-debug) return 0 ;; esac; return 1; }
ma_is_prev() { case $1 in *-prev) return 0 ;; esac; return 1; }
ma_is_suite() { case $1 in *-deb12) return 0 ;; esac; return 1; }
# The Debian flavour of a flavour kernel's name (cloud, rt), or nothing.
ma_flavour() { case $1 in *-cloud | *-rt) echo "${1##*-}" ;; esac; }

# The mirror the machine's apt sources name (one-line and deb822 formats).
ma_mirror() {
	local want=$1 uri
	uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources 2>/dev/null |
		grep -oE 'https?://[^ ]+' | sed 's,/*$,,' |
		grep -E "/debian${want}\$" | head -n1)
	echo "${uri:-http://deb.debian.org/debian$want}"
}

ma_apt_dir() { echo "$MA_CACHE/apt"; }

# Private apt configuration: bookworm, trixie and their security and
# backports suites, verified with the machine's Debian archive keyring.
# ma_apt_sources DIR PREFIX: write DIR/sources.list, the supported suites,
# each line starting with PREFIX ("deb [arch=amd64 signed-by=...]"); the
# mirrors go to DIR/mirror and DIR/security-mirror.
ma_apt_sources() {
	local d=$1 p=$2 m s
	m=${MLOCK_AUDIT_MIRROR:-$(ma_mirror "")}
	s=${MLOCK_AUDIT_SECURITY_MIRROR:-$(ma_mirror -security)}
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
	cat >"$d/sources.list.new" <<EOS
$p $m bookworm main
$p $s bookworm-security main
$p $m trixie main
$p $s trixie-security main
$p $m trixie-backports main
EOS
	mv "$d/sources.list.new" "$d/sources.list"
	echo "$m" >"$d/mirror"
	echo "$s" >"$d/security-mirror"
}
ma_apt_setup() { ma_apt_sources "$(ma_apt_dir)" "deb [arch=amd64 signed-by=$MA_KEYRING]"; }

# ma_apt_opts [DIR]: apt's options for the private configuration in DIR
# (default: the binary one, ma_apt_dir)
ma_apt_opts() {
	local d=${1:-$(ma_apt_dir)}
	printf '%s\n' -o "Dir::Etc::sourcelist=$d/sources.list" \
		-o Dir::Etc::sourceparts=- -o "Dir::State::Lists=$d/lists" \
		-o "Dir::Cache=$d/cache" -o Dir::State::status=/dev/null \
		-o APT::Get::AllowUnauthenticated=false -o APT::Sandbox::User=root -o Acquire::Retries=3
}
ma_apt() { # apt-get|apt-cache ARGS...
	local tool=$1
	shift
	local -a opts
	mapfile -t opts < <(ma_apt_opts)
	"$tool" "${opts[@]}" "$@"
}

# A second private configuration, of source packages only (deb-src lines of
# the same suites, its own lists under $MA_CACHE/apt-src), for
# scripts/verify-kernel on builds whose linux-source binary the archive no
# longer serves. Apart from the binary one, so that the scripts that fetch
# binaries never download the large Sources indices.
ma_apt_src_setup() {
	local d=$MA_CACHE/apt-src
	[ -s "$d/sources.list" ] &&
		[ -n "$(find "$d/lists" -maxdepth 1 -name '*Sources*' -mmin -1440 2>/dev/null)" ] &&
		return 0
	ma_apt_sources "$d" "deb-src [signed-by=$MA_KEYRING]"
	ma_apt_src apt-get update -q >/dev/null
}
ma_apt_src() { # apt-get|apt-cache ARGS...
	local tool=$1
	shift
	local -a opts
	mapfile -t opts < <(ma_apt_opts "$MA_CACHE/apt-src")
	"$tool" "${opts[@]}" "$@"
}

# Serialise work on the shared cache (two runs, CI's among them, may overlap).
ma_lock() {
	mkdir -p "$MA_CACHE"
	exec 9>"$MA_CACHE/.lock"
	flock 9
}

# Host packages: scripts/host-packages declares them, per purpose; ma_need
# installs what a purpose lacks. make check and make demo ask for every
# purpose of their run before any job starts, so the scripts they run find
# their packages installed; a script run alone installs its own.
MA_HOST_PACKAGES=$MA_TOP/scripts/host-packages
# The project's lock around every apt run that installs into the host's
# dpkg database: apt refuses at once a second apt run while one holds
# dpkg's lock, so two scripts of ours never run apt at the same time. A
# chroot's apt runs take ROOT.apt-lock, beside the chroot.
MA_APT_LOCK=${MLOCK_AUDIT_APT_LOCK:-/run/lock/mlock_audit-apt.lock}
# apt's own wait for dpkg's lock (seconds): the second guard, against an
# apt run that is not ours (unattended-upgrades, a user's apt-get).
MA_APT_LOCK_TIMEOUT=600

# The packages of PURPOSE... ("all": every purpose), one a line, each once.
ma_host_pkgs() {
	awk -v purposes="$*" '
		BEGIN { n = split(purposes, a); for (i = 1; i <= n; i++) want[a[i]] = 1 }
		{
			sub(/#.*/, "")
			line = line " " $0
			if (line ~ /\\[ \t]*$/) { sub(/\\[ \t]*$/, "", line); next }
			n = split(line, w)
			line = ""
			if (n == 0) next
			if (w[1] !~ /^[a-z0-9-]+:$/) {
				print FILENAME ":" NR ": not \"PURPOSE: PACKAGE...\"" >"/dev/stderr"
				bad = 1
				next
			}
			p = substr(w[1], 1, length(w[1]) - 1)
			known[p] = 1
			if (!("all" in want) && !(p in want)) next
			for (i = 2; i <= n; i++)
				if (!(w[i] in seen)) { seen[w[i]] = 1; out[++m] = w[i] }
		}
		END {
			for (p in want)
				if (p != "all" && !(p in known)) {
					print FILENAME ": no purpose \"" p "\"" >"/dev/stderr"
					bad = 1
				}
			if (bad) exit 1
			for (i = 1; i <= m; i++) print out[i]
		}' "$MA_HOST_PACKAGES"
}

# The packages of PKG... that the host lacks. A package whose triggers are
# pending (man-db's, while another apt run installs a page) is installed.
ma_host_missing() {
	local p
	for p; do
		case $(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null) in
		installed | triggers-pending | triggers-awaited) ;;
		*) echo "$p" ;;
		esac
	done
}

# ma_need PURPOSE...: install the host packages those purposes lack.
ma_need() {
	local pkgs
	pkgs=$(ma_host_pkgs "$@") || ma_die "scripts/host-packages has no purpose '$*'"
	# shellcheck disable=SC2086 # one package a word
	ma_apt_install $pkgs || exit 1
}

# ma_apt_install [--root ROOT [--recommends] [-t RELEASE]] PKG...
# The one place that runs apt-get install. On the host: the packages of
# PKG... not installed yet, in one apt run under $MA_APT_LOCK (a caller that
# finds the lock taken waits, then finds the packages installed); a first
# try that fails is retried after apt-get update (lists missing or older
# than the mirror). With --root: PKG... in the chroot ROOT (its release's
# archive, -t RELEASE for a suite), under ROOT.apt-lock, apt's output on
# stdout, without recommended packages unless --recommends (as a user's
# apt installs them: scripts/check-packages). Returns non-zero, saying
# why, when apt fails.
ma_apt_install() {
	local root="" target=() recommends=--no-install-recommends missing log
	if [ "${1:-}" = --root ]; then
		root=$2
		shift 2
		[ "${1:-}" = --recommends ] && { recommends=--install-recommends; shift; }
		[ "${1:-}" = -t ] && { target=(-t "$2"); shift 2; }
		(
			exec 7>"$root.apt-lock"
			flock 7
			ma_chroot "$root" -- apt-get install -y -q "$recommends" \
				-o DPkg::Lock::Timeout=$MA_APT_LOCK_TIMEOUT "${target[@]}" "$@" 7>&-
		)
		return
	fi
	missing=$(ma_host_missing "$@")
	[ -z "$missing" ] && return 0
	[ "$(id -u)" = 0 ] || { ma_log "error: needs root to install: ${missing//$'\n'/ }"; return 1; }
	mkdir -p "$(dirname "$MA_APT_LOCK")"
	(
		exec 7>"$MA_APT_LOCK"
		if ! flock -n 7; then
			ma_log "waiting for another apt run of this project ($MA_APT_LOCK)"
			flock 7
		fi
		missing=$(ma_host_missing "$@")
		[ -z "$missing" ] && exit 0
		# shellcheck disable=SC2086 # one package a word
		set -- $missing
		ma_log "installing host packages: $*"
		log=$(mktemp)
		trap 'rm -f "$log"' EXIT
		apt_run() {
			DEBIAN_FRONTEND=noninteractive apt-get -q -o DPkg::Lock::Timeout=$MA_APT_LOCK_TIMEOUT "$@" \
				>>"$log" 2>&1 7>&-
		}
		apt_run install -y --no-install-recommends "$@" && exit 0
		apt_run update && apt_run install -y --no-install-recommends "$@" && exit 0
		tail -n 20 "$log" >&2
		ma_log "error: apt-get install $* failed"
		exit 1
	)
}

# Run CMD inside the chroot ROOT with /proc (7.3's objtool reads it), /sys
# and /dev mounted, and optionally host directories bound at paths. The
# mounts live in a private mount namespace, so they vanish with the command
# whatever way it ends.
#   ma_chroot ROOT [--bind HOSTDIR GUESTPATH]... -- CMD...
ma_chroot() {
	local root=$1 binds=""
	shift
	while [ "$1" = --bind ]; do
		binds="$binds$2"$'\n'"$3"$'\n'
		shift 3
	done
	[ "$1" = -- ] && shift
	unshare --mount --propagation private -- /bin/bash -c '
		set -e
		r=$1 binds=$2
		shift 2
		mount -t proc proc "$r/proc"
		mount -t sysfs sysfs "$r/sys"
		mount --rbind /dev "$r/dev"
		while IFS= read -r src && IFS= read -r dst; do
			mkdir -p "$r$dst"
			mount --bind "$src" "$r$dst"
		done <<<"$binds"
		exec chroot "$r" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
	' _ "$root" "$binds" "$@"
}

# ma_debootstrap RELEASE ROOT LOG: a new minbase chroot of RELEASE at ROOT
# (anything there before is removed) from the private apt configuration's
# mirror, with its security suite (and backports for trixie) in its
# sources and its lists updated; debootstrap's output goes to LOG
ma_debootstrap() {
	local rel=$1 root=$2 log=$3 m s
	m=$(cat "$(ma_apt_dir)/mirror")
	s=$(cat "$(ma_apt_dir)/security-mirror")
	rm -rf "$root"
	mkdir -p "$(dirname "$root")" "$(dirname "$log")"
	ma_log "debootstrap $rel into $root (first run only)"
	debootstrap --variant=minbase --arch=amd64 --keyring="$MA_KEYRING" \
		"$rel" "$root" "$m" >"$log" 2>&1 ||
		{ tail -n 20 "$log"; ma_die "debootstrap $rel failed"; }
	{
		echo "deb $m $rel main"
		echo "deb $s $rel-security main"
		[ "$rel" = trixie ] && echo "deb $m $rel-backports main"
	} >"$root/etc/apt/sources.list"
	cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
	ma_chroot "$root" -- apt-get update -q >/dev/null ||
		ma_die "apt-get update in $rel chroot failed"
}

# ma_relation_pkgs: the package names of a Debian relation field's value
# on stdin ("a (>= 1), b | c" gives a and b: no versions, the first of
# alternatives), one a line
ma_relation_pkgs() {
	tr ',' '\n' | sed 's/(.*)//; s/|.*//; s/^[[:space:]]*//; s/[[:space:]]*$//' | grep .
}

ma_kdir() { echo "$MA_CACHE/kernels/$1"; }
# Whether compat/verified/builds lists Debian build VER of SERIES.
ma_recorded() { # SERIES VER
	awk -v s="$1" -v v="$2" '$1 == s && $2 == v { f = 1 } END { exit !f }' \
		"$MA_TOP/compat/verified/builds"
}
# Value of KEY in the kernel's info file (written by scripts/kernels fetch).
ma_kinfo() {
	local f
	f=$(ma_kdir "$1")/info
	[ -r "$f" ] || ma_die "kernel $1 not fetched: run scripts/kernels fetch $1"
	sed -n "s/^$2=//p" "$f"
}
# ma_kernel_map KERNEL [LOGDIR]: the path of KERNEL's symbols in kallsyms
# order ("ADDR TYPE NAME" lines, as System.map), decoded from its stock
# image by scripts/kimage-syms and cached (Debian's /boot/System.map-* is a
# one-line stand-in); status 2, printing nothing, for a kernel with no
# image here. The decoder's messages go to LOGDIR/kimage-syms.log.
ma_kernel_map() {
	local img map tmpmap log=${2:-/tmp}/kimage-syms.log
	img=$(ma_kinfo "$1" vmlinuz 2>/dev/null) && [ -f "$img" ] || return 2
	ma_need kimage
	map=$MA_CACHE/kimage-syms/$(sha256sum <"$img" | cut -c1-64)-$(sha256sum <"$MA_TOP/scripts/kimage-syms" | cut -c1-16).map
	if [ ! -s "$map" ]; then
		mkdir -p "${map%/*}"
		tmpmap=$(mktemp "$map.XXXXXX")
		if ! "$MA_TOP/scripts/kimage-syms" "$img" >"$tmpmap" 2>"$log"; then
			rm -f "$tmpmap"
			cat "$log" >&2
			ma_die "decoding the symbols of $img failed"
		fi
		chmod 644 "$tmpmap"
		mv "$tmpmap" "$map"
	fi
	echo "$map"
}

# The kernel's build config: /boot/config-RELEASE in the image package, or
# config beside vmlinuz under /usr/lib/modules (7.3's split packages), or
# the build's .config kept beside the info file (debug kernels).
ma_kconfig() {
	local c
	for c in "$(dirname "$(ma_kinfo "$1" vmlinuz)")/config-$(ma_kinfo "$1" release)" \
		"$(ma_kinfo "$1" moddir)/config" "$(ma_kdir "$1")/config"; do
		[ -f "$c" ] && { echo "$c"; return 0; }
	done
	ma_die "no kernel config for $1 in its image packages or build"
}
# Depends: field of PKG=VER as one package per line, alternatives
# mentioning a linux-image dropped, "(= v)" kept as "name=v".
ma_pkg_depends() {
	ma_apt apt-cache show "$1=$2" | sed -n 's/^Depends: //p' | head -n1 |
		tr ',' '\n' | grep -v 'linux-image' |
		sed -E 's/^ *//; s/ *\| .*//; s/ \(= ([^)]*)\)/=\1/; s/ \(.*\)//'
}

# ma_flavour_headers KERNEL FLAVOUR: the Debian headers of KERNEL's release
# in another flavour (cloud, rt), and their -common package where the
# kernel's chroot lacks it, unpacked once into the cache; prints the
# directory that holds them under usr/src.
ma_flavour_headers() {
	local k=$1 fl=$2 rel ver pkg dir root dep tmp d
	rel=$(ma_kinfo "$k" release)
	ver=$(ma_kinfo "$k" image_version)
	root=$(ma_kinfo "$k" chroot)
	pkg=linux-headers-${rel%-amd64}-$fl-amd64
	dir=$MA_CACHE/flavours/$pkg
	mkdir -p "$MA_CACHE/flavours"
	(
		exec 8>"$dir.lock"
		flock 8
		[ -e "$dir/.done" ] && exit 0
		[ -s "$(ma_apt_dir)/sources.list" ] || { ma_apt_setup; ma_apt apt-get update -q >/dev/null; }
		tmp=$(mktemp -d)
		trap 'rm -rf "$tmp"' EXIT
		(cd "$tmp" && ma_apt apt-get download -q "$pkg=$ver" >/dev/null) ||
			ma_die "cannot download $pkg=$ver"
		for dep in $(ma_pkg_depends "$pkg" "$ver" | sed -n 's/^\(linux-headers-.*-common[^=]*\)=.*/\1/p'); do
			# (an empty directory there is a mount point a build left)
			[ -n "$(ls -A "$root/usr/src/$dep" 2>/dev/null)" ] && continue
			(cd "$tmp" && ma_apt apt-get download -q "$dep=$ver" >/dev/null) ||
				ma_die "cannot download $dep=$ver"
		done
		rm -rf "$dir"
		mkdir -p "$dir"
		for d in "$tmp"/*.deb; do dpkg-deb -x "$d" "$dir" || ma_die "cannot unpack $d"; done
		touch "$dir/.done"
	) || exit 1
	echo "$dir"
}

# ma_apply_break TREE BREAK: apply tests/breaks/BREAK.patch to the source
# copy TREE with every line of its context as written (-F0: no fuzz; the
# lines may have moved), so that a break whose code has changed fails
# rather than landing elsewhere. On failure, prints patch's complaint on
# one line and the status is 1.
ma_apply_break() {
	local out
	out=$(patch -d "$1" -p1 -F0 -N -s --no-backup-if-mismatch -r - \
		<"$MA_TOP/tests/breaks/$2.patch" 2>&1) && return 0
	echo "$out" | tr '\n' ' '
	return 1
}

# ma_build_break KERNEL BREAK DIR: build the module for KERNEL into DIR
# with the test-only break tests/breaks/BREAK.patch (for example
# noop_mlock: a fix whose replacements do only what the kernel's do), the
# output in DIR.log. On failure its last 20 lines are printed and the
# status is 1; the caller gives the verdict.
ma_build_break() {
	if ! "$MA_TOP/scripts/build" --out "$3" --break "$2" "$1" >"$3.log" 2>&1; then
		tail -n 20 "$3.log"
		return 1
	fi
}

# ma_modules_dir BUILD DIR: the two modules of the build in BUILD alone in
# DIR, for scripts/vm-run --add and the guest's use_modules
ma_modules_dir() {
	mkdir -p "$2" && cp "$1/"mlock_audit.ko "$1/"mlock_audit_fixes.ko "$2/"
}

# ma_section NAME FILE: the lines of section NAME of a guest's output in
# which several parts print in turn: the line "@@ NAME" opens it, a line
# "@@ NAME: ..." (its end) keeps it, any other "@@ " line closes it; the
# "@@" lines are left out
ma_section() { awk -v s="$1" '/^@@ / { on = ($2 == s || $2 == s ":"); next } on' "$2"; }
