# SPDX-License-Identifier: GPL-2.0
#
# mlock_audit top-level Makefile. The module itself is described in Kbuild.
#
#   make                      module (for the running kernel) and the reporter
#   make KDIR=<headers tree>  the module alone, for that kernel (a kernel's
#                             headers and a compiler are all it needs)
#   make reporter             the reporter alone (userspace/)
#   make install [PREFIX=/usr/local] [DESTDIR=]
#                             the reporter and its man page (sbin, man8)
#   make demo [KERNEL=...]    build, boot that stock kernel in QEMU, show output
#                             (default: the one supported-kernels marks)
#   make check [KERNELS=...]  the test suite on the supported kernels
#                             (supported-kernels: 6.1, 6.12 and 7.3)
#   make check-debug          the suite on the debug kernel 6.12-debug (KASAN,
#                             lockdep, kmemleak), built first if needed (~17 min)
#   make bench [KERNELS=...]  benchmarks, measured in one boot; fail below a threshold
#   make verify-archive       every Debian build of the supported kernels the archive
#                             serves: recorded, or verified now and what the
#                             record would gain (RECORD=1 writes it); not in
#                             make check, whose result must not depend on
#                             the archive of the day
#   make dkms-install [KVER=] install the sources with DKMS and build for KVER
#   make deb [DEB_RELEASES=]  the Debian packages mlock-audit-dkms and
#                             mlock-audit, built in a clean chroot of each
#                             release (bookworm trixie), into build/deb/REL
#   make check-packages       install, new-kernel and purge tests of those
#                             packages in clean chroots, and per kernel the
#                             packaged module and reporter in the VM, read
#                             by the real node exporter (scripts/check-packages)
#   make style                checkpatch.pl over the kernel sources

KDIR ?= /lib/modules/$(shell uname -r)/build
# The supported kernels, and the one marked default, from supported-kernels
KERNEL ?= $(shell awk '!/^#/ && $$5 == "default" { print $$1 }' supported-kernels)
KERNELS ?= $(shell awk '!/^#/ && NF { print $$1 }' supported-kernels)
DEB_RELEASES ?= bookworm trixie
KVER ?= $(shell uname -r)
VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
DKMS_SOURCES := Kbuild Makefile dkms.conf supported-kernels \
		$(filter-out src/verified_builds.h,$(wildcard src/*.[ch] compat/*.h)) \
		$(wildcard src/fixes/*/*.[ch] src/fixes/*/fix.mk) \
		compat/Kbuild.include compat/verified/builds tools/klp-relocs.c \
		tools/ksym-check.c src/hook-sites

# KDIR given (command line or environment): the module alone.
ifneq ($(filter command line environment,$(origin KDIR)),)
all: module
else
all: module userspace
endif

# The two modules (the audit, mlock_audit.ko, and the live fixes,
# mlock_audit_fixes.ko; see Kbuild), then the post-link step that turns
# their references to unexported kernel symbols into livepatch relocations
# (tools/klp-relocs.c).
# A bare "make -C $(KDIR) M=..." skips that step; such a module refuses to
# load.
#
#
# Between the two, the fixes module is checked against the symbols of the
# kernel being built for (KDIR's kernel.release, which need not be the
# running kernel: DKMS builds for kernels not booted yet): a fix that
# reaches a kernel symbol the kernel lacks, or has more than once, is built
# out, with its reason (tools/ksym-check.c, fixes-out, Kbuild), and the
# others stay. The symbols: SYSTEM_MAP, by default /proc/kallsyms when
# building for the running kernel, else /boot/System.map-RELEASE. Debian's
# /boot/System.map-* is a one-line stand-in (the real map is in the
# linux-image-*-dbg package), so there, as without any map, nothing is
# checked at build time: the kernel checks the symbols when the fixes
# module loads, and refuses it, not the audit, if one is missing.
# A symbol the map names once gets position 1 in its livepatch relocation
# (fixes-sympos), not 0, which would make the livepatch core of 6.1 read
# all of kallsyms again for each relocation to rule out a second one
# (tools/ksym-check.c); without a map the kernel still rules it out.
# Before the build, the functions the audit's hooks may probe
# (src/hook-sites) are looked up in the same map: each one it names once
# and the kernel does not export is listed in audit-sites, and the audit
# takes its address through a livepatch relocation of position 1
# (src/hook_sites.c), so that its ftrace hook needs no look-up by name at
# load, which walks every traceable function of the kernel and of its
# modules (src/hook.c). Without a map the hooks look their names up.
MA_KREL = $(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null)
SYSTEM_MAP ?= $(if $(filter $(MA_KREL),$(shell uname -r)),/proc/kallsyms,/boot/System.map-$(MA_KREL))

module: tools/klp-relocs tools/ksym-check
	@test -d $(KDIR) || { echo "no kernel headers at $(KDIR): install them or pass KDIR=" >&2; exit 1; }
	rm -f fixes-out fixes-sympos audit-sites
	@if [ -f "$(SYSTEM_MAP)" ]; then \
		tools/ksym-check --system-map "$(SYSTEM_MAP)" --sites src/hook-sites \
			--symvers $(KDIR)/Module.symvers --out audit-sites.new; \
		rc=$$?; \
		[ $$rc = 0 ] || [ $$rc = 3 ] || exit 1; \
		if [ $$rc = 0 ]; then mv audit-sites.new audit-sites; else rm -f audit-sites.new; fi; \
	fi
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules
	@if [ ! -f "$(SYSTEM_MAP)" ]; then \
		echo "mlock_audit: no symbol map at $(SYSTEM_MAP): the fixes' kernel symbols are checked when the fixes module loads"; \
	else \
		tools/ksym-check --system-map "$(SYSTEM_MAP)" --out fixes-out.new \
			--sympos fixes-sympos mlock_audit_fixes.ko; \
		rc=$$?; \
		[ $$rc != 3 ] || echo "mlock_audit: the fixes' kernel symbols are checked when the fixes module loads"; \
		[ $$rc = 0 ] || [ $$rc = 2 ] || [ $$rc = 3 ] || exit 1; \
		if [ -s fixes-out.new ]; then \
			sort -u -k1,1 fixes-out.new >fixes-out; \
			sed 's/^\([a-z]*\) /mlock_audit: fix \1 built out: /' fixes-out; \
		fi; \
		rm -f fixes-out.new; \
	fi
	@if [ -f fixes-out ]; then \
		$(MAKE) -C $(KDIR) M=$(CURDIR) modules || exit 1; \
		tools/ksym-check --system-map "$(SYSTEM_MAP)" mlock_audit_fixes.ko >fixes-out.left; \
		rc=$$?; [ $$rc = 0 ] || [ $$rc = 2 ] || exit 1; \
		if [ -s fixes-out.left ]; then echo "still reached after building out: $$(cat fixes-out.left)" >&2; exit 1; fi; \
		rm -f fixes-out.left; \
	fi
ifeq ($(MLOCK_AUDIT_SKIP_KLP_RELOCS),)
	tools/klp-relocs --symvers $(KDIR)/Module.symvers \
		$$(test -f audit-sites && echo --sympos audit-sites) mlock_audit.ko
	tools/klp-relocs --symvers $(KDIR)/Module.symvers \
		$$(test -f fixes-sympos && echo --sympos fixes-sympos) mlock_audit_fixes.ko
else
	@echo "MLOCK_AUDIT_SKIP_KLP_RELOCS: mlock_audit.ko and mlock_audit_fixes.ko left unconverted (test only: they must refuse to load)"
endif

# A build-host program: the C library's <elf.h> is all it needs. Built
# with cc or gcc, or else the versioned gcc the Debian kernel headers pull
# in (a host with only gcc-14 installed has no cc).
HOSTCC ?= $(firstword $(foreach c,cc gcc $(notdir $(wildcard /usr/bin/x86_64-linux-gnu-gcc-[0-9]*)),\
		$(if $(shell command -v $(c)),$(c))))
tools/klp-relocs: tools/klp-relocs.c
	$(HOSTCC) -std=c11 -O2 -Wall -Wextra -o $@ $<

tools/ksym-check: tools/ksym-check.c
	$(HOSTCC) -std=c11 -O2 -Wall -Wextra -o $@ $<

userspace reporter:
	$(MAKE) -C userspace

install:
	$(MAKE) -C userspace install

clean:
	@if [ -d $(KDIR) ]; then $(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
	$(MAKE) -C userspace clean
	$(MAKE) -C tests/progs clean
	rm -rf build tools/klp-relocs tools/ksym-check fixes-out fixes-sympos audit-sites

demo:
	scripts/demo $(KERNEL)

check:
	tests/run $(KERNELS)

check-debug:
	tests/run 6.12-debug

bench:
	tests/bench $(KERNELS)

verify-archive:
	scripts/verify-kernel $(if $(RECORD),--record )--archive

# dkms.conf's BUILD_EXCLUSIVE_KERNEL line follows the oldest supported series
dkms.conf: supported-kernels
	scripts/dkms-conf

# The DKMS source tree, under DESTDIR (debian/rules installs it so)
dkms-sources: dkms.conf
	rm -rf $(DESTDIR)/usr/src/mlock_audit-$(VERSION)
	mkdir -p $(DESTDIR)/usr/src/mlock_audit-$(VERSION)
	cp --parents $(DKMS_SOURCES) $(DESTDIR)/usr/src/mlock_audit-$(VERSION)/

dkms-install: dkms-sources
	dkms status -m mlock_audit -v $(VERSION) | grep -q . || dkms add mlock_audit/$(VERSION)
	dkms build mlock_audit/$(VERSION) -k $(KVER)
	dkms install mlock_audit/$(VERSION) -k $(KVER)

dkms-remove:
	dkms remove mlock_audit/$(VERSION) --all
	rm -rf /usr/src/mlock_audit-$(VERSION)

style:
	scripts/style

deb:
	scripts/deb $(DEB_RELEASES)

check-packages:
	scripts/check-packages $(DEB_RELEASES)

.PHONY: all module userspace reporter install clean demo check check-debug bench \
	verify-archive dkms-sources dkms-install dkms-remove style deb check-packages
