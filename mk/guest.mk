# mk/guest.mk: the emulated-PMU tier (tests/guest, docs/guest.md).
#   make check-guest   boot an arm64 guest with an emulated PMU and run the
#                      guest tests there (downloads cached under build/guest)
#   make CROSS=aarch64-linux-gnu- O=build/aarch64 guest-progs
#                      the guest test programs, tests/guest/prog/g_*.c ->
#                      $(O)/guest/g_*, each linked with loop.S and libpmkit
GUEST_PROG_SRC := $(sort $(wildcard tests/guest/prog/g_*.c))
GUEST_PROG := $(GUEST_PROG_SRC:tests/guest/prog/%.c=$(O)/guest/%)
# Whole programs in assembly, no C library: tests/guest/prog/w_*.S
GUEST_WORK_SRC := $(sort $(wildcard tests/guest/prog/w_*.S))
GUEST_PROG += $(GUEST_WORK_SRC:tests/guest/prog/%.S=$(O)/guest/%)

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
