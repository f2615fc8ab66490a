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
# Without the header the library is left out (configure's note names the
# package) and tests/papi skips.
ifeq ($(HAVE_PAPI),1)
PAPI_SRC := $(sort $(wildcard papi/*.c))
PAPI_OBJ := $(PAPI_SRC:%.c=$(O)/obj/%.o)
PAPI_SO := $(O)/papi/libpapi.so.7.0
.PHONY: papi
papi: $(PAPI_SO) $(O)/papi/libpapi.so
all: papi
$(O)/gen/papi_presets.h: $(PAPI_INCDIR)/papiStdEventDefs.h mk/papi.mk
	@mkdir -p $(dir $@)
	sed -n 's@^#define[ \t]*\(PAPI_[A-Z0-9_]*\)[ \t]*([ \t]*PAPI_[A-Z0-9_]*_idx[ \t]*|[ \t]*PAPI_PRESET_MASK[ \t]*)[ \t]*/\*[ \t]*\(.*[^ \t]\)[ \t]*\*/.*@{.code = \1, .type = PAPI__PRESET, .name = "\1", .pmk = "\1", .desc = "\2", .avail = -1},@p' \
	    $< | grep -v '"PAPI_END"' > $@.tmp && mv $@.tmp $@
$(O)/obj/papi/events.o: $(O)/gen/papi_presets.h
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
-include $(PAPI_OBJ:.o=.d)
endif
