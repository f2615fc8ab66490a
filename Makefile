# pmkit build. Sources are discovered by directory, so adding a file needs no
# edit here:
#   lib/*/*.c, sim/*/*.c, bench/*.c -> build/libpmkit.a and build/libpmkit.so
#   cli/*.c                    -> build/pmkit (cli/cmd_*.c register commands)
#   tests/*/test_*.c           -> build/tests/<dir>_<name>, one program each
#   tests/*/*.t                -> shell tests, run with PMKIT=build/pmkit
#   bench/compare/*.c          -> build/bench/<name>
#   tests/fuzz/fuzz_*.c        -> build/fuzz/<name>: a libFuzzer entry point
#                                 linked with a replay/mutation driver (make
#                                 fuzz-libfuzzer builds real libFuzzer ones)
#   mk/*.mk                    -> per-area additions (extra flags and libraries)
# `make SAN=1` builds everything with ASan and UBSan into build/san/.

.DEFAULT_GOAL := all
CC       ?= cc
PREFIX   ?= /usr/local
O        ?= build
ifeq ($(SAN),1)
O        := build/san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
endif
CROSS    ?=
ifneq ($(CROSS),)
CC       := $(CROSS)gcc
AR       := $(CROSS)ar
endif
AR       ?= ar
# STATIC=1 links the programs statically (the default when cross-compiling,
# so that they run in the bare guest of tests/guest; the .so stays shared).
STATIC   ?= $(if $(CROSS),1,)
ifeq ($(STATIC),1)
LDFLAGS  += -static
endif

WARN     := -Wall -Wextra -Wno-unused-parameter -Wshadow -Wstrict-prototypes -Wformat=2
OPT      ?= -O2 -g
CPPFLAGS += -Iinclude -Ilib -I. -I$(O)/gen -D_GNU_SOURCE
CFLAGS   += -std=c11 $(OPT) $(WARN) -fPIC -fno-omit-frame-pointer $(SANFLAGS)
LDFLAGS  += $(SANFLAGS)
LDLIBS   += -lm -lpthread -ldl

# Optional libraries, detected once per build directory (see scripts/configure).
-include $(O)/config.mk

LIB_SRC  := $(sort $(wildcard lib/*/*.c sim/*.c sim/*/*.c bench/*.c))
CLI_SRC  := $(sort $(wildcard cli/*.c))
TEST_SRC := $(sort $(wildcard tests/*/test_*.c))
BENCH_SRC:= $(sort $(wildcard bench/compare/*.c))
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
EXTRA_CLEAN :=

include $(sort $(wildcard mk/*.mk))

LIB_OBJ  := $(LIB_SRC:%.c=$(O)/obj/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(O)/obj/%.o) $(O)/obj/gen/commands.o
TEST_BIN := $(foreach f,$(TEST_SRC),$(O)/tests/$(subst /,_,$(patsubst tests/%.c,%,$(f))))
BENCH_BIN:= $(BENCH_SRC:bench/compare/%.c=$(O)/bench/%)
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=$(O)/fuzz/%)
TEST_SUPPORT_OBJ := $(patsubst %.c,$(O)/obj/%.o,$(wildcard tests/support/*.c))

.PHONY: all lib cli tests benches check check-plain check-san run install clean format fuzz-libfuzzer
all: $(O)/pmkit $(O)/libpmkit.a $(O)/libpmkit.so $(O)/libpmkit.so.0 $(O)/pmkit.pc $(O)/pmkit-uninstalled.pc tests benches

$(O)/config.mk: scripts/configure $(wildcard scripts/deps.d/*)
	@mkdir -p $(O)
	@CC="$(CC)" CROSS="$(CROSS)" sh scripts/configure $(O) > $@.tmp && mv $@.tmp $@

$(O)/obj/%.o: %.c $(O)/config.mk
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(O)/libpmkit.a: $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^
# exports the public `pmk_` API only (scripts/libpmkit.map hides `pmk__`)
$(O)/libpmkit.so: $(LIB_OBJ) scripts/libpmkit.map
	$(CC) -shared -Wl,-soname,libpmkit.so.0 -Wl,--version-script,scripts/libpmkit.map $(filter-out -static,$(LDFLAGS)) -o $@ $(LIB_OBJ) $(LDLIBS)
# the SONAME beside the library, so that a program linked against the build
# tree loads it in place (LD_LIBRARY_PATH or the rpath of pmkit-uninstalled.pc)
$(O)/libpmkit.so.0: $(O)/libpmkit.so
	ln -sf libpmkit.so $@

$(O)/gen/commands.c: $(wildcard cli/cmd_*.c) scripts/gen-commands
	@mkdir -p $(dir $@)
	sh scripts/gen-commands $(sort $(wildcard cli/cmd_*.c)) > $@.tmp && mv $@.tmp $@
$(O)/gen/manpages.c: $(wildcard docs/man/*.1) scripts/gen-manpages
	@mkdir -p $(dir $@)
	sh scripts/gen-manpages $(sort $(wildcard docs/man/*.1)) > $@.tmp && mv $@.tmp $@
$(O)/obj/gen/commands.o: $(O)/gen/commands.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@
$(O)/obj/gen/manpages.o: $(O)/gen/manpages.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@
CLI_OBJ += $(O)/obj/gen/manpages.o

$(O)/pmkit: $(CLI_OBJ) $(O)/libpmkit.a
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(O)/libpmkit.a $(LDLIBS)

$(O)/pmkit.pc: scripts/pmkit.pc.in $(O)/config.mk
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBS@|$(LDLIBS)|' $< > $@
# pkg-config's uninstalled variant (PKG_CONFIG_PATH=build): the tree's own
# include/ and build directory, with an rpath so that programs run in place
$(O)/pmkit-uninstalled.pc: scripts/pmkit-uninstalled.pc.in $(O)/config.mk
	sed -e 's|@SRC@|$(CURDIR)|' -e 's|@BUILD@|$(abspath $(O))|' -e 's|@LIBS@|$(LDLIBS)|' $< > $@

# Tests: tests/DIR/test_NAME.c -> build/tests/DIR_test_NAME
define test_rule
$(O)/tests/$(subst /,_,$(patsubst tests/%.c,%,$(1))): $(1:%.c=$(O)/obj/%.o) $(TEST_SUPPORT_OBJ) $(O)/libpmkit.a
	@mkdir -p $$(dir $$@)
	$$(CC) $$(LDFLAGS) -o $$@ $$^ $$(LDLIBS)
endef
$(foreach t,$(TEST_SRC),$(eval $(call test_rule,$(t))))

$(O)/bench/%: $(O)/obj/bench/compare/%.o $(O)/libpmkit.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(O)/fuzz/%: $(O)/obj/tests/fuzz/%.o $(O)/obj/tests/fuzz/driver.o $(O)/libpmkit.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Real coverage-guided fuzzers (clang's libFuzzer), for long runs by hand:
#   make fuzz-libfuzzer && build/libfuzzer/fuzz_events -max_total_time=60
fuzz-libfuzzer:
	@mkdir -p build/libfuzzer
	$(foreach f,$(FUZZ_SRC),clang $(CPPFLAGS) -DPMK_LIBFUZZER -g -O1 -fsanitize=fuzzer,address,undefined \
	    -o build/libfuzzer/$(basename $(notdir $(f))) $(f) $(FUZZ_EXTRA_$(basename $(notdir $(f)))) \
	    $(LIB_SRC) $(LDLIBS) &&) true

tests: $(TEST_BIN) $(O)/pmkit $(FUZZ_BIN)
benches: $(BENCH_BIN)

# The test command of the README. Runs every unit and CLI test twice: as built,
# and under ASan+UBSan; each run prints its own `N passed, N failed, N skipped`.
# One after the other, so that tests which measure (profiles, the probe) do not
# share the CPUs with the other build. T=PATTERN runs only the tests whose
# name contains PATTERN (make check T=encode; see tests/run, docs/HACKING.md).
T ?=
check:
	@$(MAKE) --no-print-directory check-plain
	@$(MAKE) --no-print-directory check-san
check-plain: all
	@sh tests/run $(O) $(T)
check-san:
	@$(MAKE) --no-print-directory SAN=1 all
	@sh tests/run build/san $(T)

# The README's first command: build, then count a built-in workload.
run: $(O)/pmkit
	$(O)/pmkit stat

install: $(O)/pmkit $(O)/libpmkit.a $(O)/libpmkit.so $(O)/pmkit.pc
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include/pmkit $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/pmkit
	install -m 755 $(O)/pmkit $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(O)/libpmkit.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(O)/libpmkit.so $(DESTDIR)$(PREFIX)/lib/libpmkit.so.0
	ln -sf libpmkit.so.0 $(DESTDIR)$(PREFIX)/lib/libpmkit.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBS@|$(LDLIBS)|' scripts/pmkit.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/pmkit.pc
	install -m 644 include/pmkit.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 include/pmkit/*.h $(DESTDIR)$(PREFIX)/include/pmkit/
	install -m 644 docs/man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	if [ -d metrics ]; then cp -r metrics $(DESTDIR)$(PREFIX)/share/pmkit/; fi

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

# removes the build directory in use (O=DIR: that one; by default build/,
# build/san included), never another's
clean:
	rm -rf $(O) $(EXTRA_CLEAN)

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_SRC:%.c=$(O)/obj/%.d)
# the fuzz targets' and benchmarks' own objects (a header they include, such
# as cli/stat_output.h's struct for fuzz_statrec, must rebuild them)
-include $(FUZZ_SRC:%.c=$(O)/obj/%.d) $(O)/obj/tests/fuzz/driver.d \
	$(BENCH_SRC:%.c=$(O)/obj/%.d)
