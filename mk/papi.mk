# mk/papi.mk: libpapi.so.7.0, PAPI 7.0's API on libpmkit (papi/, docs/papi.md).
#   papi/*.c: the library, compiled against the papi.h Debian's libpapi-dev
#       installs (scripts/deps.d/papi.sh: HAVE_PAPI, PAPI_INCDIR); the only
#       files that include papi.h
#   $(O)/gen/papi_presets.h: PAPI's preset names and codes, generated from
#       that header's papiStdEventDefs.h (never typed in)
#   $(O)/papi/libpapi.so.7.0 (SONAME libpapi.so.7.0) and libpapi.so: linked
#       with libpmkit's objects, exporting PAPI's names only, so that
#       LD_LIBRARY_PATH=$(O)/papi puts it under any program built for
#       Debian's PAPI 7.0
#   make install (install-papi): a PAPI prefix for tools built from source
#       (TAU, Score-P, HPCToolkit, Caliper), $(PAPI_PREFIX) (default
#       $(PREFIX)/pmkit-papi, apart from $(PREFIX)/lib so that ldconfig does
#       not put it under every program built for Debian's PAPI):
#       lib/libpapi.so.7.0, lib/libpapi.so, lib/pkgconfig/papi.pc (and
#       papi-7.0.pc, the names Debian's libpapi-dev installs) and include/
#       with links to the system's PAPI headers (the interface, never
#       copied into pmkit)
#   make CROSS=aarch64-linux-gnu- O=build/aarch64 guest-papi: PAPI's
#       ctests that need a PMU, for the arm64 guest tier (below)
# Without the header the library is left out (configure's note names the
# package) and tests/papi skips.
GUEST_PAPI :=
PAPI_EX_DIR ?= /usr/share/doc/papi-examples/examples
ifneq ($(CROSS),)
ifeq ($(words $(wildcard /usr/include/papi.h $(PAPI_EX_DIR)/ctests/zero.c)),2)
GUEST_PAPI := 1
PAPI_INCDIR := /usr/include
endif
endif
ifneq ($(HAVE_PAPI)$(GUEST_PAPI),)
PAPI_SRC := $(sort $(wildcard papi/*.c))
PAPI_OBJ := $(PAPI_SRC:%.c=$(O)/obj/%.o)
$(O)/gen/papi_presets.h: $(PAPI_INCDIR)/papiStdEventDefs.h mk/papi.mk
	@mkdir -p $(dir $@)
	sed -n 's@^#define[ \t]*\(PAPI_[A-Z0-9_]*\)[ \t]*([ \t]*PAPI_[A-Z0-9_]*_idx[ \t]*|[ \t]*PAPI_PRESET_MASK[ \t]*)[ \t]*/\*[ \t]*\(.*[^ \t]\)[ \t]*\*/.*@{.code = \1, .type = PAPI__PRESET, .name = "\1", .pmk = "\1", .desc = "\2", .avail = -1},@p' \
	    $< | grep -v '"PAPI_END"' > $@.tmp && mv $@.tmp $@
$(O)/obj/papi/events.o: $(O)/gen/papi_presets.h
-include $(PAPI_OBJ:.o=.d)
endif
ifeq ($(HAVE_PAPI),1)
PAPI_SO := $(O)/papi/libpapi.so.7.0
.PHONY: papi
papi: $(PAPI_SO) $(O)/papi/libpapi.so
all: papi
$(PAPI_SO): $(PAPI_OBJ) $(O)/libpmkit.a papi/libpapi.map
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libpapi.so.7.0 -Wl,--version-script,papi/libpapi.map \
	    $(filter-out -static,$(LDFLAGS)) -o $@ $(PAPI_OBJ) $(O)/libpmkit.a $(LDLIBS)
$(O)/papi/libpapi.so: $(PAPI_SO)
	ln -sf libpapi.so.7.0 $@
PAPI_PREFIX ?= $(PREFIX)/pmkit-papi
PAPI_HEADERS := papi.h papiStdEventDefs.h fpapi.h f90papi.h
.PHONY: install-papi
install: install-papi
install-papi: $(PAPI_SO)
	install -d $(DESTDIR)$(PAPI_PREFIX)/lib/pkgconfig $(DESTDIR)$(PAPI_PREFIX)/include
	install -m 755 $(PAPI_SO) $(DESTDIR)$(PAPI_PREFIX)/lib/libpapi.so.7.0
	ln -sf libpapi.so.7.0 $(DESTDIR)$(PAPI_PREFIX)/lib/libpapi.so
	for h in $(PAPI_HEADERS); do \
	    if [ -f $(PAPI_INCDIR)/$$h ]; then ln -sf $(PAPI_INCDIR)/$$h $(DESTDIR)$(PAPI_PREFIX)/include/$$h; fi; \
	done
	for pc in papi papi-7.0; do \
	    printf '%s\n' 'prefix=$(PAPI_PREFIX)' 'libdir=$${prefix}/lib' 'includedir=$${prefix}/include' '' \
		'Name: PAPI' 'Description: PAPI 7.0 API on pmkit (libpapi.so.7.0 built on libpmkit)' \
		'Version: 7.0.0.0' 'Libs: -L$${libdir} -Wl,-rpath,$${libdir} -lpapi' \
		'Cflags: -I$${includedir}' \
		> $(DESTDIR)$(PAPI_PREFIX)/lib/pkgconfig/$$pc.pc; \
	done
endif

# The arm64 guest tier (tests/guest, docs/guest.md): PAPI 7.0's ctests that
# need a PMU, built from Debian's papi-examples sources, unmodified, static,
# with pmkit's libpapi objects and libpmkit.a, into $(O)/guest/papi/ (the
# guest runs them through tests/guest/cases/papi.t). Configure leaves the
# library out of cross builds (its test compiles with the target's
# compiler, which does not search the host's /usr/include); papi.h has
# nothing arch-specific, and reaches the cross compiler through
# $(O)/papi-include, links to PAPI's two headers alone, never the host's
# whole /usr/include. Without the header or the sources guest-papi builds
# nothing and papi.t skips, naming the package.
GUEST_PAPI_CTESTS := zero first second low-level reset zero_named \
	multiplex1 multiplex2 overflow profile
.PHONY: guest-papi
ifeq ($(GUEST_PAPI),1)
GP := $(O)/guest/papi
GP_LIB := $(GP)/obj/test_utils.o $(GP)/obj/do_loops.o \
	$(GP)/obj/instructions_testcode.o $(GP)/obj/prof_utils.o
guest-papi: $(GUEST_PAPI_CTESTS:%=$(GP)/%)
$(O)/papi-include/papi.h:
	@mkdir -p $(dir $@)
	ln -sf $(PAPI_INCDIR)/papiStdEventDefs.h $(dir $@)papiStdEventDefs.h
	ln -sf $(PAPI_INCDIR)/papi.h $@
$(PAPI_OBJ): CPPFLAGS += -isystem $(O)/papi-include
$(PAPI_OBJ): | $(O)/papi-include/papi.h
GP_CFLAGS = -O1 -g -w -I$(O)/papi-include -I$(PAPI_EX_DIR)/testlib \
	-I$(PAPI_EX_DIR)/validation_tests -I$(PAPI_EX_DIR)/ctests
# do_loops at -O0, as tests/papi/examples.sh builds it for the host
$(GP)/obj/do_loops.o: GP_CFLAGS += -O0
$(GP)/obj/%.o: $(PAPI_EX_DIR)/testlib/%.c | $(O)/papi-include/papi.h
	@mkdir -p $(dir $@)
	$(CC) $(GP_CFLAGS) -c $< -o $@
$(GP)/obj/%.o: $(PAPI_EX_DIR)/validation_tests/%.c | $(O)/papi-include/papi.h
	@mkdir -p $(dir $@)
	$(CC) $(GP_CFLAGS) -c $< -o $@
$(GP)/obj/%.o: $(PAPI_EX_DIR)/ctests/%.c | $(O)/papi-include/papi.h
	@mkdir -p $(dir $@)
	$(CC) $(GP_CFLAGS) -c $< -o $@
$(GP)/%: $(GP)/obj/%.o $(GP_LIB) $(PAPI_OBJ) $(O)/libpmkit.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
else
guest-papi:
	@echo "guest-papi: nothing to build (needs CROSS=..., /usr/include/papi.h from Debian's libpapi-dev and $(PAPI_EX_DIR) from papi-examples)"
endif
