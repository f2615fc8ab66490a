# mk/guest.mk: the emulated-PMU tier (tests/guest, docs/guest.md).
#   make check-guest   boot an arm64 guest with an emulated PMU and run the
#                      guest tests there (downloads cached under build/guest)
#   make CROSS=aarch64-linux-gnu- O=build/aarch64 guest-progs
#                      the guest test programs, tests/guest/prog/g_*.c ->
#                      $(O)/guest/g_*, each linked with loop.S and libpmkit
# g_*.c are test programs (run in the guest), h_*.c helpers of the shell tests
GUEST_PROG_SRC := $(sort $(wildcard tests/guest/prog/g_*.c tests/guest/prog/h_*.c))
GUEST_PROG := $(GUEST_PROG_SRC:tests/guest/prog/%.c=$(O)/guest/%)
# Whole programs in assembly, no C library: tests/guest/prog/w_*.S
GUEST_WORK_SRC := $(sort $(wildcard tests/guest/prog/w_*.S))
GUEST_PROG += $(GUEST_WORK_SRC:tests/guest/prog/%.S=$(O)/guest/%)

# GUEST_SYSROOT: arm64 headers and static libraries from Debian
# (tests/guest/fetch.sh), each used when present:
# - libpfm4 (libpfm4-dev's libpfm.a), so that the guest's pmkit encodes and
#   lists libpfm4's Arm events (arm_ac57::INST_RETIRED ...);
# - elfutils and its compression libraries, so that it has symbols and lines.
# Configure's own test cannot see them (it links without this directory),
# so they are declared here.
ifneq ($(GUEST_SYSROOT),)
CPPFLAGS += -isystem $(GUEST_SYSROOT)/usr/include
LDFLAGS  += -L$(GUEST_SYSROOT)/usr/lib/aarch64-linux-gnu
ifneq ($(wildcard $(GUEST_SYSROOT)/usr/lib/aarch64-linux-gnu/libpfm.a),)
ifneq ($(HAVE_PFM),1)
HAVE_PFM := 1
CPPFLAGS += -DPMK_HAVE_PFM=1
LDLIBS   += -lpfm
endif
endif
ifneq ($(wildcard $(GUEST_SYSROOT)/usr/lib/aarch64-linux-gnu/libdw.a),)
ifneq ($(HAVE_DW),1)
HAVE_DW  := 1
CPPFLAGS += -DPMK_HAVE_DW=1
LDLIBS   += -ldw -lelf
endif
LDLIBS   += -lz -llzma -lbz2 -lzstd
endif
endif

.PHONY: guest-progs check-guest
guest-progs: $(GUEST_PROG)

$(O)/obj/%.o: %.S
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -g -c $< -o $@

$(O)/guest/%: $(O)/obj/tests/guest/prog/%.o $(O)/obj/tests/guest/prog/loop.o $(TEST_SUPPORT_OBJ) $(O)/libpmkit.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(O)/guest/w_%: tests/guest/prog/w_%.S
	@mkdir -p $(dir $@)
	$(CC) -nostdlib -static -g -o $@ $<

check-guest:
	@sh tests/guest/check.sh
